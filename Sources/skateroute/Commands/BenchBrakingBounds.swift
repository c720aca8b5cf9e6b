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
    /// The distance target for smoothest: ≤ 1.3× Routino bicycle's distance.
    static let distanceTarget = 1.3

    func printBounds(map: SkateMap, od: [(Coordinate, Coordinate)], common: [Int], scorer: LineScorer, bicycle: [Score?]?) {
        let planner = Planner(map: map)
        let smooth = planner.router(for: .smoothest)
        let fast = planner.router(for: .fastMildRoughness)
        var table = Score(), own = 0.0, ownLine = 0.0, ownLineCaution = 0.0, swapped = 0, swappedBraking = 0.0
        var sweep = [Score](repeating: Score(), count: Self.boundWeights.count)
        var least = Score(), leastWithin = Score(), within = 0
        for i in common {
            let (a, b) = od[i]
            guard let p = try? planner.plan(from: a, to: b, mode: .smoothest), let sa = try? smooth.snap(a), let sb = try? smooth.snap(b) else { continue }
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
            var candidates: [Score] = [s]
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
                candidates.append(x)
            }
            if let best = candidates.min(by: { $0.brakingMap < $1.brakingMap }) { least.add(best) }
            if let bike = bicycle?[i] {
                let ok = candidates.filter { $0.distance <= Self.distanceTarget * bike.distance }
                if let best = ok.min(by: { $0.brakingMap < $1.brakingMap }) { leastWithin.add(best); within += 1 }
            }
        }
        func row(_ label: String, _ s: Score) {
            print(String(printf: "    %-58@ braking %6.0f m  caution %6.0f m  %6.2f km  (%d pairs)", label, s.brakingMap, s.cautionMap, s.distance / 1000, s.count))
        }
        print("  why smoothest still brakes (matched scorer, the \(common.count) common pairs):")
        row("smoothest (table)", table)
        print(String(printf: "    of its braking: %.0f m in the first or last leg; the router's own per-edge count on the same lines: %.0f m", table.brakingMapEnds, own))
        print(String(printf: "    the planner's whole-line count on its own profile (BrakingGrade.lineMetres, what it chooses by): braking %.0f m, caution %.0f m", ownLine, ownLineCaution))
        print(String(printf: "    smoothest rides the fast line (roughness tie rule) on %d pairs, carrying %.0f m of its braking", swapped, swappedBraking))
        for (k, wb) in Self.boundWeights.enumerated() { row(String(printf: "min-braking search %.0f s/m, no detour cap", wb), sweep[k]) }
        row("least braking of any line above, per pair (no distance limit)", least)
        row(String(printf: "least braking within %.1f× Routino bicycle's distance", Self.distanceTarget), leastWithin)
    }
}
