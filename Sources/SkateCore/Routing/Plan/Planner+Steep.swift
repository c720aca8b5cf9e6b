import FoundationEssentials

/// How `smoothest` weighs steep metres the per-edge costing cannot see (issue 26, item 2).
///
/// The search charges braking and caution metres edge by edge (`BrakingGrade.metres`: 30 m
/// windows clipped to each edge), but a rider brakes over the whole descent: on real maps most
/// braking metres are runs of short edges, each a little gentler than −8 %, or the gentler ends
/// of a steep pitch, which only a window across edges finds (`bench --braking --braking-bounds`
/// measured the search's own count at a quarter to a half of the line's). So the planner also
/// searches with steeper braking weights and with the edges where earlier candidates brake by the
/// whole-line rule made dearer, and among those lines and its own takes the one whose effort plus
/// *whole-line* steep metres (`BrakingGrade.lineMetres`) costs least.
///
/// The values are the sixth round's (`skateroute bench --braking --steep-variants`,
/// docs/surfaces-and-braking.md, fourth to sixth rounds): a whole-line metre at twice the mode's
/// weight, one ×4 search, two rounds, and too-fast metres on roads without a sidewalk charged as
/// braking metres. Without that charge the rule sent Jardin Exotique → Stade Louis II up a lift and
/// down 290 m of road without a sidewalk; with it the line keeps the lifts and the 39 m steep
/// sidewalk and rides Avenue de Fontvieille's sidewalk instead of its carriageway (723 → 825 m; the
/// shipped ride `descent-jardin-exotique` was re-synthesised on it).
///
/// | constant                   | value    | why                                                              |
/// |----------------------------|----------|------------------------------------------------------------------|
/// | `searchFactors`            | 4        | braking weight × 4: lines out of the way of steep edges (a ×16 search bought 1 % less braking for 0.7 more searches per plan) |
/// | `searchCautionRatio`       | 1        | the extra searches' caution weight × the same factor as braking (eleventh round's sweep, docs/surfaces-and-braking.md) |
/// | `lineBrakingShare`         | 2.0      | a whole-line braking metre costs twice the mode's braking s/m on top of the search's charge: 7 % less braking on Heidelberg than 1.0 for the same crusty metres (4.0 rides 35 % more crusty) |
/// | `lineCautionShare`         | 2.0      | the same for caution metres (the mode's caution s/m): no trading braking for many caution metres |
/// | `penaltyRounds`            | 2        | searches charging the candidates' whole-line steep metres on their edges, one after another (a third bought nothing measurable) |
/// | `swapSlackMetres`          | 1 m      | the fast line may not brake or need caution more than this beyond smoothest's own |
/// | `brakingDetourMetres`      | nil      | the price as metres of detour per braking metre (1/μ), off: 30 m brakes 0.4 % less on Heidelberg seed 42 for 4 % more crusty metres, and with `surfaceGuard` no price (13–70 m) brakes less than the shares (eighth round) |
/// | `surfaceGuard`             | false    | no candidate rides more crusty or forbidden metres than the mode's own line; off: on Heidelberg the shares' 0.55× (seed 42) and 0.50× (seed 1234) lean on 250 and 3,500 crusty metres more (eighth round) |
/// | `tooFastRoadShare`         | 1.0      | at 1, a metre where gravity still accelerates a rider coasting at the cap applied there (`SkatePhysics.gravityBeatsCap`) on a road without a sidewalk costs the mode's braking s/m again: the rider brakes there, among cars, with no kerb to step onto — a cost the whole-line window rule (≤ −6 % / −8 %) misses on a −5 % road |
///
/// Why a share of 2 took the lift up: at a share of 2 the choice sent Jardin Exotique →
/// Stade Louis II up a lift and down 315 m of Avenue Pasteur at −4.9 %, 290 m of it a tertiary
/// road without a sidewalk. At −4.9 % no 30 m window reaches caution grade, so that descent cost
/// the choice nothing beyond the search's small braking-risk multiplier and a tertiary road's
/// ×1.15, while the shipped line's 55 m at −11 % cost 55 × 2 × 2 = 220 s. There gravity still
/// accelerates a rider coasting at the applied cap (the rider brakes among cars to hold it), so
/// `tooFastRoadShare` can charge those metres as braking metres in the choice
/// (`tooFastRoadMetres`; the plan's own "too fast" flag marks only speeds past 25 km/h).
///
/// No extra search runs when the mode's own line has no whole-line steep metre and keeps the
/// crusty rule: no other line can cost less by the choice's measure (exact).
public enum SteepLineRule {
    /// The braking and caution weights of the extra searches, as multiples of the mode's.
    public static let searchFactors: [Double] = [4]
    /// The extra searches' caution-weight factor as a multiple of their braking factor (1: both
    /// weights × the same factor, the table's ratio of 0.3 s/m caution per s/m braking kept).
    public static let searchCautionRatio = 1.0
    /// Effort seconds per whole-line braking metre, as a share of `brakingSecondsPerMetre`.
    public static let lineBrakingShare = 2.0
    /// Effort seconds per whole-line caution metre, as a share of `cautionSecondsPerMetre`.
    public static let lineCautionShare = 2.0
    /// Searches that charge the candidates' whole-line steep metres on their edges, one after
    /// another (each adds the last line's steep edges): two reach the gain of three.
    public static let penaltyRounds = 2
    /// Metres of slack when the fast line's steep metres are compared with smoothest's own.
    public static let swapSlackMetres = 1.0
    /// Effort seconds per too-fast metre on a road without a sidewalk, as a share of
    /// `brakingSecondsPerMetre` (`tooFastRoadMetres`).
    public static let tooFastRoadShare = 1.0
    /// The access reasons of a carriageway ridden without a sidewalk beside it (`tooFastRoadShare`).
    public static func isRoadWithoutSidewalk(_ r: AccessReason) -> Bool {
        switch r {
        case .primaryNoSidewalk, .primaryNoSidewalkFast, .secondaryNoSidewalk, .secondaryNoSidewalkFast,
             .tertiaryNoSidewalk, .tertiaryNoSidewalkFast, .sidewalkSeparate: return true
        default: return false
        }
    }
    /// Metres of smooth flat detour (at `SkatePhysics.pushSpeed`) that one whole-line braking
    /// metre is worth in the choice: 1/μ, a per-plan rule (no budget across trips). nil: the
    /// choice prices steep metres by `lineBrakingShare` of the mode's braking weight instead.
    public static let brakingDetourMetres: Double? = nil
    /// With `brakingDetourMetres`: a caution metre at this share of a braking metre (the table's
    /// 0.6 / 2.0 s/m: no trading braking for many caution metres).
    public static let cautionShareOfBraking = ModeWeights.smoothestCautionSecondsPerMetre / ModeWeights.smoothestBrakingSecondsPerMetre
    /// A candidate may not ride more crusty or forbidden metres than the mode's own line (beyond
    /// `swapSlackMetres`): fewer braking metres must not be bought with rough or illegal ones.
    public static let surfaceGuard = false
    /// The modes that choose their line this way.
    public static func applies(to mode: RideMode) -> Bool { mode == .smoothest }

