import FoundationEssentials
import Glibc
import SkateCore

/// Where one fix of a whole trace landed on the map.
public struct FixMatch: Sendable, Equatable {
    /// How the fix was treated.
    public enum Status: String, Sendable, Equatable, CaseIterable {
        /// A state of the HMM: the Viterbi path chose `snap` for it.
        case matched
        /// Closer than `2 σ_z` to the previous kept fix: not a state of its own (Newson & Krumm
        /// skip such fixes too); placed at the nearest point of the matched route between its
        /// kept fix and the next one (or on the kept fix's match at the end of a chain).
        case carried
        /// A single-fix spike (a reflection off a façade): ignored, no edge.
        case outlier
        /// No edge within the search radius: no edge.
        case unmatched
    }

    public var status: Status
    /// The matched edge, the offset along it from `edgeFrom` (metres), the distance from the fix
    /// to the matched point (metres) and that point; nil for `outlier` and `unmatched`.
    public var snap: EdgeSnap?
    /// Metres along `TraceMatchResult.path` at this fix (nil when `snap` is nil); non-decreasing
    /// over the trace.
    public var pathDistance: Double?

    public init(status: Status, snap: EdgeSnap? = nil, pathDistance: Double? = nil) {
        self.status = status; self.snap = snap; self.pathDistance = pathDistance
    }

    /// The matched edge index, if any.
    public var edge: Int? { snap?.edge }
    /// True for `matched` and `carried`.
    public var hasEdge: Bool { snap != nil }
}

/// The result of matching a whole trace: one `FixMatch` per input fix and the ridden path.
public struct TraceMatchResult: Sendable, Equatable {
    /// One entry per input fix, in input order.
    public var fixes: [FixMatch]
    /// The matched path as legs over map edges (offsets in metres along each edge's drawing
    /// direction), in ride order. Consecutive legs connect except at `chainStarts`.
    public var path: [RouteLeg]
    /// Indices into `path` where a new HMM chain starts (after a gap in time or a teleport that
    /// no route explains); the path is not continuous there. Always starts with 0 when non-empty.
    public var chainStarts: [Int]
    /// Cumulative path metres at the end of each leg (same count as `path`).
    public var legEnds: [Double]

    public init(fixes: [FixMatch], path: [RouteLeg], chainStarts: [Int]) {
        self.fixes = fixes; self.path = path; self.chainStarts = chainStarts
        var acc = 0.0
        legEnds = path.map { acc += $0.length; return acc }
    }

    /// Length of the matched path in metres.
    public var pathLength: Double { legEnds.last ?? 0 }
    /// Number of fixes with an edge (`matched` or `carried`).
    public var matchedCount: Int { fixes.reduce(0) { $0 + ($1.hasEdge ? 1 : 0) } }
    /// Share of fixes with an edge, 0…1 (0 for an empty trace).
    public var matchedFraction: Double { fixes.isEmpty ? 0 : Double(matchedCount) / Double(fixes.count) }
    /// The edges of the path in ride order, consecutive repeats merged.
    public var edgeSequence: [Int] {
        var out: [Int] = []
        for l in path where out.last != l.edge { out.append(l.edge) }
        return out
    }

    /// The edge and offset (metres from `edgeFrom`) at `distance` metres along `path`, clamped to
    /// the path; nil for an empty path. Use it to place a measurement taken between two fixes
    /// (interpolate their `pathDistance` by time) on the right edge.
    public func position(atPathDistance distance: Double) -> (edge: Int, offset: Double)? {
        guard !path.isEmpty else { return nil }
        var lo = 0, hi = legEnds.count - 1
        while lo < hi {  // first leg whose end is ≥ distance
            let mid = (lo + hi) / 2
            if legEnds[mid] < distance { lo = mid + 1 } else { hi = mid }
        }
        let leg = path[lo]
        let start = lo == 0 ? 0 : legEnds[lo - 1]
        let into = min(max(0, distance - start), leg.length)
        return (leg.edge, leg.reversed ? leg.startOffset - into : leg.startOffset + into)
    }
}

