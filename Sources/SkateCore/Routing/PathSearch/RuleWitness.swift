/// A line to a search's target whose whole length, or whose last part, keeps the crusty rule:
/// evidence that a rule-abiding line exists, so `Router.bestRoute` need not try to prove that
/// none does (issue 30).
///
/// The first search's tree line (`TargetCostBound.treeLine`) serves that search. A plan's first
/// line serves every later search of the plan to the same target under the same
/// mode (smoothest's detour-cap retries, its steeper search and penalty rounds, the
/// alternatives: their weights change no traversal's allowedness and no edge's crustiness) and
/// `trickSpotCrawl`'s legs from a spot to the goal. When the whole line keeps the rule, a
/// rule-abiding line exists from its own start outright. From elsewhere one exists once the
/// rule-bound search has labelled a state at a node of the line from which the rest of the line
/// keeps the rule, arriving with a crusty run short enough for the crusty run the rest starts
/// with, and not by the reverse of the line's next edge (the search makes no U-turn on an
/// edge): that state's way, then the rest of the line, keeps the rule. So a line that breaks
/// the rule near its start (an end on a long cobbled track) still witnesses for the legs that
/// meet it past there.
///
/// The line is checked against the costing it is used with, not trusted: every leg allowed,
/// the crusty runs measured with the costing's own `isCrusty`, the last leg ending at the target,
/// and `roundingSlack` kept off the limit.
struct RuleWitness {
    /// Per node of the line after each leg but the last, where the rest of the line keeps the
    /// rule: the node, the longest crusty run (metres) a state may arrive with for the rest of
    /// the line to keep the rule from there, and the traversal the line leaves the node by.
    let joins: [(node: Int, maxRun: Double, next: Int)]
    /// The line's first leg, when the whole line keeps the rule: a rule-abiding line from there.
    let ruleAbidingStart: RouteLeg?

    /// Metres kept off the 100 m limit in `joins`: the search sums runs in `Float`, this sums them
    /// in `Double` in another order (`CrustyRuleProof.roundingSlack`'s figure).
    static let roundingSlack = CrustyRuleProof.roundingSlack

    /// nil unless `line` reaches `b` over traversals `costing` allows and some part of it
    /// before its last leg keeps the rule to `b`.
    init?(line: RoutePath?, to b: EdgeSnap, costing: SkateCosting) {
        guard let line, let last = line.legs.last, last.edge == b.edge, last.endOffset == b.offset,
              line.legs.allSatisfy({ costing.allowed(edge: $0.edge, reversed: $0.reversed) }) else { return nil }
        let map = costing.map, limit = CostingConstants.maxContinuousCrusty
        // Backwards from the target: the crusty run the rest of the line starts with (`lead`) and
        // whether it keeps the rule when entered with no run (`keeps`).
        var lead = 0.0, keeps = true
        var joins: [(node: Int, maxRun: Double, next: Int)] = []
        for i in line.legs.indices.reversed() {
            let l = line.legs[i]
            if i + 1 < line.legs.count, keeps {
                let n = line.legs[i + 1]
                joins.append((Int(l.reversed ? map.edgeFrom[l.edge] : map.edgeTo[l.edge]), limit - Self.roundingSlack - lead,
                              n.edge << 1 | (n.reversed ? 1 : 0)))
            }
            lead = costing.isCrusty(edge: l.edge) ? lead + l.length : 0
            keeps = keeps && lead < limit - Self.roundingSlack
        }
        guard !joins.isEmpty || keeps else { return nil }
        self.joins = joins
        ruleAbidingStart = keeps ? line.legs.first : nil
    }

    /// Whether the whole line keeps the rule and starts at `a` (its first leg leaves `a`'s edge
    /// from `a`'s offset): a rule-abiding line from `a`.
    func starts(at a: EdgeSnap) -> Bool {
        guard let f = ruleAbidingStart else { return false }
        return f.edge == a.edge && f.startOffset == a.offset
    }

    /// Whether `search` (rule-bound) has labelled a state that joins the line (see the type).
    func joined(by search: borrowing Search) -> Bool {
        guard search.ctx.hardRule else { return false }
        let map = search.ctx.map
        for j in joins {
            // The traversal that would be a U-turn onto the line's next edge.
            let uTurn = j.next ^ 1
            if search.nodeLabels {
                for b in 0..<Search.B {
                    if let l = search.label(j.node << Search.shift | b), l.g < .infinity, Double(l.run) < j.maxRun, Int(l.via) != uTurn { return true }
                }
            } else {
                for k in map.adjacencyRange(of: j.node) {
                    // Leaving the node by entry `e, rev` is entering it by the opposite traversal.
                    let into = Int(map.adjacency[k]) ^ 1
                    guard into != uTurn else { continue }
                    for b in 0..<Search.B {
                        if let l = search.label(into << Search.shift | b), l.g < .infinity, Double(l.run) < j.maxRun { return true }
                    }
                }
            }
        }
        return false
    }
}
