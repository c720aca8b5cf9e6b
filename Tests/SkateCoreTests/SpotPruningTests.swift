import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// Issue 16: `trickSpotCrawl` tries its spot candidates cheapest lower bound first, skips those
/// whose bound cannot beat the best line found (`Router.costLowerBound`), and searches them on
/// two threads. On seeded pairs of both real maps the answer (one thread and two) must equal the
/// one from searching every candidate in rank order, and the bound must never exceed the cost of
/// the line the router finds.
@Suite(.serialized) struct SpotPruningTests {
    /// Seeded pairs per map.
    static let pairs = 24

    /// Runs both ways on seeded node pairs; returns (pairs compared, route searches the pruning
    /// saved, bounds checked).
    func compare(map: SkateMap, seed: UInt64) throws -> (compared: Int, skipped: Int, bounds: Int) {
        var pruned = Planner(map: map)
        var full = pruned.detached()
        full.pruneSpotSearches = false
        full.spotSearchThreads = 1
        pruned.pruneSpotSearches = true
        pruned.spotSearchThreads = 1
        // Two threads: which candidates get searched depends on timing, the answer must not.
        var parallel = pruned.detached()
        parallel.spotSearchThreads = 2
        let router = pruned.router(for: .trickSpotCrawl)
        let fullRouter = full.router(for: .trickSpotCrawl)
        var rng = CrustyRuleProofTests.SplitMix(s: seed)
        var compared = 0, bounds = 0, skipped = 0
        var tries = 0
        while compared < Self.pairs && tries < 10 * Self.pairs {
            tries += 1
            let na = Int(rng.next() % UInt64(map.nodeCount)), nb = Int(rng.next() % UInt64(map.nodeCount))
            guard let sa = try? router.snap(map.coordinate(ofNode: na)), let sb = try? router.snap(map.coordinate(ofNode: nb)),
                  let direct = router.bestRoute(from: sa, to: sb) else { continue }
            // The bound holds for the line found, both ways round.
            #expect(router.costLowerBound(from: sa, to: sb) <= direct.cost, "bound above cost: \(na) → \(nb)")
            bounds += 1
            if let back = router.bestRoute(from: sb, to: sa) {
                #expect(router.costLowerBound(from: sb, to: sa) <= back.cost, "bound above cost: \(nb) → \(na)")
                bounds += 1
            }
            var searchesPruned = 0, searchesFull = 0
            let a = pruned.threadThroughSpot(path: direct, from: sa, to: sb, router: router, searches: &searchesPruned)
            let b = full.threadThroughSpot(path: direct, from: sa, to: sb, router: fullRouter, searches: &searchesFull)
            #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2, "pruned answer differs: \(na) → \(nb): \(a.1) vs \(b.1)")
            let c = parallel.threadThroughSpot(path: direct, from: sa, to: sb, router: parallel.router(for: .trickSpotCrawl))
            #expect(c.0 == b.0 && c.1 == b.1 && c.2 == b.2, "two-thread answer differs: \(na) → \(nb): \(c.1) vs \(b.1)")
            skipped += searchesFull - searchesPruned
            compared += 1
        }
        return (compared, skipped, bounds)
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func monacoAnswersEqualSearchingEverySpot() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let r = try compare(map: map, seed: 31)
        #expect(r.compared == Self.pairs)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func heidelbergAnswersEqualSearchingEverySpot() throws {
        let map = try #require(CrustyRuleProofTests.heidelberg)
        let r = try compare(map: map, seed: 32)
        #expect(r.compared == Self.pairs)
        // The pruning must have had something to do on a city this size, or the test proves nothing.
        #expect(r.skipped > 0)
    }
}
