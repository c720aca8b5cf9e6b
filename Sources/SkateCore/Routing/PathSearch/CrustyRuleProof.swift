/// A cheap, bounded proof that no line between two snapped points keeps every stretch of
/// continuous crusty riding under `CostingConstants.maxContinuousCrusty`, so `Router.bestRoute`
/// can skip the rule-bound A* — which, when no such line exists, settles every state it can
/// reach (the whole graph) before giving up — and go straight to the relaxed search.
///
/// Two searches without costs, one forward from the start and one backward from the target,
/// keep per node the least continuous crusty run (metres) with which the rule still lets a
/// rider be there; a lower run always dominates, so each search's reachable set is exact (and
/// it ignores the router's no-U-turn rule and its 10 m run buckets, which only makes the set
/// larger). They alternate one node at a time: when either side runs out of nodes without
/// reaching the other end, no rule-abiding line exists — the rule-bound A* could not have found
/// one either (it only ever accepts lines that abide by the rule), so skipping it changes no
/// answer. When the two sides meet, or the budget runs out first, nothing is proven and the
/// caller runs the rule-bound A* exactly as before.
struct CrustyRuleProof {
    /// Nodes each side may settle before the proof gives up (then the router searches as before).
    /// Enclosed crusty pockets on the Heidelberg extract are a few hundred nodes; an open start
    /// reaches this many within ≈ 1 km, where meeting the other side is the likelier outcome.
    static let budgetPerSide = 4_000
    /// Metres of slack on the limit, so the proof's different order of Float additions can never
    /// call a line infeasible that the router's own sums (`Search.relax`) would accept.
    static let roundingSlack = 0.01

    /// Nodes per side of the quick proof `Router.bestRoute` tries before any search: the proofs
    /// that succeed on Heidelberg almost all exhaust a side within 3 nodes (11 of 60 seeded
    /// smoothest plans: an end on a crusty way longer than the limit, or in a small pocket of
    /// them), and proving it first spares the 3,000-state rule-bound search (~1.5 ms). Small
    /// enough to cost microseconds when it proves nothing.
    static let quickBudgetPerSide = 64

    let map: SkateMap
    let costing: SkateCosting
    /// This proof's budget (`budgetPerSide` or `quickBudgetPerSide`); a quick one keeps its runs
    /// in a small table rather than pooled node labels.
    var budget = CrustyRuleProof.budgetPerSide

    /// The limit the proof tests against (a hair above the router's).
    static var limit: Double { CostingConstants.maxContinuousCrusty + roundingSlack }

