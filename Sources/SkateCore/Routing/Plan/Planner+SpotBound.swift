/// The goal bound `trickSpotCrawl`'s spot candidates share (issues 30/31, eleventh round): every
/// leg from a spot to the goal ends at the plan's own target under the plan's own costing, so one
/// `TargetCostBound` from the goal — exact turn-free costs to it, from one backward A* guided
/// towards the start — bounds every such leg from below, whatever spot it starts at (its proof
/// needs only a consistent `π`, not the leg's start).
///
/// It serves twice:
/// - as each candidate's bound on its second leg (`fromSpot`), beside the landmark bound: the
///   candidates are ordered and pruned by a much tighter sum, so fewer legs are searched (the
///   pruning keeps the answer of searching them all: `SpotPruningTests`);
/// - as the heuristic of each second leg's search (`Router.bestRoute`'s `targetBound`): the same
///   costs, far fewer states where the landmark bound is far below the leg's cost. A goal reached
///   only over a forbidden way was the worst case: every leg to it settled all the map cheaper
///   than the way's surcharge (~130 k states each on Heidelberg, ninth round).
///
/// The bound is built and extended before the spot threads start and only read after, so no
/// answer depends on the threads' timing. Any extension is admissible (`TargetCostBound.bound`),
/// a short one only looser, so it is capped by cost and by nodes settled.
extension Planner {
    /// How far the goal bound is extended, as a multiple of the direct line's cost (effort seconds
    /// over effort seconds): spot lines up to this much dearer than the direct line get exact
    /// turn-free costs to go; dearer ones still get `F − π`. In practice the node cap stops it first.
    static let spotGoalBoundReach = 1.5
    /// Nodes the goal bound may settle: each costs ~2,300 instructions (its `π` reads a landmark
    /// row), and where the *start* is the end shut in behind a forbidden way the backward search
    /// would settle every node cheaper than the way's surcharge. Callgrind, whole `plan` process,
    /// six slow Heidelberg plans (docs/region-scale.md, eleventh round): 3,000 nodes 1,403 M in
    /// all, 5,000 1,320 M, 10,000 1,347 M, 30,000 1,472 M (main: 2,263 M).
    static let spotGoalBoundNodes = 5_000

    /// The goal bound for a plan whose direct line is `direct`, extended and then only read.
    func spotGoalBound(router: Router, from sa: EdgeSnap, to sb: EdgeSnap, direct: RoutePath) -> FrozenTargetBound? {
        guard direct.cost.isFinite else { return nil }
        let bound = TargetCostBound(map: map, costing: router.costing, from: sa, to: sb)
        bound.extend(to: direct.cost * Self.spotGoalBoundReach + bound.inconsistency, maxSettled: Self.spotGoalBoundNodes)
        return FrozenTargetBound(bound: bound)
    }
}

/// A `TargetCostBound` no one extends any more: its reads change nothing, so the spot searches
/// on two threads may share it.
struct FrozenTargetBound: @unchecked Sendable {
    let bound: TargetCostBound

    /// A lower bound (effort seconds) on every line from `a` to the goal: each leaves `a`'s edge
    /// at one of its end nodes, or stays on it when it is the goal's own edge (then 0).
    func bound(from a: EdgeSnap) -> Double {
        if a.edge == bound.target.edge { return 0 }
        let map = bound.map
        return Swift.min(bound.bound(Int(map.edgeFrom[a.edge])), bound.bound(Int(map.edgeTo[a.edge])))
    }
}
