import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// ALT landmarks (A*, landmarks, triangle inequality; Goldberg & Harrelson 2005): for a few
/// nodes spread round the map's edge, every node's cheapest cost from and to each of them under
/// each mode's stored edge costs, computed at import and kept in the `.srmap`.
///
/// For a target t, d(v, t) ≥ d(L, t) − d(L, v) and d(v, t) ≥ d(v, L) − d(t, L) for every landmark
/// L, so the largest of these bounds is a lower bound on the remaining cost — far tighter than
/// straight-line distance × the map's cheapest cost per metre, which lets A* settle a fraction of
/// the nodes. The bounds ignore turn and crossing costs (≥ 0), so they stay admissible and
/// consistent; a costing may use them only while its edge costs are at least the stored ones.
public enum Landmarks {
    /// Landmarks per map: enough to cover the directions a route can take on a city map, few
    /// enough that the table stays small (8 × 2 floats per node and mode).
    public static let count = 8

    /// Landmark nodes: first the main-network node farthest from the map's centre, then each time
    /// the node farthest (straight line) from all chosen ones. Deterministic.
    static func choose(map: SkateMap, usable: (Int) -> Bool) -> [Int] {
        let nodes = (0..<map.nodeCount).filter(usable)
        guard !nodes.isEmpty else { return [] }
        var cLat = 0.0, cLon = 0.0
        for n in nodes { cLat += map.nodeLat[n]; cLon += map.nodeLon[n] }
        let centre = Coordinate(lat: cLat / Double(nodes.count), lon: cLon / Double(nodes.count))
        let proj = LocalProjection(origin: centre)
        let xy = nodes.map { proj.project(lat: map.nodeLat[$0], lon: map.nodeLon[$0]) }
        var nearest = xy.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }  // distance to the centre first
        var chosen: [Int] = []
        while chosen.count < min(count, nodes.count) {
            var best = 0
            for i in nearest.indices where nearest[i] > nearest[best] { best = i }
            chosen.append(nodes[best])
            if chosen.count == 1 { nearest = Array(repeating: .infinity, count: nodes.count) }
            for i in nearest.indices {
                let dx = xy[i].x - xy[best].x, dy = xy[i].y - xy[best].y
                nearest[i] = min(nearest[i], (dx * dx + dy * dy).squareRoot())
            }
        }
        return chosen
    }

    /// One direction's traversals for the landmark runs, as a compressed row per node: the
    /// node `arcs[start[u] ..< start[u + 1]]` leads to and its cost, traversals with an infinite
    /// cost left out, in `adjacency` order. Built once per table and direction and read by all
    /// its runs: a relaxation reads one 8-byte arc instead of the adjacency entry, the edge's far
    /// node and its cost from three arrays indexed by edge (issue 31, seventh round).
    struct CostGraph: Sendable {
        struct Arc: Sendable {
            var to: UInt32
            var cost: Float
        }
        var start: [Int]
        var arcs: [Arc]

        /// Forward: arcs u → w ride u → w. Backward: arcs u → w stand for the ride w → u, with
        /// its cost (the opposite traversal), so a forward search over them gives costs *to* the source.
        init(map: SkateMap, cost: FlatArray<Float>, backward: Bool) {
            var start = [Int](repeating: 0, count: map.nodeCount + 1)
            var arcs: [Arc] = []
            arcs.reserveCapacity(map.adjacency.count)
            for u in 0..<map.nodeCount {
                for k in map.adjacencyRange(of: u) {
                    let adj = Int(map.adjacency[k])
                    let e = adj >> 1, leavesReversed = adj & 1 == 1
                    let c = cost[e << 1 | ((leavesReversed != backward) ? 1 : 0)]
                    guard c < .infinity else { continue }
                    arcs.append(Arc(to: leavesReversed ? map.edgeFrom[e] : map.edgeTo[e], cost: c))
                }
                start[u + 1] = arcs.count
            }
            self.start = start
            self.arcs = arcs
        }
    }

    /// Cheapest edge-cost distances from `source` (forward) or to it (backward), per node;
    /// infinity where unreachable. `cost` is indexed `edge << 1 | reversed`.
    static func dijkstra(map: SkateMap, cost: FlatArray<Float>, source: Int, backward: Bool) -> [Double] {
        dijkstra(graph: CostGraph(map: map, cost: cost, backward: backward), source: source)
    }

    /// Cheapest costs from `source` over `graph`'s arcs, per node (infinity where unreachable).
    /// Each node's cost is the least over its predecessors of their cost plus the arc's (those
    /// settled later cost at least as much, costs being ≥ 0), whatever order equal costs pop in
    /// and whatever order arcs are relaxed in, so it equals the former run over the map's
    /// adjacency, ordered by (cost, node), bit for bit.
    static func dijkstra(graph: CostGraph, source: Int) -> [Double] {
        /// Ordered by cost alone: ties may pop in any order (see above), and one comparison per
        /// heap step instead of two with a branch was a quarter of these runs' time (perf, K = 3).
        struct Item: Comparable {
            var d: Double
            var n: Int
            static func < (a: Item, b: Item) -> Bool { a.d < b.d }
            static func == (a: Item, b: Item) -> Bool { a.d == b.d }
        }
        var dist = [Double](repeating: .infinity, count: graph.start.count - 1)
        // The router's 4-ary heap, not swift-collections' min-max `Heap`: its `trickleDownMin` was
        // most of these runs' heap time (perf, region K = 3).
        var heap = SearchHeap<Item>()
        dist[source] = 0
        heap.insert(Item(d: 0, n: source))
        graph.start.withUnsafeBufferPointer { start in
            graph.arcs.withUnsafeBufferPointer { arcs in
                dist.withUnsafeMutableBufferPointer { dist in
                    while let top = heap.popMin() {
                        let u = top.n
                        guard top.d <= dist[u] else { continue }
                        for k in start[u]..<start[u + 1] {
                            let w = Int(arcs[k].to)
                            let d = top.d + Double(arcs[k].cost)
                            if d < dist[w] { dist[w] = d; heap.insert(Item(d: d, n: w)) }
                        }
                    }
                }
            }
        }
        return dist
    }

    /// For one mode's costs: per node, `count` pairs (cost from the landmark, cost to it),
    /// flattened `node × 2 × count`, in effort seconds (infinity where unreachable).
    /// The `2 × landmarks` Dijkstra runs are independent and run on `importThreads` threads
    /// (most of an import's time on a city map); each writes its own column, so the result is
    /// the same as one after the other.
    /// `progress` is told (runs handed out, runs) as each run starts, one call at a time.
    static func distances(map: SkateMap, cost: FlatArray<Float>, landmarks: [Int],
                          progress: (@Sendable (Int, Int) -> Void)? = nil) -> [Double] {
        let n = map.nodeCount
        let graphs = [CostGraph(map: map, cost: cost, backward: false), CostGraph(map: map, cost: cost, backward: true)]
        var out = [Double](repeating: .infinity, count: n * 2 * count)
        out.withUnsafeMutableBufferPointer { buf in
            let columns = ColumnWriter(base: buf.baseAddress!, stride: 2 * count)
            let runs = 2 * landmarks.count
            let threads = Swift.max(1, Swift.min(importThreads, ProcessInfo.processInfo.activeProcessorCount, runs))
            let next = RunCounter(progress: progress)
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                while let k = next.take(below: runs) {
                    let d = dijkstra(graph: graphs[k % 2], source: landmarks[k / 2])
                    columns.write(column: k, d)
                }
            }
        }
        return out
    }

    /// Threads the import computes landmark costs on.
    static let importThreads = 2

    /// Writes one column of the node × column table; columns never overlap.
    private struct ColumnWriter: @unchecked Sendable {
        let base: UnsafeMutablePointer<Double>
        let stride: Int
        func write(column: Int, _ values: [Double]) {
            for v in values.indices { base[v * stride + column] = values[v] }
        }
    }

    /// Hands out run numbers 0, 1, 2 … to the threads.
    private final class RunCounter: Sendable {
        private let next = Mutex(0)
        private let progress: (@Sendable (Int, Int) -> Void)?
        init(progress: (@Sendable (Int, Int) -> Void)?) { self.progress = progress }
        func take(below limit: Int) -> Int? {
            next.withLock { next in
                guard next < limit else { return nil }
                progress?(next, limit)
                next += 1
                return next - 1
            }
        }
    }
}

