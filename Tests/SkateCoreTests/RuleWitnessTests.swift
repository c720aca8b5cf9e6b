@testable import SkateCore
import SkateTestSupport
import Testing

/// A plan's first line is a witness that a line keeping the crusty rule exists (`RuleWitness`),
/// from its start or from wherever a rule-bound search meets the part of it that keeps the rule,
/// so `Router.bestRoute` skips the proofs that none does and answers a rule-bound search stopped
/// at its cost limit with nil at once. It must change no answer: on seeded real pairs in every
/// mode, searches with the witness equal those without (a leg from another start to the same
/// target, with and without limits, a limit between the relaxed and the rule-abiding line's
/// costs; from the witness's own start under penalties and under smoothest's ×4 weights), run
/// fewer proofs and settle no more states. On a drawn map, a search that reaches the witness's
/// line with a longer crusty run than the line's there is not taken for a join.
@Suite struct RuleWitnessTests {
    static let sett: [String: String] = ["highway": "residential", "surface": "sett", "name": "Sett Lane"]
    static let asphalt: [String: String] = ["highway": "residential", "surface": "asphalt", "name": "Asphalt Street"]

    /// A → J → T keeps the rule (asphalt, then 75 m of sett); C reaches J over 75 m of sett, so
    /// from C the only line rides 150 m of sett: it breaks the rule, and C's state at J (run 75 m)
    /// does not join the witness (run 0 m there).
    @Test func aLongerRunIsNoJoin() throws {
        let m = AsciiMap("""
        A----J--T
             |
             |
             C
        """, ways: [("AJ", Self.asphalt), ("JT", Self.sett), ("CJ", Self.sett)])
        let planner = Planner(map: m.map)
        for mode in RideMode.allCases {
            var router = planner.router(for: mode)
            let a = try router.snap(m.nodes["A"]!), c = try router.snap(m.nodes["C"]!), t = try router.snap(m.nodes["T"]!)
            let w = try #require(router.bestRoute(from: a, to: t), "\(mode): no witness line")
            #expect(w.crustyRuleMet, "\(mode): the witness breaks the rule")
            #expect(RuleWitness(line: w, to: t, costing: router.costing) != nil, "\(mode): witness refused")
            let plain = try #require(router.bestRoute(from: c, to: t), "\(mode): no line from C")
            #expect(!plain.crustyRuleMet, "\(mode): from C the line breaks the rule")
            for eager in [false, true] {
                router.boundCheckStates = eager ? 0 : Router.defaultBoundCheckStates
                // A limit just above the line's cost: the rule-bound search stops at it.
                let limit = plain.cost * (1 + 1e-6)
                let with = router.bestRoute(from: c, to: t, costLimit: limit, targetBound: nil, ruleWitness: w)
                let without = router.bestRoute(from: c, to: t, costLimit: limit, targetBound: nil)
                #expect(without?.cost == plain.cost, "\(mode) eager \(eager): without the witness \(String(describing: without?.cost))")
                #expect(with?.cost == plain.cost && with?.crustyRuleMet == false,
                        "\(mode) eager \(eager): with the witness \(String(describing: with?.cost)) for \(plain.cost)")
            }
        }
    }

    /// A line that breaks the rule to its very end, or ends elsewhere, is no witness, whatever
    /// its flag says; one that breaks it only near its start witnesses past there, not from its start.
    @Test func onlyRuleAbidingTailsToTheTargetWitness() throws {
        let m = AsciiMap("""
        A----J----T
        """, ways: [("AJ", Self.asphalt), ("JT", Self.sett)])
        let router = Planner(map: m.map).router(for: .smoothest)
        let a = try router.snap(m.nodes["A"]!), j = try router.snap(m.nodes["J"]!), t = try router.snap(m.nodes["T"]!)
        var line = try #require(router.bestRoute(from: a, to: t))
        // 125 m of sett on the last leg: the search says so, and a forged flag changes nothing.
        #expect(!line.crustyRuleMet)
        #expect(RuleWitness(line: line, to: t, costing: router.costing) == nil)
        line.crustyRuleMet = true
        #expect(RuleWitness(line: line, to: t, costing: router.costing) == nil, "a forged flag was believed")
        let toJ = try #require(router.bestRoute(from: a, to: j))
        #expect(toJ.crustyRuleMet)
        #expect(RuleWitness(line: toJ, to: j, costing: router.costing)?.starts(at: a) == true)
        #expect(RuleWitness(line: toJ, to: t, costing: router.costing) == nil, "a line to another target was taken")
        // Sett first, then asphalt: the tail from J keeps the rule, the line from S does not.
        let back = AsciiMap("""
        S----J----T
        """, ways: [("SJ", Self.sett), ("JT", Self.asphalt)])
        let r2 = Planner(map: back.map).router(for: .smoothest)
        let s2 = try r2.snap(back.nodes["S"]!), t2 = try r2.snap(back.nodes["T"]!)
        let l2 = try #require(r2.bestRoute(from: s2, to: t2))
        #expect(!l2.crustyRuleMet)
        let w2 = try #require(RuleWitness(line: l2, to: t2, costing: r2.costing), "no witness past the sett")
        #expect(!w2.starts(at: s2), "a line breaking the rule witnessed from its own start")
        #expect(w2.joins.count == 1 && w2.joins[0].maxRun < CostingConstants.maxContinuousCrusty)
    }

    func same(_ x: RoutePath?, _ y: RoutePath?) -> Bool {
        guard let x, let y else { return x == nil && y == nil }
        return x.legs == y.legs && x.cost == y.cost && x.crustyRuleMet == y.crustyRuleMet
    }

    /// The comparisons above on `count` seeded pairs per mode; returns the searches compared and
    /// what the searches without and with the witness did (states settled, proofs run).
    func check(_ m: SkateMap, seed: UInt64, count: Int) -> (compared: Int, gaps: Int, without: SearchCounters.Tally, with: SearchCounters.Tally) {
        let planner = Planner(map: m)
        var compared = 0, gaps = 0
        let plainTally = SearchCounters.Tally(), witnessTally = SearchCounters.Tally()
        func run<T>(_ tally: SearchCounters.Tally, _ body: () -> T) -> T { SearchCounters.$tally.withValue(tally) { body() } }
        for mode in RideMode.allCases {
            let router = planner.router(for: mode)
            var w = router.costing.weights
            w.brakingSecondsPerMetre *= 4; w.cautionSecondsPerMetre *= 4
            let steeper = planner.router(for: mode, weights: w)
            let pairs = TargetCostBoundTests().pairs(m, router, seed: seed &+ UInt64(mode.ordinal), count: count)
            for (k, (a, b, line)) in pairs.enumerated() {
                // From the witness's own start: under penalties on its edges, and steeper weights.
                let penalty = Dictionary(line.legs.map { ($0.edge, 3.0) }, uniquingKeysWith: { x, _ in x })
                let p0 = run(plainTally) { router.bestRoute(from: a, to: b, penalty: penalty) }
                let p1 = run(witnessTally) { router.bestRoute(from: a, to: b, penalty: penalty, targetBound: nil, ruleWitness: line) }
                #expect(same(p0, p1), "\(mode) pair \(k): penalised search differs with the witness")
                let s0 = run(plainTally) { steeper.bestRoute(from: a, to: b) }
                let s1 = run(witnessTally) { steeper.bestRoute(from: a, to: b, targetBound: nil, ruleWitness: line) }
                #expect(same(s0, s1), "\(mode) pair \(k): steeper search differs with the witness")
                compared += 2
                // A leg to the same target from another start (a spot leg to the goal).
                let c = pairs[(k + 1) % pairs.count].0
                guard c.edge != b.edge, let leg = router.bestRoute(from: c, to: b) else { continue }
                var limits = [Double.infinity, leg.cost * (1 + 1e-6), leg.cost * 0.97]
                // Between the relaxed line's cost and the rule-abiding one's: nil, a rule-abiding
                // line existing above the limit.
                if let relaxed = router.route(from: c, to: b, hardRule: false), let hard = router.route(from: c, to: b, hardRule: true),
                   hard.cost > relaxed.cost * (1 + 1e-6) {
                    limits.append((relaxed.cost + hard.cost) / 2)
                    gaps += 1
                }
                for limit in limits {
                    let l0 = run(plainTally) { router.bestRoute(from: c, to: b, costLimit: limit) }
                    let l1 = run(witnessTally) { router.bestRoute(from: c, to: b, costLimit: limit, targetBound: nil, ruleWitness: line) }
                    #expect(same(l0, l1), "\(mode) leg \(k) limit \(limit): \(String(describing: l0?.cost)) without the witness, \(String(describing: l1?.cost)) with")
                    compared += 1
                }
            }
        }
        return (compared, gaps, plainTally, witnessTally)
    }

    /// The witness spared proofs (what it is for) and never added a state.
    func expectSpared(_ r: (compared: Int, gaps: Int, without: SearchCounters.Tally, with: SearchCounters.Tally)) {
        let p0 = r.without.proofs.load(ordering: .relaxed), p1 = r.with.proofs.load(ordering: .relaxed)
        let s0 = r.without.settled.load(ordering: .relaxed), s1 = r.with.settled.load(ordering: .relaxed)
        #expect(p1 < p0, "the witness spared no proof: \(p1) with, \(p0) without")
        #expect(s1 <= s0, "more states with the witness: \(s1) with, \(s0) without")
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func sameAnswersMonaco() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        let r = check(m, seed: 0x5A17, count: 8)
        #expect(r.compared >= 5 * 8)
        expectSpared(r)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func sameAnswersHeidelberg() throws {
        let m = try #require(CrustyRuleProofTests.heidelberg)
        let r = check(m, seed: 0x5A18, count: 3)
        #expect(r.compared >= 5 * 3)
        expectSpared(r)
    }
}
