import FoundationEssentials

/// Skate-aware A* over a `SkateMap` with a `SkateCosting`, honouring the 100 m crusty rule by
/// carrying the length of continuous crusty riding in the search state.
public struct Router: Sendable {
    public let map: SkateMap
    public let costing: SkateCosting

    /// Snap radius in metres for origin and destination.
    public static let snapRadius: Double = 400
    /// Crusty-run buckets in the search state: 10 m each up to the 100 m limit.
    static let runBucketMetres: Double = 10
    static let runBuckets = 11
    /// States are `node << runBucketShift | bucket` (`edgeLabels`: `traversal << …`): a shift,
    /// not a division by 11, in the inner loop; the order of state ids (the tie-break) is the
    /// same (node, bucket) order either way.
    static let runBucketShift = 4

    public let components: ConnectedComponents?

    /// Whether `bestRoute` bounds its searches: first tries to prove the crusty rule unreachable
    /// (`CrustyRuleProof`), and bounds targets reachable only over a forbidden way
    /// (`ForbiddenEntryBound`); false only for `skateroute bench`'s before/after figures and the
    /// tests that compare both.
    public var boundedSearch = true
    /// `defaultBoundCheckStates`; the tests set 0 to run the checks on every search.
    var boundCheckStates = Router.defaultBoundCheckStates
    /// One label per (traversal a node was reached by, crusty bucket) instead of per (node,
    /// bucket): the default (issue 30). A turn's cost depends on the edge a node was entered by,
    /// so per-node labels can keep the wrong way in and miss a cheaper line: on seeded Monaco
    /// pairs 72 of 165 searches did, by up to 4.7 % (`EdgeLabelExactnessTests` checks the default
    /// search against `ReferenceSearch`, a plain Dijkstra). False only for `skateroute bench
    /// --node-labels`' before figures and the tests that compare both.
    public var edgeLabels = true

    public init(map: SkateMap, costing: SkateCosting, components: ConnectedComponents? = nil) {
        self.map = map
        self.costing = costing
        self.components = components
    }

    /// Snaps a position to the nearest edge a skater can use on the main network (islands such as
    /// a pier's footway or a courtyard path are skipped when the main network is near).
    /// Ends snap to a way a skater may use (not forbidden, not a lift) when one lies within this
    /// many metres beyond the nearest usable way: a start on a tunnel's line means the street above.
    public static let legalSnapSlack: Double = 60

    public func snap(_ c: Coordinate, radius: Double = Router.snapRadius) throws -> EdgeSnap {
        let usable: (Int) -> Bool = { costing.allowed(edge: $0, reversed: false) || costing.allowed(edge: $0, reversed: true) }
        let legal: (Int) -> Bool = {
            let f = map.flags(ofEdge: $0)
            return !f.contains(.connector) && AccessModel.decision(of: f).accessClass != .forbidden
        }
        if let comp = components, let s = map.nearestEdge(to: c, maxDistance: radius, where: { usable($0) && comp.isMain(edge: $0) }) {
            if legal(s.edge) { return s }
            if let l = map.nearestEdge(to: c, maxDistance: min(radius, s.distance + Self.legalSnapSlack),
                                       where: { usable($0) && legal($0) && comp.isMain(edge: $0) }) { return l }
            return s
        }
        guard let s = map.nearestEdge(to: c, maxDistance: radius, where: usable) else {
            throw RoutingError.noEdgeNear(c, radius: radius)
        }
        return s
    }

    /// The cheapest path between two snapped points.
    /// - Parameters:
    ///   - penalty: optional per-edge cost multipliers (alternatives).
    ///   - hardRule: enforce the 100 m continuous-crusty rule; the caller retries without it when it fails.
    public func route(from a: EdgeSnap, to b: EdgeSnap, penalty: [Int: Double] = [:], hardRule: Bool = true) -> RoutePath? {
        route(from: a, to: b, penalty: penalty, hardRule: hardRule, bounded: false, entry: nil)
    }

    /// `bounded`: the heuristic also counts the target edge's cheapest last part and, with
    /// `entry`, the forbidden way every line to the target takes.
    func route(from a: EdgeSnap, to b: EdgeSnap, penalty: [Int: Double], hardRule: Bool, bounded: Bool, entry: ForbiddenEntryBound?,
               targetBound: TargetCostBound? = nil) -> RoutePath? {
        var search = Search(router: self, target: b, penalty: penalty, hardRule: hardRule, bounded: bounded, entry: entry, targetBound: targetBound)
        return search.run(from: a)
    }