/// Whole-trace map matching with a hidden Markov model in the style of Newson & Krumm (2009,
/// "Hidden Markov map matching through noise and sparseness"), for imported rides whose
/// roughness must land on the edges actually ridden.
///
/// - States: for each kept fix, up to `maxCandidates` edges within `searchRadius`, each with the
///   fix projected onto it (perpendicular projection onto the edge's polyline).
/// - Emission: Gaussian on the great-circle distance fix → candidate, σ_z = `sigmaZ`
///   (a stated constant, N&K's robust median-absolute-deviation estimate 1.4826 × median).
///   Priors: a way the skater may not use starts `forbiddenWayPrior` behind; with `plannedEdges`
///   (a ride that followed a plan), a way off the plan starts `offPlanPrior` behind.
/// - Transition: exponential on |great-circle distance between the fixes − route distance
///   between the candidates| with scale β = `beta`; the route distance comes from a Dijkstra over
///   the undirected graph bounded by `routeLimitFactor` × the fix distance + `routeLimitSlack`.
///   One addition to N&K: a cost per turn along that route (`turnCost`), which keeps the match
///   from hopping between a footway and the road a few metres beside it.
/// - Viterbi in log space; ties go to the earlier candidate (candidates are ordered by distance,
///   then edge index), so the result is deterministic.
/// - The chain breaks and restarts when no transition is possible (a teleport), when time runs
///   backwards, or when fixes are more than `maxTimeGap` apart; fixes without a candidate are
///   `unmatched` and do not break the chain. Fixes closer than `2 σ_z` to the previous kept fix are
///   `carried` (no state; placed afterwards on the route between kept fixes); single-fix spikes are
///   `outlier`s (N&K's "junk points, best ignored").
/// - The reported edge of a fix is always one the path uses: a state on a junction node is moved
///   onto the path leg through that node.
///
/// Memory is proportional to the trace (≤ `maxCandidates` states per fix) plus a few arrays of
/// the map's node and edge counts reused for every search.
public struct TraceMatcher: Sendable {
    /// Tuning of the matcher; every default is a named constant of `TraceMatcher`.
    public struct Parameters: Sendable, Equatable {
        /// Candidate search radius, metres.
        public var searchRadius: Double = TraceMatcher.defaultSearchRadius
        /// Most candidates kept per fix (nearest first).
        public var maxCandidates: Int = TraceMatcher.defaultMaxCandidates
        /// GPS noise σ_z of the emission Gaussian, metres.
        public var sigmaZ: Double = TraceMatcher.defaultSigmaZ
        /// Scale β of the exponential transition, metres.
        public var beta: Double = TraceMatcher.defaultBeta
        /// Route search limit: this × the fix-to-fix distance + `routeLimitSlack`, metres.
        public var routeLimitFactor: Double = TraceMatcher.defaultRouteLimitFactor
        public var routeLimitSlack: Double = TraceMatcher.defaultRouteLimitSlack
        /// Fixes further apart in time than this (seconds) start a new chain.
        public var maxTimeGap: Double = TraceMatcher.defaultMaxTimeGap
        /// Log-probability cost of a U-turn on the route between two states (a right angle costs
        /// half); 0 gives the plain Newson & Krumm transition.
        public var turnCost: Double = TraceMatcher.defaultTurnCost

        public init() {}
    }