    /// The rule's tunable values together: the table's (`standard`) or an experiment's
    /// (`override`, for `skateroute bench --braking --steep-variants`).
    public struct Values: Sendable, Equatable {
        public var searchFactors: [Double]
        /// `SteepLineRule.searchCautionRatio`.
        public var searchCautionRatio: Double
        public var lineBrakingShare: Double
        public var lineCautionShare: Double
        public var penaltyRounds: Int
        public var tooFastRoadShare: Double
        /// `SteepLineRule.brakingDetourMetres`: when set, replaces the two shares' price.
        public var brakingDetourMetres: Double?
        /// `SteepLineRule.surfaceGuard`.
        public var surfaceGuard: Bool
        public init(searchFactors: [Double], lineBrakingShare: Double, lineCautionShare: Double, penaltyRounds: Int,
                    tooFastRoadShare: Double = SteepLineRule.tooFastRoadShare, brakingDetourMetres: Double? = nil, surfaceGuard: Bool = false,
                    searchCautionRatio: Double = SteepLineRule.searchCautionRatio) {
            self.searchFactors = searchFactors; self.searchCautionRatio = searchCautionRatio; self.lineBrakingShare = lineBrakingShare
            self.lineCautionShare = lineCautionShare; self.penaltyRounds = penaltyRounds
            self.tooFastRoadShare = tooFastRoadShare
            self.brakingDetourMetres = brakingDetourMetres; self.surfaceGuard = surfaceGuard
        }
        /// The constants above.
        public static let standard = Values(searchFactors: SteepLineRule.searchFactors, lineBrakingShare: SteepLineRule.lineBrakingShare,
                                            lineCautionShare: SteepLineRule.lineCautionShare, penaltyRounds: SteepLineRule.penaltyRounds,
                                            tooFastRoadShare: SteepLineRule.tooFastRoadShare,
                                            brakingDetourMetres: SteepLineRule.brakingDetourMetres, surfaceGuard: SteepLineRule.surfaceGuard,
                                            searchCautionRatio: SteepLineRule.searchCautionRatio)
    }

