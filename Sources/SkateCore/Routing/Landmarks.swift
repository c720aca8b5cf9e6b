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
    static func dijkstra(map: SkateMap, cost: FlatArray<Float>, source: Int, backward: Bool) -> [Double] {
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
        return dist
    }

    /// For one mode's costs: per node, `count` pairs (cost from the landmark, cost to it),
    /// flattened `node × 2 × count`, in effort seconds (infinity where unreachable).
    static func distances(map: SkateMap, cost: FlatArray<Float>, landmarks: [Int]) -> [Double] {
        let n = map.nodeCount
        var out = [Double](repeating: .infinity, count: n * 2 * count)
        for (i, l) in landmarks.enumerated() {
            let from = dijkstra(map: map, cost: cost, source: l, backward: false)
            let to = dijkstra(map: map, cost: cost, source: l, backward: true)
            for v in 0..<n {
                out[v * 2 * count + 2 * i] = from[v]
                out[v * 2 * count + 2 * i + 1] = to[v]
            }
        }
        return out
    }
}

/// One mode's landmark costs as the map file stores them: each cost divided by the mode's
/// `scale` and rounded DOWN to a UInt16, so a stored value `q` says the true cost lies in
/// `[q × scale, (q + 1) × scale)`. A lower bound takes the bottom of that range and an upper
/// bound its top, so the bounds stay admissible (`LandmarkBound`). Half the bytes of Float, a
/// quarter of Double; on Heidelberg the scale is a few effort seconds against routes of
/// thousands.
public struct LandmarkTable: Sendable {
    /// `node × 2 × Landmarks.count` quantised costs; `unreachable` where no path exists.
    public let values: FlatArray<UInt16>
    /// Effort seconds per unit of `values`.
    public let scale: Double

    /// Marks "no path" (the largest UInt16).
    static let unreachable = UInt16.max
    /// Largest finite value: the scale puts the table's largest finite cost at or below it.
    static let maxValue = UInt16.max - 1

    /// Quantises costs (infinity = unreachable): the scale is the smallest that fits the largest
    /// finite cost into `maxValue`, and every value is rounded down (checked exactly, so a
    /// Double division that rounded up across an integer is stepped back).
    static func quantise(_ d: [Double]) -> (values: [UInt16], scale: Double) {
        let maxFinite = d.reduce(0) { $1.isFinite ? max($0, $1) : $0 }
        var scale = max(maxFinite / Double(maxValue), .leastNormalMagnitude)
        while (maxFinite / scale).rounded(.down) > Double(maxValue) { scale = scale.nextUp }
        let values = d.map { x -> UInt16 in
            guard x.isFinite else { return unreachable }
            var q = (x / scale).rounded(.down)
            while q > 0 && q * scale > x { q -= 1 }
            return UInt16(q)
        }
        return (values, scale)
    }
}

/// The landmark lower bound towards one target edge (either of its end nodes) during a search.
struct LandmarkBound {
    /// This mode's table (`node × 2 × Landmarks.count`).
    let table: FlatArray<UInt16>
    let scale: Double
    /// The two target nodes' rows.
    let targetA: [Int32], targetB: [Int32]
    /// Scales the bound down slightly so Double rounding never overestimates.
    static let margin = 0.999
    /// And by a fixed amount (effort seconds) for the rounding of small differences.
    static let slack = 0.01
    /// `LandmarkTable.unreachable` as read into Int32.
    static let none = Int32(LandmarkTable.unreachable)

    init(table t: LandmarkTable, targetNodes: (Int, Int)) {
        table = t.values
        scale = t.scale
        let w = 2 * Landmarks.count
        targetA = (0..<w).map { Int32(t.values[targetNodes.0 * w + $0]) }
        targetB = (0..<w).map { Int32(t.values[targetNodes.1 * w + $0]) }
    }

    /// A lower bound on the edge cost from `v` to the nearer target node (0 when nothing is known).
    /// With stored values q (true cost in [q, q + 1) units): d(L,t) − d(L,v) > q(L,t) − q(L,v) − 1
    /// and d(v,L) − d(t,L) > q(v,L) − q(t,L) − 1. Unreachable entries are skipped.
    @inline(__always) func bound(_ v: Int) -> Double {
        let w = 2 * Landmarks.count
        let row = v * w
        var a: Int32 = 0, b: Int32 = 0
        let none = Self.none
        for i in 0..<Landmarks.count {
            let fv = Int32(table[row + 2 * i]), tv = Int32(table[row + 2 * i + 1])
            if fv != none {
                if targetA[2 * i] != none { a = max(a, targetA[2 * i] - fv - 1) }
                if targetB[2 * i] != none { b = max(b, targetB[2 * i] - fv - 1) }
            }
            if tv != none {
                if targetA[2 * i + 1] != none { a = max(a, tv - targetA[2 * i + 1] - 1) }
                if targetB[2 * i + 1] != none { b = max(b, tv - targetB[2 * i + 1] - 1) }
            }
        }
        return Swift.max(0, Double(min(a, b)) * scale * Self.margin - Self.slack)
    }
}