/// One mode's landmark costs as the map file stores them: UInt16 codes on a two-step scale,
/// each cost rounded DOWN to a code, so a stored code `q` says the true cost lies in
/// `[lower(q), lower(q + 1))`. A lower bound takes the bottom of that range and an upper bound
/// its top, so the bounds stay admissible (`LandmarkBound`). Codes below `knee` step by `fine`
/// effort seconds, codes above by `coarse`: landmark costs are bimodal (on Heidelberg most nodes
/// lie within ~15 000 effort seconds of a landmark; nodes reached only through forbidden ways
/// cost 20 000 s per way and reach 1.5 million), and one linear scale over both steps 22 s;
/// the two-step scale steps 6.4 s up to the 80 % quantile (≈ 314 000 s there: a fifth of the
/// node–landmark costs pass through forbidden ways) and 71 s above. Codes count from each
/// column's least cost (`quantise`). Half the bytes of Float.
public struct LandmarkTable: Sendable {
    /// `node × 2 × Landmarks.count` codes; `unreachable` where no path exists.
    public let values: FlatArray<UInt16>
    /// Effort seconds per code below `knee`, and per code above it.
    public let fine: Double, coarse: Double

    /// Marks "no path" (the largest UInt16).
    static let unreachable = UInt16.max
    /// Largest finite code.
    static let maxValue = UInt16.max - 1
    /// Codes below this step by `fine`: three quarters of the codes for the dense part.
    static let knee = 49_152
    /// Share of the finite costs the fine steps cover (the rest take the coarse ones).
    static let fineShare = 0.8

