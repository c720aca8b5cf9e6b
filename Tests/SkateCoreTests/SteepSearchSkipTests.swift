@testable import SkateCore
import SkateTestSupport
import Testing

/// The steeper searches `leastSteepLine` skips (issue 30, fourth round) could not have changed its choice.
@Suite struct SteepSearchSkipTests {
    /// `Planner.searchReturns` (the skipped steeper searches of `leastSteepLine`): wherever it
    /// says a steeper search would return the line already known, that search, run anyway,
    /// returns that line; and on the same seeded Monaco pairs it both fires and is rightly
    /// silent where the steeper search does change the line (else the check would be vacuous).
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func skippedSteeperSearchesWouldReturnTheKnownLine() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        let planner = Planner(map: m)
        let router = planner.router(for: .smoothest)
        var rng = SplitMix64(seed: 0x57EE)
        var skipped = 0, changed = 0
        for _ in 0..<60 {
            let e = Int(rng.next() % UInt64(m.edgeCount)), f = Int(rng.next() % UInt64(m.edgeCount))
            guard let a = try? router.snap(m.coordinate(ofNode: Int(m.edgeFrom[e]))),
                  let b = try? router.snap(m.coordinate(ofNode: Int(m.edgeTo[f]))),
                  let p0 = router.bestRoute(from: a, to: b) else { continue }
            let ruleUnmet = !p0.crustyRuleMet
            var known = (line: p0, costing: router.costing)
            for k in SteepLineRule.searchFactors {
                var w = router.costing.weights
                w.brakingSecondsPerMetre *= k
                w.cautionSecondsPerMetre *= k
                let r = planner.router(for: .smoothest, weights: w)
                let skip = Planner.searchReturns(known.line, leastUnder: known.costing, under: r.costing)
                let p = try #require(r.bestRoute(from: a, to: b, ruleUnmet: ruleUnmet))
                if skip {
                    skipped += 1
                    #expect(p.legs == known.line.legs, "×\(k): the skipped search returns another line (\(p.cost) vs \(known.line.cost))")
                } else if p.legs != known.line.legs {
                    changed += 1
                }
                known = (p, r.costing)
            }
        }
        #expect(skipped > 0, "no steeper search was skippable on these pairs")
        #expect(changed > 0, "no steeper search changed the line on these pairs")
    }
}
