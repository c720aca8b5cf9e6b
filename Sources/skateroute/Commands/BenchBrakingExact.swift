import FoundationEssentials
import HeapModule
import SkateCore

/// The exact part of `bench --braking --braking-bounds` (issue 26 item 2, ninth round): per pair,
/// the least braking metres over *all* legal lines on the routing graph — not the best of a few
/// candidate lines — that ride no more crusty-or-stairs metres than smoothest's own line and at
/// most `BrakingBenchmark.distanceTarget` × Routino bicycle's distance.
///
/// The braking rule (a metre brakes inside any window of 50–300 m averaging ≤ −8 %) runs across
/// edges, so a line's braking metres are not a sum over its edges. The search uses an additive
/// measure that never exceeds the rule's count (`steep(back:cur:ahead:)`): a state is a directed
/// edge and the one before it, and an edge's metres are counted when it is left, in the windows
/// over the edge before, the edge itself and the edge after — and one edge more either side,
/// counting a metre only if it brakes whichever legal edge the line takes there. Every window so
/// used is a window of the line, and each metre is counted once (by its own edge), so the
/// measure is at most the rule's count on the same profiles: its least value over lines is a
/// lower bound for the rule's least braking (up to the 5 m sampling: the scorer samples the line
/// from its start, this measure each edge from its start).
///
/// Crusty-or-stairs metres (`resource`) and distance are sums over edges and are constrained by a
/// Lagrangian relaxation: minimise braking + λ·resource + ν·distance (one search per (λ, ν));
/// every (λ, ν) ≥ 0 gives the lower bound
/// `min(braking + λ·resource + ν·distance) − λ·resourceCap − ν·distanceCap` (weak duality), and
/// λ, ν are chosen by bisection on the subgradients. Each line a search returns that keeps to both
/// caps is a legal line, rescored by the bench's scorer (`LineScorer`): the least of those (and
/// smoothest's own) is an upper bound that a real line reaches.
///
/// The same search bounds braking + caution metres (tenth round) with the objective's caution
/// weight at 1 (`Line.objective`): a metre counts when every context puts it in a caution or a
/// braking window, and a window of the line's context is a window of the line, so that sum too
/// is at most the rule's braking + caution count.
struct ExactBrakingBound {
    /// The search's values, each with its reason.
    enum Tuning {
        /// Sample spacing along an edge (metres): the scorer's.
        static let sampleMetres = BrakingBenchmark.sampleMetres
        /// How far back the edge left is read (metres): the rule's longest window.
        static let tailMetres = BrakingGrade.lineMaxWindowMetres
        /// Largest price of a crusty-or-stairs metre tried, in braking metres: above it no line
        /// trades a crusty metre for braking in these maps (the subgradient is then ≤ 0).
        static let maxResourcePrice = 64.0
        /// Largest price of a metre of distance tried, in braking metres: 2 braking metres per
        /// metre of detour is far above the trade any pair shows (the eighth round's μ ≤ 0.05).
        static let maxDistancePrice = 2.0
        /// Bisection steps per multiplier: 2⁻⁷ of the range, enough to close the dual gap to a
        /// few metres per pair (the rest is printed as the gap).
        static let bisections = 7
        /// Lines per pair (least graph braking first) rescored by the scorer for the upper bound:
        /// 8 (eleventh round; 3 before): the scorer's least is not always the graph's least.
        static let rescored = 8
        /// A pair whose smoothest braking + caution lies this many metres above its lower bound
        /// carries the gap: the bench prints smoothest's line and the least found line by way name.
        static let describeGapMetres = 300.0
        /// Metres of rounding a line may carry over a cap and still keep to it.
        static let capSlackMetres = 0.5
    }

    /// One line the search returned: its directed edges and sums (metres).
    struct Line {
        var legs: [RouteLeg]
        /// The additive braking and caution measure (never above the rule's count).
        var braking = 0.0, caution = 0.0
        /// Crusty metres ridden plus stairs metres walked, and the line's length.
        var resource = 0.0, distance = 0.0
        /// The search's objective: braking + `cautionWeight` × caution (weight 0: braking alone,
        /// 1: braking + caution — both at most the rule's count, so their sum is too).
        func objective(_ cautionWeight: Double) -> Double { braking + cautionWeight * caution }
    }

    /// A pair's caps: smoothest's own crusty-or-stairs metres, and the distance cap (metres).
    struct Caps {
        var resource: Double
        var distance: Double
        func keeps(_ l: Line) -> Bool {
            l.resource <= resource + Tuning.capSlackMetres && l.distance <= distance + Tuning.capSlackMetres
        }
    }

    /// What one pair's search found, in the search's objective (`Line.objective`: braking metres,
    /// or braking + caution metres).
    struct PairBound {
        /// The best dual value: no legal line within the caps brakes less (additive measure).
        var lower = 0.0
        /// The least additive braking of a line found within the caps (smoothest's own at worst).
        var upperGraph = 0.0
        /// Lines found within the caps, least braking first (at most `Tuning.rescored`).
        var lines: [Line] = []
        /// Shortest-path searches run.
        var searches = 0
        /// The same lower bound with no distance cap at all (ν = 0): no line with no more
        /// crusty-or-stairs metres brakes less however long it is (bounds any distance reading,
        /// per pair or on the total).
        var lowerNoCap = 0.0
    }