    /// Effort seconds at the bottom of code `q`'s range.
    @inline(__always) func lower(_ q: Int) -> Double {
        q <= Self.knee ? Double(q) * fine : Double(Self.knee) * fine + Double(q - Self.knee) * coarse
    }

    /// Quantises costs (infinity = unreachable) laid out in `columns` interleaved columns (one per
    /// landmark and direction): each column is first shifted by its least finite cost, which the
    /// bounds never need (they only subtract two costs of the same column), so a landmark that
    /// reaches the whole map only through forbidden ways would not spend the fine steps on its
    /// offset (on Heidelberg no column is like that: the scale came out the same). Then `fine` puts the `fineShare` quantile at the knee, `coarse` the largest cost
    /// below the last code; every cost gets the largest code whose `lower` does not exceed it
    /// (checked exactly against rounding; the shift's own rounding is far below `slack`).
    ///
    /// `raw` is shifted in place and the quantile found without reordering (`finiteRank`): the
    /// shifted copy and the copy of its finite costs this made were a third of an import's first
    /// memory touches on a region (issue 31; 295 MB each per table at K = 7).
    ///
    /// Every pass runs on both cores over its own rows (`ParallelMap.chunks`): minima, counts and
    /// maxima combine exactly whatever the split, and each code depends on its cost alone, so the
    /// table is the serial one bit for bit (it was a serial 3 % of a region's import CPU).
    static func quantise(_ raw: consuming [Double], columns: Int = 1) -> (values: [UInt16], fine: Double, coarse: Double) {
        let n = raw.count
        let rows = (n + columns - 1) / columns
        var base = [Double](repeating: .infinity, count: columns)
        var finiteCount = 0, maxFinite = 0.0
        // Row by row, a column index that steps instead of `i % columns` per cost.
        raw.withUnsafeMutableBufferPointer { r in
            for part in ParallelMap.chunks(rows, { rowRange -> [Double] in
                var b = [Double](repeating: .infinity, count: columns)
                for row in rowRange {
                    let at = row * columns
                    for c in 0..<Swift.min(columns, n - at) where r[at + c].isFinite { b[c] = Swift.min(b[c], r[at + c]) }
                }
                return b
            }) {
                for c in 0..<columns { base[c] = Swift.min(base[c], part[c]) }
            }
            let b = base
            for part in ParallelMap.chunks(rows, { rowRange -> (count: Int, max: Double) in
                var count = 0, most = 0.0
                for row in rowRange {
                    let at = row * columns
                    for c in 0..<Swift.min(columns, n - at) where r[at + c].isFinite {
                        let x = Swift.max(0, r[at + c] - b[c])
                        r[at + c] = x
                        count += 1
                        most = Swift.max(most, x)
                    }
                }
                return (count, most)
            }) {
                finiteCount += part.count
                maxFinite = Swift.max(maxFinite, part.max)
            }
        }
        let kneeCost = finiteCount == 0 ? 0 : Self.finiteRank(raw, rank: Swift.min(finiteCount - 1, Int(Double(finiteCount) * fineShare)))
        let fine = Swift.max(kneeCost / Double(knee), .leastNormalMagnitude)
        var coarse = Swift.max((maxFinite - Double(knee) * fine) / Double(Int(maxValue) - knee), fine)
        var t = LandmarkTable(values: [], fine: fine, coarse: coarse)
        while t.lower(Int(maxValue) + 1) <= maxFinite { coarse = coarse.nextUp; t = LandmarkTable(values: [], fine: fine, coarse: coarse) }
        let kneeAt = Double(knee) * fine, top = Int(maxValue)
        let values = [UInt16](unsafeUninitializedCapacity: n) { out, count in
            raw.withUnsafeBufferPointer { r in
                _ = ParallelMap.chunks(n) { range in
                    for i in range {
                        let x = r[i]
                        guard x.isFinite else { out[i] = unreachable; continue }
                        // x ≥ 0 (shifted, clamped at 0), so truncation is the floor: `rounded(.down)` was
                        // a libm `floor` call per cost (perf, region K = 7: quantise 9 % of import CPU).
                        var q = x < kneeAt ? Int(x / fine) : knee + Int((x - kneeAt) / coarse)
                        q = Swift.min(Swift.max(q, 0), top)
                        // The division's rounding can land one code off: the code is the largest whose lower edge ≤ x.
                        // Each correcting loop sits behind one test: bare, LLVM vectorised them into a
                        // 16-code search run for every cost (perf, region K = 3: quantise 15 % of import
                        // CPU, ~5× what it takes now). The first loop's end leaves nothing for the second.
                        if q > 0 && t.lower(q) > x {
                            q -= 1
                            while q > 0 && t.lower(q) > x { q -= 1 }
                        } else if q < top && t.lower(q + 1) <= x {
                            q += 1
                            while q < top && t.lower(q + 1) <= x { q += 1 }
                        }
                        out[i] = UInt16(q)
                    }
                }
            }
            count = n
        }
        return (values, fine, coarse)
    }
}