    /// 50 m: over 10 σ_z, so a real match is never cut (N&K drop only roads "unreasonably far"),
    /// while a 20–40 m outlier still sees few candidates and the search stays within 3×3 grid cells.
    public static let defaultSearchRadius: Double = 50
    /// 8 candidates: a dense old town has ~4–6 edges within 20 m of a junction; more only costs time.
    public static let defaultMaxCandidates = 8
    /// 4.07 m, a stated constant: Newson & Krumm's robust estimate σ_z = 1.4826 × median distance
    /// fix → true road on their data (also Valhalla Meili's default), close to the synthetic
    /// rides' ≈ 4.2 m radial noise.
    public static let defaultSigmaZ: Double = 4.07
    /// 3 m, a stated constant: N&K estimate β = median|Δgc − Δroute| / ln 2 from ground truth;
    /// at ~1 Hz those differences are a few metres, and 3 m is Valhalla Meili's default.
    public static let defaultBeta: Double = 3
    /// Route search bound = 3 × fix distance + 100 m: nobody rides three times the straight line
    /// between two fixes; the slack covers jitter and the way round a block at walking pace.
    public static let defaultRouteLimitFactor: Double = 3
    public static let defaultRouteLimitSlack: Double = 100
    /// 60 s without a fix: a tunnel or a pause long enough that the route between is a guess.
    public static let defaultMaxTimeGap: Double = 60
    /// 6 log units per U-turn (3 per right angle, the emission cost of one fix 10 m off its way at
    /// σ_z = 4.07 m): footways mapped 3–5 m beside their road are closer than GPS can resolve, and
    /// hopping onto the road and back takes four right angles, so the match keeps to the way it
    /// follows ("successive matches are linked by simple routes"; Valhalla's Meili has a turn
    /// penalty factor for the same reason).
    public static let defaultTurnCost: Double = 6
    /// Log units a candidate on a way a skater may not use (`AccessModel` forbidden: foot=no
    /// roads, road tunnels…) starts behind: as much as a fix 8 m off its way at σ_z = 4.07 m.
    /// Riders keep to the pavement beside such roads, closer than GPS can tell apart.
    public static let forbiddenWayPrior: Double = 2
    /// Log units a candidate off the followed plan starts behind (only with `plannedEdges`): as much
    /// as a fix 8 m off its way at σ_z = 4.07 m. A separately mapped sidewalk lies 5–8 m beside its
    /// carriageway, inside the GPS error, and 20 s-correlated drift toward the road would otherwise
    /// carry a whole sidewalk ride onto it; a real detour 15 m or more away outweighs it by far
    /// (its emission gap is ≥ 6.8 units per fix).
    public static let offPlanPrior: Double = 2
    /// Metres a lift or escalator counts for in the route search between fixes: changing floors
    /// between two fixes is as unlikely as 20 m of unexplained travel (≈ 7 log units at β = 3 m).
    public static let liftHopMetres: Double = 20
    /// Partial legs shorter than this (metres) at either end of a route do not make a turn: a
    /// candidate on a junction node sits on every edge there at offset ~0.
    static let minTurnLeg: Double = 1
    /// Path legs shorter than this (metres) are dropped: a state on a junction node leaves
    /// millimetre stubs of the edges around it.
    static let minLegLength: Double = 0.01
    /// Seconds between untimed fixes (GPX without `<time>` read without an assumed speed): 1 Hz.
    public static let untimedInterval: Double = 1
    /// A fix is a spike when the detour through it exceeds the straight line between its
    /// neighbours by more than this (metres): ≈ 6 σ, far above correlated GPS jitter…
    public static let spikeExcess: Double = 25
    /// …at a rate (excess metres per second between the neighbours) no skater turns back at
    /// (12 m/s ≈ 43 km/h), so a real U-turn is never mistaken for a spike.
    public static let spikeSpeed: Double = 12

    public let map: SkateMap
    public var parameters: Parameters
    /// Edges of the plan the rider followed (empty for a free ride): candidates off them start
    /// `offPlanPrior` behind, so near-parallel ways inside the GPS error resolve to the plan.
    public var plannedEdges: Set<Int>

    public init(map: SkateMap, parameters: Parameters = Parameters(), plannedEdges: Set<Int> = []) {
        self.map = map
        self.parameters = parameters
        self.plannedEdges = plannedEdges
    }

    /// A state of the HMM: one candidate of one kept fix.
    struct Step {
        var fix: Int
        var candStart: Int
        var candCount: Int
        var chainStart: Bool
    }