    let map: SkateMap
    let scorer: LineScorer
    /// Per directed edge (`edge << 1 | reversed`): usable by a skater (smoothest allows it and it
    /// is not forbidden), and the node it ends at.
    private let legal: [Bool]
    private let endNode: [Int]
    /// Per edge: walked or carried (stairs, lifts, escalators: no braking, windows stop there),
    /// and crusty-or-stairs metres per metre ridden (0 or 1).
    private let walked: [Bool]
    private let resourceRate: [Double]
    private var profiles: [Int: [Double]] = [:]
    private var transitions: [UInt64: (braking: Float, caution: Float)] = [:]
    // The search's arrays, reused (a state is valid when its stamp is the search's).
    /// Per directed edge: its first state (no context); the edges arriving at its start follow,
    /// in the order of their node's adjacency list.
    private let pairStart: [Int]
    private let stateCount: Int
    private var cost: [Double], parent: [Int32], stamp: [UInt32], done: [Bool], curOf: [Int32], backOf: [Int32]
    private var generation: UInt32 = 0

    init(map: SkateMap, scorer: LineScorer, costing: SkateCosting) {
        self.map = map
        self.scorer = scorer
        let n = map.edgeCount
        var legal = [Bool](repeating: false, count: 2 * n), end = [Int](repeating: 0, count: 2 * n)
        var walked = [Bool](repeating: false, count: n), rate = [Double](repeating: 0, count: n)
        for e in 0..<n {
            let f = map.flags(ofEdge: e)
            let ok = AccessModel.decision(of: f).accessClass != .forbidden
            legal[2 * e] = ok && costing.allowed(edge: e, reversed: false)
            legal[2 * e + 1] = ok && costing.allowed(edge: e, reversed: true)
            end[2 * e] = Int(map.edgeTo[e]); end[2 * e + 1] = Int(map.edgeFrom[e])
            walked[e] = !f.isDisjoint(with: LineScorer.walkFlags)
            // The scorer's crusty (rms at or above crusty, not walked), and stairs walked.
            if f.contains(.steps) || (!walked[e] && Double(scorer.table.rms[e]) >= CostingConstants.crustyRMS) { rate[e] = 1 }
        }
        self.legal = legal; endNode = end; self.walked = walked; resourceRate = rate
        var starts = [Int](repeating: 0, count: 2 * n), next = 0
        for s in 0..<(2 * n) {
            starts[s] = next
            let v = end[s ^ 1]
            next += 1 + Int(map.adjStart[v + 1] - map.adjStart[v])
        }
        pairStart = starts; stateCount = next
        let m = next + 2
        cost = [Double](repeating: 0, count: m); parent = [Int32](repeating: -1, count: m)
        stamp = [UInt32](repeating: 0, count: m); done = [Bool](repeating: false, count: m)
        curOf = [Int32](repeating: -1, count: m); backOf = [Int32](repeating: -1, count: m)
    }

    private func length(_ e: Int) -> Double { Double(map.edgeLength[e]) }

    /// Elevations every ≤ `Tuning.sampleMetres` along directed edge `s`, first to last (empty
    /// when the edge has no profile).
    private mutating func profile(_ s: Int) -> [Double] {
        if let p = profiles[s] { return p }
        let e = s >> 1, rev = s & 1 == 1, len = length(e)
        var out: [Double] = []
        if map.elevationProfile(ofEdge: e).count >= 1, len > 0 {
            let k = max(1, Int((len / Tuning.sampleMetres).rounded(.up)))
            out = (0...k).map { i in
                let x = len * Double(i) / Double(k)
                return scorer.profileElevation(e, offset: rev ? len - x : x) ?? 0
            }
        }
        profiles[s] = out
        return out
    }

    /// The nodes of the pair's start and goal edges: a line may begin or end at them, so an edge
    /// starting (ending) there may have no edge before (after) it.
    private var endNodes: [Int] = []

    /// Whether a line may begin at node `v` or end there (a node of the start or goal edge).
    private func isEnd(_ v: Int) -> Bool { endNodes.contains(v) }

    /// The legal directed edges arriving at directed edge `s`'s start (not its own reverse).
    private func before(_ s: Int) -> [Int] {
        let v = endNode[s ^ 1]
        return (Int(map.adjStart[v])..<Int(map.adjStart[v + 1])).map { Int(map.adjacency[$0]) ^ 1 }.filter { legal[$0] && $0 != s ^ 1 }
    }

    /// The legal directed edges leaving directed edge `s`'s end (not its own reverse).
    private func after(_ s: Int) -> [Int] {
        let v = endNode[s]
        return (Int(map.adjStart[v])..<Int(map.adjStart[v + 1])).map { Int(map.adjacency[$0]) }.filter { legal[$0] && $0 != s ^ 1 }
    }

