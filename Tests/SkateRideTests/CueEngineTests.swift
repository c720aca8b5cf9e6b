import Foundation
import Testing
@testable import SkateRide
import SkateCore
import SkateTestSupport

@Suite("Cue engine")
struct CueEngineTests {
    static func plan() throws -> RoutePlan {
        try require(RideFixtures.planner).plan(from: Coordinate(lat: 43.7317, lon: 7.4205), to: Coordinate(lat: 43.7308, lon: 7.4232), mode: .smoothest)
    }

    /// Runs the engine along the plan at a constant speed with 10 Hz updates.
    static func ride(_ plan: RoutePlan, speed: Double) -> [Cue] {
        var engine = CueEngine(plan: plan)
        var out: [Cue] = []
        var t = 0.0, s = 0.0
        while s <= plan.distance {
            out += engine.update(progress: s, speed: speed, time: t)
            t += 0.1; s += speed * 0.1
        }
        return out
    }

    @Test("turn cues fall in the 30–50 m and 10–20 m bands at skating speed", .enabled(if: RideFixtures.mapAvailable),
          arguments: [3.0, 4.0, 5.0])
    func bands(speed: Double) throws {
        // A plan with well-separated turns (no coalescing) from the bundled map.
        var plan = try require(RideFixtures.planner).plan(from: Coordinate(lat: 43.7432, lon: 7.4318), to: Coordinate(lat: 43.7488, lon: 7.4388), mode: .smoothest)
        plan.brakingZones = []
        let cues = Self.ride(plan, speed: speed)
        let far = cues.filter { $0.kind == .turn }, near = cues.filter { $0.kind == .turnNow }
        #expect(!far.isEmpty && !near.isEmpty)
        for c in far where plan.steps[c.step].startDistance > 50 {
            #expect((30...50).contains(c.distance), "far cue at \(c.distance) m: \(c.text)")
        }
        for c in near where plan.steps[c.step].startDistance > 20 {
            #expect((10...20).contains(c.distance), "near cue at \(c.distance) m: \(c.text)")
        }
    }

    @Test("each cue leaves at least 3 s at speed")
    func leadScales() {
        for v in stride(from: 0.0, through: 12, by: 0.5) {
            let near = CueEngine.nearThreshold(speed: v), far = CueEngine.farThreshold(speed: v)
            #expect(near >= v * 3 - 1e-9 && near >= 15)
            #expect(far - near >= v * 3 - 1e-9 && far >= 40)
        }
    }

    @Test("close turns are coalesced into one cue", .enabled(if: RideFixtures.mapAvailable))
    func coalescing() throws {
        var plan = try require(RideFixtures.planner).plan(from: Coordinate(lat: 43.7432, lon: 7.4318), to: Coordinate(lat: 43.7488, lon: 7.4388), mode: .smoothest)
        let turns = plan.steps.filter { $0.index > 0 && $0.maneuver.isTurn }
        try #require(turns.count >= 2)
        // Move the second turn 18 m after the first.
        let a = turns[0].index, b = turns[1].index
        plan.steps[b].startDistance = plan.steps[a].startDistance + 18
        plan.brakingZones = []
        let cues = Self.ride(plan, speed: 4)
        let first = try #require(cues.first { $0.step == a && ($0.kind == .turn || $0.kind == .turnNow) })
        #expect(first.text.contains(", then "), "\(first.text)")
        #expect(!cues.contains { $0.step == b && $0.kind == .turn }, "the second turn's far cue is folded into the first")
    }

    @Test("no cue ever says 0 m")
    func neverZero() {
        for d in stride(from: 0.0, through: 60, by: 0.25) {
            let text = CueEngine.distanceText(d)
            #expect(!text.contains(" 0 m"))
            if d < 10 { #expect(text == "now") }
        }
    }

    @Test("shipped rides: no cue says 0 m, every cue has a kind and a step", .enabled(if: RideFixtures.mapAvailable && !RideFixtures.shippedRides.isEmpty))
    func shippedCues() throws {
        let dir = TestData.temporaryDirectory("cues")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try RideFixtures.replay(try #require(RideFixtures.shippedRides.first { $0.hasSuffix("old-town-rocher") }), logDir: dir)
        #expect(!r.summary.cues.isEmpty)
        for c in r.summary.cues {
            #expect(!c.text.contains(" 0 m"), "\(c.text)")
            #expect(!c.text.lowercased().contains("after 0"))
        }
    }

    @Test("a hazard on the route is announced within 50 m", .enabled(if: RideFixtures.mapAvailable))
    func hazardAhead() throws {
        let plan = try Self.plan()
        let leg = plan.path.legs[plan.path.legs.count / 2]
        let mid = (leg.startOffset + leg.endOffset) / 2
        let k = RoadKnowledge(hazards: [leg.edge: [EdgeHazard(id: 1, kind: "pothole", severity: 2, confidence: 0.9,
                                                              position: Coordinate(lat: 0, lon: 0), offset: mid)]])
        let hz = RouteLine.hazardPositions(plan: plan, knowledge: k)
        try #require(hz.count == 1)
        var engine = CueEngine(plan: plan, hazards: hz)
        var t = 0.0, s = 0.0, got: Cue?
        while s <= plan.distance, got == nil {
            got = engine.update(progress: s, speed: 4, time: t).first { $0.kind == .hazard }
            t += 0.1; s += 0.4
        }
        let c = try #require(got)
        #expect(c.distance <= 50 && c.distance > 49)
        #expect(c.text.hasPrefix("Pothole ahead"))
    }
}
