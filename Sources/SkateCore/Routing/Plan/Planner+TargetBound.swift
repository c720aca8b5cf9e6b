/// How a plan's searches share one `TargetCostBound` (issue 30/31, eleventh and twelfth
/// rounds): the first search in every mode, smoothest's detour-cap retries, its steeper search and
/// penalty rounds, the alternatives (all between the plan's ends, under costs at least its own
/// line's costing) and trickSpotCrawl's legs from a spot to the target (the same target and
/// costing) — so the bound built once from that costing serves each of them, extended just far
/// enough before each search.
///
/// In every mode the first search's bound pays for itself where a plan is slow: the backward
/// search settles nodes without turns or crusty buckets, and the forward search then settles a
/// few states per node of its line (docs/region-scale.md, twelfth round).
extension Planner {
    /// What `p` costs under `router`'s costing with `penalty` (effort seconds): `trueCost` with
    /// each leg's edge cost multiplied as the search multiplies it. Any line bounds a search's
    /// answer from above, so this is how far the bound must reach for that search.
    static func lineCost(_ p: RoutePath, router: Router, penalty: [Int: Double]) -> Double {
        var c = 0.0
        for (i, l) in p.legs.enumerated() {
            let len = Double(router.map.edgeLength[l.edge])
            c += router.costing.edgeCost(edge: l.edge, reversed: l.reversed).cost * (len > 0 ? l.length / len : 1) * (penalty[l.edge] ?? 1)
            if i > 0 {
                let prev = p.legs[i - 1]
                let node = Int(prev.reversed ? router.map.edgeFrom[prev.edge] : router.map.edgeTo[prev.edge])
                c += router.costing.transitionCost(from: prev.edge, fromReversed: prev.reversed, node: node, to: l.edge, toReversed: l.reversed)
            }
        }
        return c
    }

    /// A plan's first search and the bound its later searches share: the `TargetCostBound` from
    /// `a` to `b` under `router`'s costing, extended to the cost of the line along its own
    /// backward tree, added to `Router.bestRoute`'s heuristic. The same line cost as `bestRoute`
    /// alone (`FirstSearchBoundTests`; `skateroute bench`'s exactness line checks it against a plain
    /// Dijkstra). `ruleUnmet` as for `bestRoute`.
    static func firstSearch(router: Router, from a: EdgeSnap, to b: EdgeSnap, ruleUnmet: Bool = false) -> (RoutePath?, TargetCostBound) {
        let bound = TargetCostBound(map: router.map, costing: router.costing, from: a, to: b)
        let tree = bound.treeLine(from: a)
        let first = tree.flatMap { Self.bound(bound, for: [$0], router: router) }
        // The tree line is a real line to `b`: where it (or its tail) keeps the crusty rule, the
        // search need not prove that no line does (`RuleWitness`).
        return (router.bestRoute(from: a, to: b, ruleUnmet: ruleUnmet, targetBound: first, ruleWitness: tree), bound)
    }

    /// `firstSearch`'s line: the search a plan's first line comes from, for `skateroute bench`'s
    /// exactness check.
    public static func firstLine(router: Router, from a: EdgeSnap, to b: EdgeSnap, ruleUnmet: Bool = false) -> RoutePath? {
        firstSearch(router: router, from: a, to: b, ruleUnmet: ruleUnmet).0
    }

    /// How far `leastSteepLine` extends the shared bound for its ×4 search and penalty rounds, as a
    /// multiple of the mode's own line's true cost (effort seconds over effort seconds). Their
    /// known lines cost far more under their costings (the penalties multiply the steep edges'
    /// costs) than the lines they return, so extending to those costs settled most of the map
    /// backwards; any extension is admissible (`F − π(v)` bounds the rest), so past the cap the
    /// forward search pays instead. 1.2: callgrind, Heidelberg bench 60 pairs, `leastSteepLine`
    /// 4.63 → 4.33 G instructions (slowest pair 450.6 → 429.0 M; 1.1: 439.6 M, 1.3: 441.7 M,
    /// 1.0: 468.4 M, 1.5: no cap reached).
    static let laterBoundCap = 1.2

    /// Extends `bound` for a search under `router` with `penalty` whose answer costs at most what
    /// the cheapest of `lines` costs there, but not past `cap` (effort seconds); returns the bound,
    /// or nil when it does not apply.
    static func bound(_ bound: TargetCostBound?, for lines: [RoutePath], router: Router, penalty: [Int: Double] = [:], cap: Double = .infinity) -> TargetCostBound? {
        guard let bound, bound.applies(to: router.costing, penalty: penalty) else { return nil }
        let upper = Swift.min(cap, lines.map { lineCost($0, router: router, penalty: penalty) }.min() ?? .infinity)
        // A search settles only states whose key is below its answer: past `upper` plus the
        // bound's own slack, every node it settles has its exact cost (`TargetCostBound.extend`).
        if upper.isFinite { bound.extend(to: upper + bound.inconsistency) }
        return bound
    }
}

/// A `TargetCostBound` that several threads read and none extends (`Planner.threadThroughSpot`'s
/// legs to the target): `bound(_:)` only reads its labels and open list.
struct ReadOnlyTargetBound: @unchecked Sendable {
    let bound: TargetCostBound?
}