    /// Routes with the hard rule, falling back to a route without it only when none exists.
    /// When a bounded search (`CrustyRuleProof`) shows that no line keeps to the rule, the
    /// rule-bound search — which would settle every state it can reach before failing — is
    /// skipped; the answer is the same (`CrustyRuleProofTests` runs both on seeded pairs).
    ///
    /// `ruleUnmet`: the caller already knows no line from `a` to `b` keeps to the rule — a
    /// search of another mode between the same ends found none. Whether a line keeps to the rule
    /// depends only on which traversals are allowed and which edges are crusty, and neither
    /// depends on the weights (`SkateCosting.isAllowed`, `isCrusty`), so the rule-bound search
    /// and its proof are skipped. (The relaxed search then starts without a forbidden-entry
    /// bound and adds one past the cap, as after a proof: the same cost; the line differs only
    /// where two lines cost exactly the same.)
    ///
    /// `costLimit`: only a line costing at most this much matters to the caller (`trickSpotCrawl`'s
    /// spot legs, once a joined line is known). The answer is the same whenever it costs at most
    /// the limit; otherwise it may be nil. The searches stop once every line left costs more than
    /// the limit (the least A* key on the open list is a lower bound on every line still open).
    ///
    /// `targetBound`: costs to `b` under a costing this router's costs are at least
    /// (`TargetCostBound`, built for the same ends by a planner sharing this router's costings);
    /// ignored unless `applies`. The searches add it to their heuristic: the same costs, fewer
    /// states settled. (The line differs only where two lines cost exactly the same.)
    public func bestRoute(from a: EdgeSnap, to b: EdgeSnap, penalty: [Int: Double] = [:], ruleUnmet: Bool = false,
                          costLimit: Double = .infinity) -> RoutePath? {
        bestRoute(from: a, to: b, penalty: penalty, ruleUnmet: ruleUnmet, costLimit: costLimit, targetBound: nil)
    }

    func bestRoute(from a: EdgeSnap, to b: EdgeSnap, penalty: [Int: Double] = [:], ruleUnmet: Bool = false,
                   costLimit: Double = .infinity, targetBound: TargetCostBound?, ruleWitness: RoutePath? = nil) -> RoutePath? {
        var entryFirst = false
        return bestRoute(from: a, to: b, penalty: penalty, ruleUnmet: ruleUnmet, costLimit: costLimit, targetBound: targetBound,
                         ruleWitness: ruleWitness, relaxedEntryFirst: &entryFirst)
    }

