/// The honest-detour references of a plan (issue 26, item 4) — the shortest line over any way and
/// the shortest legal walk between its ends — searched on the other core while the plan's own
/// search runs (issue 30: they were about a tenth of a single-search plan's time, and they
/// depend only on the ends and the map, never on the mode's costing).
///
/// `ShortestLine` is pure: it reads the map and writes only its own labels (from the
/// lock-protected pool) and heap, so the lines are the ones a search on the calling thread
/// finds, byte for byte (`WalkLinesTests` compares them).
extension Planner {
    /// The two reference lines between a plan's ends.
    struct WalkLines: Sendable {
        /// The shortest line over every way (metres), whatever its legality; nil when none.
        let direct: RoutePath?
        /// Whether every way of `direct` is legal to walk.
        let directLegal: Bool
        /// The shortest line over the ways legal to walk; nil when none.
        let walk: RoutePath?
    }

    /// The reference lines, searched now on this thread.
    static func walkLines(map: SkateMap, from sa: EdgeSnap, to sb: EdgeSnap) -> WalkLines {
        let legal = { (e: Int) in legalToWalk(e, map: map) }
        let direct = ShortestLine.path(map: map, from: sa, to: sb, allowed: { _ in true })
        let directLegal = direct.map { $0.legs.allSatisfy { legal($0.edge) } } ?? true
        // A direct line that is legal to walk is also a shortest legal walk (the shortest over
        // all ways, and every way of it admitted): the second search is needed only when the
        // direct line takes a way a walker may not. No direct line at all: no walk either (its
        // ways are a subset).
        let walk = directLegal ? direct : ShortestLine.path(map: map, from: sa, to: sb, allowed: legal)
        return WalkLines(direct: direct, directLegal: directLegal, walk: walk)
    }

    /// The reference lines' search, started on another thread when `walkLineThreads` allows
    /// (else nil: `withDetour` searches them itself).
    func startWalkLines(from sa: EdgeSnap, to sb: EdgeSnap) -> ParallelMap.Pending<WalkLines>? {
        guard walkLineThreads > 1 else { return nil }
        let map = self.map
        return ParallelMap.start { Self.walkLines(map: map, from: sa, to: sb) }
    }
}
