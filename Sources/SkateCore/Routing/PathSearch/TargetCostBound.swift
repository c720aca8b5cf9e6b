/// Lower bounds on the cost still to go to one target, for the searches of a plan that follow its
/// first: smoothest's detour-cap retries (distance weight × 2), its steeper search (braking and
/// caution weights × 4) and its penalty rounds (edge costs × a multiplier ≥ 1) all search between
/// the same ends under costs at least the first search's, edge by edge (`ModeWeights.costsAtLeast`;
/// turns cost the same). So the least cost from a node to the target under the first costing,
/// turns left out, is an admissible bound for every one of them — much tighter than the landmark
/// bound, which is what those searches used and why each settled about as many states as the first.
///
/// The costs come from one backward A* over nodes (no turns, no crusty rule, no penalties) from the
/// target edge's two end parts towards the start, extended as far as a later search needs
/// (`extend(to:)`); its priority is the cost to the target plus `π`, a landmark lower bound on the
/// cost from the start (`StartLandmarkBound`). Every answer is a lower bound, wherever the
/// backward search has got to (issue 30/31, eleventh round):
///
/// - `π` is consistent up to `inconsistency` (one landmark code step: the codes are rounded, see
///   `LandmarkTable`), so a node popped with a cost `d` may still be `inconsistency` too dear, and
///   it is opened again when a cheaper way reaches it;
/// - for every node v either its cost is final (`d(v)` exact) or some open node w on v's cheapest
///   line to the target has its exact cost and a priority ≥ `F`, the least priority open; then
///   D(v) = D(w) + d(v, w) ≥ F − π(w) + d(v, w) ≥ F − π(v) − `inconsistency`.
///
/// So D(v) ≥ min(d(v), F − π(v) − `inconsistency`), the bound `bound(_:)` gives (scaled down by
/// `relativeMargin` for the different order the forward search adds the same Float costs in).
/// Nodes no line from the start reaches (π = ∞) get 0: the forward search never reaches them.
/// Checked against exact costs to the target (a plain Dijkstra) and the plain router on seeded
/// pairs: `TargetCostBoundTests`.
final class TargetCostBound {
    /// The costing whose costs every search using this bound must at least pay, edge by edge.
    let costing: SkateCosting
    let map: SkateMap
    let target: EdgeSnap
    /// Per node: cost to the target found so far (upper bound until final) and `π` (negative:
    /// not computed).
    struct Entry: StampedLabel {
        var d: Double
        var pi: Double
        /// The traversal (`edge << 1 | reversed`) that leaves this node on its cheapest line found
        /// to the target; -1 at a target edge end that rides straight onto it.
        var via: Int32
        var stamp: UInt16 = 0
        static var unreached: Entry { Entry(d: .infinity, pi: -1, via: -1) }
    }
    struct Item: Comparable {
        var key: Double
        var d: Double
        var node: Int
        static func < (a: Item, b: Item) -> Bool { a.key != b.key ? a.key < b.key : a.node < b.node }
    }
    private let labels: SearchLabels<Entry>
    private var heap = SearchHeap<Item>()
    private let startBound: StartLandmarkBound?
    private let proj: LocalProjection
    /// Effort seconds `π` may rise along an arc beyond the arc's cost (see the type's comment).
    let inconsistency: Double
    /// Nodes settled (opened again included), for the bench and tests.
    private(set) var settled = 0

    /// Scales a bound down so the forward search's own sums (other order, same Float costs)
    /// never come out below it: their rounding differs by ~1e-13 relative.
    static let relativeMargin = 1e-9
    /// Effort seconds taken off every bound for the same rounding on small costs.
    static let absoluteSlack = 1e-6
    /// Without landmarks `π` is the straight-line bound from the start scaled by this: the local
    /// projection's scale error between two nodes of a 20 km trip stays far below 5 %.
    static let straightShare = 0.95

    init(map: SkateMap, costing: SkateCosting, from start: EdgeSnap, to target: EdgeSnap) {
        self.map = map
        self.costing = costing
        self.target = target
        labels = SearchLabels(count: map.nodeCount)
        proj = LocalProjection(origin: start.point)
        if let t = costing.landmarkTable {
            startBound = StartLandmarkBound(table: t, startNodes: (Int(map.edgeFrom[start.edge]), Int(map.edgeTo[start.edge])))
            inconsistency = Swift.max(t.fine, t.coarse) + LandmarkBound.slack
        } else {
            startBound = nil
            inconsistency = LandmarkBound.slack
        }
        // Every line ends with part of the target edge from one of its ends.
        let eb = target.edge, len = Double(map.edgeLength[eb])
        if costing.allowed(edge: eb, reversed: false) {
            reach(Int(map.edgeFrom[eb]), costing.edgeCost(edge: eb, reversed: false).cost * (len > 0 ? target.offset / len : 0), via: -1)
        }
        if costing.allowed(edge: eb, reversed: true) {
            reach(Int(map.edgeTo[eb]), costing.edgeCost(edge: eb, reversed: true).cost * (len > 0 ? (len - target.offset) / len : 0), via: -1)
        }
    }