    /// Whether directed edge `s` gives a window context (ridden, with a length).
    private func context(_ s: Int) -> Bool { s >= 0 && !walked[s >> 1] && length(s >> 1) > 0 }

    /// Braking and caution metres of directed edge `cur` that lie in a qualifying window in
    /// *every* line through `back`, `cur` and `ahead` (−1: none): the windows run over `back`,
    /// `cur`, `ahead`, and one edge more on either side — each legal edge that can come before
    /// `back` (or none, where a line may begin at its start) and after `ahead` (or none, where
    /// it may end) — up to `Tuning.tailMetres` either side. A metre counts only when it is
    /// flagged whichever of those edges the line takes, so the count never exceeds the rule's
    /// count of any line through these three edges. A walked edge gives no context (no window
    /// spans it).
    mutating func steep(back s0: Int, cur s1: Int, ahead s2: Int) -> (braking: Double, caution: Double) {
        let e1 = s1 >> 1
        guard !walked[e1], length(e1) > 0 else { return (0, 0) }
        let back = context(s0) ? s0 : -1, ahead = context(s2) ? s2 : -1
        let len1 = length(e1)
        // The edges beyond: only when the next edge is shorter than the window.
        var outer0: [Int] = [-1], outer2: [Int] = [-1]
        if back >= 0 && length(back >> 1) < Tuning.tailMetres {
            let p = before(back).filter { context($0) }
            outer0 = p.isEmpty || isEnd(endNode[back ^ 1]) || p.count < before(back).count ? p + [-1] : p
        }
        if ahead >= 0 && length(ahead >> 1) < Tuning.tailMetres {
            let n = after(ahead).filter { context($0) }
            outer2 = n.isEmpty || isEnd(endNode[ahead]) || n.count < after(ahead).count ? n + [-1] : n
        }
        let open0 = outer0.contains(-1) ? 1 : 0, open2 = outer2.contains(-1) ? 1 : 0
        let key = UInt64(back + 1) << 44 | UInt64(s1) << 26 | UInt64(ahead + 1) << 8 | UInt64(open0 << 1 | open2)
        if let c = transitions[key] { return (Double(c.braking), Double(c.caution)) }
        let z1 = profile(s1)
        guard z1.count >= 2 else { return (0, 0) }
        let n1 = z1.count - 1, sp1 = len1 / Double(n1)
        // Samples before cur (distances < 0), nearest last.
        func backSamples(_ far: Int) -> (d: [Double], z: [Double]) {
            var d: [Double] = [], z: [Double] = []
            var edges = [back]
            if far >= 0 { edges.insert(far, at: 0) }
            var offset = 0.0
            var pieces: [(d: [Double], z: [Double])] = []
            for s in edges.reversed() where s >= 0 {
                let zs = profile(s)
                guard zs.count >= 2 else { break }
                let n = zs.count - 1, sp = length(s >> 1) / Double(n)
                var pd: [Double] = [], pz: [Double] = []
                for i in 0..<n {
                    let x = offset - Double(n - i) * sp
                    if x >= -Tuning.tailMetres - sp { pd.append(x); pz.append(zs[i]) }
                }
                pieces.insert((pd, pz), at: 0)
                offset -= length(s >> 1)
                if offset <= -Tuning.tailMetres { break }
            }
            for p in pieces { d += p.d; z += p.z }
            return (d, z)
        }
        // Samples after cur (distances > its length).
        func aheadSamples(_ far: Int) -> (d: [Double], z: [Double]) {
            var d: [Double] = [], z: [Double] = []
            var offset = len1
            for s in [ahead, far] where s >= 0 {
                let zs = profile(s)
                guard zs.count >= 2, offset < len1 + Tuning.tailMetres else { break }
                let n = zs.count - 1, sp = length(s >> 1) / Double(n)
                for i in 1...n {
                    let x = offset + Double(i) * sp
                    if x <= len1 + Tuning.tailMetres + sp { d.append(x); z.append(zs[i]) }
                }
                offset += length(s >> 1)
            }
            return (d, z)
        }
        var brakeAll = [Bool](repeating: true, count: n1), steepAll = [Bool](repeating: true, count: n1)
        var any = true
        outer: for f0 in (back >= 0 ? outer0 : [-1]) {
            let bs: (d: [Double], z: [Double]) = back >= 0 ? backSamples(f0) : ([], [])
            for f2 in (ahead >= 0 ? outer2 : [-1]) {
                let asm: (d: [Double], z: [Double]) = ahead >= 0 ? aheadSamples(f2) : ([], [])
                var d = bs.d, z = bs.z
                let start = d.count
                for i in 0...n1 { d.append(Double(i) * sp1); z.append(z1[i]) }
                d += asm.d; z += asm.z
                let levels = BrakingGrade.lineLevels(distance: d, elevation: z)
                any = false
                for k in 0..<n1 {
                    let l = levels[start + k]
                    if l != .braking { brakeAll[k] = false }
                    if l == .none { steepAll[k] = false }
                    if steepAll[k] { any = true }
                }
                if !any { break outer }
            }
        }
        var result = (braking: 0.0, caution: 0.0)
        for k in 0..<n1 where steepAll[k] {
            if brakeAll[k] { result.braking += sp1 } else { result.caution += sp1 }
        }
        // Keyed by the three edges and whether a line may begin or end beyond them: the edges
        // beyond depend only on the map and those two flags.
        transitions[key] = (Float(result.braking), Float(result.caution))
        return result
    }

