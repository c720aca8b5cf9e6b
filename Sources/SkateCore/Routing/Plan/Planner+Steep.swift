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
/// The values are last round's. The bench's best variant (`skateroute bench --braking
/// --steep-variants`, docs/surfaces-and-braking.md: a whole-line metre at twice the mode's weight,
/// one ×4 search, two rounds) brakes 7 % less on 30 Heidelberg pairs with 0.7 fewer searches per
/// plan, but it sends Jardin Exotique → Stade Louis II (the shipped descent ride) up a lift and
/// down 290 m of road without a sidewalk, flagged too fast, to save 55 braking metres a rider can
/// walk; it waits until the choice can offer walking a short steep bit instead.
///
/// | constant                   | value    | why                                                              |
/// |----------------------------|----------|------------------------------------------------------------------|
/// | `searchFactors`            | 4, 16    | braking weight × these: lines that go well and far out of the way of steep edges |
/// | `lineBrakingShare`         | 1.0      | a whole-line braking metre costs the mode's braking s/m again on top of the search's charge (2.0 trades short walkable steep bits for long road detours) |
/// | `lineCautionShare`         | 1.0      | the same for caution metres (the mode's caution s/m): no trading braking for many caution metres |
/// | `penaltyRounds`            | 3        | searches charging the candidates' whole-line steep metres on their edges, one after another |
/// | `swapSlackMetres`          | 1 m      | the fast line may not brake or need caution more than this beyond smoothest's own |
///
/// No extra search runs when the mode's own line has no whole-line steep metre and keeps the
/// crusty rule: no other line can cost less by the choice's measure (exact).
public enum SteepLineRule {
    /// The braking and caution weights of the extra searches, as multiples of the mode's.
    public static let searchFactors: [Double] = [4, 16]
    /// Effort seconds per whole-line braking metre, as a share of `brakingSecondsPerMetre`.
    public static let lineBrakingShare = 1.0
    /// Effort seconds per whole-line caution metre, as a share of `cautionSecondsPerMetre`.
    public static let lineCautionShare = 1.0
    /// Searches that charge the candidates' whole-line steep metres on their edges, one after
    /// another (each adds the last line's steep edges): three reach most of the gain.
    public static let penaltyRounds = 3
    /// Metres of slack when the fast line's steep metres are compared with smoothest's own.
    public static let swapSlackMetres = 1.0
    /// The modes that choose their line this way.
    public static func applies(to mode: RideMode) -> Bool { mode == .smoothest }

    /// The rule's tunable values together: the table's (`standard`) or an experiment's
    /// (`override`, for `skateroute bench --braking --steep-variants`).
    public struct Values: Sendable, Equatable {
        public var searchFactors: [Double]
        public var lineBrakingShare: Double
        public var lineCautionShare: Double
        public var penaltyRounds: Int
        public init(searchFactors: [Double], lineBrakingShare: Double, lineCautionShare: Double, penaltyRounds: Int) {
            self.searchFactors = searchFactors; self.lineBrakingShare = lineBrakingShare
            self.lineCautionShare = lineCautionShare; self.penaltyRounds = penaltyRounds
        }
        /// The constants above.
        public static let standard = Values(searchFactors: SteepLineRule.searchFactors, lineBrakingShare: SteepLineRule.lineBrakingShare,
                                            lineCautionShare: SteepLineRule.lineCautionShare, penaltyRounds: SteepLineRule.penaltyRounds)
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
    func steepAwareCost(_ p: RoutePath, steep: (braking: Double, caution: Double), router: Router, rule: SteepLineRule.Values) -> Double {
        Self.trueCost(p, router: router) + steepCharge(steep, router: router, rule: rule)
    }

    /// Effort seconds the choice adds for whole-line steep metres (`SteepLineRule`).
    func steepCharge(_ steep: (braking: Double, caution: Double), router: Router, rule: SteepLineRule.Values) -> Double {
        let w = router.costing.weights
        return rule.lineBrakingShare * w.brakingSecondsPerMetre * steep.braking + rule.lineCautionShare * w.cautionSecondsPerMetre * steep.caution
    }

    /// Raises `penalty` on the edges where `p` brakes or needs caution by the whole-line rule:
    /// the multiplier that adds the metres' selection cost to the edge's cost (the largest so far
    /// is kept). False when `p` has no such metres.
    func addSteepPenalty(_ p: RoutePath, to penalty: inout [Int: Double], router: Router, builder: PlanBuilder, rule: SteepLineRule.Values) -> Bool {
        var added = false
        for (l, steep) in zip(p.legs, builder.steepMetresPerLeg(p)) where steep.braking + steep.caution > 0 && l.length > 0 {
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
    func leastSteepLine(_ path: RoutePath, from sa: EdgeSnap, to sb: EdgeSnap, router: Router, mode: RideMode,
                        maxLength: Double, ruleUnmet: Bool, builder: PlanBuilder) -> (RoutePath, (braking: Double, caution: Double)) {
        let rule = SteepLineRule.current
        var best = path
        var bestSteep = builder.steepMetres(path)
        var bestCost = steepAwareCost(path, steep: bestSteep, router: router, rule: rule)
        // No other line can cost less: `path` is the least true cost among the lines that keep
        // the crusty rule (the search's own optimum), and it adds no steep cost. Exact.
        if path.crustyRuleMet, bestSteep.braking + bestSteep.caution <= 0 { return (path, bestSteep) }
        for k in rule.searchFactors {
            var w = router.costing.weights
            w.brakingSecondsPerMetre *= k
            w.cautionSecondsPerMetre *= k
            let r = self.router(for: mode, weights: w)
            guard let p = r.bestRoute(from: sa, to: sb, ruleUnmet: ruleUnmet), p.length <= maxLength,
                  p.crustyRuleMet || !path.crustyRuleMet, p.legs != best.legs else { continue }
            let steep = builder.steepMetres(p)
            let c = steepAwareCost(p, steep: steep, router: router, rule: rule)
            if c < bestCost { best = p; bestSteep = steep; bestCost = c }
        }
        // Searches that see what the whole-line rule sees: each round charges the edges the
        // candidates so far brake or need caution on (their whole-line metres at the selection
        // weights, as a cost multiplier on the edge), so the next line goes round them when a
        // way round is worth it.
        var penalty: [Int: Double] = [:]
        var last = best
        for _ in 0..<rule.penaltyRounds {
            guard addSteepPenalty(last, to: &penalty, router: router, builder: builder, rule: rule),
                  let p = router.bestRoute(from: sa, to: sb, penalty: penalty, ruleUnmet: ruleUnmet),
                  p.length <= maxLength, p.crustyRuleMet || !path.crustyRuleMet else { break }
            last = p
            guard p.legs != best.legs else { continue }
            let steep = builder.steepMetres(p)
            let c = steepAwareCost(p, steep: steep, router: router, rule: rule)
            if c < bestCost { best = p; bestSteep = steep; bestCost = c }
        }
        if best.legs != path.legs { best.cost = Self.trueCost(best, router: router) }
        return (best, bestSteep)
    }
}