extension LandmarkTable {
    /// Bits of the key `finiteRank` narrows per pass over the costs (four passes cover 64 bits).
    static let rankDigitBits = 16

    /// The value of rank `k` (0 = least) among the finite values of `x` (all ≥ 0), as the
    /// sorted finite values' `[k]` would give, found without copying or reordering `x`: a
    /// non-negative Double orders as its bit pattern, so four passes each count one 16-bit digit
    /// of the patterns that share the digits found so far (a radix select). Sorting 750 000
    /// costs per mode was a third of a Heidelberg import, and the quickselect that replaced it
    /// needed a copy of every finite cost.
    static func finiteRank(_ x: [Double], rank k: Int) -> Double {
        var k = k
        let digits = 1 << rankDigitBits, digitMask = UInt64(digits - 1)
        var prefix: UInt64 = 0, prefixMask: UInt64 = 0
        var counts = [Int](repeating: 0, count: digits)
        for shift in stride(from: 64 - rankDigitBits, through: 0, by: -rankDigitBits) {
            // Each core counts its own part of `x`; counts add exactly.
            let (p, m) = (prefix, prefixMask)
            let parts = x.withUnsafeBufferPointer { x in
                ParallelMap.chunks(x.count) { range -> [Int] in
                    var part = [Int](repeating: 0, count: digits)
                    for i in range where x[i].isFinite {
                        let v = x[i]
                        let key = v == 0 ? 0 : v.bitPattern  // -0 and +0 alike
                        if key & m == p { part[Int((key >> UInt64(shift)) & digitMask)] += 1 }
                    }
                    return part
                }
            }
            for i in counts.indices { counts[i] = 0 }
            for part in parts { for i in counts.indices { counts[i] += part[i] } }
            var digit = 0
            while digit < digits - 1 && k >= counts[digit] { k -= counts[digit]; digit += 1 }
            prefix |= UInt64(digit) << UInt64(shift)
            prefixMask |= digitMask << UInt64(shift)
        }
        return Double(bitPattern: prefix)
    }
}

