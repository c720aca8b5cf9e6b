import FoundationEssentials
import Glibc

/// How a round trip measures up against the bounds it was asked for.
public struct LoopQuality: Sendable, Equatable {
    /// The asked length and the loop's length, metres.
    public var asked: Double
    public var length: Double
    /// Metres ridden more than once (either direction), and their share of `length`.
    public var reusedMetres: Double
    public var reuseShare: Double { length > 0 ? reusedMetres / length : 1 }
    /// Metres on ways a skater may not use.
    public var forbiddenMetres: Double
    /// Whether every leg kept to the 100 m crusty rule.
    public var crustyRuleMet: Bool
    /// Signed length error as a share of `asked` (+0.1: 10 % too long).
    public var lengthError: Double { asked > 0 ? (length - asked) / asked : 0 }

    /// Within ±`LoopRules.lengthTolerance`, at most `LoopRules.maxReuseShare` ridden twice,
    /// no forbidden metres.
    public var meetsBounds: Bool {
        abs(lengthError) <= LoopRules.lengthTolerance && reuseShare <= LoopRules.maxReuseShare && forbiddenMetres == 0
    }

    /// How far a loop misses the bounds (0 when it meets them): length and reuse overshoot as
    /// shares, a forbidden metre as a whole share.
    var miss: Double {
        max(0, abs(lengthError) - LoopRules.lengthTolerance) + max(0, reuseShare - LoopRules.maxReuseShare)
            + (forbiddenMetres > 0 ? 1 : 0)
    }

    /// One line: "5.12 km (+2.4 %), 3.1 % ridden twice".
    public var summary: String {
        let pct = lengthError * 100
        return "\(FixedDecimal.string(length / 1000, decimals: 2)) km (\(pct >= 0 ? "+" : "")\(FixedDecimal.string(pct, decimals: 1)) %), "
            + "\(FixedDecimal.string(reuseShare * 100, decimals: 1)) % ridden twice"
    }
}

/// A planned round trip: the plan (its alternatives are other loops), how each loop measures
/// up, and whether the best met the bounds.
public struct LoopResult: Sendable {
    /// A normal plan from the start back to the start, built from the joined legs, so every
    /// output format serves a loop as it serves a route.
    public var plan: RoutePlan
    public var quality: LoopQuality
    /// One per `plan.alternatives`, in order.
    public var alternativeQualities: [LoopQuality]
    /// Attempts made (each a few searches).
    public var attempts: Int
    /// The seed the headings came from.
    public var seed: UInt64
    /// Whether the loop meets the bounds; when false, `note` says so in one line with the best found.
    public var met: Bool { quality.meetsBounds }
    public var note: String?
}