    /// `π(v)`: a lower bound on the cost from the start to `v`, consistent up to `inconsistency`;
    /// infinity when no line from the start reaches `v`.
    @inline(__always) private func pi(_ v: Int) -> Double {
        if let s = startBound { return s.bound(v) }
        let (x, y) = proj.project(lat: map.nodeLat[v], lon: map.nodeLon[v])
        return (x * x + y * y).squareRoot() * costing.minCostPerMetre * Self.straightShare
    }

    private func reach(_ v: Int, _ d: Double, via: Int32) {
        var e = labels[v]
        guard d < e.d else { return }
        if e.pi < 0 { e.pi = pi(v) }
        e.d = d
        e.via = via
        labels[v] = e
        // Nodes the start cannot reach stay out of the heap: no line to a reachable node passes them.
        if e.pi < .infinity { heap.insert(Item(key: d + e.pi, d: d, node: v)) }
    }

    /// The least priority still open (infinity once every node the start reaches is final).
    var frontier: Double { heap.min?.key ?? .infinity }

    /// Settles nodes until every one still open has a priority of at least `limit`: then a forward
    /// search whose line costs at most `limit − inconsistency` settles no node the bound has not
    /// costed exactly (its bound there is at least that).
    func extend(to limit: Double) {
        while let top = heap.min, top.key < limit { settleNext() }
    }

    /// Takes the least open node off the heap and reaches its neighbours.
    private func settleNext() {
        guard let top = heap.popMin() else { return }
        let u = top.node
        guard top.d <= labels[u].d else { return }
        settled += 1
        // Rides w → u into u, from each neighbour w: the opposite of u's leaving traversals.
        for k in map.adjacencyRange(of: u) {
            let adj = Int(map.adjacency[k])
            let e = adj >> 1, leavesReversed = adj & 1 == 1
            let toU = e << 1 | (leavesReversed ? 0 : 1)
            let c = costing.storedCost(toU)
            guard c < .infinity else { continue }
            reach(Int(leavesReversed ? map.edgeFrom[e] : map.edgeTo[e]), top.d + Double(c), via: Int32(toU))
        }
    }

    /// A line from `a` to the target along the backward search's cheapest ways (turns left out),
    /// extending the search until it has settled an end of `a`'s edge; nil when none is reached
    /// (or both ends share an edge). A real line, so its cost under a search's costing bounds
    /// that search's answer from above: how far to extend the bound for a plan's first search.
    func treeLine(from a: EdgeSnap) -> RoutePath? {
        let ea = a.edge, eb = target.edge
        guard ea != eb else { return nil }
        let lenA = Double(map.edgeLength[ea])
        // Leaving `a`'s edge at its start node (riding it backwards) or at its end node.
        var ends: [(node: Int, reversed: Bool)] = []
        if costing.allowed(edge: ea, reversed: true) { ends.append((Int(map.edgeFrom[ea]), true)) }
        if costing.allowed(edge: ea, reversed: false) { ends.append((Int(map.edgeTo[ea]), false)) }
        func settledEnd() -> Bool { ends.contains { labels[$0.node].d + Swift.max(0, labels[$0.node].pi) <= frontier } }
        while !settledEnd(), heap.min != nil { settleNext() }
        guard let start = ends.filter({ labels[$0.node].d < .infinity }).min(by: { labels[$0.node].d < labels[$1.node].d }) else { return nil }
        var legs = [RouteLeg(edge: ea, reversed: start.reversed, startOffset: a.offset, endOffset: start.reversed ? 0 : lenA)]
        var node = start.node
        for _ in 0..<map.nodeCount {
            let via = Int(labels[node].via)
            guard via >= 0 else { break }
            let e = via >> 1, rev = via & 1 == 1, len = Double(map.edgeLength[e])
            legs.append(RouteLeg(edge: e, reversed: rev, startOffset: rev ? len : 0, endOffset: rev ? 0 : len))
            node = Int(rev ? map.edgeFrom[e] : map.edgeTo[e])
        }
        let lenB = Double(map.edgeLength[eb])
        if node == Int(map.edgeFrom[eb]) {
            legs.append(RouteLeg(edge: eb, reversed: false, startOffset: 0, endOffset: target.offset))
        } else if node == Int(map.edgeTo[eb]) {
            legs.append(RouteLeg(edge: eb, reversed: true, startOffset: lenB, endOffset: target.offset))
        } else {
            return nil
        }
        return RoutePath(legs: legs, cost: 0, crustyRuleMet: true)
    }

