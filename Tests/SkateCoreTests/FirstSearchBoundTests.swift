@testable import SkateCore
import SkateTestSupport
import Testing

/// Every mode's first search and trickSpotCrawl's legs from a spot to the target use the plan's
/// `TargetCostBound` (issues 30/31, twelfth round). The bound must change no cost: in every mode,
/// on seeded pairs, the first search with the bound built as `Planner.plan` builds it (extended to
/// the cost of its own tree line) finds the plain search's cost and crusty-rule answer, and so do
/// searches to the same target from other starts (the spot legs) with the bound not extended
/// further, with and without a cost limit just above their answer (with the limit, with and
/// without the bound).
@Suite struct FirstSearchBoundTests {
    /// The checks above on `count` seeded pairs per mode; returns the searches compared.
    func check(_ m: SkateMap, seed: UInt64, count: Int) -> Int {
        let planner = Planner(map: m)
        var compared = 0
        for mode in RideMode.allCases {
            let router = planner.router(for: mode)
            let pairs = TargetCostBoundTests().pairs(m, router, seed: seed &+ UInt64(mode.ordinal), count: count)
            for (k, (a, b, plain)) in pairs.enumerated() {
                // The planner's own first search (`Planner.firstSearch`) and the bound it shares.
                let (bounded, tb) = Planner.firstSearch(router: router, from: a, to: b)
                #expect(bounded != nil, "\(mode) pair \(k): no line with the bound")
                if let bounded {
                    #expect(abs(bounded.cost - plain.cost) <= 1e-9 * max(1, plain.cost), "\(mode) pair \(k): \(bounded.cost) with the bound, \(plain.cost) without")
                    #expect(bounded.crustyRuleMet == plain.crustyRuleMet, "\(mode) pair \(k): crusty rule")
                }
                compared += 1
                // A leg to the same target from another start (the next pair's), as a spot leg.
                let c = pairs[(k + 1) % pairs.count].0
                guard c.edge != b.edge else { continue }
                let goal = Planner.bound(tb, for: [], router: router)
                let legPlain = router.bestRoute(from: c, to: b)
                let legBounded = router.bestRoute(from: c, to: b, targetBound: goal)
                #expect((legPlain == nil) == (legBounded == nil), "\(mode) leg \(k): a line with one search only")
                guard let legPlain, let legBounded else { continue }
                #expect(abs(legBounded.cost - legPlain.cost) <= 1e-9 * max(1, legPlain.cost), "\(mode) leg \(k): \(legBounded.cost) with the bound, \(legPlain.cost) without")
                #expect(legBounded.crustyRuleMet == legPlain.crustyRuleMet, "\(mode) leg \(k): crusty rule")
                let limited = router.bestRoute(from: c, to: b, costLimit: legPlain.cost * (1 + 1e-6), targetBound: goal)
                #expect(limited.map { abs($0.cost - legPlain.cost) <= 1e-9 * max(1, legPlain.cost) } == true,
                        "\(mode) leg \(k): with a limit just above its cost and the bound, \(String(describing: limited?.cost)) for \(legPlain.cost)")
                // Without the bound too: the heuristic once added the whole straight line to the
                // target edge's last part, overestimated near the target, and such a search stopped
                // before its answer (Monaco, trickSpotCrawl, seed 0xF1B0 leg 13: nil for 873.06 s).
                let limitedPlain = router.bestRoute(from: c, to: b, costLimit: legPlain.cost * (1 + 1e-6))
                #expect(limitedPlain.map { abs($0.cost - legPlain.cost) <= 1e-9 * max(1, legPlain.cost) } == true,
                        "\(mode) leg \(k): with a limit just above its cost, \(String(describing: limitedPlain?.cost)) for \(legPlain.cost)")
                compared += 3
            }
        }
        return compared
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func sameCostsEveryModeMonaco() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        #expect(check(m, seed: 0xF1B0, count: 16) >= 5 * 16)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func sameCostsEveryModeHeidelberg() throws {
        let m = try #require(CrustyRuleProofTests.heidelberg)
        #expect(check(m, seed: 0xF1B1, count: 4) >= 5 * 4)
    }
}
