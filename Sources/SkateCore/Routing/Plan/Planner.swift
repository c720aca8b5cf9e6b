import Dispatch
import Synchronization
import FoundationEssentials
import Glibc

/// The front door of routing: snaps the ends, runs the router for a mode, builds the plan and its
/// alternatives, and for `trickSpotCrawl` threads the route through a spot.
public struct Planner: Sendable {
    public let map: SkateMap
    public let knowledge: RoadKnowledge
    public let table: EdgeTable

    /// An alternative must differ from every accepted route by at least this share of its length.
    public static let alternativeMinDifference = 0.2
    /// Cost multiplier on edges of routes already found, when looking for alternatives.
    public static let alternativePenalty = 1.6
    /// Extra metres a spot detour may add on top of the mode's detour ratio.
    public static let spotDetourSlack: Double = 400
    /// A route passing within this many metres of a spot already visits it.
    public static let spotVisitRadius: Double = 35
    /// Spots considered per plan (nearest to the straight line first).
    public static let spotCandidates = 6
    /// A spot counts when a usable way lies within this many metres of it (a skatepark's own
    /// paths, a square's edge).
    static let spotSnapRadius: Double = 150
    /// Whether `trickSpotCrawl` skips spots whose lower bound cannot beat the best spot line so
    /// far; false only in the tests that compare with searching every candidate.
    var pruneSpotSearches = true
    /// Threads `trickSpotCrawl` searches its spot candidates on: the candidates' searches are
    /// independent (the costing's lazily computed costs tolerate concurrent writers), and on the
    /// plans where all six must be searched they are most of the plan's time. The answer does
    /// not depend on it (`SpotPruningTests` compares 1 and 2 threads with searching all).
    public var spotSearchThreads = 2
    /// Threads smoothest searches on: with 2 its fast line (the detour cap's reference) is
    /// searched beside its own line (`Planner+FastLine`). The plan does not depend on it
    /// (`SmoothestFastLineTests` compares 1 and 2).
    public var smoothestThreads = 2
    /// Threads a plan's honest-detour references (`Planner+WalkLines`) use: with 2 they are
    /// searched on the other core beside the plan's own searches. The plan does not depend on it
    /// (`WalkLinesTests` compares 1 and 2).
    public var walkLineThreads = 2

    public init(map: SkateMap, knowledge: RoadKnowledge = .empty) {
        self.init(map: map, knowledge: knowledge, table: EdgeTable(map: map, knowledge: knowledge))
    }

    /// Reuses a precomputed edge table (benchmarks, the TUI). `rules` other than the access
    /// model are for `skateroute bench`'s before/after figures only.
    public init(map: SkateMap, knowledge: RoadKnowledge, table: EdgeTable, rules: CostRules = .accessModel) {
        self.init(map: map, knowledge: knowledge, table: table, rules: rules, components: ConnectedComponents(map: map))
    }

    init(map: SkateMap, knowledge: RoadKnowledge, table: EdgeTable, rules: CostRules, components: ConnectedComponents) {
        self.map = map; self.knowledge = knowledge; self.table = table; self.rules = rules
        self.components = components
    }

    /// The same planner (sharing its map, edge table and components) with its own costing
    /// caches, for another thread: lazily computed edge costs are written on first use, so two
    /// threads should not share one cache.
    public func detached() -> Planner {
        var p = Planner(map: map, knowledge: knowledge, table: table, rules: rules, components: components)
        p.ownSpots = ownSpots
        p.boundedSearch = boundedSearch
        p.edgeLabels = edgeLabels
        p.pruneSpotSearches = pruneSpotSearches
        p.spotSearchThreads = spotSearchThreads
        p.smoothestThreads = smoothestThreads
        p.walkLineThreads = walkLineThreads
        return p
    }

    /// The legality rules of every costing this planner builds.
    public let rules: CostRules

    /// Connected components of the usable graph; ends snap only to the main network.
    public let components: ConnectedComponents

