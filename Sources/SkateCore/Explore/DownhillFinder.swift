import FoundationEssentials
import Glibc

/// A descent worth riding, measured on its own plan's profile.
public struct DownhillRun: Sendable {
    /// The run as a plan from its top to its bottom (smoothest costing): its profile, zones and
    /// surfaces are the ones every other plan shows.
    public var plan: RoutePlan
    /// Metres, metres dropped, mean grade and steepest 30 m window grade (percent, negative down).
    public var length: Double
    public var drop: Double
    public var meanGradePct: Double
    public var steepestGradePct: Double
    /// Longest surface by length ("asphalt") and the run's worst roughness class.
    public var surface: String
    public var roughness: RoughnessClass
    /// Crossings on the way down, metres in caution zones.
    public var crossings: Int
    public var cautionMetres: Double
    /// Street names along the run, in order, without repeats.
    public var streets: [String]
    /// What the run is when no street on it has a name, as a step's text describes an unnamed way
    /// ("footway through Jardin Exotique", "sidewalk along Boulevard du Larvotto"); empty when a
    /// street is named.
    public var unnamedDescription: String = ""
    /// The run's name for a list: its first street, else what its ways are.
    public var displayName: String { streets.first { !$0.isEmpty } ?? unnamedDescription }
    /// Ranking score (higher first): length less penalties for crossings and caution.
    public var score: Double
    public var top: Coordinate { plan.geometry.first ?? Coordinate(lat: 0, lon: 0) }
    public var bottom: Coordinate { plan.geometry.last ?? Coordinate(lat: 0, lon: 0) }
    /// The run's legs (whole edges, top to bottom).
    public var path: RoutePath { plan.path }
}

