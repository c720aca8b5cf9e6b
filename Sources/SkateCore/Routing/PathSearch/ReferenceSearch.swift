import FoundationEssentials
import HeapModule

/// A plain Dijkstra over the costing alone — no landmarks, no heuristic, no bounds, no label
/// pool, no pruning — over (traversal a node was reached by, crusty bucket) states: the states
/// turn costs are exact over. `Router`'s answers are checked against it
/// (`EdgeLabelExactnessTests`, `skateroute bench`'s exactness line).
public enum ReferenceSearch {
    /// Cheapest cost (effort seconds) from `a` to `b` as the router defines a route: the start
    /// part of `a`'s edge, whole edges with the turn costs between them, the part of `b`'s edge
    /// up to its offset; no U-turn on an edge; with `hardRule` no state past
    /// `CostingConstants.maxContinuousCrusty` metres of continuous crusty riding. Nil when no line exists.
    public static func cost(_ r: Router, from a: EdgeSnap, to b: EdgeSnap, hardRule: Bool) -> Double? {
        let m = r.map, c = r.costing
        let limit = CostingConstants.maxContinuousCrusty
        func bucket(_ run: Double) -> Int { run <= 0 ? 0 : min(Router.runBuckets - 1, Int(run / Router.runBucketMetres) + 1) }
        struct Item: Comparable {
            var g: Double; var state: Int
            static func < (x: Item, y: Item) -> Bool { x.g != y.g ? x.g < y.g : x.state < y.state }
        }
        struct Best { var g: Double; var run: Double }
        var best: [Int: Best] = [:]
        var done = Set<Int>()
        var heap = Heap<Item>()
        var answer = Double.infinity
        func push(_ t: Int, _ g: Double, _ run: Double) {
            if hardRule && run >= limit { return }
            let s = t << 4 | bucket(run)
            if let o = best[s], o.g <= g { return }
            best[s] = Best(g: g, run: run)
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
}

/// How many of a set of seeded searches cost the same as `ReferenceSearch` (`skateroute bench`
/// prints it; `EdgeLabelExactnessTests` asserts all of them).
public struct ExactnessCheck: Sendable {
    /// Relative cost difference still counted as equal (floating-point sums in another order).
    public static let tolerance = 1e-9

    /// Searches compared (both found a line, or both found none), and those equal to the reference.
    public var compared = 0
    public var equal = 0
    /// Searches where one side found a line and the other none (must stay 0).
    public var disagreed = 0
    /// The largest relative excess over the reference (0 when every search is equal).
    public var worstExcess = 0.0

    public init() {}

    /// Snapped ends drawn uniformly over the map's node box with `rng`, `pairsPerMode` per mode;
    /// each pair searched with and without the crusty rule by `route(router, a, b, hard)`.
    public static func run(planner: Planner, pairsPerMode: Int, seed: UInt64,
                           route: (Router, EdgeSnap, EdgeSnap, Bool) -> RoutePath?) -> ExactnessCheck {
        let m = planner.map
        var rng = SplitMix64(seed: seed)
        var lat0 = Double.infinity, lat1 = -Double.infinity, lon0 = Double.infinity, lon1 = -Double.infinity
        for i in 0..<m.nodeCount {
            lat0 = min(lat0, m.nodeLat[i]); lat1 = max(lat1, m.nodeLat[i])
            lon0 = min(lon0, m.nodeLon[i]); lon1 = max(lon1, m.nodeLon[i])
        }
        func point() -> Coordinate {
            Coordinate(lat: lat0 + (lat1 - lat0) * Double(rng.next() % 10_000) / 10_000,
                       lon: lon0 + (lon1 - lon0) * Double(rng.next() % 10_000) / 10_000)
        }
        var out = ExactnessCheck()
        for mode in RideMode.allCases {
            let router = planner.router(for: mode)
            for _ in 0..<pairsPerMode {
                guard let a = try? router.snap(point()), let b = try? router.snap(point()) else { continue }
                for hard in [true, false] {
                    let want = ReferenceSearch.cost(router, from: a, to: b, hardRule: hard)
                    let got = route(router, a, b, hard)
                    guard let want, let got else {
                        if (want == nil) != (got == nil) { out.disagreed += 1 }
                        continue
                    }
                    out.compared += 1
                    if abs(got.cost - want) <= tolerance * max(1, want) { out.equal += 1 } else { out.worstExcess = max(out.worstExcess, got.cost / want - 1) }
                }
            }
        }
        return out
    }
}