    /// The rider's own spots (name, position), threaded by `trickSpotCrawl` like the map's.
    public var ownSpots: [(name: String, at: Coordinate)] = []

    /// Costings per mode, built on first use and shared by copies of this planner.
    let cache = CostingCache()

    /// Whether routers prove the crusty rule unreachable before searching under it
    /// (`Router.boundedSearch`); false only for `skateroute bench`'s before/after figures.
    public var boundedSearch = true

    /// Whether routers keep one label per way into a node (`Router.edgeLabels`: exact, the
    /// default); false only for `skateroute bench --node-labels` and the tests that compare.
    public var edgeLabels = true

    public func router(for mode: RideMode, weights: ModeWeights? = nil) -> Router {
        var r: Router
        if let w = weights, w != mode.weights {
            let costing = cache.costing(for: mode, weights: w) { SkateCosting(map: map, table: table, mode: mode, weights: w, rules: rules) }
            r = Router(map: map, costing: costing, components: components)
        } else {
            let costing = cache.costing(for: mode) { SkateCosting(map: map, table: table, mode: mode, rules: rules) }
            r = Router(map: map, costing: costing, components: components)
        }
        r.boundedSearch = boundedSearch
        r.edgeLabels = edgeLabels
        return r
    }

    /// Mean roughness (g) differences below this are a tie (keeps smoothest's own line).
    static let roughnessTieMargin = 0.0005

    /// Length-weighted mean RMS roughness (g) of a path.
    public func meanRoughness(_ p: RoutePath) -> Double {
        var sum = 0.0, len = 0.0
        for l in p.legs { sum += Double(table.rms[l.edge]) * l.length; len += l.length }
        return len > 0 ? sum / len : 0
    }

    /// How many times smoothest may raise its distance weight to respect its detour cap.
    static let detourCapRetries = 3

    /// Plans a route between two positions.
    /// - Parameters:
    ///   - alternatives: how many alternatives to look for (each differs by ≥ 20 % of its length).
    /// - Throws: `RoutingError` when an end has no street nearby or the ends are not connected.
    public func plan(from a: Coordinate, to b: Coordinate, mode: RideMode, alternatives: Int = 0) throws -> RoutePlan {
        let router = router(for: mode)
        let sa = try router.snap(a), sb = try router.snap(b)
        return try plan(from: sa, to: sb, router: router, mode: mode, alternatives: alternatives)
    }