    /// The same sums on a planned line, counted as the search counts them: a leg counts its own
    /// metres with the legs either side as context; part legs (at the ends) count none and give
    /// none, and the last leg (the goal's part) is never counted.
    mutating func measure(_ legs: [RouteLeg]) -> Line {
        if let f = legs.first, let l = legs.last {
            endNodes = [Int(map.edgeFrom[f.edge]), Int(map.edgeTo[f.edge]), Int(map.edgeFrom[l.edge]), Int(map.edgeTo[l.edge])]
        }
        var line = Line(legs: legs)
        let ids = legs.map { $0.edge << 1 | ($0.reversed ? 1 : 0) }
        let full = legs.map { $0.length >= length($0.edge) - Tuning.capSlackMetres }
        for (i, l) in legs.enumerated() {
            line.distance += l.length
            line.resource += resourceRate[l.edge] * l.length
            guard full[i], i < legs.count - 1 else { continue }
            let back = i > 0 && full[i - 1] ? ids[i - 1] : -1
            let ahead = i + 1 < legs.count - 1 ? ids[i + 1] : -1
            let x = steep(back: back, cur: ids[i], ahead: ahead)
            line.braking += x.braking; line.caution += x.caution
        }
        return line
    }

    /// An open state of `cheapest`, ordered by its key (swift-collections' `Heap`, as
    /// `ReferenceSearch` uses).
    private struct Open: Comparable {
        var key: Double
        var state: Int32
        static func < (a: Open, b: Open) -> Bool { a.key < b.key }
        static func == (a: Open, b: Open) -> Bool { a.key == b.key }
    }

    /// The state of (directed edge `back`, or −1 for no context, directed edge `cur`).
    private func stateID(back: Int, cur: Int) -> Int {
        guard back >= 0 else { return pairStart[cur] }
        let v = endNode[cur ^ 1]
        var slot = 1
        for j in Int(map.adjStart[v])..<Int(map.adjStart[v + 1]) {
            if Int(map.adjacency[j]) ^ 1 == back { return pairStart[cur] + slot }
            slot += 1
        }
        return pairStart[cur]
    }

