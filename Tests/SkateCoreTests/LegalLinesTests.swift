import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Issue 12 on maps a reader can see: forbidden ways only when nothing else joins the ends,
/// stairs only when worth it, lifts as connectors.
@Suite struct LegalLinesTests {
    static let street: [String: String] = ["highway": "residential", "surface": "asphalt", "name": "Surface Street"]
    static let footway: [String: String] = ["highway": "footway", "surface": "asphalt", "name": "Garden Path"]

    func plan(_ m: AsciiMap, _ a: Character, _ b: Character, _ mode: RideMode) throws -> RoutePlan {
        try Planner(map: m.map).plan(from: m.nodes[a]!, to: m.nodes[b]!, mode: mode)
    }

    @Test func footNoRoadLosesToAFootway200mLonger() throws {
        // A–B: 200 m of foot=no road. A–C–D–B: a footway 400 m long.
        let m = AsciiMap("""
        A--------B
        |        |
        |        |
        |        |
        C--------D
        """, ways: [("AB", ["highway": "residential", "surface": "asphalt", "foot": "no", "name": "Avenue Interdite"]),
                    ("ACDB", Self.footway)])
        for mode in RideMode.allCases {
            let p = try plan(m, "A", "B", mode)
            #expect(m.letters(of: p.path) == "ACDB", "\(mode) took \(m.letters(of: p.path))")
            #expect(p.legal && p.forbidden.isEmpty)
            #expect(p.steps.allSatisfy { $0.context.legality != .forbidden })
        }
    }

    @Test func roadTunnelLosesToASurfaceStreet40PercentLonger() throws {
        // A–B: a 250 m road tunnel; A–C–D–B: a surface street of 350 m.
        let m = AsciiMap("""
        A----------B
        |          |
        |          |
        C----------D
        """, ways: [("AB", ["highway": "secondary", "tunnel": "yes", "lit": "yes", "name": "Tunnel X"]),
                    ("ACDB", Self.street)])
        for mode in RideMode.allCases {
            let p = try plan(m, "A", "B", mode)
            #expect(m.letters(of: p.path) == "ACDB", "\(mode) took \(m.letters(of: p.path))")
        }
        // The same tunnel tagged with a sidewalk is an ordinary (penalised) secondary road.
        let walked = AsciiMap("A----------B", ways: [("AB", ["highway": "secondary", "tunnel": "yes", "sidewalk": "both"])])
        #expect(AccessModel.decision(of: walked.map.flags(ofEdge: 0)).accessClass == .ok)
    }

    @Test func aTunnelAsTheOnlyConnectionStillRoutesAndSaysSo() throws {
        let m = AsciiMap("A--B------C--D", ways: [("AB", Self.street), ("BC", ["highway": "tertiary", "tunnel": "yes", "name": "Tunnel X"]),
                                                ("CD", Self.street)])
        let p = try plan(m, "A", "D", .smoothest)
        #expect(m.letters(of: p.path) == "ABCD")
        #expect(!p.legal)
        let stretch = try #require(p.forbidden.first)
        #expect(abs(stretch.length - 175) < 2, "\(stretch)")
        #expect(stretch.name == "Tunnel X" && stretch.reason == .roadTunnel)
        #expect(p.notes.contains { $0.hasPrefix("no legal line: 175 m through Tunnel X") }, "\(p.notes)")
        #expect(PlanFormats.text(p, from: "A", to: "D").contains("note: no legal line: 175 m through Tunnel X"))
        let json = PlanFormats.json(p)
        #expect(json.contains("\"legal\" : false"))
        #expect(json.contains("\"legality\" : \"forbidden\""))
        #expect(p.steps.contains { $0.context.legality == .forbidden && $0.context.forbiddenMetres > 100 })
    }

    /// Steps A–B (50 m) against a ramp A–C–D–E–B around them, `detourCols` characters wider.
    func stairsMap(detourRows: Int, detourCols: Int) -> AsciiMap {
        let top = "A-B" + String(repeating: "-", count: detourCols + 1) + "E"
        let mid = "|" + String(repeating: " ", count: detourCols + 3) + "|"
        let bottom = "C" + String(repeating: "-", count: detourCols + 3) + "D"
        let art = ([top] + Array(repeating: mid, count: detourRows) + [bottom]).joined(separator: "\n")
        return AsciiMap(art, ways: [("AB", ["highway": "steps", "step_count": "30", "name": "Escalier"]),
                                    ("ACDEB", ["highway": "footway", "surface": "asphalt", "name": "Ramp"])])
    }

