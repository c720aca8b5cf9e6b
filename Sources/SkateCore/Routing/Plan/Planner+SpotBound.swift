/// The bound `trickSpotCrawl`'s legs from a spot to the goal share (issue 30/31, ninth round):
/// every such leg searches to the plan's own target under the plan's own costing, so one
/// `TargetCostBound` from the goal — exact turn-free costs to it, from one backward A* — is an
/// admissible heuristic for all of them (`TargetCostBound`'s proof holds for any start: its `π`,
/// guided from the plan's start, need only be consistent). The legs find lines of the same cost
/// and settle fewer states (`SpotPruningTests` compares their answers with and without it).
///
/// It pays where the goal is reached only over a forbidden way: each leg to it then settles every
/// state cheaper than the way's surcharge (Heidelberg `49.4204736,8.6342862 →
/// 49.4099820,8.5907105`: ~56 k rule-bound and ~76 k relaxed states per leg; 1,104 M → 244 M
/// instructions for the plan). Elsewhere it did not: on legal direct lines the legs' landmark
/// bounds already serve (K = 1 `47.1978778,8.0866386 → 47.0423569,7.9924653`: 375 M → 466 M
/// instructions), and where the *start* is the enclosed end (the same Heidelberg pair reversed:
/// 47 M → 168 M) the legs to the goal are cheap while the backward search pays the surcharge.
/// So it is built only when the direct line's forbidden part lies nearer its goal than its start.
extension Planner {
    /// When `trickSpotCrawl`'s legs to the goal search with the goal bound.
    enum SpotGoalBound: Sendable {
        /// When the direct line rides a forbidden way nearer its goal than its start (the
        /// default; `goalBehindForbiddenWay`).
        case whenGoalBehindForbiddenWay
        /// Always (tests: the bound must not change an answer).
        case always
        /// Never (tests: the answers to compare with).
        case never
    }

    /// How far the goal bound is extended before the spot searches start, as a multiple of the
    /// direct line's cost: spot lines costing up to this much more than the direct line get exact
    /// turn-free costs to go (beyond it the bound is still admissible, only looser). Extended once,
    /// before the searches run on two threads, so each search sees the same bound whatever the
    /// threads' timing (the answer may not depend on it).
    static let spotGoalBoundReach = 1.25

    /// The goal bound for the spot legs of a plan whose direct line is `direct`, extended and
    /// then only read; nil when `spotGoalBound` says not to build one.
    func spotGoalBound(router: Router, from sa: EdgeSnap, to sb: EdgeSnap, direct: RoutePath) -> FrozenTargetBound? {
        switch spotGoalBound {
        case .never: return nil
        case .always: break
        case .whenGoalBehindForbiddenWay: if !goalBehindForbiddenWay(direct) { return nil }
        }
        guard direct.cost.isFinite else { return nil }
        let bound = TargetCostBound(map: map, costing: router.costing, from: sa, to: sb)
        bound.extend(to: direct.cost * Self.spotGoalBoundReach + bound.inconsistency)
        return FrozenTargetBound(bound: bound)
    }

    /// Whether `direct` rides a forbidden way and has fewer metres after its last forbidden leg
    /// than before its first: the goal, not the start, is the end shut in behind the way.
    func goalBehindForbiddenWay(_ direct: RoutePath) -> Bool {
        guard let first = direct.legs.firstIndex(where: { !legalToWalk($0.edge) }),
              let last = direct.legs.lastIndex(where: { !legalToWalk($0.edge) }) else { return false }
        let before = direct.legs[..<first].reduce(0) { $0 + $1.length }
        let after = direct.legs[(last + 1)...].reduce(0) { $0 + $1.length }
        return after < before
    }
}

/// A `TargetCostBound` no one extends any more: its reads (`bound(_:)`) change nothing, so the
/// spot searches on two threads may share it.
struct FrozenTargetBound: @unchecked Sendable {
    let bound: TargetCostBound
}