extension Planner {
    /// Descents near `center` a skater enjoys, best first: long, steady between
    /// `DownhillRules.gentlestMeanPct` and `steepestMeanPct`, butter or okay, legal, no braking
    /// window, with a run-out; ranked by length less crossings and caution metres.
    /// - Parameters:
    ///   - center: where the rider is.
    ///   - radius: runs whose top lies within this many metres.
    public func downhills(near center: Coordinate, radius: Double = DownhillRules.defaultRadius, limit: Int = DownhillRules.maxResults) -> [DownhillRun] {
        guard map.metadata.hasElevation else { return [] }
        let router = router(for: .smoothest)
        let costing = router.costing
        func grade(_ e: Int, _ rev: Bool) -> Double { Double(table.derived.grade[e]) * (rev ? -1 : 1) }
        func qualifies(_ e: Int, _ rev: Bool) -> Bool {
            let f = map.flags(ofEdge: e)
            guard costing.allowed(edge: e, reversed: rev), !f.contains(.steps), !f.contains(.connector),
                  AccessModel.decision(of: f).accessClass != .forbidden, map.edgeLength[e] > 0 else { return false }
            let braking = rev ? table.derived.brakingMetresBwd[e] : table.derived.brakingMetresFwd[e]
            let steepest = Double(rev ? table.derived.steepestDownBwd[e] : table.derived.steepestDownFwd[e])
            return braking == 0 && steepest > DownhillRules.steepestWindowPct && grade(e, rev) <= DownhillRules.edgeGentlestPct
                && Double(table.rms[e]) <= DownhillRules.maxRoughnessRMS
        }
        func endNode(_ e: Int, _ rev: Bool) -> Int { Int(rev ? map.edgeFrom[e] : map.edgeTo[e]) }
        func startNode(_ e: Int, _ rev: Bool) -> Int { Int(rev ? map.edgeTo[e] : map.edgeFrom[e]) }
        func bearingIn(_ e: Int, _ rev: Bool) -> Double {
            rev ? (Double(table.derived.bearingStart[e]) + 180).truncatingRemainder(dividingBy: 360) : Double(table.derived.bearingEnd[e])
        }
        func bearingOut(_ e: Int, _ rev: Bool) -> Double {
            rev ? (Double(table.derived.bearingEnd[e]) + 180).truncatingRemainder(dividingBy: 360) : Double(table.derived.bearingStart[e])
        }
        // Candidate runs: from every qualifying traversal starting in the radius, the straightest
        // qualifying continuation until none is left.
        var candidates: [(legs: [RouteLeg], score: Double)] = []
        for e in 0..<map.edgeCount {
            for rev in [false, true] where qualifies(e, rev) {
                let s = startNode(e, rev)
                guard Geo.distance(map.coordinate(ofNode: s), center) <= radius else { continue }
                // Only heads: no qualifying way into the start continues straight into this one.
                var isHead = true
                for a in map.neighbours(of: s) {
                    let pe = Int(a >> 1), prevRev = a & 1 == 0  // arriving at s by the opposite traversal
                    guard pe != e, qualifies(pe, prevRev), endNode(pe, prevRev) == s else { continue }
                    if abs(Geo.turnAngle(from: bearingIn(pe, prevRev), to: bearingOut(e, rev))) <= DownhillRules.maxTurnDegrees { isHead = false; break }
                }
                guard isHead else { continue }
                var legs: [RouteLeg] = []
                var visited: Set<Int> = [s]
                var (ce, cr) = (e, rev)
                while true {
                    let len = Double(map.edgeLength[ce])
                    legs.append(RouteLeg(edge: ce, reversed: cr, startOffset: cr ? len : 0, endOffset: cr ? 0 : len))
                    let n = endNode(ce, cr)
                    guard visited.insert(n).inserted else { break }
                    var next: (Int, Bool, Double)?
                    for a in map.neighbours(of: n) {
                        let ne = Int(a >> 1), nr = a & 1 == 1
                        guard ne != ce, qualifies(ne, nr), !visited.contains(endNode(ne, nr)) else { continue }
                        let turn = abs(Geo.turnAngle(from: bearingIn(ce, cr), to: bearingOut(ne, nr)))
                        if turn <= DownhillRules.maxTurnDegrees, next == nil || turn < next!.2 { next = (ne, nr, turn) }
                    }
                    guard let nx = next else { break }
                    (ce, cr) = (nx.0, nx.1)
                }
                let length = legs.reduce(0) { $0 + $1.length }
                guard length >= DownhillRules.minLength else { continue }
                // The map's own drop first: only lines near the band are worth a plan.
                let drop = legs.reduce(0.0) { $0 + Double($1.reversed ? table.derived.climb[$1.edge] - table.derived.descent[$1.edge] : table.derived.descent[$1.edge] - table.derived.climb[$1.edge]) }
                let mean = -drop / length * 100
                guard mean <= DownhillRules.gentlestMeanPct + DownhillRules.prefilterSlackPct,
                      mean >= DownhillRules.steepestMeanPct - DownhillRules.prefilterSlackPct else { continue }
                candidates.append((legs, length))
            }
        }
        candidates.sort { $0.score > $1.score }
        let builder = PlanBuilder(map: map, costing: costing, knowledge: knowledge)
        var runs: [DownhillRun] = []
        for c in candidates {
            if runs.count >= limit { break }
            let raw = RoutePath(legs: c.legs, cost: 0, crustyRuleMet: true)
            if runs.contains(where: { Self.sharedFraction(raw, $0.path) > DownhillRules.maxSharedShare }) { continue }
            var path = raw
            // Trim the tail until the run has a run-out and its mean stays in the band.
            guard let run = measure(&path, builder: builder, qualifies: qualifies, grade: grade, endNode: endNode,
                                    bearingIn: bearingIn, bearingOut: bearingOut) else { continue }
            if runs.contains(where: { Self.sharedFraction(run.path, $0.path) > DownhillRules.maxSharedShare
                                      || Self.sharedFraction($0.path, run.path) > DownhillRules.maxSharedShare }) { continue }
            runs.append(run)
            runs.sort { $0.score > $1.score }
        }
        return runs
    }

