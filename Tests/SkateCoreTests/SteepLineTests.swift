@testable import SkateCore
import SkateTestSupport
import Testing

/// Steep descents as a real cost in `smoothest` (issue 26, item 2): the whole-line rule
/// (`BrakingGrade.lineMetres`) and the steep-aware choice between lines (`SteepLineRule`).
@Suite struct SteepLineTests {
    /// A–B: 80 m at −10 %. A–C–D–B: a 200 m switchback (60 + 80 + 60 m) losing the same 8 m (−4 %).
    /// C and D sit 10 m north of the art's top row (`nudge`), so the sides are 60 m.
    static func switchback() -> AsciiMap {
        AsciiMap("""
        C--D
        |  |
        A--B
        """, ways: [("AB", ["highway": "residential", "surface": "asphalt"]), ("ACDB", ["highway": "residential", "surface": "asphalt"])],
                 elevation: { x, y in
                     // y is metres north of the art's top row: A–B is the bottom row (y = −50).
                     if y < -49 { return 100 - 8 * x / 80 }
                     let s = x < 1 ? (y + 50) : (x > 79 ? 140 + (10 - y) : 60 + x)  // along A–C–D–B
                     return 100 - 8 * s / 200
                 }, nudge: ["B": (5, 0), "C": (0, -10), "D": (5, -10)])
    }

    @Test func smoothestTakesThe200MetreSwitchbackOverThe80MetreDrop() throws {
        let m = Self.switchback()
        let plan = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        #expect(m.letters(of: plan.path) == "ACDB", "smoothest rode \(m.letters(of: plan.path)), \(plan.distance) m; zones \(plan.brakingZones)")
        #expect(abs(plan.distance - 200) < 5)
        #expect(!plan.brakingZones.contains { $0.level == .braking })
        // The drop really brakes (else the test passes vacuously): 80 m of braking-grade metres
        // downhill in the search's own count.
        let table = EdgeTable(map: m.map, knowledge: .empty)
        let ab = (0..<m.map.edgeCount).first { abs(Double(m.map.edgeLength[$0]) - 80) < 3 }!
        #expect(max(table.brakingMetres(ab, reversed: false), table.brakingMetres(ab, reversed: true)) > 60)
    }

    /// A–B, 250 m: four 30 m bits at −12 % with 30 m of flat between (no 50 m braking window, so
    /// no braking zone); A–C–D–B, 400 m (75 + 250 + 75) losing the same 14.4 m at −3.6 %. Stringing
    /// short steep bits together is not cheaper than the gentle line.
    @Test func shortSteepBitsStrungTogetherAreNotCheaperThanTheGentleLine() throws {
        let bits: [(Double, Double)] = [(25, 55), (85, 115), (145, 175), (205, 235)]
        func stepped(_ x: Double) -> Double {
            var h = 100.0
            for (a, b) in bits { h -= 0.12 * min(max(x - a, 0), b - a) }
            return h
        }
        let m = AsciiMap("""
        C---------D
        |         |
        |         |
        A---------B
        """, ways: [("AB", ["highway": "residential", "surface": "asphalt"]), ("ACDB", ["highway": "residential", "surface": "asphalt"])],
                     elevation: { x, y in
                         if y < -74 { return stepped(x) }
                         let s = x < 1 ? (y + 75) : (x > 249 ? 325 + (0 - y) : 75 + x)  // along A–C–D–B
                         return 100 - 14.4 * s / 400
                     })
        let plan = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        #expect(m.letters(of: plan.path) == "ACDB", "smoothest rode \(m.letters(of: plan.path)), \(plan.distance) m")
        #expect(plan.brakingZones.isEmpty, "\(plan.brakingZones)")
        // The stepped line holds no braking zone, yet its steep bits are priced: in the search's
        // own costing it costs more than the 150 m longer gentle line.
        let r = Planner(map: m.map).router(for: .smoothest)
        let ab = (0..<m.map.edgeCount).first { abs(Double(m.map.edgeLength[$0]) - 250) < 3 }!
        let table = EdgeTable(map: m.map, knowledge: .empty)
        let down = table.brakingMetres(ab, reversed: false) > 0 ? false : true
        #expect(table.brakingMetres(ab, reversed: down) >= 60, "per-edge braking metres \(table.brakingMetres(ab, reversed: down))")
        let steppedCost = r.costing.edgeCost(edge: ab, reversed: down).cost
        #expect(steppedCost > plan.path.cost, "stepped \(steppedCost) vs gentle \(plan.path.cost)")
        // With no cost for steepness at all (no braking or caution metres, no braking-risk
        // multiplier) the shorter stepped line wins: the steep costs make the choice.
        var old = ModeWeights.table(for: .smoothest)
        old.brakingSecondsPerMetre = 0; old.cautionSecondsPerMetre = 0; old.brakingRisk = 0
        let before = try ModeWeights.$override.withValue([.smoothest: old]) {
            try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        }
        #expect(m.letters(of: before.path) == "AB", "without the steep costs smoothest rode \(m.letters(of: before.path))")
    }

