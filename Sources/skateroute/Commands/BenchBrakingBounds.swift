import FoundationEssentials
import SkateCore

/// `bench --braking --braking-bounds`: why smoothest's braking metres stay where they are (issue
/// 26 item 2). On the pairs every line routed, with the matched scorer (`LineMatcher`): how much of
/// smoothest's braking lies in its first and last leg, what the router's own per-edge count says
/// of the same lines, how often smoothest rides the fast line (its "smoothest means smoothest"
/// rule), and what a min-braking search finds — with no detour cap (a lower bound for any legal
/// line the search can see) and within the issue's 1.3× Routino bicycle distance.
extension BrakingBenchmark {
    /// Braking weights (s per braking metre, caution at 0.3×) of the min-braking sweep: the
    /// table's 2, steeper ones, and 1000 (a braking metre outweighs any detour in the map).
    static let boundWeights: [Double] = [2, 8, 32, 1000]
    /// The issue's distance target for smoothest: ≤ 1.3× Routino bicycle's distance.
    static let distanceTarget = 1.3

    /// The braking weights (s per braking metre, caution at 0.3×) of the distance-versus-braking
    /// sweep the summed bound chooses from: a costing of distance and steep metres alone (no
    /// roughness, climb, crossing or traffic terms), so each weight's line is a point of the
    /// pair's braking/distance Pareto front as the search sees it.
    static let paretoWeights: [Double] = [0.5, 1, 2, 4, 8, 16, 64]
    /// Searches per sweep weight that also charge the whole-line steep metres (`BrakingGrade
    /// .lineMetres`) of the last line on its edges, as the planner's `SteepLineRule` rounds do.
    static let paretoPenaltyRounds = 2

    /// The weights of the distance-versus-braking sweep at braking weight `wb`.
    static func paretoWeights(braking wb: Double) -> ModeWeights {
        var w = ModeWeights.table(for: .smoothest)
        w.roughness = 0; w.climbSecondsPerMetre = 0; w.flowReward = 0; w.brakingRisk = 0
        w.crossingSeconds = 0; w.signalSeconds = 0; w.majorJunctionSeconds = 0; w.arterial = 1
        w.bikeLaneReward = 0; w.sharpDownhillTurnSeconds = 0; w.hazardSeconds = 0
        w.brakingSecondsPerMetre = wb; w.cautionSecondsPerMetre = wb * 0.3
        return w
    }

    /// One candidate line of a pair for the summed bound: its score and where it came from.
    struct Candidate {
        var score: Score
        var source: String
    }