/// The landmark lower bound towards one target edge (either of its end nodes) during a search.
struct LandmarkBound {
    /// This mode's table (`node × 2 × Landmarks.count`).
    let table: LandmarkTable
    /// The two target nodes' rows: lower and upper bounds (effort seconds; nil = unreachable).
    let lowA: [Double], highA: [Double], lowB: [Double], highB: [Double]
    /// Scales the bound down slightly so Double rounding never overestimates.
    static let margin = 0.999
    /// And by a fixed amount (effort seconds) for the rounding of small differences.
    static let slack = 0.01
    /// `LandmarkTable.unreachable` as read.
    static let none = Int(LandmarkTable.unreachable)

    init(table t: LandmarkTable, targetNodes: (Int, Int)) {
        table = t
        let w = 2 * Landmarks.count
        func row(_ n: Int, _ f: (Int) -> Double) -> [Double] {
            (0..<w).map { k in let q = Int(t.values[n * w + k]); return q == Self.none ? .nan : f(q) }
        }
        lowA = row(targetNodes.0) { t.lower($0) }; highA = row(targetNodes.0) { t.lower($0 + 1) }
        lowB = row(targetNodes.1) { t.lower($0) }; highB = row(targetNodes.1) { t.lower($0 + 1) }
    }

    /// A lower bound on the edge cost from `v` to the nearer target node (0 when nothing is known).
    /// With each true cost inside its code's range: d(v,t) ≥ d(L,t) − d(L,v) ≥ low(L,t) − high(L,v)
    /// and d(v,t) ≥ d(v,L) − d(t,L) ≥ low(v,L) − high(t,L). Unreachable entries (NaN) are skipped
    /// (a comparison with NaN is false).
    @inline(__always) func bound(_ v: Int) -> Double {
        let w = 2 * Landmarks.count
        let row = v * w
        var a = 0.0, b = 0.0
        let none = Self.none
        for i in 0..<Landmarks.count {
            let fq = Int(table.values[row + 2 * i]), tq = Int(table.values[row + 2 * i + 1])
            if fq != none {
                let fHigh = table.lower(fq + 1)
                let da = lowA[2 * i] - fHigh, db = lowB[2 * i] - fHigh
                if da > a { a = da }
                if db > b { b = db }
            }
            if tq != none {
                let tLow = table.lower(tq)
                let da = tLow - highA[2 * i + 1], db = tLow - highB[2 * i + 1]
                if da > a { a = da }
                if db > b { b = db }
            }
        }
        return Swift.max(0, min(a, b) * Self.margin - Self.slack)
    }
}

/// How a map file stores its ALT landmark costs: which ride modes share a table
/// (`skateroute import --landmarks`). A table shared by several modes is computed from the least
/// cost any of them gives each traversal, so it bounds every one of them from below (admissible);
/// it is tight for the mode that is cheapest on most traversals and looser for the others, whose
/// searches then settle more nodes. Fewer tables, smaller maps (Heidelberg: 1.5 MB per table).
public struct LandmarkLayout: Sendable, Equatable, CustomStringConvertible {
    /// Table number per mode, in `RideMode.allCases` order; tables are numbered by the first mode
    /// that uses them (0, 1, …), so equal groupings compare equal.
    public let tableOfMode: [Int]

    /// The groups of modes sharing a table; every mode must be in exactly one group.
    public init?(groups: [[RideMode]]) {
        var table = [Int?](repeating: nil, count: RideMode.allCases.count)
        for (g, modes) in groups.enumerated() {
            for m in modes { guard table[m.ordinal] == nil else { return nil }; table[m.ordinal] = g }
        }
        guard table.allSatisfy({ $0 != nil }) else { return nil }
        self.init(numbering: table.map { $0! })
    }

