import FoundationEssentials
import Glibc
import SkateCore

/// Bounded shortest-path search over the undirected map graph, from a point on an edge (a
/// candidate) to the end nodes of other candidates' edges. Distances are metres of edge length;
/// every edge counts (a skater may walk steps), in both directions.
///
/// The search stops as soon as every target node is settled or the next node is beyond the
/// limit, and reuses its arrays between runs (a generation stamp marks what is current), so one
/// run costs only the nodes it touches.
struct TraceRouteSearch {
    let map: SkateMap
    /// Tentative distance per node, valid when `stamp[n] == generation`.
    private var dist: [Double]
    private var stamp: [UInt32]
    /// `settled[n] == generation` once node n's distance is final.
    private var settled: [UInt32]
    /// `target[n] == generation` for the target nodes of the current run.
    private var target: [UInt32]
    /// Adjacency entry (`edge << 1 | reversed`) that reached the node, or a seed marker.
    private var pred: [UInt32]
    private var generation: UInt32 = 0
    /// Binary min-heap of (distance, node), ties by node index for determinism.
    private var heap: [(d: Double, node: Int32)] = []
    /// Bearing (radians, clockwise from north) of each edge's first and last segment, drawing direction.
    private let startBearing: [Float]
    private let endBearing: [Float]
    /// Turn cost weight (log-probability units for a U-turn; see `TraceMatcher.defaultTurnCost`).
    let turnCost: Double
    /// Scratch for the directed edges of one route.
    private var hops: [(edge: Int, reversed: Bool, length: Double)] = []

    /// `pred` marker: the node is the source edge's `edgeFrom`, reached along the source edge.
    static let seedFrom = UInt32.max
    /// `pred` marker: the node is the source edge's `edgeTo`.
    static let seedTo = UInt32.max - 1

    init(map: SkateMap, turnCost: Double) {
        self.map = map
        self.turnCost = turnCost
        var sb = [Float](repeating: 0, count: map.edgeCount), eb = sb
        for e in 0..<map.edgeCount {
            let count = map.shapePointCount(ofEdge: e)
            sb[e] = Float(Self.bearing(map.shapePoint(ofEdge: e, 0), map.shapePoint(ofEdge: e, 1)))
            eb[e] = Float(Self.bearing(map.shapePoint(ofEdge: e, count - 2), map.shapePoint(ofEdge: e, count - 1)))
        }
        startBearing = sb
        endBearing = eb
        let n = map.nodeCount
        dist = [Double](repeating: .infinity, count: n)
        stamp = [UInt32](repeating: 0, count: n)
        settled = [UInt32](repeating: 0, count: n)
        target = [UInt32](repeating: 0, count: n)
        pred = [UInt32](repeating: 0, count: n)
    }

    /// Runs the search from the candidate point `source` until all `targets` (node indices) are
    /// settled or the frontier passes `limit` metres.
    mutating func run(from source: EdgeSnap, targets: [Int], limit: Double) {
        generation &+= 1
        if generation == 0 {  // wrapped: clear once every 4 billion runs
            for i in stamp.indices { stamp[i] = 0; settled[i] = 0; target[i] = 0 }
            generation = 1
        }
        heap.removeAll(keepingCapacity: true)
        var remaining = 0
        for t in targets where target[t] != generation { target[t] = generation; remaining += 1 }
        let e = source.edge
        let len = Double(map.edgeLength[e])
        relax(Int(map.edgeFrom[e]), max(0, source.offset), Self.seedFrom)
        relax(Int(map.edgeTo[e]), max(0, len - source.offset), Self.seedTo)
        while remaining > 0, let (d, n32) = popMin() {
            let node = Int(n32)
            guard settled[node] != generation, d == dist[node] else { continue }  // stale entry
            if d > limit { break }
            settled[node] = generation
            if target[node] == generation { remaining -= 1 }
            for entry in map.neighbours(of: node) {
                let edge = Int(entry >> 1)
                let reversed = entry & 1 == 1
                let next = Int(reversed ? map.edgeFrom[edge] : map.edgeTo[edge])
                // A lift or escalator counts at least `liftHopMetres`: its 0 m would let the
                // match hop between floors at every fix near the shaft.
                let len = Double(map.edgeLength[edge])
                relax(next, d + (map.flags(ofEdge: edge).contains(.connector) ? max(len, TraceMatcher.liftHopMetres) : len), entry)
            }
        }
    }

