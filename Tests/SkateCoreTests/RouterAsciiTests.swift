import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Each ride mode's choice, the braking rule, the 100 m crusty rule, coalescing and maneuvers,
/// pinned on maps a reader can see.
@Suite struct RouterAsciiTests {
    static let asphalt: [String: String] = ["highway": "residential", "surface": "asphalt", "name": "Asphalt Street"]
    static let sett: [String: String] = ["highway": "residential", "surface": "sett", "name": "Sett Lane"]

    func route(_ m: AsciiMap, _ a: Character, _ b: Character, _ mode: RideMode) throws -> (RoutePath, RoutePlan) {
        let planner = Planner(map: m.map)
        let plan = try planner.plan(from: m.nodes[a]!, to: m.nodes[b]!, mode: mode)
        return (plan.path, plan)
    }

    @Test func smoothestTakesTheSmoothDetourFastTakesTheShortLine() throws {
        // A–B straight is 200 m of paving stones; the detour over C–D is 350 m of fresh asphalt
        // (pavers read meh since issue 26's surface table, so fast's mild-roughness trade holds at
        // a 1.75× detour, not at the old 1.5×).
        let m = AsciiMap("""
        A--------B
        |        |
        |        |
        C--------D
        """, ways: [("AB", ["highway": "residential", "surface": "paving_stones", "smoothness": "intermediate", "name": "Pavers"]),
                    ("ACDB", ["highway": "residential", "smoothness": "excellent", "name": "Smooth Loop"])])
        let (smooth, _) = try route(m, "A", "B", .smoothest)
        #expect(m.letters(of: smooth) == "ACDB")
        let (fast, _) = try route(m, "A", "B", .fastMildRoughness)
        #expect(m.letters(of: fast) == "AB")
    }

    @Test func chillModeAvoidsCrossings() throws {
        // Upper line: three zebra crossings. Lower line: slightly longer, none.
        let m = AsciiMap("""
        A--X--Y--Z--B
        |           |
        C-----------D
        """, ways: [("AXYZB", ["highway": "footway", "surface": "asphalt"]),
                    ("ACDB", ["highway": "footway", "surface": "asphalt"]),
                    ("XX", ["highway": "residential"])],
                    nodeTags: ["X": ["highway": "crossing", "crossing": "zebra"], "Y": ["highway": "crossing"], "Z": ["highway": "crossing"]])
        let (chill, plan) = try route(m, "A", "B", .chillFewCrossings)
        #expect(m.letters(of: chill) == "ACDB", "chill path \(m.letters(of: chill))")
        #expect(plan.steps.allSatisfy { $0.context.crossingsPerKm == 0 })
        let (fast, _) = try route(m, "A", "B", .fastMildRoughness)
        #expect(m.letters(of: fast) == "AXYZB")
    }

    @Test func nightSafePrefersLitStreets() throws {
        let m = AsciiMap("""
        A--------B
        |        |
        C--------D
        """, ways: [("AB", ["highway": "residential", "surface": "asphalt", "lit": "no"]),
                    ("ACDB", ["highway": "residential", "surface": "asphalt", "lit": "yes"])])
        #expect(m.letters(of: try route(m, "A", "B", .nightSafe).0) == "ACDB")
        #expect(m.letters(of: try route(m, "A", "B", .fastMildRoughness).0) == "AB")
    }

    @Test func hardRuleAvoidsLongCrustyStretchesWhenAnyAlternativeExists() throws {
        // A–B: 150 m of sett (crusty). The alternative is 3× longer but smooth: every mode takes it.
        let m = AsciiMap("""
        A------B
        |      |
        |      |
        |      |
        |      |
        |      |
        |      |
        C------D
        """, ways: [("AB", Self.sett), ("ACDB", Self.asphalt)])
        for mode in RideMode.allCases where mode != .trickSpotCrawl {
            let (p, plan) = try route(m, "A", "B", mode)
            #expect(m.letters(of: p) == "ACDB", "\(mode) took \(m.letters(of: p))")
            #expect(plan.longestCrustyRun < 100)
        }
    }

    @Test func hardRuleYieldsWhenNoAlternativeExists() throws {
        let m = AsciiMap("A------B", ways: [("AB", Self.sett)])
        let (_, plan) = try route(m, "A", "B", .smoothest)
        #expect(plan.distance > 140)
        #expect(plan.notes.contains { $0.contains("crusty") })
    }

    @Test func shortCrustyPatchIsAcceptable() throws {
        // 50 m of sett between asphalt is under the 100 m rule: fastMild rides through it.
        let m = AsciiMap("""
        A---B-C---D
        |         |
        |         |
        |         |
        |         |
        E---------F
        """, ways: [("AB", Self.asphalt), ("BC", Self.sett), ("CD", Self.asphalt), ("AEFD", Self.asphalt)])
        let (p, _) = try route(m, "A", "D", .fastMildRoughness)
        #expect(m.letters(of: p) == "ABCD")
    }

