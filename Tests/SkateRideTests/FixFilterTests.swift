import Foundation
import Testing
import SkateCore
@testable import SkateRide

/// The fix filter on hand-made fixes: a straight ride east at 5 m/s, 1 Hz.
@Suite("Fix filter")
struct FixFilterTests {
    static let origin = Coordinate(lat: 43.73, lon: 7.42)
    static let proj = LocalProjection(origin: origin)
    static func at(_ x: Double, _ y: Double = 0) -> Coordinate { proj.unproject(x: x, y: y) }

    @Test("a steady ride: distance, speed and heading as ridden; repeats dropped")
    func steady() {
        var f = FixFilter()
        for i in 0...20 { _ = f.push(Self.at(Double(i) * 5), t: Double(i)) }
        #expect(f.push(Self.at(100.1), t: 20.01) == .repeated)
        _ = f.finish()
        #expect(abs(f.distance - 100) < 0.5)
        #expect(abs(f.speed - 5) < 0.05)
        #expect(abs(Geo.turnAngle(from: 90, to: f.heading ?? 0)) < 1)
        #expect(f.dropped == 1 && f.repeatedTime == 1)
    }

    @Test("one 200 m jump is an outlier: no distance, no speed across it")
    func outlier() {
        var f = FixFilter()
        for i in 0...10 { _ = f.push(Self.at(Double(i) * 5), t: Double(i)) }
        #expect(f.push(Self.at(55, 200), t: 11) == .outlier)
        for i in 12...20 { _ = f.push(Self.at(Double(i) * 5), t: Double(i)) }
        _ = f.finish()
        #expect(abs(f.distance - 100) < 0.5)
        #expect(f.maxSpeed < 5.1)
        #expect(f.dropped == 1 && f.gpsJumps == 0)
    }

    @Test("three agreeing fixes 300 m away at start-up: a relocation that forgets the fixes before it")
    func startupJump() {
        var f = FixFilter()
        for i in 0...4 { _ = f.push(Self.at(Double(i) * 5), t: Double(i)) }
        #expect(f.push(Self.at(300), t: 5) == .outlier)
        #expect(f.push(Self.at(305), t: 6) == .outlier)
        guard case .accepted(_, let r?) = f.push(Self.at(310), t: 7) else { Issue.record("no relocation"); return }
        #expect(r.startup && r.jump > 280)
        #expect(f.distance == 0 && f.speed == 0)
        for i in 8...17 { _ = f.push(Self.at(310 + Double(i - 7) * 5), t: Double(i)) }
        _ = f.finish()
        #expect(abs(f.distance - 50) < 0.5)
        #expect(f.gpsJumps == 1 && f.startupJumps == 1 && f.dropped == 2 + 5)
    }
}

/// Distance over a sparse track's bends: a plan exported as GPX and replayed at 12 km/h has
/// vertices 2–3 s apart, and the 3 s chords cut its hairpins (the Jardin Exotique descent's
/// 825 m line read 781 m, 5.3 % short).
@Suite("Fix filter: bends")
struct FixFilterBendTests {
    /// A zigzag of 8.6 m legs turning 113° at each vertex, 2.58 s apart (3.33 m/s), as the
    /// descent's first switchback: the ridden distance is the zigzag's, not its chords'.
    @Test("a sparse hairpin track keeps its length (chords cut it by 40 %)")
    func sparseHairpin() {
        var f = FixFilter()
        let leg = 8.6, turn = 113.0 * Double.pi / 180, dt = leg / (12 / 3.6)
        var x = 0.0, y = 0.0, heading = 0.0
        _ = f.push(FixFilterTests.at(x, y), t: 0)
        for i in 1...12 {
            x += leg * sin(heading); y += leg * cos(heading)
            heading += i % 2 == 0 ? turn : -turn
            _ = f.push(FixFilterTests.at(x, y), t: Double(i) * dt)
        }
        _ = f.finish()
        #expect(abs(f.distance - 12 * leg) < 0.02 * 12 * leg, "\(f.distance) m of \(12 * leg) m")
    }

    /// A straight 1 Hz ride at 3 m/s with ±0.6 m sideways wobble each fix (GPS wander): fix-to-fix
    /// sums would add 7.7 % (323 m); the chords must still be taken (within 1 % of the 300 m ridden).
    @Test("1 Hz wander on a straight line adds nothing")
    func wanderOnStraight() {
        var f = FixFilter()
        for i in 0...100 { _ = f.push(FixFilterTests.at(Double(i) * 3, i % 2 == 0 ? 0.6 : -0.6), t: Double(i)) }
        _ = f.finish()
        #expect(abs(f.distance - 300) < 3, "\(f.distance)")
    }
}

/// The maximum speed is held over 10 s of ridden distance: one bad fix inside the 60 km/h limit
/// (here 12 m sideways, 47 km/h from the fix before) must not set it.
@Suite("Fix filter: maximum speed")
struct FixFilterMaxSpeedTests {
    @Test("a 5 m/s ride with one 12 m blip: max ≈ 5 m/s (the 3 s baseline read the blip)")
    func blip() {
        var f = FixFilter()
        var baselinePeak = 0.0
        for i in 0...60 {
            let y = i == 30 ? 12.0 : 0
            _ = f.push(FixFilterTests.at(Double(i) * 5, y), t: Double(i))
            baselinePeak = max(baselinePeak, f.speed)
        }
        _ = f.finish()
        #expect(baselinePeak > 6, "the naive 3 s figure: \(baselinePeak)")
        #expect(f.maxSpeed > 4.9 && f.maxSpeed < 6, "\(f.maxSpeed)")
    }

    @Test("a ride shorter than the window has no windowed maximum")
    func short() {
        var f = FixFilter()
        for i in 0...5 { _ = f.push(FixFilterTests.at(Double(i) * 5), t: Double(i)) }
        _ = f.finish()
        #expect(f.maxSpeed == 0)
    }
}