    /// Values replacing `Values.standard` within a task (bench experiments and tests).
    @TaskLocal public static var override: Values? = nil

    /// The values in force: `override` or the table's.
    public static var current: Values { override ?? .standard }
}

extension Planner {
    /// The line's cost for choosing between candidate lines: its effort under `router`'s
    /// costing (no penalties) plus its whole-line braking and caution metres at the mode's
    /// weights (`SteepLineRule`).
    /// Plus its too-fast metres on roads without a sidewalk (`tooFastRoadMetres`) at
    /// `tooFastRoadShare` of the braking weight.
    func steepAwareCost(_ p: RoutePath, steep: (braking: Double, caution: Double), tooFastRoad: Double, router: Router, rule: SteepLineRule.Values) -> Double {
        Self.trueCost(p, router: router) + steepCharge(steep, router: router, rule: rule)
            + rule.tooFastRoadShare * router.costing.weights.brakingSecondsPerMetre * tooFastRoad
    }

    /// Metres of `p` ridden too fast on a road without a sidewalk
    /// (`SteepLineRule.isRoadWithoutSidewalk`): where gravity still accelerates a rider coasting
    /// at the cap applied there (`SkatePhysics.gravityBeatsCap`: the lower of 25 km/h and the
    /// surface's comfort speed), so the rider brakes among cars to hold it. Walked samples (steps,
    /// connectors, grades beyond `SkatePhysics.walkDownGradePct`) do not count. Not the plan's
    /// "too fast" flag, which marks only speeds past 25 km/h and so fires almost only on butter.
    /// 0 when the rule's share is 0 (not computed).
    public func tooFastRoadMetres(_ p: RoutePath, builder: PlanBuilder, rule: SteepLineRule.Values) -> Double {
        guard rule.tooFastRoadShare > 0 else { return 0 }
        return tooFastRoadMetres(p, builder: builder, rule: rule, profile: builder.lineProfile(p))
    }

    /// `tooFastRoadMetres` on `p`'s profile, already computed (`PlanBuilder.lineProfile(p)`).
    func tooFastRoadMetres(_ p: RoutePath, builder: PlanBuilder, rule: SteepLineRule.Values, profile: PlanBuilder.Profile?) -> Double {
        guard rule.tooFastRoadShare > 0, !p.legs.isEmpty, let prof = profile, prof.hasElevation else { return 0 }
        var metres = 0.0
        for i in prof.s.indices.dropFirst() {
            let ds = prof.s[i] - prof.s[i - 1]
            guard ds > 0, !prof.walked[i - 1] else { continue }
            let e = p.legs[prof.leg[i - 1]].edge
            guard SteepLineRule.isRoadWithoutSidewalk(AccessModel.decision(of: map.flags(ofEdge: e)).reason) else { continue }
            let grade = EdgeTable.clampGrade((prof.elevation[i] - prof.elevation[i - 1]) / ds * 100)
            if grade > SkatePhysics.walkDownGradePct, SkatePhysics.gravityBeatsCap(gradePct: grade, rms: Double(builder.costing.table.rms[e])) { metres += ds }
        }
        return metres
    }