    /// Route metres and turn cost from the last run's source `a` to `b` (metres +∞ when not
    /// reached). The turn cost sums `turnCost` × (1 − cos θ) / 2 over the route's turns (θ between
    /// the bearing arriving at a node and the one leaving it; partial legs under
    /// `TraceMatcher.minTurnLeg` metres at either end do not turn), so straight on costs 0, a right
    /// angle half of `turnCost` and a U-turn all of it. Moving along one shared edge costs no turn.
    mutating func route(from a: EdgeSnap, to b: EdgeSnap) -> (distance: Double, turns: Double) {
        let lenB = Double(map.edgeLength[b.edge])
        let from = Int(map.edgeFrom[b.edge]), to = Int(map.edgeTo[b.edge])
        let viaFrom = settled[from] == generation ? dist[from] + b.offset : .infinity
        let viaTo = settled[to] == generation ? dist[to] + max(0, lenB - b.offset) : .infinity
        let direct = a.edge == b.edge ? abs(b.offset - a.offset) : .infinity
        let best = min(direct, viaFrom, viaTo)
        guard best < .infinity else { return (.infinity, 0) }
        if direct <= best || turnCost <= 0 { return (best, 0) }
        let useFrom = viaFrom <= viaTo
        hops.removeAll(keepingCapacity: true)
        hops.append((b.edge, !useFrom, useFrom ? b.offset : max(0, lenB - b.offset)))
        var node = useFrom ? from : to
        var guardSteps = map.nodeCount + 1
        while guardSteps > 0 {
            guardSteps -= 1
            let p = pred[node]
            if p == Self.seedFrom { hops.append((a.edge, true, a.offset)); break }
            if p == Self.seedTo { hops.append((a.edge, false, max(0, Double(map.edgeLength[a.edge]) - a.offset))); break }
            let edge = Int(p >> 1)
            let reversed = p & 1 == 1
            hops.append((edge, reversed, Double(map.edgeLength[edge])))
            node = Int(reversed ? map.edgeTo[edge] : map.edgeFrom[edge])
        }
        // hops run from b back to a: hops[i + 1] arrives where hops[i] leaves.
        var lo = 0, hi = hops.count - 1
        if hops[lo].length < TraceMatcher.minTurnLeg { lo += 1 }
        if hi > lo, hops[hi].length < TraceMatcher.minTurnLeg { hi -= 1 }
        var cost = 0.0
        if hi > lo {
            for i in lo..<hi {
                let out = hops[i], into = hops[i + 1]
                let arrive = into.reversed ? Double(startBearing[into.edge]) + .pi : Double(endBearing[into.edge])
                let leave = out.reversed ? Double(endBearing[out.edge]) + .pi : Double(startBearing[out.edge])
                cost += turnCost * (1 - cos(leave - arrive)) / 2
            }
        }
        return (best, cost)
    }

    /// Bearing in radians (clockwise from north) from shape point `a` to shape point `b`.
    static func bearing(_ a: Coordinate, _ b: Coordinate) -> Double {
        let lat = a.lat * .pi / 180
        let dx = (b.lon - a.lon) * cos(lat)
        let dy = b.lat - a.lat
        return atan2(dx, dy)
    }

    /// The legs of the shortest route of the last run from its source `a` to `b` (empty when
    /// `b` was not reached). Ties prefer the direct way along a shared edge, then `b`'s `edgeFrom`.
    func legs(from a: EdgeSnap, to b: EdgeSnap) -> [RouteLeg] {
        let lenB = Double(map.edgeLength[b.edge])
        let from = Int(map.edgeFrom[b.edge]), to = Int(map.edgeTo[b.edge])
        let viaFrom = settled[from] == generation ? dist[from] + b.offset : .infinity
        let viaTo = settled[to] == generation ? dist[to] + max(0, lenB - b.offset) : .infinity
        if a.edge == b.edge, abs(b.offset - a.offset) <= min(viaFrom, viaTo) {
            return [RouteLeg(edge: a.edge, reversed: b.offset < a.offset, startOffset: a.offset, endOffset: b.offset)]
        }
        guard viaFrom < .infinity || viaTo < .infinity else { return [] }
        let useFrom = viaFrom <= viaTo
        let entry = useFrom ? from : to
        var legs: [RouteLeg] = []
        // The last leg: into b's edge from the entry node.
        legs.append(useFrom
                    ? RouteLeg(edge: b.edge, reversed: false, startOffset: 0, endOffset: b.offset)
                    : RouteLeg(edge: b.edge, reversed: true, startOffset: lenB, endOffset: b.offset))
        // Whole edges back to a seed node, then the first leg along a's edge.
        var node = entry
        var guardSteps = map.nodeCount + 1
        while guardSteps > 0 {
            guardSteps -= 1
            let p = pred[node]
            let lenA = Double(map.edgeLength[a.edge])
            if p == Self.seedFrom {
                legs.append(RouteLeg(edge: a.edge, reversed: true, startOffset: a.offset, endOffset: 0))
                break
            }
            if p == Self.seedTo {
                legs.append(RouteLeg(edge: a.edge, reversed: false, startOffset: a.offset, endOffset: lenA))
                break
            }
            let edge = Int(p >> 1)
            let reversed = p & 1 == 1
            let len = Double(map.edgeLength[edge])
            legs.append(RouteLeg(edge: edge, reversed: reversed, startOffset: reversed ? len : 0, endOffset: reversed ? 0 : len))
            node = Int(reversed ? map.edgeTo[edge] : map.edgeFrom[edge])
        }
        return legs.reversed()
    }

    // MARK: Heap

    private mutating func relax(_ node: Int, _ d: Double, _ via: UInt32) {
        if stamp[node] == generation {
            guard settled[node] != generation, d < dist[node] else { return }
        }
        stamp[node] = generation
        dist[node] = d
        pred[node] = via
        push(d, Int32(node))
    }

    @inline(__always) private static func less(_ a: (d: Double, node: Int32), _ b: (d: Double, node: Int32)) -> Bool {
        a.d != b.d ? a.d < b.d : a.node < b.node
    }

    private mutating func push(_ d: Double, _ node: Int32) {
        heap.append((d, node))
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.less(heap[i], heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func popMin() -> (Double, Int32)? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            let n = heap.count
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < n, Self.less(heap[l], heap[m]) { m = l }
                if r < n, Self.less(heap[r], heap[m]) { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
        }
        return (top.d, top.node)
    }
}