    /// `bestRoute`, telling in `relaxedEntryFirst` whether its relaxed search started with a
    /// forbidden-entry bound, which only a rule-bound search that ran to its end (no proof)
    /// builds. When it did not and the answer breaks the rule, the answer is the one `bestRoute`
    /// with `ruleUnmet` gives (the same searches from the quick or full proof on), so a search
    /// run before `ruleUnmet` was known may stand for one run after (`Planner.plan`, smoothest's
    /// fast line beside its own).
    ///
    /// `ruleWitness`: a line to `b` that may keep the crusty rule under this costing (the first
    /// search's tree line; the plan's first line, for its later searches and its spot legs to
    /// the goal). When it does and it
    /// starts at `a`, or the rule-bound search reaches it (`RuleWitness`), a rule-abiding line
    /// from `a` to `b` exists, so the proofs that none does are not run — they could only fail —
    /// and a rule-bound search stopped at `costLimit` answers nil at once (every rule-abiding
    /// line then costs more than the limit). The same answers as without it.
    func bestRoute(from a: EdgeSnap, to b: EdgeSnap, penalty: [Int: Double] = [:], ruleUnmet: Bool = false,
                   costLimit: Double = .infinity, targetBound: TargetCostBound?, ruleWitness: RoutePath? = nil,
                   relaxedEntryFirst: inout Bool) -> RoutePath? {
        relaxedEntryFirst = false
        let tb = targetBound.flatMap { $0.target == b && $0.applies(to: costing, penalty: penalty) ? $0 : nil }
        guard boundedSearch else { return bestRouteExhaustive(from: a, to: b, penalty: penalty) }
        let witness = ruleUnmet ? nil : RuleWitness(line: ruleWitness, to: b, costing: costing)
        // A rule-abiding line from `a` is known (the witness from `a` itself, or joined by the
        // rule-bound search below): no proof can succeed.
        var ruleLineShown = witness?.starts(at: a) ?? false
        // The rule-bound search, as always; only when it grows past the cap is it asked whether
        // it can succeed at all (CrustyRuleProof) or must pay a forbidden entry.
        var entry: ForbiddenEntryBound?
        var hard = Search(router: self, target: b, penalty: penalty, hardRule: true, bounded: true, targetBound: tb)
        hard.costLimit = costLimit
        var ruleMet = !ruleUnmet
        // A quick proof first: most ends no rule-abiding line leaves or reaches are shut in
        // within a few nodes (`CrustyRuleProof.quickBudgetPerSide`). Exact: when it proves,
        // the rule-bound search below would have failed and the relaxed search starts the same.
        if ruleMet && !ruleLineShown {
            var quick = CrustyRuleProof(map: map, costing: costing)
            quick.budget = CrustyRuleProof.quickBudgetPerSide
            if quick.provesNoLine(from: a, to: b) { ruleMet = false }
        }
        if ruleMet { hard.seed(from: a) }
        if ruleMet, !hard.advance(limit: boundCheckStates) {
            ruleLineShown = ruleLineShown || (witness?.joined(by: hard) ?? false)
            if !ruleLineShown && CrustyRuleProof(map: map, costing: costing).provesNoLine(from: a, to: b) {
                ruleMet = false
            } else {
                entry = ForbiddenEntryBound(map: map, costing: costing, target: b)
                if entry != nil {
                    hard = Search(router: self, target: b, penalty: penalty, hardRule: true, bounded: true, entry: entry, targetBound: tb)
                    hard.costLimit = costLimit
                    hard.seed(from: a)
                }
                _ = hard.advance()
            }
        }
        if ruleMet, let p = hard.result(from: a) { return p }
        relaxedEntryFirst = entry != nil
        var relaxed = Search(router: self, target: b, penalty: penalty, hardRule: false, bounded: true, entry: entry, targetBound: tb)
        relaxed.costLimit = costLimit
        relaxed.seed(from: a)
        if entry == nil, !relaxed.advance(limit: boundCheckStates),
           let e = ForbiddenEntryBound(map: map, costing: costing, target: b) {
            relaxed = Search(router: self, target: b, penalty: penalty, hardRule: false, bounded: true, entry: e, targetBound: tb)
            relaxed.costLimit = costLimit
            relaxed.seed(from: a)
        }
        _ = relaxed.advance()
        // Nothing within the limit breaks the rule either (a relaxed line never costs more than
        // a rule-abiding one): no line within the limit.
        guard var p = relaxed.result(from: a) else { return nil }
        // A line within the limit that breaks the rule is the answer only when no line keeps to
        // the rule at all, which a rule-bound search stopped at the limit has not shown. Any
        // rule-abiding line costs more than the limit then, so the answer is nil when one exists
        // and `p` when none does: the proof, or else the rule-bound search carried on past the
        // limit from where it stopped, tells which. (This used to search again from scratch, as
        // without a limit: both searches again, for `trickSpotCrawl`'s spot legs.)
        // Without a forbidden-entry bound yet, one is tried first, as the search without a limit
        // would after `boundCheckStates`: a target reached only over a forbidden way would
        // otherwise settle every state cheaper than that way's surcharge.
        if ruleMet && hard.capped {
            // A rule-abiding line exists: every one costs more than the limit.
            if ruleLineShown || (witness?.joined(by: hard) ?? false) { return nil }
            if !CrustyRuleProof(map: map, costing: costing).provesNoLine(from: a, to: b) {
                if entry == nil, let e = ForbiddenEntryBound(map: map, costing: costing, target: b) {
                    hard = Search(router: self, target: b, penalty: penalty, hardRule: true, bounded: true, entry: e, targetBound: tb)
                    hard.seed(from: a)
                } else {
                    hard.costLimit = .infinity
                    hard.capped = false
                }
                _ = hard.advance()
                if hard.result(from: a) != nil { return nil }
            }
        }
        p.crustyRuleMet = false
        return p
    }

