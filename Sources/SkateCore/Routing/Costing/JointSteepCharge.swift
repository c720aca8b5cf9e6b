#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Steep metres that only a window across an edge joint sees, charged as part of the turn from
/// one edge onto the next (issue 26, twelfth round).
///
/// The per-edge charge (`BrakingGrade.metres`) judges each metre by the 30 m window centred on
/// it, *clipped to its edge*: near an edge's end the window shrinks, so a descent cut into short
/// edges, or a steep pitch whose gentler shoulders lie on the next edge, is read edge by edge and
/// partly missed. Here the same window is taken over the two edges of a turn (edge in, then edge
/// out): a metre within half a window of the joint whose level (caution, braking) is higher over
/// both edges than over its own edge costs the difference, at the mode's braking and caution
/// weights (`SkateCosting.transitionCost`). A cost on (edge in, edge out) is exact for the search,
/// which keeps one label per way into a node, as it is for a turn; it needs no new state.
///
/// How the metres are counted, so that they can only add to the per-edge charge:
/// - a metre whose window reaches *both* ends of its own edge (an edge shorter than a window) is
///   judged at both of its turns, each over two edges only: each turn charges half of it;
/// - a metre that becomes braking costs a braking metre (× the edge's roughness multiplier, as the
///   per-edge charge), whatever it was on its own edge; one that becomes caution from nothing costs
///   a caution metre; nothing is ever refunded (a joint window gentler than the clipped one costs
///   0 more). So the charge is ≥ 0 and grows with both weights (`Planner.searchReturns`).
///
/// | constant           | value | why |
/// |--------------------|-------|-----|
/// | `share`            | 1.0   | joint metres priced at the mode's own braking and caution s/m, as the per-edge metres are |
/// | `reachSlackMetres` | 0.01  | distances within a window's half (15 m) count as inside it, as `BrakingGrade.metres`'s rounded sample count does |
/// | `screenSlackMetres`| 0.01  | the no-descent screen's margin for the cached Float heights (about 3e-5 m at 500 m) |
public enum JointSteepCharge {
    /// Effort per joint metre as a multiple of the mode's braking and caution s/m (0: off).
    public static let share = 2.0
    /// Metres added to a window's half when deciding whether a sample lies inside it.
    static let reachSlackMetres = 0.01
    /// Metres of margin on the screen that rules out any joint window at caution grade.
    static let screenSlackMetres = 0.01
    /// The modes that pay the charge (issue 26 item 2's mode; the brief of the round).
    public static func applies(to mode: RideMode) -> Bool { mode == .smoothest }

    /// `share` replaced within a task (bench experiments and tests), read when a costing is built.
    @TaskLocal public static var override: Double? = nil

    /// The share in force for `mode`: 0 when the mode does not pay it.
    public static func share(for mode: RideMode) -> Double {
        applies(to: mode) ? (override ?? share) : 0
    }

    /// Metres from a sample to a window's far end: half a window (`BrakingGrade.windowMetres`).
    static var halfWindow: Double { BrakingGrade.windowMetres / 2 + reachSlackMetres }
    /// Metres from the joint within which a sample can lie in a window that crosses it.
    static var reach: Double { 2 * halfWindow }
    /// Drop per metre of the caution grade (0.06 at −6 %): the gentler of the two levels.
    static var screenSlope: Double { -PlanBuilder.cautionGradePct / 100 }

    /// Whether an edge's grade is ridden (steps are walked, lifts carry the rider): only ridden
    /// edges carry steep metres (`SkateCosting.compute`).
    @inline(__always) static func isRidden(_ f: EdgeFlags) -> Bool {
        f.isDisjoint(with: [.steps, .connector])
    }

    /// The screen value of one end of an edge: for the traversal *arriving* there, the largest
    /// `height − slope × metres to the end` over the samples within `reach` of it, the end's own
    /// sample left out; for the one *leaving* from there, the largest `−height − slope × metres
    /// from the end`, likewise. A window that reads differently over both edges than over either
    /// alone starts strictly before the joint and ends strictly after it, so it reaches caution
    /// grade only if arriving + leaving ≥ 0 (its two ends are such samples): a turn whose sum is
    /// below 0 costs nothing here. (With the joint's own sample in, both maxima held its height
    /// and the sum was never below 0: the first build screened out nothing.) −infinity where the
    /// edge has no heights or is not ridden.
    /// - Parameters:
    ///   - heights: the edge's elevation samples (m), equally spaced from `edgeFrom` to `edgeTo`.
    ///   - count: how many; `length`: the edge's metres.
    static func screen(heights h: UnsafePointer<Float>, count n: Int, length len: Double, atTo: Bool, arriving: Bool) -> Float {
        guard n >= 2, len > 0 else { return -.infinity }
        let spacing = len / Double(n - 1)
        var best = -Double.infinity
        // The samples 1…m steps from the end in question (within `reach` of it).
        let m = min(n - 1, Int((reach / spacing).rounded(.down)))
        guard m >= 1 else { return -.infinity }
        for j in 1...m {
            let x = Double(h[atTo ? n - 1 - j : j])
            best = max(best, (arriving ? x : -x) - screenSlope * Double(j) * spacing)
        }
        return Float(best)
    }