extension Planner {
    /// Plans a round trip of about `length` metres that starts and ends at `start`.
    ///
    /// Waypoints go on a circle through the start (its heading drawn from `seed`), legs between
    /// them are routed in `mode` with a cost penalty on the edges already ridden, and attempts
    /// turn the heading, change the waypoint count and rescale the radius from the last
    /// attempt's street-to-polygon ratio until a loop meets `LoopQuality.meetsBounds`.
    /// - Parameters:
    ///   - length: asked length in metres (`LoopRules.lengthRange`).
    ///   - alternatives: other loops to look for (each shares ≤ 80 % of its length with the rest).
    /// - Throws: `RoutingError.noEdgeNear` when the start has no street nearby, `.noLoop` when no
    ///   line leaves it and comes back (streets reached one way only).
    public func loop(from start: Coordinate, length: Double, mode: RideMode, seed: UInt64 = 0, alternatives: Int = 0) throws -> LoopResult {
        let router = router(for: mode)
        // The loop starts on a street it can leave and come back to: a lift, an escalator or a
        // one-way stretch under the rider's feet would make every return leg impossible.
        let s = try map.nearestEdge(to: start, maxDistance: Router.snapRadius, where: { isLoopStreet($0, router: router) })
            ?? router.snap(start)
        var rng = SplitMix64(seed: seed)
        let baseHeading = Double(rng.next() % 3600) / 10
        let firstSense: Double = rng.next() & 1 == 0 ? 1 : -1
        // One learned factor per waypoint count: a triangle and a pentagon wind differently.
        var factors = [Double](repeating: LoopRules.initialDetourFactor, count: LoopRules.waypointCounts.count)
        var found: [(path: RoutePath, quality: LoopQuality, effort: Double)] = []
        var best: (path: RoutePath, quality: LoopQuality)?
        var attempts = 0
        var longest = 0.0
        for attempt in 0..<LoopRules.maxAttempts {
            let accepted = found.count
            if attempt >= LoopRules.minAttempts && accepted > alternatives { break }
            // The map cannot hold it: wider circles only snap to its edge again.
            if attempt >= LoopRules.hopelessAfterAttempts && longest < LoopRules.hopelessShare * length { break }
            attempts += 1
            let shape = attempt % LoopRules.waypointCounts.count
            let k = LoopRules.waypointCounts[shape]
            let factor = factors[shape]
            let heading = baseHeading + Double(attempt) * LoopRules.headingStep
            let sense = (attempt / 2) % 2 == 0 ? firstSense : -firstSense
            guard let (paths, _) = loopAttempt(router: router, start: s, length: length, factor: factor,
                                               waypoints: k, heading: heading, sense: sense), let path = paths.first else {
                // Too few waypoints found a street (all in the sea, or merged at the start): go wider.
                factors[shape] = max(factor * LoopRules.widenOnEmpty, LoopRules.detourFactorRange.lowerBound)
                continue
            }
            longest = max(longest, paths.map(\.length).max() ?? 0)
            // Learn the radius from the miss: waypoints snapped off their circle (a coast, the
            // map's edge) shrink the polygon, so the length itself steers the next radius. The
            // line nearer the bounds steers, the cut one on a tie: on a small map the spurs may be
            // what brings a long loop to length, and the radius then stays where it is good.
            let scored = paths.map { (path: $0, quality: quality(of: $0, asked: length)) }
            let steer = scored.min { $0.quality.miss < $1.quality.miss }?.path ?? path
            if steer.length > 0 {
                let step = pow(length / steer.length, LoopRules.radiusLearningRate)
                let learned = min(max(factor / step, LoopRules.detourFactorRange.lowerBound), LoopRules.detourFactorRange.upperBound)
                // Every shape learns from the miss; its own shape most.
                for i in factors.indices { factors[i] = i == shape ? learned : sqrt(factors[i] * learned) }
            }
            // The line with its spurs cut first, then as routed: on a small map the spurs may be
            // what brings a long loop to its length, within the reuse it allows.
            for (p, q) in scored {
                if best == nil || (q.miss, Self.effortPerMetre(p)) < (best!.quality.miss, Self.effortPerMetre(best!.path)) {
                    best = (p, q)
                }
                if q.meetsBounds,
                   found.allSatisfy({ Self.sharedFraction(p, $0.path) <= 1 - Self.alternativeMinDifference }) {
                    found.append((p, q, Self.loopRank(p, q)))
                }
            }
        }
        guard let best else { throw RoutingError.noLoop(from: s.point) }
        let builder = PlanBuilder(map: map, costing: router.costing, knowledge: knowledge)
        // The best-ranked loop (least effort per metre, nearest the length) first, then the others.
        let ranked = found.sorted { $0.effort < $1.effort }
        let chosen = ranked.first.map { ($0.path, $0.quality) } ?? best
        var plan = builder.build(path: chosen.0, mode: mode)
        plan.startSnap = s
        plan.endSnap = s
        let alts = ranked.dropFirst().prefix(alternatives)
        plan.alternatives = alts.map { builder.build(path: $0.path, mode: mode) }
        var note: String?
        if !chosen.1.meetsBounds {
            let why = chosen.1.forbiddenMetres > 0
                ? "every loop found rides ways a skater may not use (\(Int(chosen.1.forbiddenMetres.rounded())) m: the start is reached only over them)"
                : "the streets reachable do not hold one"
            note = "no \(FixedDecimal.string(length / 1000, decimals: 1)) km loop within ±\(Int(LoopRules.lengthTolerance * 100)) % and ≤ \(Int(LoopRules.maxReuseShare * 100)) % ridden twice from here "
                + "(\(why)); best found: \(chosen.1.summary)"
            plan.notes.append(note!)
        }
        return LoopResult(plan: plan, quality: chosen.1, alternativeQualities: alts.map(\.quality), attempts: attempts, seed: seed, note: note)
    }

    /// Effort (mode-weighted seconds) per metre: the smoother and flatter, the lower.
    static func effortPerMetre(_ p: RoutePath) -> Double { p.length > 0 ? p.cost / p.length : .infinity }

    /// Rank of a loop that meets the bounds (lower first): effort per metre, raised by the share
    /// the length misses by and the share ridden twice (`LoopRules.lengthErrorWeight`), so of two
    /// equally smooth loops the one nearer the asked length and with less reuse wins.
    static func loopRank(_ p: RoutePath, _ q: LoopQuality) -> Double {
        effortPerMetre(p) * (1 + LoopRules.lengthErrorWeight * abs(q.lengthError) + LoopRules.reuseWeight * q.reuseShare)
    }