    /// The line from `a` to `b` of least objective + λ·resource + ν·distance (additive measure;
    /// objective = braking + `cautionWeight` × caution, see `Line.objective`), over legal directed
    /// edges; nil when none. A state is the directed edge ridden and the one
    /// before it (the context its metres are counted in when it is left).
    mutating func cheapest(from a: EdgeSnap, to b: EdgeSnap, resourcePrice lambda: Double, distancePrice nu: Double, cautionWeight w: Double = 0) -> Line? {
        generation &+= 1
        endNodes = [Int(map.edgeFrom[a.edge]), Int(map.edgeTo[a.edge]), Int(map.edgeFrom[b.edge]), Int(map.edgeTo[b.edge])]
        let goalFwd = stateCount, goalBwd = stateCount + 1
        var heap = Heap<Open>()
        func price(_ e: Int, _ metres: Double) -> Double { lambda * resourceRate[e] * metres + nu * metres }
        func steepness(_ back: Int, _ cur: Int, _ ahead: Int) -> Double {
            let x = steep(back: back, cur: cur, ahead: ahead)
            return x.braking + w * x.caution
        }
        func relax(_ s: Int, _ c: Double, _ from: Int, cur: Int, back: Int) {
            if stamp[s] == generation && (done[s] || cost[s] <= c) { return }
            stamp[s] = generation; cost[s] = c; parent[s] = Int32(from); done[s] = false
            curOf[s] = Int32(cur); backOf[s] = Int32(back)
            heap.insert(Open(key: c, state: Int32(s)))
        }
        let la = length(a.edge), lb = length(b.edge)
        let fullStart = [a.offset <= Tuning.capSlackMetres, a.offset >= la - Tuning.capSlackMetres]
        for r in 0...1 where legal[2 * a.edge + r] {
            relax(pairStart[2 * a.edge + r], price(a.edge, r == 0 ? la - a.offset : a.offset), -1, cur: 2 * a.edge + r, back: -1)
        }
        if a.edge == b.edge {
            if b.offset >= a.offset, legal[2 * a.edge] { relax(goalFwd, price(a.edge, b.offset - a.offset), -1, cur: -1, back: -1) }
            if b.offset < a.offset, legal[2 * a.edge + 1] { relax(goalBwd, price(a.edge, a.offset - b.offset), -1, cur: -1, back: -1) }
        }
        var reached = -1
        while let top = heap.popMin() {
            let k = top.key, s = Int(top.state)
            guard stamp[s] == generation, !done[s], k <= cost[s] else { continue }
            done[s] = true
            if s >= stateCount { reached = s; break }
            let cur = Int(curOf[s]), back = Int(backOf[s]), v = endNode[cur]
            // A start state's leg counts (and gives context) only when it covers its whole edge.
            let isStart = parent[s] < 0
            let counts = !isStart || fullStart[cur & 1]
            if v == Int(map.edgeFrom[b.edge]), legal[2 * b.edge], b.edge != cur >> 1 {
                relax(goalFwd, k + (counts ? steepness(back, cur, -1) : 0) + price(b.edge, b.offset), s, cur: -1, back: -1)
            }
            if v == Int(map.edgeTo[b.edge]), legal[2 * b.edge + 1], b.edge != cur >> 1 {
                relax(goalBwd, k + (counts ? steepness(back, cur, -1) : 0) + price(b.edge, lb - b.offset), s, cur: -1, back: -1)
            }
            for j in Int(map.adjStart[v])..<Int(map.adjStart[v + 1]) {
                let t = Int(map.adjacency[j])
                guard legal[t], t >> 1 != cur >> 1 else { continue }
                // The state (cur, t): cur's index among the edges arriving at t's start.
                let next = counts ? stateID(back: cur, cur: t) : pairStart[t]
                if stamp[next] == generation && done[next] { continue }
                let e = t >> 1
                relax(next, k + (counts ? steepness(back, cur, t) : 0) + price(e, length(e)), s, cur: t, back: counts ? cur : -1)
            }
        }
        guard reached >= 0 else { return nil }
        // The states back to the start, then the legs.
        var states: [Int] = []
        var s = Int(parent[reached])
        while s >= 0 { states.append(Int(curOf[s])); s = Int(parent[s]) }
        states.reverse()
        var legs: [RouteLeg] = []
        if states.isEmpty {
            legs.append(RouteLeg(edge: a.edge, reversed: reached == goalBwd, startOffset: a.offset, endOffset: b.offset))
        } else {
            for (i, st) in states.enumerated() {
                let e = st >> 1, rev = st & 1 == 1, len = length(e)
                let from = i == 0 ? a.offset : (rev ? len : 0)
                legs.append(RouteLeg(edge: e, reversed: rev, startOffset: from, endOffset: rev ? 0 : len))
            }
            let rev = reached == goalBwd
            legs.append(RouteLeg(edge: b.edge, reversed: rev, startOffset: rev ? lb : 0, endOffset: b.offset))
        }
        return measure(legs)
    }

    /// The pair's lower and upper bound by the Lagrangian relaxation (see the type's comment), on
    /// the objective braking + `cautionWeight` × caution (`Line.objective`): weight 0 bounds the
    /// braking metres, weight 1 the braking + caution metres (tenth round).
    mutating func bound(from a: EdgeSnap, to b: EdgeSnap, caps: Caps, own: Line, cautionWeight w: Double = 0) -> PairBound {
        var out = PairBound(lower: 0, upperGraph: own.objective(w), lines: [], searches: 0)
        var found: [Line] = caps.keeps(own) ? [own] : []
        var least = caps.keeps(own) ? own.objective(w) : Double.infinity
        // Stops once the dual value meets the least line found: that line is optimal.
        var closed = false
        func eval(_ lambda: Double, _ nu: Double) -> Line? {
            guard !closed else { return nil }
            out.searches += 1
            guard let l = cheapest(from: a, to: b, resourcePrice: lambda, distancePrice: nu, cautionWeight: w) else { return nil }
            out.lower = max(out.lower, l.objective(w) + lambda * (l.resource - caps.resource) + nu * (l.distance - caps.distance))
            if caps.keeps(l) {
                least = min(least, l.objective(w))
                if !found.contains(where: { $0.legs == l.legs }) { found.append(l) }
            }
            if out.lower >= least - Tuning.capSlackMetres { closed = true }
            return l
        }
        // For one λ: the ν whose line just keeps to the distance cap (bisection on ν's subgradient).
        func best(_ lambda: Double) -> Line? {
            guard let l0 = eval(lambda, 0) else { return nil }
            if l0.distance <= caps.distance + Tuning.capSlackMetres { return l0 }
            guard var hiLine = eval(lambda, Tuning.maxDistancePrice) else { return l0 }
            if hiLine.distance > caps.distance + Tuning.capSlackMetres { return hiLine }
            var lo = 0.0, hi = Tuning.maxDistancePrice
            for _ in 0..<Tuning.bisections {
                let mid = (lo + hi) / 2
                guard let m = eval(lambda, mid) else { break }
                if m.distance > caps.distance + Tuning.capSlackMetres { lo = mid } else { hi = mid; hiLine = m }
            }
            return hiLine
        }
        if let l0 = best(0), l0.resource > caps.resource + Tuning.capSlackMetres,
           let lh = best(Tuning.maxResourcePrice), lh.resource <= caps.resource + Tuning.capSlackMetres {
            var lo = 0.0, hi = Tuning.maxResourcePrice
            for _ in 0..<Tuning.bisections {
                let mid = (lo + hi) / 2
                guard let m = best(mid) else { break }
                if m.resource > caps.resource + Tuning.capSlackMetres { lo = mid } else { hi = mid }
            }
        }
        found.sort { $0.objective(w) < $1.objective(w) }
        out.upperGraph = found.first?.objective(w) ?? own.objective(w)
        out.lower = min(out.lower, out.upperGraph)
        out.lines = Array(found.prefix(Tuning.rescored))
        out.lowerNoCap = min(out.lower, lowerWithoutDistanceCap(from: a, to: b, resourceCap: caps.resource, own: own, cautionWeight: w, searches: &out.searches))
        return out
    }