    /// Matches a time-ordered trace. Never throws and never traps: an empty trace gives an empty
    /// result, fixes off the map are `unmatched`.
    /// - Parameter fixes: fixes in time order (`time` in seconds; untimed fixes count as 1 Hz).
    public func match(_ fixes: [GPXFix]) -> TraceMatchResult {
        let n = fixes.count
        guard n > 0 else { return TraceMatchResult(fixes: [], path: [], chainStarts: []) }
        let p = parameters
        let k = max(1, p.maxCandidates)
        let sigma = max(p.sigmaZ, 1e-3), beta = max(p.beta, 1e-3)
        let skipDistance = 2 * sigma
        var status = [FixMatch.Status](repeating: .unmatched, count: n)
        var fixStep = [Int](repeating: -1, count: n)
        let junk = spikes(fixes)

        var finder = TraceCandidateFinder(map: map, radius: p.searchRadius, maxCount: k)
        var search = TraceRouteSearch(map: map, turnCost: max(0, p.turnCost))
        var steps: [Step] = []
        var cands: [EdgeSnap] = []
        var back: [Int8] = []
        var chosen: [Int8] = []
        var prevScore: [Double] = [], curScore = [Double](repeating: 0, count: k)
        var chainStartStep = 0
        var lastKept: Int?
        var targets: [Int] = []

        func emission(_ d: Double) -> Double { let z = d / sigma; return -0.5 * z * z }

        /// Backtracks the chain ending at the last step and writes `chosen`.
        func closeChain() {
            guard let last = steps.last else { return }
            chosen.append(contentsOf: repeatElement(0, count: steps.count - chosen.count))
            var best = 0
            for j in 1..<max(1, last.candCount) where prevScore[j] > prevScore[best] { best = j }
            var s = steps.count - 1
            var j = best
            while true {
                chosen[s] = Int8(j)
                if s == chainStartStep { break }
                j = Int(back[steps[s].candStart + j])
                s -= 1
            }
        }

        for i in 0..<n {
            if junk[i] { status[i] = .outlier; continue }
            let c = fixes[i].coordinate
            if let kept = lastKept {
                let dt = seconds(fixes, kept, i)
                if dt >= 0, dt <= p.maxTimeGap, Geo.distance(fixes[kept].coordinate, c) < skipDistance {
                    status[i] = .carried; fixStep[i] = steps.count - 1
                    continue
                }
            }
            let start = cands.count
            let count = finder.candidates(near: c, into: &cands)
            guard count > 0 else { continue }  // unmatched; the chain goes on
            back.append(contentsOf: repeatElement(-1, count: count))
            var newChain = true
            if let kept = lastKept, let prev = steps.last {
                let dt = seconds(fixes, kept, i)
                if dt >= 0, dt <= p.maxTimeGap {
                    let gc = Geo.distance(fixes[kept].coordinate, c)
                    let limit = p.routeLimitFactor * gc + p.routeLimitSlack
                    targets.removeAll(keepingCapacity: true)
                    for q in start..<(start + count) {
                        targets.append(Int(map.edgeFrom[cands[q].edge])); targets.append(Int(map.edgeTo[cands[q].edge]))
                    }
                    for q in 0..<count { curScore[q] = -.infinity }
                    for j in 0..<prev.candCount where prevScore[j] > -.infinity {
                        let a = cands[prev.candStart + j]
                        search.run(from: a, targets: targets, limit: limit)
                        for q in 0..<count {
                            let (r, turns) = search.route(from: a, to: cands[start + q])
                            guard r <= limit else { continue }
                            let s = prevScore[j] - abs(gc - r) / beta - turns
                            if s > curScore[q] { curScore[q] = s; back[start + q] = Int8(j) }
                        }
                    }
                    newChain = !(0..<count).contains { curScore[$0] > -.infinity }
                }
            }
            if newChain {
                if !steps.isEmpty { closeChain() }
                chainStartStep = steps.count
                for q in 0..<count { curScore[q] = 0; back[start + q] = -1 }
            }
            // Emissions, then renormalise so the best state scores 0 (log space stays bounded).
            var top = -Double.infinity
            for q in 0..<count where curScore[q] > -.infinity {
                curScore[q] += emission(cands[start + q].distance)
                if AccessModel.decision(of: map.flags(ofEdge: cands[start + q].edge)).accessClass == .forbidden { curScore[q] -= Self.forbiddenWayPrior }
                if !plannedEdges.isEmpty, !plannedEdges.contains(cands[start + q].edge) { curScore[q] -= Self.offPlanPrior }
                top = max(top, curScore[q])
            }
            prevScore = Array(curScore[0..<count])
            for q in 0..<count { prevScore[q] -= top }
            steps.append(Step(fix: i, candStart: start, candCount: count, chainStart: newChain))
            lastKept = i
            status[i] = .matched
            fixStep[i] = steps.count - 1
        }
        if !steps.isEmpty { closeChain() }

        // The path: routes between consecutive chosen states of each chain.
        var path: [RouteLeg] = []
        var chainStarts: [Int] = []
        var stepDistance = [Double](repeating: 0, count: steps.count)
        var total = 0.0
        for s in steps.indices {
            if steps[s].chainStart {
                chainStarts.append(path.count)
                stepDistance[s] = total
                continue
            }
            let a = cands[steps[s - 1].candStart + Int(chosen[s - 1])]
            let b = cands[steps[s].candStart + Int(chosen[s])]
            let gc = Geo.distance(fixes[steps[s - 1].fix].coordinate, fixes[steps[s].fix].coordinate)
            let limit = p.routeLimitFactor * gc + p.routeLimitSlack
            search.run(from: a, targets: [Int(map.edgeFrom[b.edge]), Int(map.edgeTo[b.edge])], limit: limit)
            // A lift is 0 m long but joins two floors: it stays in the path.
            for leg in search.legs(from: a, to: b) where leg.length >= Self.minLegLength || map.flags(ofEdge: leg.edge).contains(.connector) {
                total += leg.length
                if let last = path.last, path.count > (chainStarts.last ?? 0), last.edge == leg.edge,
                   last.reversed == leg.reversed, abs(last.endOffset - leg.startOffset) < 1e-6 {
                    path[path.count - 1].endOffset = leg.endOffset
                } else {
                    path.append(leg)
                }
            }
            stepDistance[s] = total
        }

        // Each fix on the path: kept fixes at their state (moved onto a path leg when the state
        // sat on a junction node of an unused edge), carried fixes projected onto the route
        // between their kept fix and the next one of the chain.
        var acc = 0.0
        let legEnds = path.map { acc += $0.length; return acc }
        var chainOfStep = [Int](repeating: 0, count: steps.count)
        var c = -1
        for s in steps.indices { if steps[s].chainStart { c += 1 }; chainOfStep[s] = max(c, 0) }
        func legRange(_ s: Int) -> Range<Int> {
            let ch = chainOfStep[s]
            guard ch < chainStarts.count else { return 0..<0 }
            return chainStarts[ch]..<(ch + 1 < chainStarts.count ? chainStarts[ch + 1] : path.count)
        }
        var out: [FixMatch] = []
        out.reserveCapacity(n)
        var lastDistance = 0.0
        for i in 0..<n {
            switch status[i] {
            case .matched, .carried:
                let s = fixStep[i]
                var snap = cands[steps[s].candStart + Int(chosen[s])]
                var along = stepDistance[s]
                let hi = s + 1 < steps.count && !steps[s + 1].chainStart ? stepDistance[s + 1] : stepDistance[s]
                if status[i] == .carried {
                    snap.distance = Geo.distance(fixes[i].coordinate, snap.point)
                    if let (placed, d) = place(fixes[i].coordinate, path: path, legEnds: legEnds, legs: legRange(s), lo: along, hi: hi) {
                        snap = placed; along = max(d, lastDistance)
                    }
                } else if !pathUses(snap, path: path, legEnds: legEnds, legs: legRange(s), at: along),
                          let (placed, _) = place(snap.point, path: path, legEnds: legEnds, legs: legRange(s), lo: along, hi: along) {
                    snap.edge = placed.edge; snap.offset = placed.offset
                }
                // Never behind the previous fix (a carried fix's projection can round past a step end).
                along = max(along, lastDistance)
                lastDistance = along
                out.append(FixMatch(status: status[i], snap: snap, pathDistance: along))
            case .outlier, .unmatched:
                out.append(FixMatch(status: status[i]))
            }
        }
        return TraceMatchResult(fixes: out, path: path, chainStarts: chainStarts)
    }