    /// Settled states after which `bestRoute` checks whether its search can be bounded: most
    /// plans settle fewer (they pay nothing for the checks), a whole-graph search many more.
    public static let defaultBoundCheckStates = 3_000

    /// `bestRoute` without the proof: the rule-bound search always runs first (the reference
    /// the tests compare against).
    func bestRouteExhaustive(from a: EdgeSnap, to b: EdgeSnap, penalty: [Int: Double] = [:]) -> RoutePath? {
        if let p = route(from: a, to: b, penalty: penalty, hardRule: true) { return p }
        guard var p = route(from: a, to: b, penalty: penalty, hardRule: false) else { return nil }
        p.crustyRuleMet = false
        return p
    }
}

/// The two cheapest bucket-0 ways into a node by different edges, kept in a `Search.NodeEntry`:
/// `g`/`via` the cheapest (its cost and edge), `second`/`secondVia` the second (its cost rounded
/// up to a `Float`, so a check against it never prunes what it should not, and its edge; -1: none).
enum NodeBest {
    /// Records a way in by `edge` at cost `g`; true when the record changed.
    static func improve(_ nb: inout Search.NodeEntry, edge: Int32, g: Double) -> Bool {
        if edge == nb.via {
            guard g < nb.g else { return false }
            nb.g = g
        } else if edge == nb.secondVia {
            guard g < Double(nb.second) else { return false }
            if g < nb.g {
                nb.secondVia = nb.via; nb.second = roundedUp(nb.g)
                nb.via = edge; nb.g = g
            } else {
                nb.second = roundedUp(g)
            }
        } else if g < nb.g {
            if nb.via >= 0 { nb.secondVia = nb.via; nb.second = roundedUp(nb.g) }
            nb.via = edge; nb.g = g
        } else if g < Double(nb.second) {
            nb.secondVia = edge; nb.second = roundedUp(g)
        } else {
            return false
        }
        return true
    }

    /// The least `Float` not below `x`.
    static func roundedUp(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) >= x ? f : f.nextUp
    }
}

/// One A* run. States are (node, crusty-run bucket), or with `Router.edgeLabels` (traversal a
/// node was reached by, bucket), the states the turn costs are exact over; bucket 0 lives in an
/// array, others in an `IntKeyedTable`.
struct Search: ~Copyable {
    /// 24 bytes: the per-node labels stay small enough to be cheap to touch.
    struct Label: StampedLabel {
        var g: Double
        /// Metres of continuous crusty riding when reaching this state.
        var run: Float
        /// Parent state (-1 = start) and the traversal that reached this state (`edge << 1 | reversed`).
        var parent: Int32
        var via: Int32
        var closed: Bool
        /// The search generation that wrote this label (`SearchLabels`; fits in the padding).
        var stamp: UInt16 = 0

        init(g: Double, run: Float, parent: Int32, via: Int32, closed: Bool) {
            self.g = g; self.run = run; self.parent = parent; self.via = via; self.closed = closed
        }

        /// A state no way has reached yet.
        static var unreached: Label { Label(g: .infinity, run: 0, parent: -1, via: -1, closed: false) }
    }

    /// 32 bytes per node, with `edgeLabels`: the two cheapest bucket-0 ways in (`NodeBest`) and
    /// the node's heuristic, computed once per search. A node is relaxed once per way in that
    /// a settled state reaches it by (about its degree squared times with labels per way in), and
    /// each heuristic reads the node's position and its landmark row: three cache lines the
    /// entry, read anyway for `NodeBest`, saves.
    struct NodeEntry: StampedLabel {
        /// The cheapest way in: its cost and edge (-1: none).
        var g: Double
        /// `SearchContext.heuristic(node)`, or negative when not computed yet.
        var h: Double
        /// The second cheapest way in by another edge: its cost rounded up, and its edge (-1: none).
        var second: Float
        var via: Int32
        var secondVia: Int32
        var stamp: UInt16 = 0

        static var unreached: NodeEntry { NodeEntry(g: .infinity, h: -1, second: .infinity, via: -1, secondVia: -1) }
    }

    struct QItem: Comparable {
        var f: Double
        var state: Int
        static func < (a: QItem, b: QItem) -> Bool { a.f != b.f ? a.f < b.f : a.state < b.state }
    }