    /// One attempt: waypoints on a circle through the start, routed in turn with reuse
    /// penalised. Returns the joined path with its out-and-back spurs cut (`LoopSpurs`), then the
    /// path as routed when the cut changed it, and the snapped waypoint polygon's perimeter (metres).
    func loopAttempt(router: Router, start s: EdgeSnap, length: Double, factor: Double, waypoints k: Int,
                     heading: Double, sense: Double) -> ([RoutePath], Double)? {
        let sides = Double(k + 1)
        // Perimeter of a regular polygon of `sides` vertices on a circle of radius 1.
        let unitPerimeter = sides * 2 * sin(Double.pi / sides)
        let radius = length / (factor * unitPerimeter)
        let proj = LocalProjection(origin: s.point)
        let h = heading * Double.pi / 180
        let cx = radius * sin(h), cy = radius * cos(h)
        let a0 = atan2(-cy, -cx)
        var snaps: [EdgeSnap] = [s]
        for j in 1...k {
            let a = a0 + sense * Double(j) * 2 * Double.pi / sides
            let p = proj.unproject(x: cx + radius * cos(a), y: cy + radius * sin(a))
            // Waypoints go on legal ways of the main network only: a loop rides through them.
            guard let w = map.nearestEdge(to: p, maxDistance: max(Router.snapRadius, radius), where: { isLoopStreet($0, router: router) }) else { continue }
            if Geo.distance(w.point, snaps[snaps.count - 1].point) < LoopRules.waypointMergeMetres { continue }
            snaps.append(w)
        }
        guard snaps.count >= 2 else { return nil }
        snaps.append(s)
        var penalty: [Int: Double] = [:]
        var legs: [RouteLeg] = []
        var ruleMet = true
        var polygon = 0.0
        var at = s
        for (i, b) in snaps.enumerated().dropFirst() {
            guard let p = router.bestRoute(from: at, to: b, penalty: penalty) else { return nil }
            // A waypoint reached only over a forbidden way is dropped (the start never is).
            if i < snaps.count - 1, p.legs.contains(where: { $0.length > 0 && AccessModel.decision(of: map.flags(ofEdge: $0.edge)).accessClass == .forbidden }) {
                continue
            }
            polygon += Geo.distance(at.point, b.point)
            legs += p.legs
            ruleMet = ruleMet && p.crustyRuleMet
            for l in p.legs { penalty[l.edge] = LoopRules.reusePenalty }
            at = b
        }
        var routed = RoutePath(legs: legs, cost: 0, crustyRuleMet: ruleMet)
        routed.cost = Self.trueCost(routed, router: router)
        // Waypoints on dead ends make the line ride out and straight back: cut those spurs,
        // unless joining what lay either side of one would break the 100 m crusty rule.
        let cut = LoopSpurs.cut(legs)
        guard cut != legs, !cut.isEmpty, !ruleMet || router.costing.longestCrustyRun(cut) <= CostingConstants.maxContinuousCrusty else {
            return ([routed], polygon)
        }
        var trimmed = RoutePath(legs: cut, cost: 0, crustyRuleMet: ruleMet)
        trimmed.cost = Self.trueCost(trimmed, router: router)
        return ([trimmed, routed], polygon)
    }

    /// Whether a loop may start on or pass through `e`: a legal street of the main network,
    /// ridable both ways, not stairs, a lift or an escalator.
    func isLoopStreet(_ e: Int, router: Router) -> Bool {
        let f = map.flags(ofEdge: e)
        return router.costing.allowed(edge: e, reversed: false) && router.costing.allowed(edge: e, reversed: true)
            && !f.contains(.connector) && !f.contains(.steps) && AccessModel.decision(of: f).accessClass != .forbidden
            && components.isMain(edge: e)
    }

    /// How a path measures up as a loop of `asked` metres.
    public func quality(of path: RoutePath, asked: Double) -> LoopQuality {
        var forbidden = 0.0
        for l in path.legs where AccessModel.decision(of: map.flags(ofEdge: l.edge)).accessClass == .forbidden {
            forbidden += l.length
        }
        return LoopQuality(asked: asked, length: path.length, reusedMetres: Self.reusedMetres(path.legs),
                           forbiddenMetres: forbidden, crustyRuleMet: path.crustyRuleMet)
    }

    /// Metres ridden more than once: per edge, the legs' summed lengths less the length of
    /// their union (a street ridden out and back counts once as reuse).
    public static func reusedMetres(_ legs: [RouteLeg]) -> Double {
        var byEdge: [Int: [(Double, Double)]] = [:]
        for l in legs where l.length > 0 {
            byEdge[l.edge, default: []].append((min(l.startOffset, l.endOffset), max(l.startOffset, l.endOffset)))
        }
        var reused = 0.0
        for (_, spans) in byEdge where spans.count > 1 {
            let sorted = spans.sorted { $0.0 < $1.0 }
            var union = 0.0, total = 0.0
            var cur = sorted[0]
            for sp in sorted {
                total += sp.1 - sp.0
                if sp.0 <= cur.1 { cur.1 = max(cur.1, sp.1) } else { union += cur.1 - cur.0; cur = sp }
            }
            union += cur.1 - cur.0
            reused += total - union
        }
        return reused
    }
}
