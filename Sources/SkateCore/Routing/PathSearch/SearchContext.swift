/// What one A* search reads and never changes — the map, the costing, the target, penalties and
/// the bounds of its heuristic — behind one reference.
///
/// These used to be stored in `Search` itself, a ~5 KB struct (the map alone is 2.3 KB of
/// array headers): every non-mutating call a mutating method made (the heuristic on each relaxed
/// state) copied all of it, which was 8 % of `skateroute bench`'s routing time (perf: memmove
/// of 0x1408 bytes under `Search.relax`). A final class with constant fields is read in place.
final class SearchContext {
    let map: SkateMap
    let costing: SkateCosting
    let target: EdgeSnap
    /// Per-edge cost multipliers (alternatives); empty for most searches.
    let penalty: EdgePenalties
    /// Whether the 100 m continuous-crusty rule binds this search.
    let hardRule: Bool
    let proj: LocalProjection
    /// ALT bounds towards the target edge, when the costing allows them.
    let landmarkBound: LandmarkBound?
    /// The least cost of the forbidden way every line to the target takes, when there is one.
    let entry: ForbiddenEntryBound?
    /// A lower bound (effort seconds) on the target edge's last part, owed from every node.
    let lastLeg: Double
    /// Metres (projected) from the target point to the farther end node of its edge: the most of
    /// the straight line to the target that the last part can already cover (`heuristic`).
    let lastLegReach: Double
    /// Exact costs to the target under a costing this search's costs are at least
    /// (`TargetCostBound`: smoothest's later searches), when the caller has them.
    let targetBound: TargetCostBound?

    init(map: SkateMap, costing: SkateCosting, target: EdgeSnap, penalty: [Int: Double], hardRule: Bool, bounded: Bool, entry: ForbiddenEntryBound?,
         targetBound: TargetCostBound? = nil) {
        self.map = map
        self.targetBound = targetBound
        self.costing = costing
        self.target = target
        let penalty = EdgePenalties(penalty)
        self.penalty = penalty
        self.hardRule = hardRule
        self.entry = entry
        proj = LocalProjection(origin: target.point)
        landmarkBound = costing.landmarkTable.map {
            LandmarkBound(table: $0, targetNodes: (Int(map.edgeFrom[target.edge]), Int(map.edgeTo[target.edge])))
        }
        // Every line ends with part of the target edge from one of its ends: the cheaper of the
        // two is owed from any node (large when the target edge itself is a forbidden way; then,
        // without it, the search settles every state cheaper than that part before stopping).
        var last = 0.0
        if bounded {
            let eb = target.edge, len = Double(map.edgeLength[eb])
            var m = Double.infinity
            if costing.allowed(edge: eb, reversed: false) {
                m = min(m, Self.traversalCost(costing, penalty, eb, false, fraction: len > 0 ? target.offset / len : 0))
            }
            if costing.allowed(edge: eb, reversed: true) {
                m = min(m, Self.traversalCost(costing, penalty, eb, true, fraction: len > 0 ? (len - target.offset) / len : 0))
            }
            if m.isFinite { last = m * LandmarkBound.margin }
        }
        lastLeg = last
        var reach = 0.0
        for v in [Int(map.edgeFrom[target.edge]), Int(map.edgeTo[target.edge])] {
            let (x, y) = proj.project(lat: map.nodeLat[v], lon: map.nodeLon[v])
            reach = Swift.max(reach, (x * x + y * y).squareRoot())
        }
        lastLegReach = reach
    }

    /// A lower bound on the cost from `node` to the target: the largest of straight-line
    /// distance × the cheapest cost per metre (plus the forbidden entry, `ForbiddenEntryBound`),
    /// the same less the part of it the target edge's last part may cover, plus that part's
    /// least cost, and the landmark bound plus that least cost (all admissible; see
    /// `Search.relax` for the quantised bounds). The landmark bound is a bound on reaching the
    /// nearer end node E of the target edge; every line then still rides part of that edge from
    /// one of its ends, which costs at least `lastLeg` (turns cost ≥ 0). The straight line to the
    /// target runs at most |E − target| ≤ `lastLegReach` beyond E, so only the rest of it adds to
    /// `lastLeg`: adding the whole straight line overestimated by up to the last part's length ×
    /// the cheapest cost per metre, and a search with a cost limit just above its answer could
    /// stop without it (issue 30, twelfth round).
    @inline(__always) func heuristic(_ node: Int) -> Double {
        let (x, y) = proj.project(lat: map.nodeLat[node], lon: map.nodeLon[node])
        let d = (x * x + y * y).squareRoot()
        var straight = d * costing.minCostPerMetre
        if lastLeg > 0 { straight = Swift.max(straight, Swift.max(0, d - lastLegReach) * costing.minCostPerMetre + lastLeg) }
        if let entry { straight += entry.extra(node) }
        var h = straight
        if let lb = landmarkBound { h = Swift.max(h, lb.bound(node) + lastLeg) }
        // Already counts the target edge's last part: not `lastLeg` again.
        if let tb = targetBound { h = Swift.max(h, tb.bound(node)) }
        return h
    }

    /// The cost of riding `fraction` of an edge, with its penalty.
    @inline(__always) func traversalCost(_ e: Int, _ rev: Bool, fraction: Double = 1) -> Double {
        Self.traversalCost(costing, penalty, e, rev, fraction: fraction)
    }

    @inline(__always) static func traversalCost(_ costing: SkateCosting, _ penalty: EdgePenalties, _ e: Int, _ rev: Bool, fraction: Double) -> Double {
        let c = costing.edgeCost(edge: e, reversed: rev).cost * fraction
        // Most searches have no penalties: skip hashing the edge id then.
        if !penalty.isEmpty, let p = penalty[e] { return c * p }
        return c
    }
}