    public func plan(from sa: EdgeSnap, to sb: EdgeSnap, router: Router, mode: RideMode, alternatives: Int = 0) throws -> RoutePlan {
        let builder = PlanBuilder(map: map, costing: router.costing, knowledge: knowledge)
        // Smoothest's fast line (the detour cap's reference) is searched on the other core
        // beside its own line (`Planner+FastLine`).
        let fastSearch = mode == .smoothest ? startFastLine(from: sa, to: sb, walkLines: walkLineThreads > 1) : nil
        // The detour references depend only on the ends: searched on the other core meanwhile
        // (smoothest's fast-line thread searches them once its line is found).
        var walkSearch = fastSearch?.pending == nil ? startWalkLines(from: sa, to: sb) : nil
        // Costs to the target under this mode's costing (`TargetCostBound`) bound every search
        // of this plan that ends there: the first one, once a line along the bound's own cheapest
        // ways says how far it must reach, smoothest's later searches, the alternatives and
        // trickSpotCrawl's legs from a spot to the target (`Planner+TargetBound`).
        let (first, targetBound) = Self.firstSearch(router: router, from: sa, to: sb)
        guard var path = first else {
            throw RoutingError.disconnected(from: sa.point, to: sb.point)
        }
        var router = router
        // No line between these ends keeps to the crusty rule in this mode, so none does in any
        // (Router.bestRoute's `ruleUnmet`): later searches between them skip the rule-bound search.
        let ruleUnmet = !path.crustyRuleMet
        if mode == .smoothest, let fastSearch {
            // Distance capped: never more than detourCap × the fast line; raise the distance weight until it fits.
            let (fastPath, fastWalk) = fastLineAndWalk(fastSearch, from: sa, to: sb, ruleUnmet: ruleUnmet)
            if let fastWalk { walkSearch = fastWalk }
            var maxLength = Double.infinity
            if let ref = fastPath?.length, ref > 0 {
                var w = router.costing.weights
                maxLength = w.detourCap * ref
                for _ in 0..<Self.detourCapRetries where path.length > w.detourCap * ref {
                    w.distance *= 2
                    router = self.router(for: mode, weights: w)
                    if let p = router.bestRoute(from: sa, to: sb, ruleUnmet: ruleUnmet,
                                                targetBound: Self.bound(targetBound, for: [path], router: router), ruleWitness: path) { path = p }
                }
            }
            // Steep metres the per-edge costing cannot see: the least costly of this line and
            // lines searched with steeper braking weights, counting whole-line steep metres.
            // (`leastSteepLine` measures the line's own steep metres itself: not twice.)
            var steep: (braking: Double, caution: Double)
            if SteepLineRule.applies(to: mode) {
                (path, steep) = leastSteepLine(path, from: sa, to: sb, router: router, mode: mode, maxLength: max(maxLength, path.length),
                                               ruleUnmet: ruleUnmet, builder: builder, targetBound: targetBound)
            } else {
                steep = builder.steepMetres(path)
            }
            // Smoothest means smoothest: if the fast line happens to carry less roughness per metre
            // (the search also weighs climbs, crossings and traffic), ride that instead — unless
            // it brakes more, or needs more braking and caution metres together (issue 26).
            if var f = fastPath, f.crustyRuleMet || !path.crustyRuleMet,
               meanRoughness(f) < meanRoughness(path) - Self.roughnessTieMargin {
                let fs = builder.steepMetres(f)
                if fs.braking <= steep.braking + SteepLineRule.swapSlackMetres,
                   fs.braking + fs.caution <= steep.braking + steep.caution + SteepLineRule.swapSlackMetres {
                    f.cost = Self.trueCost(f, router: router)
                    path = f
                }
            }
        }
        var spots: [String] = []
        var spotNote: String?
        if mode == .trickSpotCrawl {
            (path, spots, spotNote) = threadThroughSpot(path: path, from: sa, to: sb, router: router,
                                                        goalBound: Self.bound(targetBound, for: [], router: router))
        }
        var plan = builder.build(path: path, mode: mode)
        plan.startSnap = sa
        plan.endSnap = sb
        plan.spots = spots
        if let n = spotNote { plan.notes.append(n) }
        if alternatives > 0 {
            var found: [RoutePath] = [path]
            var penalty: [Int: Double] = [:]
            let cap = Self.laterBoundCap * Self.trueCost(path, router: router)
            for _ in 0..<(alternatives * 3) where found.count <= alternatives {
                for p in found { for l in p.legs { penalty[l.edge] = (penalty[l.edge] ?? 1) * Self.alternativePenalty } }
                let bound = Self.bound(targetBound, for: [path], router: router, penalty: penalty, cap: cap)
                guard let alt = router.bestRoute(from: sa, to: sb, penalty: penalty, ruleUnmet: ruleUnmet, targetBound: bound,
                                                 ruleWitness: path) else { break }
                if found.allSatisfy({ Self.sharedFraction(alt, $0) <= 1 - Self.alternativeMinDifference }) {
                    // Report the true (unpenalised) cost.
                    var fixed = alt
                    fixed.cost = Self.trueCost(alt, router: router)
                    found.append(fixed)
                }
            }
            plan.alternatives = found.dropFirst().map { builder.build(path: $0, mode: mode) }
        }
        return Self.withAlternativeNotes(withDetour(plan, from: sa, to: sb, router: router, offer: alternatives > 0, lines: walkSearch?.wait()))
    }