    /// Joint braking metres (each × its edge's `BrakingGrade.roughnessMultiplier`) and caution
    /// metres of the turn from traversal (a, ar) onto (b, br), counted as the type comment says.
    /// - Parameters: each edge's elevation samples (`pa`, `pb`: `na`, `nb` of them, equally
    ///   spaced in drawing order), metres (`lenA`, `lenB`) and `BrakingGrade.roughnessMultiplier`.
    static func metres(_ pa: UnsafePointer<Float>, count na: Int, length lenA: Double, rough roughA: Double, reversed ar: Bool,
                       _ pb: UnsafePointer<Float>, count nb: Int, length lenB: Double, rough roughB: Double, reversed br: Bool) -> (braking: Double, caution: Double) {
        guard na >= 2, nb >= 2, lenA > 0, lenB > 0 else { return (0, 0) }
        let spA = lenA / Double(na - 1), spB = lenB / Double(nb - 1)
        let r = reach, h = halfWindow
        // Samples of a within reach of the joint (the last ka of them) and of b after its first.
        let ka = min(na, Int((r / spA).rounded(.down)) + 1)
        let kb = min(nb - 1, Int((r / spB).rounded(.down)))
        let count = ka + kb
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * count) { buf in
            // s: metres from the joint (a's samples ≤ 0, b's > 0); e: heights.
            let s = buf.baseAddress!, e = s + count
            for i in 0..<ka {
                let k = na - ka + i  // traversal order along a
                s[i] = -Double(na - 1 - k) * spA
                e[i] = Double(pa[ar ? na - 1 - k : k])
            }
            for i in 0..<kb {
                let k = i + 1
                s[ka + i] = Double(k) * spB
                e[ka + i] = Double(pb[br ? nb - 1 - k : k])
            }
            let joint = ka - 1  // index of the joint (a's last sample)
            @inline(__always) func level(_ lo: Int, _ hi: Int) -> Int {
                let g = (e[hi] - e[lo]) / (s[hi] - s[lo]) * 100
                return g <= PlanBuilder.brakingGradePct ? 2 : (g <= PlanBuilder.cautionGradePct ? 1 : 0)
            }
            var braking = 0.0, caution = 0.0
            for g in 0..<(count - 1) {
                let mid = (s[g] + s[g + 1]) / 2
                let onA = g < joint
                // Only metres within half a window of the joint see across it.
                guard onA ? -mid < h : mid < h else { continue }
                var lo = g, hi = g + 1
                while lo > 0 && mid - s[lo - 1] <= h { lo -= 1 }
                while hi < count - 1 && s[hi + 1] - mid <= h { hi += 1 }
                // The window over its own edge alone (`BrakingGrade.metres`'s clip).
                let ownLo = onA ? lo : max(lo, joint), ownHi = onA ? min(hi, joint) : hi
                if ownLo == lo && ownHi == hi { continue }
                let both = level(lo, hi), own = level(ownLo, ownHi)
                guard both > own else { continue }
                // Half where the metre's window also reaches its edge's far end (judged at both turns).
                let fromFarEnd = onA ? lenA + mid : lenB - mid
                let part = (s[g + 1] - s[g]) * (fromFarEnd < h ? 0.5 : 1)
                if both == 2 { braking += part * (onA ? roughA : roughB) } else if own == 0 { caution += part }
            }
            return (braking, caution)
        }
    }
}

/// A costing's lazily computed joint screens (4 per edge: each end, arriving and leaving) and per
/// node the largest joint charge of any turn there (for `SkateCosting.transitionSlack`). The
/// storage comes from `calloc`: a bit pattern of 0 means "not computed yet" (a computed 0 is
/// stored as −0), so a plan pays only for the turns it looks at. Two searches sharing one costing
/// on different threads may both compute a value and store the same bits (never torn: 4 bytes,
/// aligned), as `EdgeCostCache`.
final class JointSteepCache: @unchecked Sendable {
    let screens: UnsafeMutablePointer<Float>
    let nodeMax: UnsafeMutablePointer<Float>

