import Foundation
import SkateRide
import Testing

/// Issue 28 must-have 5: pushing and carving do not count toward bumpiness. A synthetic stream
/// (ISO 8608 rolling at 4 m/s, 100 Hz) with 20 s of pushes and 15 s of carves written in, measured
/// with and without the gate. `swift test --filter BodyMotionGateTests` prints the figures.
@Suite struct BodyMotionGateTests {
    static let rate = 100.0

    /// Rolling on `road` for `seconds` at 4 m/s.
    static func road(_ road: ISO8608.RoadClass, seconds: Double, seed: UInt64 = 5) -> [MotionSample] {
        var v = VibrationSynthesizer(roadClass: road, seed: seed, sampleRate: rate)
        return v.samples(duration: seconds, speed: 4)
    }

    /// Pushes every 1.2 s from `from` to `to` s: the board surges forward (x, +0.25 g half-sine
    /// over 0.5 s) and rocks as the foot plants (vertical, +0.15 g over 0.4 s).
    static func addPushes(_ s: inout [MotionSample], from: Double, to: Double) {
        for i in s.indices where s[i].t >= from && s[i].t < to {
            let phase = (s[i].t - from).truncatingRemainder(dividingBy: 1.2)
            if phase < 0.5 { s[i].ax += 0.25 * sin(Double.pi * phase / 0.5) }
            if phase < 0.4 { s[i].az += 0.15 * sin(Double.pi * phase / 0.4) }
        }
    }

    /// Carves from `from` to `to` s: the board swings side to side at 0.5 Hz (lateral 0.2 g) and
    /// rolls ±10°, tilting gravity between the y and z axes.
    static func addCarves(_ s: inout [MotionSample], from: Double, to: Double) {
        for i in s.indices where s[i].t >= from && s[i].t < to {
            let w = 2 * Double.pi * 0.5 * (s[i].t - from)
            let roll = 10 * Double.pi / 180 * sin(w)
            s[i].ay += 0.2 * sin(w) + sin(roll)
            s[i].az += cos(roll) - 1
        }
    }

    @Test func smoothToRoughRoadsAreCruising() {
        for road in [ISO8608.RoadClass.A, .B, .C, .D] {
            let w = BodyMotionGate.windows(Self.road(road, seconds: 30), sampleRate: Self.rate)
            let gated = w.filter { $0.activity != .cruising }.count
            let loudest = w.map(\.bodyRMS).max() ?? 0
            print("[body gate] ISO \(road) at 4 m/s: \(gated) of \(w.count) windows gated, body-band RMS up to " + String(format: "%.3f g", loudest))
            #expect(gated == 0, "ISO \(road): \(gated) of \(w.count) windows read as pushing or carving (loudest \(loudest) g)")
        }
    }

    @Test func pushesAndCarvesAreLeftOutOfBumpiness() throws {
        let plain = Self.road(.B, seconds: 60)
        var ridden = plain
        Self.addPushes(&ridden, from: 10, to: 30)
        Self.addCarves(&ridden, from: 40, to: 55)
        let w = BodyMotionGate.windows(ridden, sampleRate: Self.rate)
        func inside(_ x: ActivityWindow) -> Bool { (x.start >= 10 && x.end <= 30) || (x.start >= 40 && x.end <= 55) }
        func outside(_ x: ActivityWindow) -> Bool { x.end <= 10 || (x.start >= 31 && x.end <= 40) || x.start >= 56 }
        let body = w.filter(inside), quiet = w.filter(outside)
        let bodyGated = body.filter { $0.activity == .pushingOrCarving }.count
        let quietGated = quiet.filter { $0.activity == .pushingOrCarving }.count

        let road = try #require(Bumpiness.measure(plain, sampleRate: Self.rate))
        let ungated = try #require(Bumpiness.measure(ridden, sampleRate: Self.rate))
        let gated = try #require(Bumpiness.measureGated(ridden, sampleRate: Self.rate))
        print("[body gate] ISO B 60 s with pushes 10–30 s and carves 40–55 s: \(bodyGated) of \(body.count) push/carve windows gated, "
              + "\(quietGated) of \(quiet.count) cruising windows; bumpiness "
              + String(format: "road alone %.4f g, with pushes ungated %.4f g, gated %.4f g", road, ungated, gated))
        #expect(bodyGated == body.count, "push/carve windows left in: \(body.filter { $0.activity == .cruising })")
        #expect(quietGated == 0, "cruising windows gated: \(quiet.filter { $0.activity != .cruising })")
        // The pushes and carves lift the ungated figure; the gate takes back most of that lift.
        #expect(ungated > 1.03 * road, "the pushes should shake the ungated figure: \(ungated) vs \(road)")
        #expect(abs(gated - road) <= 0.25 * (ungated - road), "gated \(gated) g should read the road's \(road) g (ungated \(ungated) g)")
    }
}
