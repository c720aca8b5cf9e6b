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
    /// The fast line's search, running or done, and whether it had to start without the hint.
    struct FastLineSearch {
        let router: Router
        /// The line and `relaxedEntryFirst`, from the thread it runs on (nil: not started yet).
        let pending: ParallelMap.Pending<(line: RoutePath?, entryFirst: Bool)>?
    }

    /// Starts the fast line's search on another thread when `smoothestThreads` allows.
    func startFastLine(from sa: EdgeSnap, to sb: EdgeSnap) -> FastLineSearch {
        // Made on this thread: the costing cache is shared, the costing is the search's own.
        let fast = router(for: .fastMildRoughness)
        guard smoothestThreads > 1 else { return FastLineSearch(router: fast, pending: nil) }
        return FastLineSearch(router: fast, pending: ParallelMap.start {
            var entryFirst = false
            let line = fast.bestRoute(from: sa, to: sb, targetBound: nil, relaxedEntryFirst: &entryFirst)
            return (line, entryFirst)
        })
    }

    /// The fast line `fast.bestRoute(from: sa, to: sb, ruleUnmet: ruleUnmet)` gives: the
    /// started search's when it stands for that call, else that call's.
    func fastLine(_ search: FastLineSearch, from sa: EdgeSnap, to sb: EdgeSnap, ruleUnmet: Bool) -> RoutePath? {
        if let pending = search.pending {
            let done = pending.wait()
            if !ruleUnmet || !done.entryFirst { return done.line }
        }
        return search.router.bestRoute(from: sa, to: sb, ruleUnmet: ruleUnmet)
    }
}
