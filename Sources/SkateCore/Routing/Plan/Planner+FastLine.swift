/// Smoothest's fast line — `fastMildRoughness`'s own line between the same ends, the detour cap's
/// reference and the roughness swap's candidate — searched on another core while smoothest
/// searches its own (issue 30). The two searches share nothing they write: each has its own
/// costing (lazily computed costs), labels from the lock-protected pool and its own heap.
///
/// One after the other, the fast search was told `ruleUnmet` by smoothest's line (no line keeps
/// the crusty rule: skip the rule-bound search). Beside it, it starts before that is known, so it
/// searches without the hint; its answer stands for the hinted one when smoothest's line keeps
/// the rule (the same call) or when its relaxed search started without a forbidden-entry bound
/// (`Router.bestRoute(relaxedEntryFirst:)`: then it ran the hinted call's searches). Otherwise
/// the hinted search runs after all, so the plan is the one a single thread gives, byte for byte
/// (`SmoothestFastLineTests`).
extension Planner {
    /// What the fast line's thread hands back: the line, `relaxedEntryFirst`, and the plan's
    /// detour references (`Planner+WalkLines`), started on that thread once the line is found
    /// (so a smoothest plan never runs three searches at once on two cores).
    typealias FastLineResult = (line: RoutePath?, entryFirst: Bool, walk: ParallelMap.Pending<WalkLines>?)

    /// The fast line's search, running or done, and whether it had to start without the hint.
    struct FastLineSearch {
        let router: Router
        /// The thread's result (nil: not started yet).
        let pending: ParallelMap.Pending<FastLineResult>?
    }

    /// Starts the fast line's search on another thread when `smoothestThreads` allows; with
    /// `walkLines`, that thread then starts the detour references' search.
    func startFastLine(from sa: EdgeSnap, to sb: EdgeSnap, walkLines: Bool = false) -> FastLineSearch {
        // Made on this thread: the costing cache is shared, the costing is the search's own.
        let fast = router(for: .fastMildRoughness)
        guard smoothestThreads > 1 else { return FastLineSearch(router: fast, pending: nil) }
        let map = self.map
        return FastLineSearch(router: fast, pending: ParallelMap.start {
            var entryFirst = false
            let line = fast.bestRoute(from: sa, to: sb, targetBound: nil, relaxedEntryFirst: &entryFirst)
            return (line, entryFirst, walkLines ? ParallelMap.start { Self.walkLines(map: map, from: sa, to: sb) } : nil)
        })
    }

    /// The fast line `fast.bestRoute(from: sa, to: sb, ruleUnmet: ruleUnmet)` gives: the
    /// started search's when it stands for that call, else that call's.
    func fastLine(_ search: FastLineSearch, from sa: EdgeSnap, to sb: EdgeSnap, ruleUnmet: Bool) -> RoutePath? {
        fastLineAndWalk(search, from: sa, to: sb, ruleUnmet: ruleUnmet).line
    }

    /// `fastLine`, and the detour references' search its thread started (nil when none).
    func fastLineAndWalk(_ search: FastLineSearch, from sa: EdgeSnap, to sb: EdgeSnap, ruleUnmet: Bool) -> (line: RoutePath?, walk: ParallelMap.Pending<WalkLines>?) {
        if let pending = search.pending {
            let done = pending.wait()
            if !ruleUnmet || !done.entryFirst { return (done.line, done.walk) }
            return (search.router.bestRoute(from: sa, to: sb, ruleUnmet: ruleUnmet), done.walk)
        }
        return (search.router.bestRoute(from: sa, to: sb, ruleUnmet: ruleUnmet), nil)
    }
}