    @Test func brakingZonesFollowTheGradeRule() throws {
        // 100 m straight; elevation falls with x at the given grade over the middle 50–75 m.
        func plan(grade: Double, over length: Double) throws -> RoutePlan {
            let m = AsciiMap("A--------B", ways: [("AB", Self.asphalt)], elevation: { x, _ in
                let start = 25.0
                let t = min(max(x - start, 0), length)
                return 100 + grade / 100 * t
            })
            return try route(m, "A", "B", .smoothest).1
        }
        let steep = try plan(grade: -8.5, over: 60)
        #expect(steep.brakingZones.contains { $0.level == .braking }, "\(steep.brakingZones)")
        #expect(steep.gradeSummary.brakingSteps == [0])
        let caution = try plan(grade: -6.5, over: 40)
        #expect(caution.brakingZones.contains { $0.level == .caution })
        #expect(!caution.brakingZones.contains { $0.level == .braking })
        let gentle = try plan(grade: -5, over: 150)
        #expect(gentle.brakingZones.isEmpty)
        #expect(gentle.gradeSummary.brakingSteps.isEmpty)
    }

    @Test func stepsCoalesceAndManeuversReadRight() throws {
        // A short 10 m jog (B–C) between two streets is folded, never "after 0 m turn".
        let m = AsciiMap("""
        A----B
             C----D
                  |
                  |
                  E
        """, ways: [("AB", ["highway": "residential", "name": "First Street"]),
                    ("BC", ["highway": "residential"]),
                    ("CD", ["highway": "residential", "name": "First Street"]),
                    ("DE", ["highway": "residential", "name": "Second Street"])])
        let (_, plan) = try route(m, "A", "E", .smoothest)
        let named = plan.steps.map { "\($0.maneuver.rawValue):\($0.street)" }
        #expect(plan.steps.first?.maneuver == .depart)
        #expect(plan.steps.last?.maneuver == .arrive)
        #expect(plan.steps.contains { $0.maneuver == .right && $0.street == "Second Street" }, "\(named)")
        #expect(plan.steps.dropLast().allSatisfy { $0.context.distance >= PlanBuilder.minStepLength }, "\(named)")
    }

    @Test func leftAndRightAreNotMixedUp() throws {
        let m = AsciiMap("""
        C----B----D
             |
             |
             A
        """, ways: [("AB", ["highway": "residential", "name": "Stem"]), ("BC", ["highway": "residential", "name": "West"]),
                    ("BD", ["highway": "residential", "name": "East"])])
        let toWest = try route(m, "A", "C", .smoothest).1
        #expect(toWest.steps[1].maneuver == .left)
        let toEast = try route(m, "A", "D", .smoothest).1
        #expect(toEast.steps[1].maneuver == .right)
    }

    @Test func trickSpotCrawlPassesASpot() throws {
        // Direct line A–B; a skatepark at S up a side street.
        let m = AsciiMap("""
        A----J----B
             |
             S
        """, ways: [("AJB", Self.asphalt), ("JS", ["highway": "footway", "surface": "concrete"])],
                    places: ["S": ["leisure": "skatepark", "name": "Bowl"]])
        let (direct, _) = try route(m, "A", "B", .smoothest)
        #expect(!m.letters(of: direct).contains("S"))
        let (p, plan) = try route(m, "A", "B", .trickSpotCrawl)
        #expect(m.letters(of: p).contains("S"), "\(m.letters(of: p))")
        #expect(plan.spots == ["Bowl"])
    }

    @Test func stepsAreWalkedNotRidden() throws {
        let m = AsciiMap("""
        A----B
        |    |
        |    |
        C----D
        """, ways: [("AB", ["highway": "steps"]), ("ACDB", Self.asphalt)])
        let (p, _) = try route(m, "A", "B", .smoothest)
        #expect(m.letters(of: p) == "ACDB")
        let only = AsciiMap("A----B", ways: [("AB", ["highway": "steps"])])
        let (_, plan) = try route(only, "A", "B", .smoothest)
        #expect(plan.steps.first?.context.walk == true)
    }

    @Test func alternativesDifferByAFifth() throws {
        let m = AsciiMap("""
        A----B----C
        |    |    |
        D----E----F
        """, ways: [("ABC", Self.asphalt), ("DEF", Self.asphalt), ("AD", Self.asphalt), ("BE", Self.asphalt), ("CF", Self.asphalt)])
        let plan = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["F"]!, mode: .smoothest, alternatives: 2)
        #expect(!plan.alternatives.isEmpty)
        for alt in plan.alternatives {
            #expect(Planner.sharedFraction(alt.path, plan.path) <= 0.8)
        }
    }

    @Test func unknownEndsAndDisconnectedGraphsThrow() throws {
        let m = AsciiMap("""
        A----B

        C----D
        """, ways: [("AB", Self.asphalt), ("CD", Self.asphalt)])
        let planner = Planner(map: m.map)
        #expect(throws: RoutingError.self) { try planner.plan(from: m.nodes["A"]!, to: m.nodes["D"]!, mode: .smoothest) }
        #expect(throws: RoutingError.self) { try planner.plan(from: Coordinate(lat: 10, lon: 10), to: m.nodes["D"]!, mode: .smoothest) }
    }
}