    @Test func stairsLoseToARamp250mLongerAndWinAgainstOne2kmLonger() throws {
        // Ramp A–C–D–E–B: 25 m down, 150 m along, 25 m up, 100 m back along the top row to B:
        // 300 m against 50 m of steps.
        let near = stairsMap(detourRows: 0, detourCols: 2)
        for mode in RideMode.allCases {
            let p = try plan(near, "A", "B", mode)
            #expect(!near.letters(of: p.path).hasPrefix("AB"), "\(mode) walked the steps instead of a ramp \(p.distance - 50) m longer")
            #expect(p.walkMetres == 0)
        }
        // 2 km of ramp: the steps win, walked, and every output says so.
        let far = stairsMap(detourRows: 0, detourCols: 40)
        let p = try plan(far, "A", "B", .smoothest)
        #expect(far.letters(of: p.path) == "AB", "\(far.letters(of: p.path))")
        #expect(abs(p.walkMetres - 50) < 1)
        let step = try #require(p.steps.first)
        #expect(step.context.walk && step.context.stepCount == 30)
        #expect(PlanFormats.text(p, from: "A", to: "B").contains("walk: 50 m of stairs (30 steps)"))
        let json = PlanFormats.json(p)
        #expect(json.contains("\"walk_m\" : 50") && json.contains("\"step_count\" : 30"))
    }

    @Test func rampedStairsCostLessThanPlainOnes() throws {
        let plain = AsciiMap("A--B", ways: [("AB", ["highway": "steps"])])
        let ramped = AsciiMap("A--B", ways: [("AB", ["highway": "steps", "ramp:stroller": "yes"])])
        let a = try plan(plain, "A", "B", .smoothest).path.cost
        let b = try plan(ramped, "A", "B", .smoothest).path.cost
        #expect(b < a, "ramped \(b) vs plain \(a)")
    }

    @Test func aLiftBetweenTwoLevelsBeatsASteepStreet() throws {
        // U–L (street level) and L–D (one floor down, layer -1) meet at a public lift L; the
        // alternative is a 350 m street falling 12 % from U round to D.
        let m = AsciiMap("""
        U-L-D
        |   |
        |   |
        |   |
        |   |
        |   |
        A---B
        """, ways: [("UL", ["highway": "footway", "surface": "asphalt", "incline": "0%"]),
                    ("LD", ["highway": "footway", "surface": "asphalt", "layer": "-1", "incline": "0%"]),
                    ("UABD", ["highway": "residential", "surface": "asphalt", "incline": "-12%", "name": "Rampe Raide"])],
                    nodeTags: ["L": ["highway": "elevator", "name": "Lift Test"]], elevation: { _, _ in 50 })
        let p = try plan(m, "U", "D", .smoothest)
        #expect(m.letters(of: p.path) == "ULD", "\(m.letters(of: p.path))")
        #expect(p.liftsUsed == 1)
        let lift = try #require(p.steps.first { $0.context.connector != nil })
        #expect(lift.instruction == "Take the lift (Lift Test)")
        #expect(lift.seconds == ConnectorTiming.liftWaitSeconds + ConnectorTiming.liftRideSeconds)
        #expect(PlanFormats.text(p, from: "U", to: "D").contains("Take the lift (Lift Test)"))
        #expect(PlanFormats.json(p).contains("\"kind\" : \"lift\""))
        // The lift is a 0 m connector without a grade; the two floors are separate graph nodes.
        let connectors = (0..<m.map.edgeCount).filter { m.map.flags(ofEdge: $0).contains(.connector) }
        #expect(connectors.count == 1)
        let table = EdgeTable(map: m.map, knowledge: .empty)
        for e in connectors {
            #expect(m.map.edgeLength[e] == 0 && table.derived.grade[e] == 0)
            #expect(m.map.edgeFrom[e] != m.map.edgeTo[e])
        }
    }

    @Test func escalatorsRunOneWay() throws {
        // A 50 m escalator A→B (5 s on, 100 s ride) against a 350 m footway round.
        let m = AsciiMap("""
        A-B
        | |
        | |
        | |
        | |
        | |
        | |
        C-D
        """, ways: [("AB", ["highway": "steps", "conveying": "forward"]), ("ACDB", Self.footway)])
        let up = try plan(m, "A", "B", .smoothest)
        #expect(up.escalatorsUsed == 1 && up.walkMetres == 0)
        let down = try plan(m, "B", "A", .smoothest)
        #expect(down.escalatorsUsed == 0, "rode an escalator against its direction")
    }