    /// Renumbers tables in first-use order. (Arrays, not a Dictionary or Set: a map load checks
    /// the layout, and each new hashed collection type costs the runtime a conformance lookup.)
    private init(numbering raw: [Int]) {
        var seen: [Int] = [], out: [Int] = []
        for t in raw {
            if let n = seen.firstIndex(of: t) { out.append(n) } else { seen.append(t); out.append(seen.count - 1) }
        }
        tableOfMode = out
    }

    /// From a stored table-of-mode list (nil when it names a table that is not there or leaves one unused).
    init?(stored: [Int], tables: Int) {
        guard stored.count == RideMode.allCases.count, tables >= 1,
              stored.allSatisfy({ $0 >= 0 && $0 < tables }),
              (0..<tables).allSatisfy({ stored.contains($0) }) else { return nil }
        self.init(numbering: stored)
        guard tableOfMode == stored else { return nil }  // stored numbering must already be first-use order
    }

    /// One table per mode: the tightest bounds, the largest map.
    public static let perMode = LandmarkLayout(numbering: Array(0..<RideMode.allCases.count))
    /// One table for all modes (`import --compact`): the smallest map.
    public static let shared = LandmarkLayout(numbering: Array(repeating: 0, count: RideMode.allCases.count))

    /// What `import` wrote unless told otherwise until issue 30's third round (now
    /// `importDefault`), and what `MapFormat.encode` still writes by default: fastMildRoughness on
    /// its own table (smoothest runs a fastMildRoughness search too, for its detour cap), the
    /// other four sharing one. Two tables instead of five: on Heidelberg 3.0 instead of 7.5 MB,
    /// for slower searches in smoothest and nightSafe (docs/map-format.md: the layouts measured).
    public static let standard = LandmarkLayout(groups: [[.fastMildRoughness], [.smoothest, .chillFewCrossings, .nightSafe, .trickSpotCrawl]])!

    /// What `skateroute import` writes unless told otherwise (issue 30): one table per mode, the
    /// tightest bounds. A shared table bounds each mode by the cheapest of its modes on every
    /// traversal, so nightSafe and smoothest — whose costs sit furthest above that — settled far
    /// more states: Heidelberg in-process p99 (CPU time, same run) nightSafe 102 → 52 ms,
    /// smoothest 107 → 88 ms. The price is 3 more tables of `Landmarks.count` × 2 UInt16 codes:
    /// 96 bytes per graph node (Heidelberg, 46 996 nodes: +4.5 MB, 14.5 → 18.5 MB with
    /// elevation). `--landmarks fastMildRoughness,smoothest+chillFewCrossings+nightSafe+trickSpotCrawl`
    /// (`standard`, the default before) or `--compact` still make the smaller maps.
    public static let importDefault = LandmarkLayout.perMode

    public var tableCount: Int { (tableOfMode.max() ?? -1) + 1 }

    /// The modes of each table, in table order.
    public var groups: [[RideMode]] {
        (0..<tableCount).map { t in RideMode.allCases.filter { tableOfMode[$0.ordinal] == t } }
    }

    /// `per-mode`, `shared`, or the groups as `smoothest+nightSafe,chillFewCrossings+…`.
    public var description: String {
        if self == .perMode { return "per-mode" }
        if self == .shared { return "shared" }
        return groups.map { $0.map(\.rawValue).joined(separator: "+") }.joined(separator: ",")
    }

    /// Parses `description`'s forms; nil for an unknown mode, a mode named twice or one left out.
    public init?(parsing text: String) {
        switch text {
        case "per-mode": self = .perMode
        case "shared": self = .shared
        default:
            var groups: [[RideMode]] = []
            for g in text.split(separator: ",", omittingEmptySubsequences: false) {
                var modes: [RideMode] = []
                for name in g.split(separator: "+", omittingEmptySubsequences: false) {
                    guard let m = RideMode(rawValue: String(name)) else { return nil }
                    modes.append(m)
                }
                groups.append(modes)
            }
            self.init(groups: groups)
        }
    }
}
