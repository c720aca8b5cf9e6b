import Foundation
import HeapModule
@testable import SkateCore
import SkateTestSupport
import Testing

/// With `edgeLabels` the router's labels are per (traversal a node was reached by, crusty
/// bucket): turn costs depend on that traversal, so only over these states is "cheapest way to a
/// state" the whole story.
/// Checked against a plain Dijkstra written here from the costing alone (no landmarks, no
/// heuristic, no bounds, no label pool), on seeded Monaco pairs in every mode, with and without
/// the crusty rule: the router's cost must equal the reference's, and the legs it returns must
/// add up to that cost. The default per-node labels are run beside it and their misses counted
/// (they must never beat the reference: that would mean the reference is wrong).
@Suite struct EdgeLabelExactnessTests {
    /// Cheapest cost from `a` to `b` over (traversal, bucket) states, as the router defines a
    /// route: start part of `a`'s edge, whole edges with the turn costs between them, the part
    /// of `b`'s edge up to its offset; no U-turn on an edge; the rule counts continuous crusty metres.
    static func reference(_ r: Router, _ a: EdgeSnap, _ b: EdgeSnap, hardRule: Bool) -> Double? {
        let m = r.map, c = r.costing
        let limit = CostingConstants.maxContinuousCrusty
        func bucket(_ run: Double) -> Int { run <= 0 ? 0 : min(Router.runBuckets - 1, Int(run / Router.runBucketMetres) + 1) }
        struct Item: Comparable { var g: Double; var state: Int; static func < (x: Item, y: Item) -> Bool { x.g != y.g ? x.g < y.g : x.state < y.state } }
        var best: [Int: (g: Double, run: Double)] = [:]
        var done = Set<Int>()
        var heap = Heap<Item>()
        var answer = Double.infinity
        func push(_ t: Int, _ g: Double, _ run: Double) {
            if hardRule && run >= limit { return }
            let s = t << 4 | bucket(run)
            if let o = best[s], o.g <= g { return }
            best[s] = (g, run)
            heap.insert(Item(g: g, state: s))
        }
        let ea = a.edge, lenA = Double(m.edgeLength[ea]), crustyA = c.isCrusty(edge: ea)
        for rev in [true, false] where c.allowed(edge: ea, reversed: rev) {
            let part = rev ? a.offset : lenA - a.offset
            push(ea << 1 | (rev ? 1 : 0), c.edgeCost(edge: ea, reversed: rev).cost * (lenA > 0 ? part / lenA : 0), crustyA ? part : 0)
        }
        if b.edge == ea {
            let rev = b.offset < a.offset, d = abs(b.offset - a.offset)
            if c.allowed(edge: ea, reversed: rev), !hardRule || !crustyA || d < limit {
                answer = c.edgeCost(edge: ea, reversed: rev).cost * (lenA > 0 ? d / lenA : 0)
            }
        }
        let eb = b.edge, lenB = Double(m.edgeLength[eb]), crustyB = c.isCrusty(edge: eb)
        while let top = heap.popMin() {
            if top.g >= answer { break }
            guard !done.contains(top.state), let lab = best[top.state], lab.g == top.g else { continue }
            done.insert(top.state)
            let t = top.state >> 4, e0 = t >> 1, r0 = t & 1 == 1
            let u = Int(r0 ? m.edgeFrom[e0] : m.edgeTo[e0])
            if e0 != eb, u == Int(m.edgeFrom[eb]) || u == Int(m.edgeTo[eb]) {
                let rev = u == Int(m.edgeTo[eb])
                let part = rev ? lenB - b.offset : b.offset
                if c.allowed(edge: eb, reversed: rev), !(hardRule && crustyB && lab.run + part >= limit) {
                    let total = lab.g + c.transitionCost(from: e0, fromReversed: r0, node: u, to: eb, toReversed: rev)
                        + c.edgeCost(edge: eb, reversed: rev).cost * (lenB > 0 ? part / lenB : 0)
                    answer = min(answer, total)
                }
            }
            for k in m.adjacencyRange(of: u) {
                let adj = m.adjacency[k], e = Int(adj >> 1), rev = adj & 1 == 1
                if e == e0 && rev != r0 { continue }
                guard c.allowed(edge: e, reversed: rev) else { continue }
                let g = lab.g + c.transitionCost(from: e0, fromReversed: r0, node: u, to: e, toReversed: rev) + c.edgeCost(edge: e, reversed: rev).cost
                push(e << 1 | (rev ? 1 : 0), g, c.isCrusty(edge: e) ? lab.run + Double(m.edgeLength[e]) : 0)
            }
        }
        return answer < .infinity ? answer : nil
    }

    /// What the legs of a path cost, summed leg by leg (`Planner.trueCost`: the end legs' parts,
    /// the turns between).
    static func legCost(_ p: RoutePath, _ r: Router) -> Double { Planner.trueCost(p, router: r) }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func costsEqualAPlainDijkstraOverTraversals() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        let planner = Planner(map: m)
        var rng = SplitMix64(seed: 1611)
        var compared = 0, oldMissed = 0, oldBelowLegs = 0, legsChecked = 0, worstExcess = 0.0
        let lats = (0..<m.nodeCount).map { m.nodeLat[$0] }, lons = (0..<m.nodeCount).map { m.nodeLon[$0] }
        let lat0 = lats.min()!, lat1 = lats.max()!, lon0 = lons.min()!, lon1 = lons.max()!
        func point() -> Coordinate {
            Coordinate(lat: lat0 + (lat1 - lat0) * Double(rng.next() % 10_000) / 10_000,
                       lon: lon0 + (lon1 - lon0) * Double(rng.next() % 10_000) / 10_000)
        }
        for mode in RideMode.allCases {
            var router = planner.router(for: mode)
            let old = router
            router.edgeLabels = true
            for _ in 0..<40 {
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
        #expect(compared >= 120)
        #expect(legsChecked >= 50)
        print("edge labels: \(compared) searches equal a plain Dijkstra over traversals (\(legsChecked) also leg by leg); per-node labels: \(oldMissed) missed the cheapest (by up to \(String(format: "%.2f", worstExcess * 100)) %), \(oldBelowLegs) reported less than their legs cost")
    }
}
