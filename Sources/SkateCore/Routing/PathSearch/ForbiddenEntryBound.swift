/// A lower bound for the searches whose target can be reached only over a forbidden way
/// (`AccessModel`: 20 000 effort seconds + 100 per metre each): without it, A* settles every
/// legally reachable state before it accepts the forbidden line, since every one of them looks
/// cheaper than the surcharge.
///
/// A bounded backward search over legal traversals from the target's end nodes collects the set
/// T of nodes from which the target can be reached without a forbidden way. When it runs out of
/// nodes within its budget, T is complete: every line from a node outside T enters T over a
/// traversal that is allowed but not legal — a forbidden way — so it costs at least the cheapest
/// such entry. Adding that entry cost (less the straight-line part it may overlap) to the
/// straight-line bound of nodes outside T keeps the heuristic admissible and consistent (T is
/// closed under legal traversals, so only an entering edge can step from "outside" to "inside",
/// and that edge pays at least the entry). When T is large (the usual case: the target sits on
/// the legal network) the search gives up at its budget and nothing changes.
struct ForbiddenEntryBound {
    /// Nodes the backward search may settle: enclosed private grounds and closed-off pockets are
    /// tens to hundreds of nodes; a target on the open network reaches this many within ≈ 500 m.
    static let budget = 2_000
    /// Effort seconds kept off the entry cost for the rounding of Float edge costs.
    static let slack = 1.0

    /// Nodes that reach the target legally (`IntKeyedTable`, not a `Set`: the heuristic asks it
    /// for every node the search reaches, and a miss ends at the first free slot without SipHash).
    let inside: IntKeyedTable<Bool>
    /// Least cost of entering `inside` (effort seconds), less the straight-line part.
    let entry: Double

    /// The bound for a target, or nil when the target is reachable legally from beyond the
    /// budget (then the search runs as it always did).
    init?(map: SkateMap, costing: SkateCosting, target: EdgeSnap) {
        func legal(_ e: Int) -> Bool { AccessModel.decision(of: map.flags(ofEdge: e)).accessClass != .forbidden }
        let eb = target.edge
        var inside = IntKeyedTable<Bool>()
        var queue: [Int] = []
        for v in [Int(map.edgeFrom[eb]), Int(map.edgeTo[eb])] where inside[v] == nil { inside[v] = true; queue.append(v) }
        var head = 0
        while head < queue.count {
            if queue.count > Self.budget { return nil }
            let v = queue[head]; head += 1
            for k in map.adjacencyRange(of: v) {
                let adj = map.adjacency[k]
                let e = Int(adj >> 1), leavesReversed = adj & 1 == 1
                // The traversal u → v is this edge in the other direction.
                guard legal(e), costing.allowed(edge: e, reversed: !leavesReversed) else { continue }
                let u = Int(leavesReversed ? map.edgeFrom[e] : map.edgeTo[e])
                if inside[u] == nil { inside[u] = true; queue.append(u) }
            }
        }
        // The cheapest allowed traversal from outside into T (necessarily a forbidden one).
        var entry = Double.infinity
        for v in queue {
            for k in map.adjacencyRange(of: v) {
                let adj = map.adjacency[k]
                let e = Int(adj >> 1), leavesReversed = adj & 1 == 1
                let u = Int(leavesReversed ? map.edgeFrom[e] : map.edgeTo[e])
                guard inside[u] == nil, costing.allowed(edge: e, reversed: !leavesReversed) else { continue }
                let c = costing.edgeCost(edge: e, reversed: !leavesReversed).cost
                    - costing.minCostPerMetre * Double(map.edgeLength[e]) * Self.chordMargin - Self.slack
                entry = min(entry, c)
            }
        }
        // No way in at all (the target is cut off): the search finds nothing either way.
        guard entry.isFinite, entry > 0 else { return nil }
        self.inside = inside
        self.entry = entry
    }

    /// The straight line between an edge's ends is never longer than the edge; this margin
    /// covers the projection's approximation of that line (a few parts per thousand at most).
    static let chordMargin = 1.01

    /// What to add to the straight-line bound of `node`.
    @inline(__always) func extra(_ node: Int) -> Double { inside[node] != nil ? 0 : entry }
}