    @Test func nightSafeAvoidsUnlitUnderpasses() throws {
        let m = AsciiMap("""
        A------B
        |      |
        C------D
        """, ways: [("AB", ["highway": "footway", "surface": "asphalt", "tunnel": "yes"]),
                    ("ACDB", ["highway": "footway", "surface": "asphalt", "lit": "yes"])])
        #expect(m.letters(of: try plan(m, "A", "B", .nightSafe).path) == "ACDB")
        #expect(m.letters(of: try plan(m, "A", "B", .smoothest).path) == "AB")
    }

    @Test func theAccessTableDecidesOddAndConflictingTags() {
        func d(_ hw: HighwayClass, _ tags: [String: String], bikeLane: Bool = false) -> AccessDecision {
            AccessModel.classify(highway: hw, bikeLane: bikeLane) { tags[$0] }
        }
        #expect(d(.motorway, [:]).reason == .motorway)
        #expect(d(.trunk, ["sidewalk": "right"]).accessClass == .penalised)
        #expect(d(.residential, ["access": "private"]).reason == .accessNo)
        #expect(d(.residential, ["access": "private", "foot": "yes"]).accessClass == .ok)
        #expect(d(.primary, ["foot": "no", "sidewalk": "both"]).reason == .footNoButSidewalk)
        #expect(d(.service, ["access": "yes;no"]).accessClass == .ok)
        #expect(d(.residential, ["access": "banana", "foot": "maybe"]).accessClass == .ok)
        #expect(d(.primary, ["maxspeed": "70"]).reason == .primaryNoSidewalkFast)
        #expect(d(.primary, ["sidewalk": "both"]).accessClass == .ok)
        #expect(d(.residential, ["sidewalk": "separate"]).reason == .sidewalkSeparate)
        #expect(d(.footway, ["tunnel": "yes"]).accessClass == .ok)
        #expect(d(.secondary, ["foot": "use_sidepath"]).reason == .footUseSidepath)
        #expect(d(.construction, [:]).accessClass == .forbidden)
        #expect(d(.cycleway, [:]).accessClass == .ok)
        // Stored and read back through the edge flags.
        for r in AccessReason.allCases {
            #expect(AccessModel.decision(of: AccessModel.flags(AccessDecision(r))) == AccessDecision(r))
        }
    }

    @Test func makingAnEdgeForbiddenNeverMakesARouteThatUsedItBetter() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["SKATEROUTE_SEED"] ?? "") ?? 20_261_123
        print("makingAnEdgeForbidden… seed \(seed) (SKATEROUTE_SEED)")
        var rng = SplitMix64(seed: seed)
        let art = """
        A---B---C
        |   |   |
        D---E---F
        |   |   |
        G---H---I
        """
        let pieces = ["AB", "BC", "DE", "EF", "GH", "HI", "AD", "DG", "BE", "EH", "CF", "FI"]
        let pool: [[String: String]] = [
            ["highway": "residential", "surface": "asphalt"], ["highway": "footway", "surface": "paving_stones"],
            ["highway": "primary"], ["highway": "steps"], ["highway": "cycleway"], ["highway": "service", "lit": "no"],
            ["highway": "tertiary", "sidewalk": "both"], ["highway": "footway", "bicycle": "no"],
        ]
        for trial in 0..<25 {
            var tags = pieces.map { _ in pool[Int(rng.next() % UInt64(pool.count))] }
            let mode = RideMode.allCases[Int(rng.next() % UInt64(RideMode.allCases.count))]
            let m = AsciiMap(art, ways: Array(zip(pieces, tags)))
            let router = Planner(map: m.map).router(for: mode)
            guard let before = router.bestRoute(from: try router.snap(m.nodes["A"]!), to: try router.snap(m.nodes["I"]!)) else { continue }
            let used = m.letters(of: before)
            let candidates = pieces.indices.filter { used.contains(pieces[$0]) || used.contains(String(pieces[$0].reversed())) }
            guard let k = candidates.first else { continue }
            tags[k]["foot"] = "no"
            tags[k]["sidewalk"] = nil
            let m2 = AsciiMap(art, ways: Array(zip(pieces, tags)))
            let router2 = Planner(map: m2.map).router(for: mode)
            let after = try #require(router2.bestRoute(from: try router2.snap(m2.nodes["A"]!), to: try router2.snap(m2.nodes["I"]!)))
            #expect(after.cost >= before.cost - 1e-6,
                    "seed \(seed) trial \(trial): forbidding \(pieces[k]) made \(mode) cheaper: \(after.cost) < \(before.cost)")
            if m2.letters(of: after).contains(pieces[k]) {
                #expect(after.cost > before.cost + AccessModel.forbiddenEdgeSeconds / 2, "seed \(seed) trial \(trial)")
            }
        }
    }
}