    /// True only when no line from `a` to `b` can keep to the 100 m rule.
    func provesNoLine(from a: EdgeSnap, to b: EdgeSnap) -> Bool {
        SearchCounters.countProof()
        // The router may ride straight along a shared edge; leave that case to it.
        if a.edge == b.edge { return false }
        let sparse = budget < Self.budgetPerSide
        var fwd = Side(nodeCount: map.nodeCount, sparse: sparse), bwd = Side(nodeCount: map.nodeCount, sparse: sparse)
        let limit = Self.limit
        // Forward starts: leaving the snapped edge at either end (as `Search.run` does).
        let ea = a.edge, lenA = Double(map.edgeLength[ea]), crustyA = costing.isCrusty(edge: ea)
        let fromA = Int(map.edgeFrom[ea]), toA = Int(map.edgeTo[ea])
        // The run already ridden on the start edge when leaving it at each end (entered into the
        // forward search; the backward search meets it there).
        let startRun: (Int) -> Double? = { node in
            if node == fromA, costing.allowed(edge: ea, reversed: true) { return crustyA ? a.offset : 0 }
            if node == toA, costing.allowed(edge: ea, reversed: false) { return crustyA ? lenA - a.offset : 0 }
            return nil
        }
        for n in [fromA, toA] { if let r = startRun(n), r < limit { _ = fwd.offer(n, r) } }
        // Backward starts: the run still to ride on the target edge from either of its ends.
        let eb = b.edge, lenB = Double(map.edgeLength[eb]), crustyB = costing.isCrusty(edge: eb)
        let fromB = Int(map.edgeFrom[eb]), toB = Int(map.edgeTo[eb])
        let endRun: (Int) -> Double? = { node in
            if node == fromB, costing.allowed(edge: eb, reversed: false) { return crustyB ? b.offset : 0 }
            if node == toB, costing.allowed(edge: eb, reversed: true) { return crustyB ? lenB - b.offset : 0 }
            return nil
        }
        for n in [fromB, toB] { if let r = endRun(n), r < limit { _ = bwd.offer(n, r) } }

        // A node both sides reach, with runs that join under the limit, is a possible line.
        func meets(_ n: Int) -> Bool {
            let f = fwd.run(n), r = bwd.run(n)
            return f < .infinity && r < .infinity && f + r < limit
        }
        for n in [fromA, toA, fromB, toB] where meets(n) { return false }

        while true {
            // One node forward: ride out of it.
            guard let u = fwd.next() else { return true }
            let ru = fwd.run(u)
            for k in map.adjacencyRange(of: u) {
                let adj = map.adjacency[k]
                let e = Int(adj >> 1), rev = adj & 1 == 1
                guard costing.allowed(edge: e, reversed: rev) else { continue }
                let v = Int(rev ? map.edgeFrom[e] : map.edgeTo[e])
                let r = costing.isCrusty(edge: e) ? ru + Double(map.edgeLength[e]) : 0
                if r < limit, fwd.offer(v, r), meets(v) { return false }
            }
            // One node backward: ride into it.
            guard let v = bwd.next() else { return true }
            let rv = bwd.run(v)
            for k in map.adjacencyRange(of: v) {
                let adj = map.adjacency[k]
                let e = Int(adj >> 1), leavesReversed = adj & 1 == 1
                // The traversal u → v is this edge in the other direction.
                guard costing.allowed(edge: e, reversed: !leavesReversed) else { continue }
                let u = Int(leavesReversed ? map.edgeFrom[e] : map.edgeTo[e])
                let r = costing.isCrusty(edge: e) ? rv + Double(map.edgeLength[e]) : 0
                if r < limit, bwd.offer(u, r), meets(u) { return false }
            }
            if fwd.settled > budget && bwd.settled > budget { return false }
        }
    }

    /// A node's least run on one side, stamped (`SearchLabels`): a full proof starts without
    /// filling a node-sized array (it filled two per proof, linear in the map: 0.75 MB on
    /// Heidelberg, and far more on a region).
    struct RunLabel: StampedLabel {
        var run: Double
        var stamp: UInt16 = 0
        static var unreached: RunLabel { RunLabel(run: .infinity) }
    }

    /// One direction's least runs and its work list (label-correcting: a node is queued again
    /// when its run drops; runs only drop, so this ends).
    struct Side {
        /// Least run per node: pooled node labels, or (quick proofs) only the nodes reached.
        let dense: SearchLabels<RunLabel>?
        var sparse: IntKeyedTable<Double>
        var queue: [Int] = []
        var head = 0
        var settled = 0

        init(nodeCount: Int, sparse: Bool) {
            dense = sparse ? nil : SearchLabels(count: nodeCount)
            self.sparse = IntKeyedTable()
        }

        func run(_ n: Int) -> Double {
            if let dense { return dense[n].run }
            return sparse[n] ?? .infinity
        }

        mutating func offer(_ n: Int, _ r: Double) -> Bool {
            guard r < run(n) else { return false }
            if let dense { dense[n] = RunLabel(run: r) } else { sparse[n] = r }
            queue.append(n)
            return true
        }

        mutating func next() -> Int? {
            guard head < queue.count else { return nil }
            defer { head += 1; settled += 1 }
            return queue[head]
        }
    }
}