    func printBounds(map: SkateMap, od: [(Coordinate, Coordinate)], common: [Int], scorer: LineScorer, bicycle: [Score?]?, foot: [Score?]?) {
        let planner = Planner(map: map)
        let smooth = planner.router(for: .smoothest)
        let fast = planner.router(for: .fastMildRoughness)
        var table = Score(), own = 0.0, ownLine = 0.0, ownLineCaution = 0.0, swapped = 0, swappedBraking = 0.0
        var sweep = [Score](repeating: Score(), count: Self.boundWeights.count)
        var least = Score(), leastWithin = Score(), within = 0
        // Per pair (in `common` order): every candidate line, the bicycle's and smoothest's scores.
        var perPair: [(bike: Score, smooth: Score, candidates: [Candidate])] = []
        var planSearches = 0, paretoSearches = 0
        var exact: [ExactPairInput] = []
        for i in common {
            let (a, b) = od[i]
            let n0 = SearchCounters.searches
            guard let p = try? planner.plan(from: a, to: b, mode: .smoothest), let sa = try? smooth.snap(a), let sb = try? smooth.snap(b) else { continue }
            planSearches += SearchCounters.searches - n0
            let legs = p.path.legs
            let head = legs.first?.length ?? 0, tail = legs.count > 1 ? legs.last!.length : 0
            let s = scorer.score(p.geometry, ends: (head, tail))
            table.add(s)
            let seen = PlanBuilder(map: map, costing: smooth.costing, knowledge: .empty).steepMetres(p.path)
            ownLine += seen.braking; ownLineCaution += seen.caution
            for l in legs where Double(map.edgeLength[l.edge]) > 0 {
                own += scorer.table.brakingMetres(l.edge, reversed: l.reversed) * l.length / Double(map.edgeLength[l.edge])
            }
            if let f = fast.bestRoute(from: sa, to: sb), f.legs == legs { swapped += 1; swappedBraking += s.brakingMap }
            if let bike = bicycle?[i] { exact.append(ExactPairInput(from: sa, to: sb, smoothestLegs: legs, smoothest: s, bicycle: bike)) }
            if exactOnly { continue }
            var candidates: [Candidate] = [Candidate(score: s, source: "smoothest")]
            for (k, wb) in Self.boundWeights.enumerated() {
                var w = ModeWeights.table(for: .smoothest)
                w.brakingSecondsPerMetre = wb
                w.cautionSecondsPerMetre = wb * 0.3
                let r = planner.router(for: .smoothest, weights: w)
                guard let path = r.bestRoute(from: sa, to: sb) else { continue }
                let builder = PlanBuilder(map: map, costing: r.costing, knowledge: .empty)
                let line = path.legs.flatMap { builder.legGeometry($0) }
                let x = scorer.score(line)
                sweep[k].add(x)
                candidates.append(Candidate(score: x, source: String(printf: "smoothest costing %.0f s/m", wb)))
            }
            if let best = candidates.min(by: { $0.score.brakingMap < $1.score.brakingMap }) { least.add(best.score) }
            guard let bike = bicycle?[i] else { continue }
            let ok = candidates.filter { $0.score.distance <= Self.distanceTarget * bike.distance }
            if let best = ok.min(by: { $0.score.brakingMap < $1.score.brakingMap }) { leastWithin.add(best.score); within += 1 }
            // The summed bound's further candidates: the distance-versus-braking sweep (with its
            // whole-line rounds) and the peers' own lines.
            let s0 = SearchCounters.searches
            candidates += paretoCandidates(planner: planner, map: map, from: sa, to: sb, scorer: scorer)
            paretoSearches += SearchCounters.searches - s0
            candidates.append(Candidate(score: bike, source: "routino bicycle"))
            if let f = foot?[i] { candidates.append(Candidate(score: f, source: "routino foot")) }
            perPair.append((bike, s, candidates))
        }
        func row(_ label: String, _ s: Score) {
            print(String(printf: "    %-58@ braking %6.0f m  caution %6.0f m  %6.2f km  (%d pairs)", label, s.brakingMap, s.cautionMap, s.distance / 1000, s.count))
        }
        if exactOnly {
            print(String(printf: "  smoothest's own lines: scorer braking %.0f m; the planner's whole-line count on its own profile (BrakingGrade.lineMetres) %.0f m, caution %.0f m", table.brakingMap, ownLine, ownLineCaution))
            printExactBound(map: map, scorer: scorer, costing: smooth.costing, pairs: exact)
            return
        }
        print("  why smoothest still brakes (matched scorer, the \(common.count) common pairs):")
        row("smoothest (table)", table)
        print(String(printf: "    of its braking: %.0f m in the first or last leg; the router's own per-edge count on the same lines: %.0f m", table.brakingMapEnds, own))
        print(String(printf: "    the planner's whole-line count on its own profile (BrakingGrade.lineMetres, what it chooses by): braking %.0f m, caution %.0f m", ownLine, ownLineCaution))
        print(String(printf: "    smoothest rides the fast line (roughness tie rule) on %d pairs, carrying %.0f m of its braking", swapped, swappedBraking))
        for (k, wb) in Self.boundWeights.enumerated() { row(String(printf: "min-braking search %.0f s/m, no detour cap", wb), sweep[k]) }
        row("least braking of any line above, per pair (no distance limit)", least)
        row(String(printf: "least braking within %.1f× Routino bicycle's distance", Self.distanceTarget), leastWithin)
        print(String(printf: "    searches per pair: smoothest's plan %.1f, the smoothest-costing sweep %d, the distance+braking sweep %.1f", Double(planSearches) / Double(max(1, table.count)),
                     Self.boundWeights.count, Double(paretoSearches) / Double(max(1, perPair.count))))
        printSummedBound(perPair)
        printExactBound(map: map, scorer: scorer, costing: smooth.costing, pairs: exact)
    }

