extension Planner {
    /// Whether `bestRoute` under `costing` would return `line` (or another line of the same
    /// cost), given that `line` is what `bestRoute` returned under `known` between the same ends
    /// (with the same `ruleUnmet`), both costings of one planner: true when `costing` makes no
    /// edge cheaper (`ModeWeights.costsAtLeast`: only higher braking, caution or distance weights;
    /// the turns cost the same) and costs each of `line`'s edges exactly as `known` does. Then
    /// `line` costs the same under both and every other line at least as much as under `known`,
    /// where it cost at least as much as `line`: `line` is still the least. Whether a line keeps
    /// the crusty rule does not depend on the weights. A steeper search after a line with no
    /// braking or caution metre on its edges (the whole-line rule still finds some across
    /// them) is such a search: it would return a line the choice has already weighed, so
    /// `leastSteepLine` skips it (the choice could differ only where two lines cost exactly the
    /// same, a tie the search breaks by state order). Checked against the search run anyway:
    /// `SteepSearchSkipTests`.
    static func searchReturns(_ line: RoutePath, leastUnder known: SkateCosting, under costing: SkateCosting) -> Bool {
        guard costing.weights.costsAtLeast(known.weights) else { return false }
        return line.legs.allSatisfy {
            costing.edgeCost(edge: $0.edge, reversed: $0.reversed).cost == known.edgeCost(edge: $0.edge, reversed: $0.reversed).cost
        }
    }
}
