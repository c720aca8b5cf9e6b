import Foundation
import Testing
@testable import SkateRide
import SkateCore
import SkateTestSupport

@Suite("Ride synthesizer")
struct SynthTests {
    @Test("GPS noise: σ ≈ 3 m per axis, correlated over ~20 s, rare 20–40 m outliers")
    func noiseModel() {
        var g = GPSNoiseModel()
        var rng = SeededGenerator(seed: 4)
        var xs: [Double] = [], outliers = 0
        for _ in 0..<20_000 {
            let e = g.next(dt: 1, rng: &rng)
            if e.outlier { outliers += 1 } else { xs.append(e.dx) }
        }
        let mean = xs.reduce(0, +) / Double(xs.count)
        let sd = (xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(xs.count)).squareRoot()
        #expect(sd > 2.3 && sd < 3.7)
        var num = 0.0, den = 0.0
        for i in 1..<xs.count { num += (xs[i] - mean) * (xs[i - 1] - mean); den += (xs[i] - mean) * (xs[i] - mean) }
        #expect(num / den > 0.9)
        #expect(outliers > 60 && outliers < 220)
    }

    @Test("same seed, same ride; another seed, another ride; files readable", .enabled(if: RideFixtures.mapAvailable))
    func deterministic() throws {
        let planner = try #require(RideFixtures.planner)
        let dir = TestData.temporaryDirectory("synth")
        defer { try? FileManager.default.removeItem(at: dir) }
        func make(_ seed: UInt64, _ name: String) throws -> (SynthRide, Data, Data) {
            let o = SynthOptions(from: Coordinate(lat: 43.7309, lon: 7.4211), to: Coordinate(lat: 43.7312, lon: 7.4250), mode: .fastMildRoughness, seed: seed)
            let folder = dir.appendingPathComponent(name).path
            let r = try RideSynthesizer.write(planner: planner, options: o, folder: folder, mapName: "Monaco", title: "t", command: "skateroute synth …")
            return (r, try Data(contentsOf: URL(fileURLWithPath: folder + "/motion.csv")), try Data(contentsOf: URL(fileURLWithPath: folder + "/ride.gpx")))
        }
        let (a, ma, ga) = try make(5, "a")
        let (_, mb, gb) = try make(5, "b")
        let (_, mc, gc) = try make(6, "c")
        #expect(ma == mb && ga == gb)
        #expect(ma != mc && ga != gc)
        let folder = try RideFolder.open(dir.appendingPathComponent("a").path)
        #expect(folder.manifest.seed == 5 && folder.manifest.mode == "fastMildRoughness" && folder.manifest.synthCommand != nil)
        let track = try GPXReader().read(path: folder.gpxPath)
        #expect(track.fixCount == a.fixes.count)
        let motion = try MotionReader().read(path: try #require(folder.motionPath))
        #expect(motion.info.units == .g)
        #expect(motion.samples.count == a.motionSamples)
        #expect(abs((motion.info.estimatedRate ?? 0) - 100) < 1)
        // 1 Hz fixes spanning the ride; gravity on az.
        #expect(abs(Double(a.fixes.count) - a.duration) <= 1)
        let meanAz = motion.samples.reduce(0) { $0 + $1.az } / Double(motion.samples.count)
        #expect(abs(meanAz - 1) < 0.02)
    }

    @Test("--detour leaves the plan and comes back to the destination", .enabled(if: RideFixtures.mapAvailable))
    func detour() throws {
        let planner = try #require(RideFixtures.planner)
        var o = SynthOptions(from: Coordinate(lat: 43.7432, lon: 7.4318), to: Coordinate(lat: 43.7488, lon: 7.4388), mode: .smoothest, seed: 2, detour: true)
        o.motionRate = 50  // fewer samples: the test checks the path, not the vibration
        var n = 0
        let r = try RideSynthesizer.synthesize(planner: planner, options: o) { _ in n += 1 }
        let d = try #require(r.detour)
        #expect(d.upperBound - d.lowerBound >= 150)
        #expect(r.riderPlan.distance > r.plan.distance)
        let line = RouteLine(plan: r.plan)
        let farthest = r.riderPlan.geometry.map { RideSynthesizer.distance(from: $0, to: line) }.max() ?? 0
        #expect(farthest >= RideSynthesizer.detourMinOffset)
        #expect(Geo.distance(try #require(r.riderPlan.geometry.last), try #require(r.plan.geometry.last)) < 1)
    }
}