    @Test func lineMetresCountWindowsAcrossSamplesAndSkipWalkedGaps() {
        // 200 m every 5 m: 100 m at −9 % then 100 m flat: 100 m brake (a 50 m window at −9 %
        // covers every gap of the descent; windows reaching into the flat stay gentler than −8 %
        // beyond 12.5 m).
        let s = (0...40).map { Double($0) * 5 }
        let e = s.map { $0 <= 100 ? 100 - 0.09 * $0 : 91 }
        let m = BrakingGrade.lineMetres(distance: s, elevation: e)
        #expect(m.braking >= 100 && m.braking <= 115, "\(m)")
        // A lift dropping 30 m in no distance between two flat stretches: nothing brakes.
        let s2: [Double] = [0, 50, 100, 100, 150, 200]
        let e2: [Double] = [130, 130, 130, 100, 100, 100]
        let walked = [false, false, true, false, false]
        let lift = BrakingGrade.lineMetres(distance: s2, elevation: e2, walked: walked)
        #expect(lift.braking == 0 && lift.caution == 0)
        #expect(BrakingGrade.lineMetres(distance: s2, elevation: e2).braking > 0, "without the walked gap the lift reads as a cliff")
    }

    /// 300 m of tertiary asphalt, east, at `gradePct`, with the given `sidewalk` tag.
    static func road(gradePct: Double, sidewalk: String) -> AsciiMap {
        AsciiMap("A-----------B", ways: [("AB", ["highway": "tertiary", "surface": "asphalt", "sidewalk": sidewalk])],
                 elevation: { x, _ in 100 + gradePct / 100 * x })
    }

    /// Too fast on a road without a sidewalk (`tooFastRoadMetres`): metres where gravity still
    /// accelerates a coasting rider at the speed cap applied there, min(25 km/h, the surface's
    /// comfort speed). A −5 % asphalt road is such a road all along (the old count, the plan's
    /// too-fast flag, which fires only past 25 km/h, found 0 m off butter); −1 % or a sidewalk is not.
    @Test func tooFastRoadMetresCountWhereGravityBeatsTheAppliedCap() throws {
        let rule = SteepLineRule.Values(searchFactors: [], lineBrakingShare: 1, lineCautionShare: 1, penaltyRounds: 0, tooFastRoadShare: 1)
        func metres(_ m: AsciiMap) throws -> Double {
            let planner = Planner(map: m.map)
            let plan = try planner.plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
            #expect(abs(plan.distance - 300) < 5)
            let builder = PlanBuilder(map: m.map, costing: planner.router(for: .smoothest).costing, knowledge: .empty)
            return planner.tooFastRoadMetres(plan.path, builder: builder, rule: rule)
        }
        let steep = try metres(Self.road(gradePct: -5, sidewalk: "no"))
        #expect(steep > 250, "−5 % without a sidewalk: \(steep) m too fast")
        let gentle = try metres(Self.road(gradePct: -1, sidewalk: "no"))
        #expect(gentle == 0, "−1 % without a sidewalk: \(gentle) m too fast")
        let beside = try metres(Self.road(gradePct: -5, sidewalk: "both"))
        #expect(beside == 0, "−5 % with a sidewalk: \(beside) m too fast")
    }
}
