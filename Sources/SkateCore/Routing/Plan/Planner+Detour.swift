import FoundationEssentials
import Glibc

extension Planner {
    /// Whether a way is legal to walk: the access model's verdict is not forbidden (a skater on a
    /// board is a pedestrian, `AccessModel`), stairs, unpaved ways and lifts included.
    static func legalToWalk(_ e: Int, map: SkateMap) -> Bool { AccessModel.decision(of: map.flags(ofEdge: e)).accessClass != .forbidden }

    /// Adds the honest-detour facts to a plan (issue 26, item 4): the shortest legal walking line,
    /// the direct line over any way and the crow-flies distance (`WalkReference`, every plan), the
    /// `Detour` verdict with its reasons, and — with `offer` and a detour — the direct line (and
    /// the walk, when the direct line is not legal) as alternatives labelled "walk" or "not legal".
    /// `lines`: the reference lines when already searched (`startWalkLines`), else searched here.
    func withDetour(_ p: RoutePlan, from sa: EdgeSnap, to sb: EdgeSnap, router: Router, offer: Bool, lines: WalkLines? = nil) -> RoutePlan {
        var plan = p
        let builder = PlanBuilder(map: map, costing: router.costing, knowledge: knowledge)
        let found = lines ?? Self.walkLines(map: map, from: sa, to: sb)
        let direct = found.direct, directLegal = found.directLegal, walk = found.walk
        let reference = WalkReference(shortestWalkM: walk?.length, walkClimbM: walk.map { builder.climb($0.legs) } ?? 0,
                                      directM: direct?.length, directLegal: directLegal, crowFliesM: Geo.distance(sa.point, sb.point))
        plan.walkReference = reference
        plan.detour = Detour.judge(distance: plan.distance, climb: plan.gradeSummary.climbM, reference: reference,
                                   why: detourReasons(route: plan.path, walk: walk, direct: direct))
        guard plan.detour != nil, offer else { return plan }
        var offered = [plan.path] + plan.alternatives.map(\.path)
        let lines: [(RoutePath?, String)] = [(direct, directLegal ? RoutePlan.walkLabel : RoutePlan.notLegalLabel), (walk, RoutePlan.walkLabel)]
        func same(_ a: RoutePath, _ b: RoutePath) -> Bool { Self.sharedFraction(a, b) > 1 - DetourRules.offerMinDifference }
        for (line, label) in lines {
            guard var line, !same(line, plan.path) else { continue }
            // An alternative already on this line gets the label; otherwise the line is added.
            if let k = plan.alternatives.indices.first(where: { same(line, plan.alternatives[$0].path) }) {
                if plan.alternatives[k].label.isEmpty { plan.alternatives[k].label = label }
                continue
            }
            guard offered.allSatisfy({ !same(line, $0) }) else { continue }
            line.cost = Self.trueCost(line, router: router)
            var alt = builder.build(path: line, mode: plan.mode)
            alt.label = label
            alt.startSnap = sa; alt.endSnap = sb
            plan.alternatives.append(alt)
            offered.append(line)
        }
        return plan
    }

    /// Why the walker's line (and the direct line, when it is shorter still) is not the route: the
    /// reasons of their ways the route does not ride, in `DetourReason` order.
    func detourReasons(route: RoutePath, walk: RoutePath?, direct: RoutePath?) -> [DetourReason] {
        let used = Set(route.legs.map(\.edge))
        var lines: [RoutePath] = walk.map { [$0] } ?? []
        if let d = direct, walk.map({ d.length < $0.length - 1 }) ?? true { lines.append(d) }
        // A slot per reason (no hashing set-up for the enum).
        var found = [Bool](repeating: false, count: DetourReason.allCases.count)
        for line in lines {
            for leg in line.legs where !used.contains(leg.edge) && leg.length > 0 {
                let f = map.flags(ofEdge: leg.edge)
                if f.contains(.steps) { found[DetourReason.stairs.rawValue] = true }
                if let r = DetourReason(surface: map.surface(ofEdge: leg.edge)) { found[r.rawValue] = true }
                if let r = DetourReason(access: AccessModel.decision(of: f).reason) { found[r.rawValue] = true }
            }
        }
        return DetourReason.allCases.filter { found[$0.rawValue] }
    }
}

extension PlanBuilder {
    /// Metres climbed along legs, on the same profile a plan's grade summary uses.
    func climb(_ legs: [RouteLeg]) -> Double {
        guard !legs.isEmpty else { return 0 }
        let (legStart, total) = legStarts(legs)
        let e = profile(legs, legStart: legStart, total: total).elevation
        var c = 0.0
        for i in e.indices.dropFirst() where e[i] > e[i - 1] { c += e[i] - e[i - 1] }
        return c
    }
}