    /// The dual bound with no distance cap: bisection on λ alone (ν = 0).
    mutating func lowerWithoutDistanceCap(from a: EdgeSnap, to b: EdgeSnap, resourceCap: Double, own: Line, cautionWeight w: Double = 0, searches: inout Int) -> Double {
        var lower = 0.0, least = own.objective(w)
        func eval(_ lambda: Double) -> Line? {
            searches += 1
            guard let l = cheapest(from: a, to: b, resourcePrice: lambda, distancePrice: 0, cautionWeight: w) else { return nil }
            lower = max(lower, l.objective(w) + lambda * (l.resource - resourceCap))
            if l.resource <= resourceCap + Tuning.capSlackMetres { least = min(least, l.objective(w)) }
            return l
        }
        guard let l0 = eval(0), l0.resource > resourceCap + Tuning.capSlackMetres, lower < least - Tuning.capSlackMetres else { return lower }
        var lo = 0.0, hi = Tuning.maxResourcePrice
        guard let lh = eval(hi), lh.resource <= resourceCap + Tuning.capSlackMetres else { return lower }
        for _ in 0..<Tuning.bisections where lower < least - Tuning.capSlackMetres {
            let mid = (lo + hi) / 2
            guard let m = eval(mid) else { break }
            if m.resource > resourceCap + Tuning.capSlackMetres { lo = mid } else { hi = mid }
        }
        return lower
    }
}

extension BrakingBenchmark {
    /// One pair's inputs to the exact bound: its snapped ends, smoothest's legs and scores.
    struct ExactPairInput {
        var from: EdgeSnap, to: EdgeSnap
        var smoothestLegs: [RouteLeg]
        var smoothest: Score
        var bicycle: Score
    }

    /// A line as its ways in order: name (or way id), metres, and the metres' mean grade (%),
    /// with "crusty" where the way is crusty or stairs — for checking a pair's lines by hand.
    func describe(_ legs: [RouteLeg], map: SkateMap, scorer: LineScorer) -> String {
        var parts: [(name: String, metres: Double, drop: Double, crusty: Bool)] = []
        for l in legs where l.length > 0 {
            let n = map.name(ofEdge: l.edge)
            let name = n.isEmpty ? "way \(map.edgeWayId[l.edge])" : n
            let crusty = map.flags(ofEdge: l.edge).contains(.steps) || Double(scorer.table.rms[l.edge]) >= CostingConstants.crustyRMS
            // Offsets run along the edge's drawing direction, from the leg's start to its end.
            let za = scorer.profileElevation(l.edge, offset: l.startOffset) ?? 0
            let zb = scorer.profileElevation(l.edge, offset: l.endOffset) ?? 0
            if let last = parts.last, last.name == name, last.crusty == crusty {
                parts[parts.count - 1].metres += l.length; parts[parts.count - 1].drop += zb - za
            } else { parts.append((name, l.length, zb - za, crusty)) }
        }
        return parts.map { String(printf: "%@ %.0f m %+.1f %%%@", $0.name, $0.metres, $0.metres > 0 ? $0.drop / $0.metres * 100 : 0, $0.crusty ? " crusty" : "") }.joined(separator: " → ")
    }

