import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// Issue 16: once one mode's search finds no line between two ends that keeps to the 100 m
/// crusty rule, the plan's other searches between them (smoothest's fast reference and detour
/// retries, alternatives) skip the rule-bound search (`Router.bestRoute(ruleUnmet:)`). That is
/// sound only if the rule's feasibility does not depend on the mode: checked here on seeded
/// pairs of both real maps, with the answers compared to the full search.
@Suite(.serialized) struct RuleUnmetSharingTests {
    static let pairs = 40

    func check(map: SkateMap, seed: UInt64) -> (pairs: Int, unmet: Int) {
        let planner = Planner(map: map)
        let routers = RideMode.allCases.map { planner.router(for: $0) }
        var rng = CrustyRuleProofTests.SplitMix(s: seed)
        var done = 0, unmet = 0, tries = 0
        while done < Self.pairs && tries < 10 * Self.pairs {
            tries += 1
            let na = Int(rng.next() % UInt64(map.nodeCount)), nb = Int(rng.next() % UInt64(map.nodeCount))
            guard let sa = try? routers[0].snap(map.coordinate(ofNode: na)), let sb = try? routers[0].snap(map.coordinate(ofNode: nb)),
                  let first = routers[0].bestRoute(from: sa, to: sb) else { continue }
            done += 1
            guard !first.crustyRuleMet else { continue }
            unmet += 1
            for r in routers.dropFirst() {
                // Feasibility is the same in every mode: the rule-bound search finds nothing either.
                #expect(r.route(from: sa, to: sb, hardRule: true) == nil, "\(r.costing.mode): a line keeps to the rule \(na) → \(nb)")
                let full = r.bestRoute(from: sa, to: sb), skipped = r.bestRoute(from: sa, to: sb, ruleUnmet: true)
                #expect(full?.cost == skipped?.cost, "\(r.costing.mode) \(na) → \(nb): cost \(String(describing: full?.cost)) vs \(String(describing: skipped?.cost))")
                #expect(full == skipped, "\(r.costing.mode) \(na) → \(nb): another line of the same cost")
                #expect(skipped?.crustyRuleMet == false)
            }
        }
        return (done, unmet)
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func monaco() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let r = check(map: map, seed: 51)
        #expect(r.pairs == Self.pairs)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func heidelberg() throws {
        let map = try #require(CrustyRuleProofTests.heidelberg)
        let r = check(map: map, seed: 52)
        #expect(r.pairs == Self.pairs)
        // Heidelberg's crusty tracks leave many pairs with no line under the rule; without
        // them this test would check nothing.
        #expect(r.unmet > 0)
    }
}