    /// Lines between `sa` and `sb` from the distance-versus-braking sweep (`paretoWeights`), each
    /// weight's plain search followed by `paretoPenaltyRounds` searches that charge the last
    /// line's whole-line steep metres on its edges, every line scored by `scorer`.
    func paretoCandidates(planner: Planner, map: SkateMap, from sa: EdgeSnap, to sb: EdgeSnap, scorer: LineScorer) -> [Candidate] {
        var out: [Candidate] = []
        var seen: [[RouteLeg]] = []
        for wb in Self.paretoWeights {
            let r = planner.router(for: .smoothest, weights: Self.paretoWeights(braking: wb))
            let builder = PlanBuilder(map: map, costing: r.costing, knowledge: .empty)
            var penalty: [Int: Double] = [:]
            for round in 0...Self.paretoPenaltyRounds {
                guard let path = r.bestRoute(from: sa, to: sb, penalty: penalty) else { break }
                if !seen.contains(path.legs) {
                    seen.append(path.legs)
                    let line = path.legs.flatMap { builder.legGeometry($0) }
                    out.append(Candidate(score: scorer.score(line), source: String(printf: "distance+braking %g s/m%@", wb, round > 0 ? " +whole-line" : "")))
                }
                // Charge each leg's whole-line steep metres at the sweep's weights on its edge.
                var added = false
                for (l, st) in zip(path.legs, builder.steepMetresPerLeg(path)) where st.braking + st.caution > 0 && l.length > 0 {
                    let c = r.costing.edgeCost(edge: l.edge, reversed: l.reversed).cost
                    guard c > 0, c.isFinite else { continue }
                    let share = l.length / max(Double(map.edgeLength[l.edge]), l.length)
                    let m = 1 + (wb * st.braking + 0.3 * wb * st.caution) / (c * share)
                    if m > (penalty[l.edge] ?? 1) { penalty[l.edge] = m; added = true }
                }
                if !added { break }
            }
        }
        return out
    }

