import Foundation
import HeapModule
@testable import SkateCore
import SkateTestSupport
import Testing

/// The default search keeps one label per (traversal a node was reached by, crusty bucket)
/// (`Router.edgeLabels`, the default since issue 30): turn costs depend on that traversal, so only
/// over these states is "cheapest way to a state" the whole story.
/// Checked against `ReferenceSearch`, a plain Dijkstra over the same states from the costing alone
/// (no landmarks, no heuristic, no bounds, no label pool), on seeded Monaco and Heidelberg pairs in
/// every mode, with and without the crusty rule: the default router's cost must equal the
/// reference's, and the legs it returns must add up to that cost. The old per-node labels are run
/// beside it and their misses counted (they must never beat the reference: that would mean the
/// reference is wrong).
@Suite(.serialized) struct EdgeLabelExactnessTests {
    static func reference(_ r: Router, _ a: EdgeSnap, _ b: EdgeSnap, hardRule: Bool) -> Double? {
        ReferenceSearch.cost(r, from: a, to: b, hardRule: hardRule)
    }

    /// What the legs of a path cost, summed leg by leg (`Planner.trueCost`: the end legs' parts,
    /// the turns between).
    static func legCost(_ p: RoutePath, _ r: Router) -> Double { Planner.trueCost(p, router: r) }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func costsEqualAPlainDijkstraOverTraversals() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        try compare(map: m, seed: 1611, pairsPerMode: 40, minCompared: 120, minLegs: 50)
    }

    /// Heidelberg, imported and written as `skateroute import` does (its landmark tables), fewer
    /// pairs: the reference settles the whole reachable graph on a failing rule-bound search.
    @Test(.enabled(if: TestData.available, TestData.skip)) func heidelbergCostsEqualAPlainDijkstra() throws {
        let m = try #require(CrustyRuleProofTests.heidelberg)
        try compare(map: m, seed: 3030, pairsPerMode: 2, minCompared: 8, minLegs: 1, nearEdges: true)
    }

    /// The default router against the reference on `pairsPerMode` seeded point pairs per mode.
    /// `nearEdges`: points a third of the way along seeded edges (the Heidelberg extract's node
    /// box is mostly empty: points drawn over it rarely have a street within the snap radius).
    func compare(map m: SkateMap, seed: UInt64, pairsPerMode: Int, minCompared: Int, minLegs: Int, nearEdges: Bool = false) throws {
        let planner = Planner(map: m)
        var rng = SplitMix64(seed: seed)
        var compared = 0, oldMissed = 0, oldBelowLegs = 0, legsChecked = 0, worstExcess = 0.0
        let lats = (0..<m.nodeCount).map { m.nodeLat[$0] }, lons = (0..<m.nodeCount).map { m.nodeLon[$0] }
        let lat0 = lats.min()!, lat1 = lats.max()!, lon0 = lons.min()!, lon1 = lons.max()!
        func point() -> Coordinate {
            if nearEdges {
                let e = Int(rng.next() % UInt64(m.edgeCount))
                let a = m.coordinate(ofNode: Int(m.edgeFrom[e])), b = m.coordinate(ofNode: Int(m.edgeTo[e]))
                return Coordinate(lat: a.lat + (b.lat - a.lat) / 3, lon: a.lon + (b.lon - a.lon) / 3)
            }
            return Coordinate(lat: lat0 + (lat1 - lat0) * Double(rng.next() % 10_000) / 10_000,
                       lon: lon0 + (lon1 - lon0) * Double(rng.next() % 10_000) / 10_000)
        }
        for mode in RideMode.allCases {
            let router = planner.router(for: mode)
            #expect(router.edgeLabels, "the default search keeps labels per way in")
            var old = router
            old.edgeLabels = false
            for _ in 0..<pairsPerMode {
                // Points between the nodes, so the ends fall inside edges (and the legs can be
                // summed whole); where the map has no street near, the pair is skipped.
                guard let a = try? router.snap(point()), let b = try? router.snap(point()) else { continue }
                for hard in [true, false] {
                    let want = Self.reference(router, a, b, hardRule: hard)
                    let got = router.route(from: a, to: b, hardRule: hard)
                    #expect((want == nil) == (got == nil), "\(mode) hard=\(hard)")
                    guard let want, let got else { continue }
                    compared += 1
                    #expect(abs(got.cost - want) <= 1e-9 * max(1, want), "\(mode) hard=\(hard): router \(got.cost), reference \(want)")
                    // Legs dropped at the ends are 0 m: they cost nothing but may carry a turn.
                    let interior = a.offset > 0.01 && a.offset < Double(m.edgeLength[a.edge]) - 0.01
                        && b.offset > 0.01 && b.offset < Double(m.edgeLength[b.edge]) - 0.01
                    if interior, got.legs.first?.length ?? 0 >= 0.01, got.legs.last?.length ?? 0 >= 0.01 {
                        legsChecked += 1
                        #expect(abs(Self.legCost(got, router) - got.cost) <= 1e-6 * max(1, want), "\(mode) hard=\(hard): legs \(Self.legCost(got, router)) vs \(got.cost)")
                    }
                    if let o = old.route(from: a, to: b, hardRule: hard) {
                        if interior { #expect(Self.legCost(o, router) >= want - 1e-6 * max(1, want), "per-node legs below the reference") }
                        if o.cost > want + 1e-9 * max(1, want) { oldMissed += 1; worstExcess = max(worstExcess, o.cost / want - 1) }
                        if Self.legCost(o, router) > o.cost + 1e-6 * max(1, want) { oldBelowLegs += 1 }
                    }
                }
            }
        }
        #expect(compared >= minCompared)
        #expect(legsChecked >= minLegs)
        print("default search: \(compared) searches equal a plain Dijkstra over traversals (\(legsChecked) also leg by leg); per-node labels: \(oldMissed) missed the cheapest (by up to \(String(format: "%.2f", worstExcess * 100)) %), \(oldBelowLegs) reported less than their legs cost")
    }
}