    /// Effort seconds the choice adds for whole-line steep metres (`SteepLineRule`).
    func steepCharge(_ steep: (braking: Double, caution: Double), router: Router, rule: SteepLineRule.Values) -> Double {
        if let d = rule.brakingDetourMetres {
            // One braking metre costs what d metres of smooth flat riding cost at push speed.
            return d / SkatePhysics.pushSpeed * (steep.braking + SteepLineRule.cautionShareOfBraking * steep.caution)
        }
        let w = router.costing.weights
        return rule.lineBrakingShare * w.brakingSecondsPerMetre * steep.braking + rule.lineCautionShare * w.cautionSecondsPerMetre * steep.caution
    }

    /// Metres of `p` on crusty edges (`SkateCosting.isCrusty`) and on forbidden ones, for
    /// `SteepLineRule.surfaceGuard`.
    func surfaceMetres(_ p: RoutePath, costing: SkateCosting) -> (crusty: Double, forbidden: Double) {
        var crusty = 0.0, forbidden = 0.0
        for l in p.legs {
            if costing.isCrusty(edge: l.edge) { crusty += l.length }
            if AccessModel.decision(of: map.flags(ofEdge: l.edge)).accessClass == .forbidden { forbidden += l.length }
        }
        return (crusty, forbidden)
    }

    /// Raises `penalty` on the edges where `p` brakes or needs caution by the whole-line rule:
    /// the multiplier that adds the metres' selection cost to the edge's cost (the largest so far
    /// is kept). False when `p` has no such metres. `perLeg`: `p`'s `steepMetresPerLeg`, when
    /// the caller has it already.
    func addSteepPenalty(_ p: RoutePath, to penalty: inout [Int: Double], router: Router, builder: PlanBuilder, rule: SteepLineRule.Values,
                         perLeg: [(braking: Double, caution: Double)]? = nil) -> Bool {
        var added = false
        for (l, steep) in zip(p.legs, perLeg ?? builder.steepMetresPerLeg(p)) where steep.braking + steep.caution > 0 && l.length > 0 {
            let cost = router.costing.edgeCost(edge: l.edge, reversed: l.reversed).cost
            guard cost > 0, cost.isFinite else { continue }
            let extra = steepCharge(steep, router: router, rule: rule)
            // The leg's share of the edge: the penalty multiplies the whole edge's cost.
            let share = l.length / max(Double(map.edgeLength[l.edge]), l.length)
            let m = 1 + extra / (cost * share)
            if m > (penalty[l.edge] ?? 1) { penalty[l.edge] = m; added = true }
        }
        return added
    }

