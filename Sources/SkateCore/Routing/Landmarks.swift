import HeapModule

/// ALT landmarks (A*, landmarks, triangle inequality; Goldberg & Harrelson 2005): for a few
/// nodes spread round the map's edge, every node's cheapest cost from and to each of them under
/// each mode's stored edge costs, computed at import and kept in the `.srmap`.
///
/// For a target t, d(v, t) ≥ d(L, t) − d(L, v) and d(v, t) ≥ d(v, L) − d(t, L) for every landmark
/// L, so the largest of these bounds is a lower bound on the remaining cost — far tighter than
/// straight-line distance × the map's cheapest cost per metre, which lets A* settle a fraction of
/// the nodes. The bounds ignore turn and crossing costs (≥ 0), so they stay admissible and
/// consistent; a costing may use them only while its edge costs are at least the stored ones.
public enum Landmarks {
    /// Landmarks per map: enough to cover the directions a route can take on a city map, few
    /// enough that the table stays small (8 × 2 floats per node and mode).
    public static let count = 8

    /// Landmark nodes: first the main-network node farthest from the map's centre, then each time
    /// the node farthest (straight line) from all chosen ones. Deterministic.
    static func choose(map: SkateMap, usable: (Int) -> Bool) -> [Int] {
        let nodes = (0..<map.nodeCount).filter(usable)
        guard !nodes.isEmpty else { return [] }
        var cLat = 0.0, cLon = 0.0
        for n in nodes { cLat += map.nodeLat[n]; cLon += map.nodeLon[n] }
        let centre = Coordinate(lat: cLat / Double(nodes.count), lon: cLon / Double(nodes.count))
        let proj = LocalProjection(origin: centre)
        let xy = nodes.map { proj.project(lat: map.nodeLat[$0], lon: map.nodeLon[$0]) }
        var nearest = xy.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }  // distance to the centre first
        var chosen: [Int] = []
        while chosen.count < min(count, nodes.count) {
            var best = 0
            for i in nearest.indices where nearest[i] > nearest[best] { best = i }
            chosen.append(nodes[best])
            if chosen.count == 1 { nearest = Array(repeating: .infinity, count: nodes.count) }
            for i in nearest.indices {
                let dx = xy[i].x - xy[best].x, dy = xy[i].y - xy[best].y
                nearest[i] = min(nearest[i], (dx * dx + dy * dy).squareRoot())
            }
        }
        return chosen
    }

    /// Cheapest edge-cost distances from `source` (forward) or to it (backward), per node;
    /// infinity where unreachable. `cost` is indexed `edge << 1 | reversed`.
    static func dijkstra(map: SkateMap, cost: FlatArray<Float>, source: Int, backward: Bool) -> [Float] {
        struct Item: Comparable {
            var d: Double
            var n: Int
            static func < (a: Item, b: Item) -> Bool { a.d != b.d ? a.d < b.d : a.n < b.n }
        }
        var dist = [Double](repeating: .infinity, count: map.nodeCount)
        var heap = Heap<Item>()
        dist[source] = 0
        heap.insert(Item(d: 0, n: source))
        while let top = heap.popMin() {
            let u = top.n
            guard top.d <= dist[u] else { continue }
            for k in map.adjacencyRange(of: u) {
                let adj = Int(map.adjacency[k])
                let e = adj >> 1, leavesReversed = adj & 1 == 1
                let w = Int(leavesReversed ? map.edgeFrom[e] : map.edgeTo[e])
                // Forward: ride u → w. Backward: the ride w → u, i.e. the opposite traversal.
                let c = Double(cost[e << 1 | ((leavesReversed != backward) ? 1 : 0)])
                guard c < .infinity else { continue }
                let d = top.d + c
                if d < dist[w] { dist[w] = d; heap.insert(Item(d: d, n: w)) }
            }
        }
        // Float(Double) rounds to nearest; step down where that went up, so a bound never grows.
        return dist.map { d in
            let f = Float(d)
            return f < .infinity && Double(f) > d ? f.nextDown : f
        }
    }

    /// For one mode's costs: per node, `count` pairs (from landmark, to landmark), flattened
    /// `node × 2 × count`. Rounded down to Float so a stored bound never exceeds the true one.
    static func table(map: SkateMap, cost: FlatArray<Float>, landmarks: [Int]) -> [Float] {
        let n = map.nodeCount
        var out = [Float](repeating: .infinity, count: n * 2 * count)
        for (i, l) in landmarks.enumerated() {
            let from = dijkstra(map: map, cost: cost, source: l, backward: false)
            let to = dijkstra(map: map, cost: cost, source: l, backward: true)
            // Rounded down (never up) into Float; zero and infinity (unreachable) stay as they are.
            func down(_ x: Float) -> Float { x > 0 && x < .infinity ? x.nextDown : x }
            for v in 0..<n {
                out[v * 2 * count + 2 * i] = down(from[v])
                out[v * 2 * count + 2 * i + 1] = down(to[v])
            }
        }
        return out
    }
}

/// The landmark lower bound towards one target edge (either of its end nodes) during a search.
struct LandmarkBound {
    /// This mode's table (`node × 2 × Landmarks.count`).
    let table: FlatArray<Float>
    /// The two target nodes' rows.
    let targetA: [Float], targetB: [Float]
    /// Scales the bound down slightly so Float rounding in the table never overestimates.
    static let margin = 0.999
    /// And by a fixed amount (effort seconds) for the rounding of small differences.
    static let slack = 0.01

    init(table: FlatArray<Float>, targetNodes: (Int, Int)) {
        self.table = table
        let w = 2 * Landmarks.count
        targetA = (0..<w).map { table[targetNodes.0 * w + $0] }
        targetB = (0..<w).map { table[targetNodes.1 * w + $0] }
    }

    /// A lower bound on the edge cost from `v` to the nearer target node (0 when nothing is known).
    @inline(__always) func bound(_ v: Int) -> Double {
        let w = 2 * Landmarks.count
        let row = v * w
        var a: Float = 0, b: Float = 0
        for i in 0..<Landmarks.count {
            let fv = table[row + 2 * i], tv = table[row + 2 * i + 1]
            // d(v,t) ≥ d(L,t) − d(L,v) and ≥ d(v,L) − d(t,L); skip unreachable (infinite) entries.
            if fv < .infinity {
                if targetA[2 * i] < .infinity { a = max(a, targetA[2 * i] - fv) }
                if targetB[2 * i] < .infinity { b = max(b, targetB[2 * i] - fv) }
            }
            if tv < .infinity {
                if targetA[2 * i + 1] < .infinity { a = max(a, tv - targetA[2 * i + 1]) }
                if targetB[2 * i + 1] < .infinity { b = max(b, tv - targetB[2 * i + 1]) }
            }
        }
        return Swift.max(0, Double(min(a, b)) * Self.margin - Self.slack)
    }
}