    /// Prints the exact bound summed over the pairs (see `ExactBrakingBound`): the lower bound
    /// (additive measure, no legal line within the caps brakes less), the least found line's
    /// braking on the graph and by the scorer, beside smoothest's and Routino bicycle's, and the
    /// naive nearest-edge reading of both; then the same for braking + caution metres (the search
    /// with caution weight 1, tenth round) against the target `targetSteep`.
    func printExactBound(map: SkateMap, scorer: LineScorer, costing: SkateCosting, pairs: [ExactPairInput]) {
        guard !pairs.isEmpty else { return }
        var search = ExactBrakingBound(map: map, scorer: scorer, costing: costing)
        let builder = PlanBuilder(map: map, costing: costing, knowledge: .empty)
        var bike = Score(), smooth = Score(), best = Score()
        var ownGraph = 0.0, lower = 0.0, lowerNoCap = 0.0, upperGraph = 0.0, searches = 0, raised = 0, over = 0, overMetres = 0.0, tight = 0
        var rows: [String] = []
        // Braking + caution (caution weight 1): the same sums, and the least found by the scorer.
        var bestSteep = Score(), ownSteep = 0.0, lowerSteep = 0.0, lowerNoCapSteep = 0.0, upperSteep = 0.0, overSteep = 0, overSteepMetres = 0.0, tightSteep = 0
        func steepMetres(_ s: Score) -> Double { s.brakingMap + s.cautionMap }
        let t0 = ContinuousClock.now
        for (k, p) in pairs.enumerated() {
            let own = search.measure(p.smoothestLegs)
            var caps = ExactBrakingBound.Caps(resource: own.resource, distance: Self.distanceTarget * p.bicycle.distance)
            if own.distance > caps.distance { caps.distance = own.distance; raised += 1 }
            let r = search.bound(from: p.from, to: p.to, caps: caps, own: own)
            // The least scorer braking among the found lines within the caps, smoothest's own at worst.
            var pick = p.smoothest, pickLegs = p.smoothestLegs
            for l in r.lines where l.legs != p.smoothestLegs {
                let s = scorer.score(l.legs.flatMap { builder.legGeometry($0) })
                if s.brakingMap < pick.brakingMap { pick = s; pickLegs = l.legs }
            }
            // What smoothest's costing (edge costs, no whole-line term) says of the line found.
            func effort(_ legs: [RouteLeg]) -> Double {
                legs.reduce(0) { acc, l in
                    let len = Double(map.edgeLength[l.edge])
                    return acc + (len > 0 ? costing.edgeCost(edge: l.edge, reversed: l.reversed).cost * l.length / len : 0)
                }
            }
            let costRatio = effort(pickLegs) / max(1e-9, effort(p.smoothestLegs))
            bike.add(p.bicycle); smooth.add(p.smoothest); best.add(pick)
            ownGraph += own.braking; lower += r.lower; lowerNoCap += r.lowerNoCap; upperGraph += r.upperGraph; searches += r.searches
            if own.braking > p.smoothest.brakingMap + 10 { over += 1; overMetres += own.braking - p.smoothest.brakingMap }
            if r.upperGraph - r.lower < 1 { tight += 1 }
            let rs = search.bound(from: p.from, to: p.to, caps: caps, own: own, cautionWeight: 1)
            var pickSteep = p.smoothest
            for l in rs.lines where l.legs != p.smoothestLegs {
                let s = l.legs == pickLegs ? pick : scorer.score(l.legs.flatMap { builder.legGeometry($0) })
                if steepMetres(s) < steepMetres(pickSteep) { pickSteep = s }
            }
            bestSteep.add(pickSteep)
            if steepMetres(p.smoothest) - rs.lower > ExactBrakingBound.Tuning.describeGapMetres {
                // The pairs that carry the gap, by hand: smoothest's line and the least found line.
                let pickSteepLegs = rs.lines.first { l in l.legs != p.smoothestLegs && abs(steepMetres(scorer.score(l.legs.flatMap { builder.legGeometry($0) })) - steepMetres(pickSteep)) < 0.5 }?.legs
                rows.append(String(printf: "      pair %2d gap: smoothest brk+cau %5.0f, lower %5.0f; smoothest's line: %@", k, steepMetres(p.smoothest), rs.lower, describe(p.smoothestLegs, map: map, scorer: scorer)))
                if let legs = pickSteepLegs {
                    rows.append(String(printf: "      pair %2d least found brk+cau %5.0f (scorer), %.2f km: %@", k, steepMetres(pickSteep), pickSteep.distance / 1000, describe(legs, map: map, scorer: scorer)))
                }
            }
            ownSteep += own.objective(1); lowerSteep += rs.lower; lowerNoCapSteep += rs.lowerNoCap; upperSteep += rs.upperGraph; searches += rs.searches
            if own.objective(1) > steepMetres(p.smoothest) + 10 { overSteep += 1; overSteepMetres += own.objective(1) - steepMetres(p.smoothest) }
            if rs.upperGraph - rs.lower < 1 { tightSteep += 1 }
            if steepMetres(p.bicycle) + steepMetres(p.smoothest) > 0 { rows.append(String(printf: "      pair %2d brk+cau: bicycle %5.0f  smoothest %5.0f (graph %5.0f)  lower %5.0f  found: graph %5.0f, scorer %5.0f  searches %d",
                               k, steepMetres(p.bicycle), steepMetres(p.smoothest), own.objective(1), rs.lower, rs.upperGraph, steepMetres(pickSteep), rs.searches)) }
            if p.bicycle.brakingMap + p.smoothest.brakingMap > 0 { rows.append(String(printf: "      pair %2d: bicycle %5.0f  smoothest %5.0f (graph %5.0f)  lower %5.0f  found: graph %5.0f, scorer %5.0f  crusty+stairs cap %5.0f m  km cap %5.2f  searches %d  found line's smoothest edge cost %.2f× its own, %.2f km",
                               k, p.bicycle.brakingMap, p.smoothest.brakingMap, own.braking, r.lower, r.upperGraph, pick.brakingMap, caps.resource, caps.distance / 1000, r.searches, costRatio, pick.distance / 1000)) }
        }
        let secs = Double((ContinuousClock.now - t0).components.seconds)
        let ref = max(1, bike.brakingMap)
        print(String(printf: "  exact bound on the graph (every legal line, crusty + stairs metres ≤ smoothest's own line's, distance ≤ %.1f× Routino bicycle's; %d pairs; Lagrangian relaxation, %.1f searches per pair, %.0f s):", Self.distanceTarget, pairs.count, Double(searches) / Double(pairs.count), secs))
        print(String(printf: "    routino bicycle (reference, scorer)      braking %6.0f m (1.00×)   [naive nearest-edge %6.0f m]", bike.brakingMap, bike.brakingNearest))
        print(String(printf: "    smoothest (table), scorer                braking %6.0f m (%.2f×)   [naive nearest-edge %6.0f m, %.2f×]", smooth.brakingMap, smooth.brakingMap / ref, smooth.brakingNearest, smooth.brakingNearest / max(1, bike.brakingNearest)))
        print(String(printf: "    smoothest, graph measure (each edge counted with the edges either side as context): %.0f m (scorer − graph = %.0f m; graph above scorer by > 10 m on %d pairs, %.0f m)", ownGraph, smooth.brakingMap - ownGraph, over, overMetres))
        print(String(printf: "    LOWER BOUND, graph measure               braking %6.0f m (%.2f×)   no legal line within the caps brakes less (dual gap closed on %d of %d pairs)", lower, lower / ref, tight, pairs.count))
        print(String(printf: "    lower bound with no distance cap at all  braking %6.0f m (%.2f×)   (any distance reading: per pair or on the total)", lowerNoCap, lowerNoCap / ref))
        print(String(printf: "    least found within the caps, graph       braking %6.0f m (%.2f×)", upperGraph, upperGraph / ref))
        print(String(printf: "    least found within the caps, scorer      braking %6.0f m (%.2f×)  brk+cau %6.0f m (%.2f×)  crusty %6.0f m (smoothest %6.0f)  %7.2f km (%.2f×)", best.brakingMap, best.brakingMap / ref,
                     best.brakingMap + best.cautionMap, (best.brakingMap + best.cautionMap) / max(1, bike.brakingMap + bike.cautionMap), best.crusty, smooth.crusty, best.distance / 1000, best.distance / max(1, bike.distance)))
        print(String(printf: "    target braking ≤ %.2f× = %.0f m: %@; distance cap raised to smoothest's own length on %d pairs", Self.targetBraking, Self.targetBraking * bike.brakingMap,
                     lower > Self.targetBraking * bike.brakingMap ? "UNREACHABLE without more crusty or stairs metres (lower bound above it)" : "not ruled out by the lower bound", raised))
        let refSteep = max(1, steepMetres(bike))
        print("  braking + caution, the same search with caution weight 1 (same caps):")
        print(String(printf: "    routino bicycle (reference, scorer)      brk+cau %6.0f m (1.00×)", steepMetres(bike)))
        print(String(printf: "    smoothest (table), scorer                brk+cau %6.0f m (%.2f×)", steepMetres(smooth), steepMetres(smooth) / refSteep))
        print(String(printf: "    smoothest, graph measure                 brk+cau %6.0f m (scorer − graph = %.0f m; graph above scorer by > 10 m on %d pairs, %.0f m)", ownSteep, steepMetres(smooth) - ownSteep, overSteep, overSteepMetres))
        print(String(printf: "    LOWER BOUND, graph measure               brk+cau %6.0f m (%.2f×)   no legal line within the caps has fewer braking + caution metres (dual gap closed on %d of %d pairs)", lowerSteep, lowerSteep / refSteep, tightSteep, pairs.count))
        print(String(printf: "    lower bound with no distance cap at all  brk+cau %6.0f m (%.2f×)", lowerNoCapSteep, lowerNoCapSteep / refSteep))
        print(String(printf: "    least found within the caps, graph       brk+cau %6.0f m (%.2f×)", upperSteep, upperSteep / refSteep))
        print(String(printf: "    least found within the caps, scorer      brk+cau %6.0f m (%.2f×)  braking %6.0f m (%.2f×)  crusty %6.0f m (smoothest %6.0f)  %7.2f km (%.2f×)", steepMetres(bestSteep), steepMetres(bestSteep) / refSteep,
                     bestSteep.brakingMap, bestSteep.brakingMap / ref, bestSteep.crusty, smooth.crusty, bestSteep.distance / 1000, bestSteep.distance / max(1, bike.distance)))
        print(String(printf: "    target braking + caution ≤ %.2f× = %.0f m: %@", Self.targetSteep, Self.targetSteep * steepMetres(bike),
                     lowerSteep > Self.targetSteep * steepMetres(bike) ? "UNREACHABLE without more crusty or stairs metres (lower bound above it)" : "not ruled out by the lower bound"))
        for r in rows { print(r) }
    }
}