    init(edgeCount: Int, nodeCount: Int) {
        screens = calloc(max(4 * edgeCount, 1), MemoryLayout<Float>.stride)!.bindMemory(to: Float.self, capacity: max(4 * edgeCount, 1))
        nodeMax = calloc(max(nodeCount, 1), MemoryLayout<Float>.stride)!.bindMemory(to: Float.self, capacity: max(nodeCount, 1))
    }

    deinit { free(screens); free(nodeMax) }

    /// A computed value's stored bits: never all zero.
    @inline(__always) static func stored(_ v: Float) -> Float { v == 0 ? -0.0 : v }

    /// The index of the screen of traversal (e, reversed) arriving at its end (`arriving`) or
    /// leaving its start: arriving ends at edgeTo unless reversed, leaving starts at edgeFrom
    /// unless reversed.
    @inline(__always) static func index(edge e: Int, reversed: Bool, arriving: Bool) -> Int {
        e << 2 | (arriving != reversed ? 2 : 0) | (arriving ? 1 : 0)
    }
}

extension SkateCosting {
    /// The joint screen of traversal (e, reversed) arriving at its end or leaving its start
    /// (`JointSteepCharge.screen`), computed on first use. A method of the costing so the map is
    /// read in place: passed as an argument to a function not inlined, the map struct was copied
    /// per call (callgrind: `memcpy` 13 times base's instructions in the first build).
    @inline(__always) func jointScreen(edge e: Int, reversed: Bool, arriving: Bool) -> Float {
        guard let j = joint else { return -.infinity }
        let i = JointSteepCache.index(edge: e, reversed: reversed, arriving: arriving)
        let v = j.screens[i]
        if v.bitPattern != 0 { return v }
        return computeJointScreen(i)
    }

    /// Out of line: computes and keeps screen `i` (`JointSteepCache.index`). The map's arrays are
    /// read through their pointers: passing the map struct to a function not inlined copied it
    /// per call (callgrind: `memcpy` 13 times base's instructions in the first build).
    @inline(never) func computeJointScreen(_ i: Int) -> Float {
        let e = i >> 2
        var c = -Float.infinity
        if JointSteepCharge.isRidden(map.flags(ofEdge: e)), let h = map.elevation.base {
            let lo = Int(map.edgeElevStart[e]), hi = Int(map.edgeElevStart[e + 1])
            c = JointSteepCharge.screen(heights: h + lo, count: hi - lo, length: Double(map.edgeLength[e]), atTo: i & 2 != 0, arriving: i & 1 != 0)
        }
        joint!.screens[i] = JointSteepCache.stored(c)
        return c
    }

    /// `JointSteepCharge.metres` of the turn (a, ar) → (b, br) on this costing's map and table.
    @inline(never) func jointMetres(from a: Int, fromReversed ar: Bool, to b: Int, toReversed br: Bool) -> (braking: Double, caution: Double) {
        guard JointSteepCharge.isRidden(map.flags(ofEdge: a)), JointSteepCharge.isRidden(map.flags(ofEdge: b)), let h = map.elevation.base else { return (0, 0) }
        let loA = Int(map.edgeElevStart[a]), hiA = Int(map.edgeElevStart[a + 1])
        let loB = Int(map.edgeElevStart[b]), hiB = Int(map.edgeElevStart[b + 1])
        return JointSteepCharge.metres(h + loA, count: hiA - loA, length: Double(map.edgeLength[a]),
                                       rough: BrakingGrade.roughnessMultiplier(rms: Double(table.rms[a])), reversed: ar,
                                       h + loB, count: hiB - loB, length: Double(map.edgeLength[b]),
                                       rough: BrakingGrade.roughnessMultiplier(rms: Double(table.rms[b])), reversed: br)
    }

    /// `jointCost`, out of line: inlined, it made `transitionCost` too large for the turn's
    /// `EdgeTable.headingIn`/`headingOut` to be inlined, and each call then copied the table
    /// (callgrind: 30,600 `memcpy` calls from `transitionCost` on one Heidelberg plan).
    @inline(never) func jointCostOutOfLine(from a: Int, fromReversed ar: Bool, to b: Int, toReversed br: Bool) -> Double {
        jointCost(from: a, fromReversed: ar, to: b, toReversed: br)
    }
}