    /// What this search reads and never changes, behind one reference (`SearchContext`).
    let ctx: SearchContext
    /// Bucket-0 labels, one per node, or per traversal (`edge << 1 | reversed`) with `edgeLabels`.
    let base: SearchLabels<Label>
    /// Per node, the two cheapest bucket-0 ways in by different edges (`NodeBest`) and the
    /// heuristic; only with `edgeLabels`.
    let nodeBest: SearchLabels<NodeEntry>?
    /// `!Router.edgeLabels`.
    let nodeLabels: Bool
    /// Labels of states past bucket 0, by state number (`IntKeyedTable`: no runtime conformance scan).
    var extra = IntKeyedTable<Label>()
    var heap = SearchHeap<QItem>()
    var bestGoal = Double.infinity
    var bestGoalState = -1
    var bestGoalLeg: RouteLeg?
    var directLeg: RouteLeg?
    /// Lines costing more than this do not matter (`Router.bestRoute`'s `costLimit`).
    var costLimit = Double.infinity
    /// Whether the search stopped at `costLimit`: then it has no answer (`result` is nil).
    var capped = false

    init(router: Router, target: EdgeSnap, penalty: [Int: Double], hardRule: Bool, bounded: Bool = false, entry: ForbiddenEntryBound? = nil,
         targetBound: TargetCostBound? = nil) {
        ctx = SearchContext(map: router.map, costing: router.costing, target: target, penalty: penalty, hardRule: hardRule, bounded: bounded,
                            entry: entry, targetBound: targetBound)
        nodeLabels = !router.edgeLabels
        base = SearchLabels(count: router.edgeLabels ? 2 * router.map.edgeCount : router.map.nodeCount)
        nodeBest = router.edgeLabels ? SearchLabels(count: router.map.nodeCount) : nil
    }

    static let B = Router.runBuckets
    static let shift = Router.runBucketShift
    static let bucketMask = (1 << Router.runBucketShift) - 1

    @inline(__always) func label(_ s: Int) -> Label? {
        s & Self.bucketMask == 0 ? base[s >> Self.shift] : extra[s]
    }

    @inline(__always) mutating func setLabel(_ s: Int, _ l: Label) {
        if s & Self.bucketMask == 0 { base[s >> Self.shift] = l } else { extra[s] = l }
    }

    func bucket(for run: Double) -> Int {
        run <= 0 ? 0 : min(Self.B - 1, Int(run / Router.runBucketMetres) + 1)
    }

    /// Relaxes a state; returns false when the hard rule forbids it.
    mutating func relax(node: Int, g: Double, run: Double, parent: Int, via: Int) {
        // Without the rule a state's crusty run changes nothing ahead (no cost depends on it), so
        // a relaxed search keeps one state per traversal: bucket 0, as for a run of 0. It kept
        // one per 10 m bucket before, up to 11 states per crusty traversal for the same answer.
        if ctx.hardRule && run >= CostingConstants.maxContinuousCrusty { return }
        let b = ctx.hardRule ? bucket(for: run) : 0
        let s = (nodeLabels ? node : via) << Self.shift | b
        if let nodeBest {
            // A way into `node` that two cheaper ways in by other edges (crusty run 0) beat by
            // more than any turn there can differ (`transitionSlack`) leads nowhere they do not
            // lead for less: each continuation is allowed from at least one of them (no U-turn),
            // their runs are shorter. Dropping it keeps the search exact (EdgeLabelExactnessTests).
            let e = Int32(via >> 1)
            var nb = nodeBest[node]
            if nb.via != e, nb.secondVia != e, nb.secondVia >= 0, Double(nb.second) + SkateCosting.minimumTransitionSlack <= g,
               Double(nb.second) + ctx.costing.transitionSlack(node: node) <= g { return }
            var changed = b == 0 && NodeBest.improve(&nb, edge: e, g: g)
            if b > 0 && dominated(s, g: g) {
                if changed { nodeBest[node] = nb }
                return
            }
            // A settled state is opened again when a cheaper way reaches it: the quantised
            // landmark bounds (`LandmarkTable`) are admissible but may be inconsistent by one
            // quantum, and reopening keeps the search exact then (with consistent bounds it never
            // happens).
            if let old = label(s), old.g <= g {
                if changed { nodeBest[node] = nb }
                return
            }
            if nb.h < 0 { nb.h = ctx.heuristic(node); changed = true }
            if changed { nodeBest[node] = nb }
            setLabel(s, Label(g: g, run: Float(run), parent: Int32(parent), via: Int32(via), closed: false))
            heap.insert(QItem(f: g + nb.h, state: s))
            return
        }
        if b > 0 && dominated(s, g: g) { return }
        if let old = label(s), old.g <= g { return }
        setLabel(s, Label(g: g, run: Float(run), parent: Int32(parent), via: Int32(via), closed: false))
        heap.insert(QItem(f: g + ctx.heuristic(node), state: s))
    }