    /// Each alternative keeps its own notes, but "no legal line" is only true when the plan
    /// itself uses a forbidden way: beside a legal plan an alternative's forbidden stretch is
    /// "not legal" (issue 30: alternatives said "no legal line" when the route was legal).
    static func withAlternativeNotes(_ p: RoutePlan) -> RoutePlan {
        guard p.legal else { return p }
        var plan = p
        for k in plan.alternatives.indices {
            plan.alternatives[k].notes = plan.alternatives[k].notes.map {
                $0.hasPrefix(PlanBuilder.noLegalLinePrefix) ? PlanBuilder.notLegalPrefix + String($0.dropFirst(PlanBuilder.noLegalLinePrefix.count)) : $0
            }
        }
        return plan
    }

    /// Share of `a`'s length that runs on edges `b` also uses.
    public static func sharedFraction(_ a: RoutePath, _ b: RoutePath) -> Double {
        let used = Set(b.legs.map(\.edge))
        let shared = a.legs.filter { used.contains($0.edge) }.reduce(0) { $0 + $1.length }
        return a.length > 0 ? shared / a.length : 1
    }

    /// A path's cost without penalties: each leg's share of its edge's cost plus the turns between
    /// legs, as the search adds them. A lift or escalator mapped as a node is a 0 m edge whose
    /// whole cost (wait and ride) counts, as in the search (it counted nothing here before, so a
    /// Monaco route with three lifts came out 150 effort seconds cheap and scored too high).
    static func trueCost(_ p: RoutePath, router: Router) -> Double {
        var c = 0.0
        for (i, l) in p.legs.enumerated() {
            let len = Double(router.map.edgeLength[l.edge])
            c += router.costing.edgeCost(edge: l.edge, reversed: l.reversed).cost * (len > 0 ? l.length / len : 1)
            if i > 0 {
                let prev = p.legs[i - 1]
                let node = Int(prev.reversed ? router.map.edgeFrom[prev.edge] : router.map.edgeTo[prev.edge])
                c += router.costing.transitionCost(from: prev.edge, fromReversed: prev.reversed, node: node, to: l.edge, toReversed: l.reversed)
            }
        }
        return c
    }

    /// Trick spots of the map (skateparks, squares and pedestrian areas), then the rider's own.
    public func trickSpots() -> [(name: String, at: Coordinate)] {
        (0..<map.placeCount).compactMap { i in
            guard let k = PlaceKind(rawValue: map.placeKind[i]), k.isTrickSpot else { return nil }
            return (map.string(map.placeName[i]), Coordinate(lat: map.placeLat[i], lon: map.placeLon[i]))
        } + ownSpots
    }

    func threadThroughSpot(path: RoutePath, from sa: EdgeSnap, to sb: EdgeSnap, router: Router,
                           goalBound: TargetCostBound? = nil) -> (RoutePath, [String], String?) {
        var searches = 0
        return threadThroughSpot(path: path, from: sa, to: sb, router: router, searches: &searches, goalBound: goalBound)
    }