    /// The summed bound (issue 26's braking target): over the pairs, the least total braking
    /// reachable by the candidate lines (smoothest's, the sweeps', Routino's) when (a) each pair's
    /// line is within `distanceTarget` × Routino bicycle's distance on that pair, and (b) only the
    /// total distance is within `distanceTarget` × Routino bicycle's total (the target's own
    /// definition; the per-pair Pareto fronts combined by a Lagrange multiplier on distance).
    func printSummedBound(_ perPair: [(bike: Score, smooth: Score, candidates: [Candidate])]) {
        guard !perPair.isEmpty else { return }
        var bike = Score(), smooth = Score(), capped = Score()
        var sources: [String: Int] = [:]
        for p in perPair {
            bike.add(p.bike); smooth.add(p.smooth)
            let ok = p.candidates.filter { $0.score.distance <= Self.distanceTarget * p.bike.distance + 1e-6 }
            // Least braking, then least caution (the bicycle's own line always qualifies).
            guard let best = ok.min(by: { ($0.score.brakingMap, $0.score.cautionMap) < ($1.score.brakingMap, $1.score.cautionMap) }) else { continue }
            capped.add(best.score)
            sources[best.source, default: 0] += 1
        }
        // (b): for a multiplier μ (braking metres per metre of distance), each pair takes the
        // candidate of least braking + μ × distance; the least μ whose total fits the cap.
        let cap = Self.distanceTarget * bike.distance
        // `clean`: only the candidates that ride no more crusty metres than smoothest's own line.
        func pick(_ mu: Double, clean: Bool = false) -> Score {
            var s = Score()
            for p in perPair {
                let ok = clean ? p.candidates.filter { $0.score.crusty <= p.smooth.crusty + Self.crustySlackMetres } : p.candidates
                if let c = ok.min(by: { ($0.score.brakingMap + mu * $0.score.distance, $0.score.cautionMap) < ($1.score.brakingMap + mu * $1.score.distance, $1.score.cautionMap) }) { s.add(c.score) }
            }
            return s
        }
        func fit(clean: Bool) -> (Score, Double) {
            var total = pick(0, clean: clean), mu = 0.0
            if total.distance > cap {
                var lo = 0.0, hi = 1.0
                while pick(hi, clean: clean).distance > cap && hi < 1e6 { hi *= 2 }
                for _ in 0..<40 { let mid = (lo + hi) / 2; if pick(mid, clean: clean).distance > cap { lo = mid } else { hi = mid } }
                total = pick(hi, clean: clean); mu = hi
            }
            return (total, mu)
        }
        let (total, mu) = fit(clean: false)
        let (cleanTotal, cleanMu) = fit(clean: true)
        let target = BrakingBenchmark.targetBraking * bike.brakingMap
        func ratio(_ s: Score) -> String {
            String(printf: "braking %6.0f m (%.2f×)  brk+cau %6.0f m (%.2f×)  %7.2f km (%.2f×)", s.brakingMap, s.brakingMap / max(1, bike.brakingMap),
                   s.brakingMap + s.cautionMap, (s.brakingMap + s.cautionMap) / max(1, bike.brakingMap + bike.cautionMap), s.distance / 1000, s.distance / max(1, bike.distance))
        }
        print("  summed bound (matched scorer, \(perPair.count) pairs; candidates per pair: smoothest's line, the four smoothest-costing sweeps, the distance+braking sweep \(Self.paretoWeights.map { String(printf: "%g", $0) }.joined(separator: ", ")) s/m each with \(Self.paretoPenaltyRounds) whole-line rounds, Routino foot and bicycle; × = ratio to Routino bicycle on the same pairs):")
        print("    " + String(printf: "%-50@", "routino bicycle (reference)") + ratio(bike))
        print("    " + String(printf: "%-50@", "smoothest (table)") + ratio(smooth))
        print("    " + String(printf: "%-50@", String(printf: "bound, each pair ≤ %.1f× its bicycle distance", Self.distanceTarget)) + ratio(capped))
        print("    " + String(printf: "%-50@", String(printf: "bound, total ≤ %.1f× the bicycle total", Self.distanceTarget)) + ratio(total))
        print(String(printf: "    target braking ≤ %.2f× = %.0f m: %@ (per-pair bound %.0f m, total-distance bound %.0f m)", BrakingBenchmark.targetBraking, target,
                     min(capped.brakingMap, total.brakingMap) <= target ? "reachable by these lines" : "NOT reachable by any of these lines", capped.brakingMap, total.brakingMap))
        print("    the per-pair bound's lines come from: " + sources.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        // What the total bound's lines are made of: its μ, where each pair's winner came from and
        // what the winners cost in crusty metres (the surface smoothest exists to avoid).
        print(String(printf: "    total bound's μ = %.4f braking m per m of distance (one braking metre worth %.1f m of detour); crusty: bound %.0f m, smoothest %.0f m, bicycle %.0f m",
                     mu, mu > 0 ? 1 / mu : .infinity, total.crusty, smooth.crusty, bike.crusty))
        printWinners("total bound", perPair, mu: mu)
        print("    " + String(printf: "%-50@", String(printf: "bound, total ≤ %.1f×, no more crusty than smoothest", Self.distanceTarget)) + ratio(cleanTotal)
              + String(printf: "  crusty %.0f m  μ = %.4f (%.1f m of detour per braking m)", cleanTotal.crusty, cleanMu, cleanMu > 0 ? 1 / cleanMu : .infinity))
        // The same rule with a fixed μ (out of sample when μ was fitted on another seed), and with
        // only the candidates that ride no more crusty metres than smoothest's own line.
        for m in fixedMu {
            var all = Score(), clean = Score()
            for p in perPair {
                let key = { (c: Candidate) in (c.score.brakingMap + m * c.score.distance, c.score.cautionMap) }
                if let c = p.candidates.min(by: { key($0) < key($1) }) { all.add(c.score) }
                let ok = p.candidates.filter { $0.score.crusty <= p.smooth.crusty + Self.crustySlackMetres }
                if let c = ok.min(by: { key($0) < key($1) }) { clean.add(c.score) }
            }
            print("    " + String(printf: "%-50@", String(printf: "fixed μ %.4f, all candidates", m)) + ratio(all) + String(printf: "  crusty %.0f m", all.crusty))
            print("    " + String(printf: "%-50@", String(printf: "fixed μ %.4f, no more crusty than smoothest", m)) + ratio(clean) + String(printf: "  crusty %.0f m", clean.crusty))
            printWinners(String(printf: "fixed μ %.4f", m), perPair, mu: m)
        }
    }

    /// Metres of crusty riding a candidate may add to smoothest's line and still count as "no
    /// more crusty" (the scorer's 5 m sampling).
    static let crustySlackMetres = 5.0

    /// Per candidate source: how many pairs' least braking + μ·distance line came from it, and
    /// those lines' braking, crusty metres and distance beside smoothest's on the same pairs.
    func printWinners(_ label: String, _ perPair: [(bike: Score, smooth: Score, candidates: [Candidate])], mu: Double) {
        var by: [String: (n: Int, s: Score, own: Score)] = [:]
        for p in perPair {
            guard let c = p.candidates.min(by: { ($0.score.brakingMap + mu * $0.score.distance, $0.score.cautionMap) < ($1.score.brakingMap + mu * $1.score.distance, $1.score.cautionMap) }) else { continue }
            var e = by[c.source] ?? (0, Score(), Score())
            e.n += 1; e.s.add(c.score); e.own.add(p.smooth)
            by[c.source] = e
        }
        print("    \(label), winners by source (braking / crusty / km of the winners; smoothest's on the same pairs):")
        for (k, e) in by.sorted(by: { $0.value.n > $1.value.n }) {
            print(String(printf: "      %-36@ %2d pairs  braking %6.0f (smoothest %6.0f)  crusty %6.0f (%6.0f)  %6.2f km (%6.2f)", k, e.n,
                         e.s.brakingMap, e.own.brakingMap, e.s.crusty, e.own.crusty, e.s.distance / 1000, e.own.distance / 1000))
        }
    }
}