    /// Among `path` and the lines searched with steeper braking weights (each within `maxLength`
    /// and keeping the crusty rule when `path` does), the one of least `steepAwareCost`, with its
    /// whole-line steep metres. `path.cost` of the answer is its true cost under `router`.
    /// Each line's per-leg steep metres are measured once (the choice and the next round's
    /// penalties read the same figures; measuring them again was ~5 % of smoothest's plan time),
    /// on one profile per line that its too-fast road metres read too (`PlanBuilder.lineProfile`).
    func leastSteepLine(_ path: RoutePath, from sa: EdgeSnap, to sb: EdgeSnap, router: Router, mode: RideMode,
                        maxLength: Double, ruleUnmet: Bool, builder: PlanBuilder,
                        targetBound: TargetCostBound? = nil) -> (RoutePath, (braking: Double, caution: Double)) {
        let rule = SteepLineRule.current
        var best = path
        let ownProfile = builder.lineProfile(path)
        var bestPerLeg = builder.steepMetresPerLeg(path, profile: ownProfile)
        var bestSteep = PlanBuilder.total(bestPerLeg)
        let fast = tooFastRoadMetres(path, builder: builder, rule: rule, profile: ownProfile)
        var bestCost = steepAwareCost(path, steep: bestSteep, tooFastRoad: fast, router: router, rule: rule)
        // No other line can cost less: `path` is the least true cost among the lines that keep
        // the crusty rule (the search's own optimum), and it adds no steep cost. Exact.
        if path.crustyRuleMet, bestSteep.braking + bestSteep.caution <= 0, fast <= 0 { return (path, bestSteep) }
        // The guard: a candidate rides no more crusty or forbidden metres than the mode's own line.
        let own = rule.surfaceGuard ? surfaceMetres(path, costing: router.costing) : (crusty: 0, forbidden: 0)
        func keepsSurface(_ p: RoutePath) -> Bool {
            guard rule.surfaceGuard else { return true }
            let m = surfaceMetres(p, costing: router.costing)
            return m.crusty <= own.crusty + SteepLineRule.swapSlackMetres && m.forbidden <= own.forbidden + SteepLineRule.swapSlackMetres
        }
        // The last line searched and the costing it is the least under (`searchReturns`).
        var known = (line: path, costing: router.costing)
        // How far the shared bound is extended for the searches below (`laterBoundCap`).
        let cap = Self.laterBoundCap * Self.trueCost(path, router: router)
        for k in rule.searchFactors {
            var w = router.costing.weights
            w.brakingSecondsPerMetre *= k
            w.cautionSecondsPerMetre *= k * rule.searchCautionRatio
            let r = self.router(for: mode, weights: w)
            // The search would return the known line, already weighed (or one costing as much).
            if Self.searchReturns(known.line, leastUnder: known.costing, under: r.costing) { continue }
            guard let p = r.bestRoute(from: sa, to: sb, ruleUnmet: ruleUnmet,
                                      targetBound: Self.bound(targetBound, for: [known.line, best], router: r, cap: cap), ruleWitness: path) else { continue }
            known = (p, r.costing)
            guard p.length <= maxLength, p.crustyRuleMet || !path.crustyRuleMet, p.legs != best.legs, keepsSurface(p) else { continue }
            let prof = builder.lineProfile(p)
            let perLeg = builder.steepMetresPerLeg(p, profile: prof), steep = PlanBuilder.total(perLeg)
            let c = steepAwareCost(p, steep: steep, tooFastRoad: tooFastRoadMetres(p, builder: builder, rule: rule, profile: prof), router: router, rule: rule)
            if c < bestCost { best = p; bestPerLeg = perLeg; bestSteep = steep; bestCost = c }
        }
        // Searches that see what the whole-line rule sees: each round charges the edges the
        // candidates so far brake or need caution on (their whole-line metres at the selection
        // weights, as a cost multiplier on the edge), so the next line goes round them when a
        // way round is worth it.
        var penalty: [Int: Double] = [:]
        var last = best, lastPerLeg = bestPerLeg
        for _ in 0..<rule.penaltyRounds {
            guard addSteepPenalty(last, to: &penalty, router: router, builder: builder, rule: rule, perLeg: lastPerLeg),
                  let p = router.bestRoute(from: sa, to: sb, penalty: penalty, ruleUnmet: ruleUnmet,
                                           targetBound: Self.bound(targetBound, for: [best, last], router: router, penalty: penalty, cap: cap),
                                           ruleWitness: path),
                  p.length <= maxLength, p.crustyRuleMet || !path.crustyRuleMet else { break }
            last = p
            guard p.legs != best.legs else { lastPerLeg = bestPerLeg; continue }
            let prof = builder.lineProfile(p)
            let perLeg = builder.steepMetresPerLeg(p, profile: prof), steep = PlanBuilder.total(perLeg)
            lastPerLeg = perLeg
            guard keepsSurface(p) else { continue }
            let c = steepAwareCost(p, steep: steep, tooFastRoad: tooFastRoadMetres(p, builder: builder, rule: rule, profile: prof), router: router, rule: rule)
            if c < bestCost { best = p; bestPerLeg = perLeg; bestSteep = steep; bestCost = c }
        }
        if best.legs != path.legs { best.cost = Self.trueCost(best, router: router) }
        return (best, bestSteep)
    }
}