    /// Whether a state of the same traversal (or node) in a lower crusty bucket costs at most `g`:
    /// it carries a shorter crusty run for no more effort, so every line on from state `s` is
    /// open to it at no more cost (no cost depends on the run, and the 100 m rule only ever
    /// allows more after a shorter one). Dropping `s` then keeps the search exact, and under
    /// the hard rule it keeps a crusty traversal from being searched once per 10 m bucket at
    /// rising costs. Only for `s` past bucket 0 (bucket 0 is a run of 0).
    @inline(__always) func dominated(_ s: Int, g: Double) -> Bool {
        let first = s & ~Self.bucketMask
        var k = first
        while k < s {
            if let l = label(k), l.g <= g { return true }
            k += 1
        }
        return false
    }

    mutating func run(from a: EdgeSnap) -> RoutePath? {
        seed(from: a)
        _ = advance()
        return result(from: a)
    }

    /// States settled so far.
    var settled = 0

    /// Puts the start's states on the heap (and the direct leg, when both ends share an edge).
    mutating func seed(from a: EdgeSnap) {
        SearchCounters.countSearch()
        let ctx = self.ctx, map = ctx.map, costing = ctx.costing, target = ctx.target, hardRule = ctx.hardRule
        let ea = a.edge
        let lenA = Double(map.edgeLength[ea])
        let crustyA = costing.isCrusty(edge: ea)
        // Start on the snapped edge, both ways.
        if costing.allowed(edge: ea, reversed: true) {
            let fr = lenA > 0 ? a.offset / lenA : 0
            relax(node: Int(map.edgeFrom[ea]), g: ctx.traversalCost(ea, true, fraction: fr), run: crustyA ? a.offset : 0, parent: -1, via: ea << 1 | 1)
        }
        if costing.allowed(edge: ea, reversed: false) {
            let fr = lenA > 0 ? (lenA - a.offset) / lenA : 0
            relax(node: Int(map.edgeTo[ea]), g: ctx.traversalCost(ea, false, fraction: fr), run: crustyA ? lenA - a.offset : 0, parent: -1, via: ea << 1)
        }
        // Same edge: ride straight along it.
        if target.edge == ea {
            let rev = target.offset < a.offset
            if costing.allowed(edge: ea, reversed: rev) {
                let fr = lenA > 0 ? abs(target.offset - a.offset) / lenA : 0
                let okRule = !hardRule || !crustyA || abs(target.offset - a.offset) < CostingConstants.maxContinuousCrusty
                if okRule {
                    bestGoal = ctx.traversalCost(ea, rev, fraction: fr)
                    directLeg = RouteLeg(edge: ea, reversed: rev, startOffset: a.offset, endOffset: target.offset)
                }
            }
        }
    }