    /// Whether a leg of `path[legs]` covering path distance `at` runs on the snap's edge.
    func pathUses(_ snap: EdgeSnap, path: [RouteLeg], legEnds: [Double], legs: Range<Int>, at: Double) -> Bool {
        if legs.isEmpty { return true }  // a chain of one fix: its state is all there is
        for k in legs {
            let start = k == 0 ? 0 : legEnds[k - 1]
            if start > at + Self.placementSlack { break }
            if legEnds[k] >= at - Self.placementSlack, path[k].edge == snap.edge { return true }
        }
        return false
    }

    /// Seconds from fix `a` to fix `b` (negative when time runs backwards).
    func seconds(_ fixes: [GPXFix], _ a: Int, _ b: Int) -> Double {
        if let ta = fixes[a].time, let tb = fixes[b].time { return tb - ta }
        return Double(b - a) * Self.untimedInterval
    }

    /// Single-fix spikes: the detour through fix i exceeds the straight line between its
    /// neighbours by more than `spikeExcess` metres at more than `spikeSpeed` m/s.
    func spikes(_ fixes: [GPXFix]) -> [Bool] {
        var out = [Bool](repeating: false, count: fixes.count)
        guard fixes.count >= 3 else { return out }
        for i in 1..<(fixes.count - 1) {
            let a = fixes[i - 1].coordinate, b = fixes[i].coordinate, c = fixes[i + 1].coordinate
            let excess = Geo.distance(a, b) + Geo.distance(b, c) - Geo.distance(a, c)
            let dt = max(seconds(fixes, i - 1, i + 1), Self.untimedInterval)
            if excess > Self.spikeExcess, excess / dt > Self.spikeSpeed { out[i] = true }
        }
        return out
    }
}