    /// `searches` counts the routes searched (two per spot tried in full). `goalBound`: costs to
    /// `sb` under `router`'s costing (the plan's `TargetCostBound`), which every leg from a spot
    /// to `sb` adds to its heuristic: the same costs, fewer states (`TargetCostBoundTests`).
    /// Only read here, from both spot threads: nothing extends it until they are done.
    func threadThroughSpot(path: RoutePath, from sa: EdgeSnap, to sb: EdgeSnap, router: Router, searches: inout Int,
                           goalBound: TargetCostBound? = nil) -> (RoutePath, [String], String?) {
        let goal = ReadOnlyTargetBound(bound: goalBound)
        let spots = trickSpots()
        guard !spots.isEmpty else { return (path, [], "no skatepark, plaza or square on this map") }
        // Already passing one?
        let builder = PlanBuilder(map: map, costing: router.costing, knowledge: knowledge)
        let pts = path.legs.flatMap { builder.legGeometry($0) }
        // Every spot against every point of the line: a point further north or south than the
        // radius (a great circle is never shorter than its north–south part) is skipped before
        // the great-circle distance, which was most of this check's time.
        let latSpan = Self.spotVisitRadius / (Geo.earthRadius * Double.pi / 180) * (1 + 1e-9)
        for s in spots where pts.contains(where: { abs($0.lat - s.at.lat) <= latSpan && Geo.distance($0, s.at) <= Self.spotVisitRadius }) {
            return (path, [s.name], nil)
        }
        for l in path.legs where map.flags(ofEdge: l.edge).contains(.plaza) {
            let name = map.name(ofEdge: l.edge)
            return (path, [name.isEmpty ? "a pedestrian plaza" : name], nil)
        }
        let direct = Geo.distance(sa.point, sb.point)
        let budget = router.costing.weights.detourCap * max(path.length, direct) + Self.spotDetourSlack
        var scored: [(spot: (name: String, at: Coordinate), via: Double)] = []
        for s in spots {
            let via: Double = Geo.distance(sa.point, s.at) + Geo.distance(s.at, sb.point)
            if via <= budget { scored.append((s, via)) }
        }
        scored.sort { (x, y) -> Bool in x.via != y.via ? x.via < y.via : x.spot.name < y.spot.name }
        // The answer is the cheapest joined line within the budget, the better-ranked spot on a
        // tie. Candidates are tried cheapest lower bound first (`Router.costLowerBound`), and a
        // candidate whose bound already exceeds the best line found is never searched: it could
        // not win. Same answer as searching all of them (`SpotPruningTests`), with fewer searches.
        struct Candidate: Sendable { let rank: Int; let name: String; let snap: EdgeSnap; let toSpot: Double; let fromSpot: Double }
        var candidates: [Candidate] = []
        for (rank, (spot, _)) in scored.prefix(Self.spotCandidates).enumerated() {
            guard let ss = try? router.snap(spot.at, radius: Self.spotSnapRadius) else { continue }
            candidates.append(Candidate(rank: rank, name: spot.name, snap: ss,
                                        toSpot: router.costLowerBound(from: sa, to: ss), fromSpot: router.costLowerBound(from: ss, to: sb)))
        }
        if !pruneSpotSearches { candidates = candidates.map { Candidate(rank: $0.rank, name: $0.name, snap: $0.snap, toSpot: 0, fromSpot: 0) } }
        candidates.sort { ($0.toSpot + $0.fromSpot, $0.rank) < ($1.toSpot + $1.fromSpot, $1.rank) }
        let state = SpotSearchState(), list = candidates
        let workers = Swift.max(1, Swift.min(spotSearchThreads, ProcessInfo.processInfo.activeProcessorCount, list.count))
        let work: @Sendable (Int) -> Void = { _ in
            while let i = state.next(count: list.count, bound: { (list[$0].toSpot + list[$0].fromSpot, list[$0].rank) }) {
                let c = list[i]
                // Each leg's search stops once it cannot make a line that wins (`costLimit`).
                guard let p1 = router.bestRoute(from: sa, to: c.snap, costLimit: state.legLimit(less: c.fromSpot, pruning: pruneSpotSearches)) else { continue }
                guard state.couldWin(p1.cost + c.fromSpot, rank: c.rank, countingSearch: true) else { continue }
                guard let p2 = router.bestRoute(from: c.snap, to: sb, costLimit: state.legLimit(less: p1.cost, pruning: pruneSpotSearches),
                                                targetBound: goal.bound, ruleWitness: path) else { continue }
                let joined = RoutePath(legs: p1.legs + p2.legs, cost: p1.cost + p2.cost, crustyRuleMet: p1.crustyRuleMet && p2.crustyRuleMet)
                guard joined.length <= budget else { continue }
                state.offer(joined, name: c.name, rank: c.rank)
            }
        }
        if workers > 1 { DispatchQueue.concurrentPerform(iterations: workers, execute: work) } else { work(0) }
        searches += state.searches
        if let b = state.best { return (b.path, [b.name], nil) }
        return (path, [], "no trick spot within the detour budget (\(Int(budget)) m); riding the direct line")
    }
}