    /// Settles states until the search is done (true) or `limit` states have been settled in
    /// all (false; calling again carries on exactly where it stopped).
    mutating func advance(limit: Int = .max) -> Bool {
        let ctx = self.ctx, map = ctx.map, costing = ctx.costing, target = ctx.target, hardRule = ctx.hardRule
        let eb = target.edge
        let lenB = Double(map.edgeLength[eb])
        let fromB = Int(map.edgeFrom[eb]), toB = Int(map.edgeTo[eb])
        let crustyB = costing.isCrusty(edge: eb)
        let penalty = ctx.penalty
        let hasPenalty = !penalty.isEmpty
        let settledBefore = settled
        defer { SearchCounters.countSettled(settled - settledBefore) }

        while let top = heap.min {
            if top.f >= bestGoal { return true }
            // Every line still open costs at least `top.f` (admissible bounds; the reopened
            // states of `relax` keep it so): none of them is within the limit.
            if top.f > costLimit { capped = true; return true }
            if settled >= limit { return false }
            _ = heap.popMin()
            settled += 1
            let s = top.state
            guard var lab = label(s), !lab.closed else { continue }
            // A state a cheaper one with a shorter crusty run reached after it was queued (see
            // `dominated`): nothing on from it can win.
            if s & Self.bucketMask != 0 && dominated(s, g: lab.g) { continue }
            lab.closed = true
            setLabel(s, lab)
            let viaEdge = Int(lab.via) >> 1, viaRev = lab.via & 1 == 1
            let u = nodeLabels ? s >> Self.shift : Int(viaRev ? map.edgeFrom[viaEdge] : map.edgeTo[viaEdge])
            // Reaching the target edge from this node.
            if u == fromB || u == toB {
                let rev = u == toB  // arriving from edgeTo means travelling backwards
                if costing.allowed(edge: eb, reversed: rev) {
                    let part = rev ? lenB - target.offset : target.offset
                    let runEnd = crustyB ? Double(lab.run) + part : 0
                    if !(hardRule && runEnd >= CostingConstants.maxContinuousCrusty) {
                        let fr = lenB > 0 ? part / lenB : 0
                        let tcost = (viaEdge == eb) ? 0 : costing.transitionCost(from: viaEdge, fromReversed: viaRev, node: u, to: eb, toReversed: rev)
                        let total = lab.g + tcost + ctx.traversalCost(eb, rev, fraction: fr)
                        if total < bestGoal && viaEdge != eb {
                            bestGoal = total
                            bestGoalState = s
                            bestGoalLeg = RouteLeg(edge: eb, reversed: rev, startOffset: rev ? lenB : 0, endOffset: target.offset)
                            directLeg = nil
                        }
                    }
                }
            }
            for k in map.adjacencyRange(of: u) {
                let adj = Int(map.adjacency[k])
                let e = adj >> 1, rev = adj & 1 == 1
                if e == viaEdge && rev != viaRev { continue }  // no U-turn on the same edge
                // One read of the traversal's cost for both the allowed test and the cost
                // (`allowed` is `storedCost < infinity`; `traversalCost` the same value, penalised).
                let stored = costing.storedCost(adj)
                guard stored < .infinity else { continue }
                let v = Int(rev ? map.edgeFrom[e] : map.edgeTo[e])
                let t = costing.transitionCost(from: viaEdge, fromReversed: viaRev, node: u, to: e, toReversed: rev)
                var c = Double(stored)
                if hasPenalty, let p = penalty[e] { c *= p }
                let g = lab.g + t + c
                let run = costing.isCrusty(edge: e) ? Double(lab.run) + Double(map.edgeLength[e]) : 0
                relax(node: v, g: g, run: run, parent: s, via: adj)
            }
        }
        return true
    }

    /// The path found (after `advance` returned true).
    func result(from a: EdgeSnap) -> RoutePath? {
        let map = ctx.map
        if capped { return nil }
        if let d = directLeg { return RoutePath(legs: [d], cost: bestGoal, crustyRuleMet: true) }
        guard bestGoalState >= 0, let last = bestGoalLeg else { return nil }
        // Walk parents back to the start.
        var legs: [RouteLeg] = [last]
        var s = bestGoalState
        while s >= 0, let lab = label(s) {
            let e = Int(lab.via) >> 1, rev = lab.via & 1 == 1
            let len = Double(map.edgeLength[e])
            if lab.parent < 0 {
                legs.append(RouteLeg(edge: e, reversed: rev, startOffset: a.offset, endOffset: rev ? 0 : len))
            } else {
                legs.append(RouteLeg(edge: e, reversed: rev, startOffset: rev ? len : 0, endOffset: rev ? 0 : len))
            }
            s = Int(lab.parent)
        }
        legs.reverse()
        // Drop zero-length legs at the ends (snapped exactly onto a node); a lift inside the
        // route is 0 m long and stays.
        while legs.count > 1, legs[0].length < 0.01 { legs.removeFirst() }
        while legs.count > 1, legs[legs.count - 1].length < 0.01 { legs.removeLast() }
        if legs.isEmpty { legs = [last] }
        return RoutePath(legs: legs, cost: bestGoal, crustyRuleMet: true)
    }
}