    /// A lower bound (effort seconds) on the cost from `node` to the target under `costing` or
    /// any costing that charges at least as much for every traversal (turns ≥ 0 and penalties
    /// ≥ 1 only add).
    @inline(__always) func bound(_ node: Int) -> Double {
        let e = labels[node]
        let p = e.pi < 0 ? pi(node) : e.pi
        guard p < .infinity else { return 0 }
        let b = Swift.min(e.d, frontier - p - inconsistency)
        return Swift.max(0, b * (1 - Self.relativeMargin) - Self.absoluteSlack)
    }

    /// Whether a search under `other` with `penalty` may use this bound: the same mode and
    /// rules, weights that make no traversal cheaper, and no multiplier below 1. (The map and
    /// edge table are the caller's to keep the same: costings of one planner share them.)
    func applies(to other: SkateCosting, penalty: [Int: Double]) -> Bool {
        guard other.mode == costing.mode, other.rules == costing.rules, other.map.edgeCount == costing.map.edgeCount,
              other.weights.costsAtLeast(costing.weights) else { return false }
        return penalty.values.allSatisfy { $0 >= 1 }
    }
}

/// Landmark lower bounds on the cost from a start edge (either of its end nodes) to any node:
/// d(a, v) ≥ d(L, v) − d(L, a) and d(a, v) ≥ d(a, L) − d(v, L), the mirror of `LandmarkBound`.
/// A node some landmark reaches whose code says the landmark cannot reach it, while the landmark
/// reaches the start, cannot be reached from the start: infinity (the true bound; leaving that
/// term out would make the bound inconsistent there).
///
/// The two start nodes' values sit in four flat arrays and one pass over `v`'s landmark row
/// serves both (ninth round: an array of per-node row tuples cost a retain and release of two
/// arrays per start node per call, and `TargetCostBound.reach` was 11 % of a slow smoothest
/// plan's instructions); the bound is the same number, term for term.
struct StartLandmarkBound {
    let table: LandmarkTable
    /// Per landmark i: the upper end of d(L_i, start node) for the first and second start node
    /// (effort seconds; NaN: the landmark does not reach it).
    let highA: [Double], highB: [Double]
    /// Per landmark i: the lower end of d(start node, L_i) (NaN: it does not reach the landmark).
    let lowA: [Double], lowB: [Double]

    init(table t: LandmarkTable, startNodes: (Int, Int)) {
        table = t
        let w = 2 * Landmarks.count
        // Column 2i: from landmark i to the node; 2i + 1: from the node to landmark i.
        func column(_ n: Int, _ k: Int, _ f: (Int) -> Double) -> [Double] {
            (0..<Landmarks.count).map { i in let q = Int(t.values[n * w + 2 * i + k]); return q == LandmarkBound.none ? .nan : f(q) }
        }
        highA = column(startNodes.0, 0) { t.lower($0 + 1) }; highB = column(startNodes.1, 0) { t.lower($0 + 1) }
        lowA = column(startNodes.0, 1) { t.lower($0) }; lowB = column(startNodes.1, 1) { t.lower($0) }
    }

    /// The lesser over the two start nodes of the largest landmark bound, scaled as
    /// `LandmarkBound` scales its own (consistency is kept: a scale ≤ 1 and a constant).
    @inline(__always) func bound(_ v: Int) -> Double {
        let base = v * 2 * Landmarks.count
        let none = LandmarkBound.none
        var a = 0.0, b = 0.0
        for i in 0..<Landmarks.count {
            let fq = Int(table.values[base + 2 * i]), tq = Int(table.values[base + 2 * i + 1])
            // d(L, v) − d(L, start): v's low minus the start's high; a landmark that reaches the
            // start but not v says the start does not reach v.
            let ha = highA[i], hb = highB[i]
            if fq == none {
                if !ha.isNaN { a = .infinity }
                if !hb.isNaN { b = .infinity }
            } else {
                let f = table.lower(fq)
                if !ha.isNaN { a = Swift.max(a, f - ha) }
                if !hb.isNaN { b = Swift.max(b, f - hb) }
            }
            // d(start, L) − d(v, L): the start's low minus v's high (v unreachable to L: no bound).
            if tq != none {
                let t = table.lower(tq + 1)
                let la = lowA[i], lb = lowB[i]
                if !la.isNaN { a = Swift.max(a, la - t) }
                if !lb.isNaN { b = Swift.max(b, lb - t) }
            }
        }
        let least = Swift.min(a, b)
        guard least < .infinity else { return .infinity }
        return Swift.max(0, least * LandmarkBound.margin - LandmarkBound.slack)
    }
}