/// A lock-protected memo of one costing per mode (costings are immutable values once built).
/// A fixed slot per mode rather than a dictionary: no hashing set-up in a fresh process.
///
/// Also the last few costings of a mode under other weights: smoothest's detour-cap retries and
/// steep-line searches (`Planner+Steep`) ask for the same raised weights on every plan, and a
/// fresh costing computes each edge's cost again the first time a search reaches it (a costing's
/// lazily computed costs are the same values whichever search computes them first).
final class CostingCache: Sendable {
    private let byMode = Mutex([SkateCosting?](repeating: nil, count: RideMode.allCases.count))
    /// Costings under weights other than their mode's, oldest first (a list: no hashing set-up).
    private let byWeights = Mutex([(mode: RideMode, weights: ModeWeights, costing: SkateCosting)]())
    /// Weighted costings kept: smoothest asks for up to 5 per plan (3 detour-cap retries, 2
    /// steep-line weights); each costs 8 bytes per edge once its edges are computed.
    static let maxWeighted = 8

    func costing(for mode: RideMode, weights: ModeWeights, make: () -> SkateCosting) -> SkateCosting {
        byWeights.withLock { list in
            if let hit = list.first(where: { $0.mode == mode && $0.weights == weights }) { return hit.costing }
            let c = make()
            if list.count >= Self.maxWeighted { list.removeFirst() }
            list.append((mode, weights, c))
            return c
        }
    }

    func costing(for mode: RideMode, make: () -> SkateCosting) -> SkateCosting {
        byMode.withLock { byMode in
            let slot = mode.ordinal
            if let c = byMode[slot] { return c }
            let c = make()
            byMode[slot] = c
            return c
        }
    }
}

/// The shared state of one plan's spot candidate searches (`Planner.threadThroughSpot`): which
/// candidate is next, the best joined line so far and the searches run, behind one lock.
final class SpotSearchState: Sendable {
    private struct State {
        var next = 0
        var best: (path: RoutePath, name: String, rank: Int)?
        var searches = 0

        func winsOver(_ cost: Double, rank: Int) -> Bool {
            guard let b = best else { return true }
            return cost < b.path.cost || (cost == b.path.cost && rank < b.rank)
        }
    }
    private let state = Mutex(State())

    var best: (path: RoutePath, name: String, rank: Int)? { state.withLock { $0.best } }
    var searches: Int { state.withLock { $0.searches } }

    /// The index of the next of `count` candidates that could still win (counting its first
    /// search), or nil when none is left; `bound` gives a candidate's lower bound and rank.
    func next(count: Int, bound: (Int) -> (cost: Double, rank: Int)) -> Int? {
        state.withLock { s in
            while s.next < count {
                let i = s.next
                s.next += 1
                let b = bound(i)
                if s.winsOver(b.cost, rank: b.rank) { s.searches += 1; return i }
            }
            return nil
        }
    }

    /// Whether a line of at least `cost` from the candidate of `rank` could replace the best
    /// (the cheaper line wins; on a tie the better-ranked spot); counts a search when it could.
    func couldWin(_ cost: Double, rank: Int, countingSearch: Bool) -> Bool {
        state.withLock { s in
            let ok = s.winsOver(cost, rank: rank)
            if ok && countingSearch { s.searches += 1 }
            return ok
        }
    }

    /// The most a spot leg may cost and still make a winning line with another part costing at
    /// least `other` (infinity before a line is known, or without `pruning`). A tie can win on
    /// rank, and the sum is compared in floating point: the limit keeps a margin above the
    /// difference, so a leg it stops could never have won.
    func legLimit(less other: Double, pruning: Bool) -> Double {
        state.withLock { s in
            guard pruning, let b = s.best else { return .infinity }
            return b.path.cost - other + 1e-9 * Swift.max(1, b.path.cost)
        }
    }

    /// Keeps `path` when it beats the best so far.
    func offer(_ path: RoutePath, name: String, rank: Int) {
        state.withLock { s in
            if s.winsOver(path.cost, rank: rank) { s.best = (path, name, rank) }
        }
    }
}