    /// The run a path makes, measured on its plan, or nil when it is not one (band, braking,
    /// run-out, length, legality).
    private func measure(_ path: inout RoutePath, builder: PlanBuilder, qualifies: (Int, Bool) -> Bool, grade: (Int, Bool) -> Double,
                         endNode: (Int, Bool) -> Int, bearingIn: (Int, Bool) -> Double, bearingOut: (Int, Bool) -> Double) -> DownhillRun? {
        // The run-out: from the bottom, a way within a bend's angle that is flat or climbs.
        func hasRunOut(_ last: RouteLeg) -> Bool {
            let n = endNode(last.edge, last.reversed)
            for a in map.neighbours(of: n) {
                let ne = Int(a >> 1), nr = a & 1 == 1
                guard ne != last.edge, router(for: .smoothest).costing.allowed(edge: ne, reversed: nr),
                      AccessModel.decision(of: map.flags(ofEdge: ne)).accessClass != .forbidden,
                      Double(map.edgeLength[ne]) >= DownhillRules.runOutMetres,
                      grade(ne, nr) >= DownhillRules.gentlestMeanPct else { continue }
                if abs(Geo.turnAngle(from: bearingIn(last.edge, last.reversed), to: bearingOut(ne, nr))) <= 2 * DownhillRules.maxTurnDegrees { return true }
            }
            return false
        }
        while let last = path.legs.last, !hasRunOut(last) { path.legs.removeLast() }
        guard path.length >= DownhillRules.minLength else { return nil }
        let plan = builder.build(path: path, mode: .smoothest)
        guard plan.legal, plan.brakingZoneCount == 0, plan.profile.count >= 2 else { return nil }
        let stats = Self.profileStats(plan.profile)
        guard stats.length >= DownhillRules.minLength, stats.meanPct <= DownhillRules.gentlestMeanPct,
              stats.meanPct >= DownhillRules.steepestMeanPct, stats.steepestPct > DownhillRules.steepestWindowPct else { return nil }
        var bySurface: [String: Double] = [:]
        var crossings = 0
        var streets: [String] = []
        for (i, l) in path.legs.enumerated() {
            bySurface[map.surface(ofEdge: l.edge).name, default: 0] += l.length
            if map.flags(ofEdge: l.edge).contains(.isCrossing) { crossings += 1 }
            if i > 0, map.flags(ofNode: endNode(path.legs[i - 1].edge, path.legs[i - 1].reversed)).contains(.crossing) { crossings += 1 }
            let name = map.name(ofEdge: l.edge)
            if !name.isEmpty, streets.last != name { streets.append(name) }
        }
        let surface = bySurface.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? "unknown"
        let worst = RoughnessClass.allCases.last { plan.metresByClass[$0] > 0 } ?? .okay
        guard worst.rawValue <= RoughnessClass.okay.rawValue else { return nil }
        let caution = plan.brakingZones.filter { $0.level == .caution }.reduce(0) { $0 + $1.length }
        let score = stats.length - DownhillRules.crossingPenaltyMetres * Double(crossings) - DownhillRules.cautionPenaltyFactor * caution
        return DownhillRun(plan: plan, length: stats.length, drop: stats.drop, meanGradePct: stats.meanPct,
                           steepestGradePct: stats.steepestPct, surface: surface, roughness: worst, crossings: crossings,
                           cautionMetres: caution, streets: streets,
                           unnamedDescription: streets.isEmpty ? Self.describe(builder.wayPhrase(legs: path.legs, range: 0..<path.legs.count)) : "",
                           score: score)
    }

    /// A way phrase as a name: "Jardin Exotique" for a way through or across a named place,
    /// else the way's type without its article ("footway", "sidewalk along Rue X").
    static func describe(_ p: WayPhrase) -> String {
        if p.preposition != "onto" { return p.object }
        return p.object.hasPrefix("the ") ? String(p.object.dropFirst(4)) : p.object
    }

    /// Length, drop, mean grade and steepest `ZoneRules.steepestWindow` window grade (percent)
    /// of a plan's profile.
    public static func profileStats(_ profile: [ProfileSample]) -> (length: Double, drop: Double, meanPct: Double, steepestPct: Double) {
        guard let first = profile.first, let last = profile.last, last.distance > first.distance else { return (0, 0, 0, 0) }
        let length = last.distance - first.distance
        let drop = first.elevation - last.elevation
        var steepest = 0.0
        var j = 0
        for i in profile.indices {
            while j < profile.count && profile[j].distance - profile[i].distance < ZoneRules.steepestWindow { j += 1 }
            guard j < profile.count else { break }
            let g = (profile[j].elevation - profile[i].elevation) / (profile[j].distance - profile[i].distance) * 100
            steepest = min(steepest, g)
        }
        return (length, drop, -drop / length * 100, steepest)
    }

    /// A plan from `start` to the top of `run`, then down it.
    /// - Throws: `RoutingError` when the start has no street near or cannot reach the run.
    public func plan(from start: Coordinate, toRun run: DownhillRun, mode: RideMode) throws -> RoutePlan {
        let router = router(for: mode)
        let sa = try router.snap(start)
        guard let first = run.path.legs.first else { throw RoutingError.disconnected(from: start, to: run.top) }
        let top = EdgeSnap(edge: first.edge, distance: 0, offset: first.startOffset, point: run.top)
        guard let approach = router.bestRoute(from: sa, to: top) else { throw RoutingError.disconnected(from: sa.point, to: run.top) }
        var legs = approach.legs
        // The approach ends where the run starts; a zero-length leg on the run's first edge adds nothing.
        while let l = legs.last, l.length == 0 { legs.removeLast() }
        let path = RoutePath(legs: legs + run.path.legs, cost: 0, crustyRuleMet: approach.crustyRuleMet)
        var plan = PlanBuilder(map: map, costing: router.costing, knowledge: knowledge).build(path: path, mode: mode)
        plan.startSnap = sa
        return plan
    }
}
