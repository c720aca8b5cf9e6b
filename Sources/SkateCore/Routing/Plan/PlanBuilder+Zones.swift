import FoundationEssentials
import Glibc

/// What makes a braking or caution zone one a rider can use (issue 26, item 3). The level rules
/// themselves (caution ≤ −6 % over ≥ 30 m, braking ≤ −8 % over ≥ 50 m) are `PlanBuilder`'s.
///
/// | constant              | value | why                                                                  |
/// |-----------------------|-------|----------------------------------------------------------------------|
/// | `gentleGradePct`      | −4 %  | gentler than this a board rolls under control: no braking there      |
/// | `gentleSplitLength`   | 60 m  | a rider notices a rest this long; shorter lulls stay inside the zone |
/// | `steepestWindow`      | 30 m  | one 5 m profile segment is DEM noise; 30 m is the caution rule's run |
public enum ZoneRules {
    /// Percent. A stretch whose *mean* grade is gentler (greater) than this is not braking ground.
    public static let gentleGradePct = -4.0
    /// Metres. A zone never contains a continuous stretch at least this long whose mean grade is
    /// gentler than `gentleGradePct`: the zone is split there.
    public static let gentleSplitLength = 60.0
    /// Metres. A zone's steepest grade is the mean over its steepest window of this length.
    public static let steepestWindow = 30.0
    /// Numerical slack on lengths (metres) and on elevation comparisons.
    static let eps = 1e-9

    /// Whether samples `i…j` hold a stretch of ≥ `gentleSplitLength` metres whose mean grade is
    /// gentler than `gentleGradePct` (the stretch between two samples; O(n) with a running
    /// minimum of `e − g·s`: a stretch k…m is gentle exactly when that value rises from k to m).
    public static func containsGentleStretch(distance s: [Double], elevation e: [Double], from i: Int, to j: Int) -> Bool {
        guard i < j else { return false }
        let g = gentleGradePct / 100
        var lo = i, runningMin = Double.infinity
        for m in i...j {
            while lo <= m && s[lo] <= s[m] - gentleSplitLength + 1e-6 { runningMin = min(runningMin, e[lo] - g * s[lo]); lo += 1 }
            if runningMin < e[m] - g * s[m] - eps { return true }
        }
        return false
    }

    /// Mean grade in percent of the steepest window of ≥ `steepestWindow` metres inside samples
    /// `a…b` (each window from a sample to the first sample at least that far on), never gentler
    /// than the whole stretch's mean `mean`.
    static func steepest(distance s: [Double], elevation e: [Double], from a: Int, to b: Int, mean: Double) -> Double {
        var best = mean, j = a
        for i in a..<b {
            if j <= i { j = i + 1 }
            while j < b && s[j] - s[i] < steepestWindow - 1e-6 { j += 1 }
            guard s[j] - s[i] >= steepestWindow - 1e-6 else { break }
            best = min(best, (e[j] - e[i]) / (s[j] - s[i]) * 100)
        }
        return best
    }
}

extension PlanBuilder {
    /// Braking and caution zones of a profile: stretches whose mean grade meets the rule of their
    /// level — braking ≤ −8 % over ≥ 50 m, caution ≤ −6 % over ≥ 30 m — none holding a stretch of
    /// ≥ 60 m gentler than −4 % (`ZoneRules`).
    ///
    /// The profile is first cut into *clean pieces*: scanning from a start sample, a piece ends
    /// just before the first sample that closes a ≥ 60 m gentle stretch, and the next piece starts
    /// just after the last sample from which that stretch is gentle (so a piece never holds one).
    /// Inside each piece each level is found greedily from the start: at the first sample from
    /// which some stretch of at least the minimum length averages at or below the threshold, the
    /// zone runs to the *furthest* sample that keeps the mean at or below it (found in O(log n) on
    /// the suffix minimum of e − t·s), then gentle segments at either end are trimmed while the
    /// minimum length allows (dropping a segment gentler than the threshold only steepens the
    /// mean). Caution zones are searched only outside braking zones, so the two never overlap.
    /// Every zone returned therefore satisfies its own rule and rule 3 on this profile.
    /// - Parameter walked: per segment (sample i to i+1), true where the rider walks (stairs):
    ///   zones never span such a segment.
    /// - Parameter splitGentle: false gives the zones without rule 3 (before issue 26), for the
    ///   bench's count of zones the rule splits.
    /// - Parameter skipFlat: false searches every clean piece (the tests' reference for the skip
    ///   in `zones`).
    public static func brakingZones(distance s: [Double], elevation e: [Double], walked: [Bool] = [], splitGentle: Bool = true,
                                    skipFlat: Bool = true) -> [BrakingZone] {
        var all: [BrakingZone] = []
        var start = 0
        for i in 0..<max(0, s.count - 1) where i < walked.count && walked[i] {
            if i > start { all += brakingZones(distance: s, elevation: e, in: start..<(i + 1), splitGentle: splitGentle, skipFlat: skipFlat) }
            start = i + 1
        }
        if s.count - start >= 2 { all += brakingZones(distance: s, elevation: e, in: start..<s.count, splitGentle: splitGentle, skipFlat: skipFlat) }
        return all
    }

    /// Zones of both levels inside the sample range `r` (see `brakingZones(distance:elevation:walked:)`).
    static func brakingZones(distance s: [Double], elevation e: [Double], in r: Range<Int>, splitGentle: Bool = true, skipFlat: Bool = true) -> [BrakingZone] {
        guard r.count >= 2 else { return [] }
        let braking = zones(s: s, e: e, level: .braking, thresholdPct: brakingGradePct, minLength: brakingLength, in: r, splitGentle: splitGentle, skipFlat: skipFlat)
        var caution: [BrakingZone] = []
        var from = r.lowerBound
        for z in braking + [BrakingZone(start: .infinity, end: .infinity, level: .none, gradePct: 0)] {
            // The gap before this braking zone (samples strictly outside it).
            let to = z.start.isFinite ? (s.lastIndex { $0 <= z.start } ?? 0) + 1 : r.upperBound
            if to - from >= 2 {
                caution += zones(s: s, e: e, level: .caution, thresholdPct: cautionGradePct, minLength: cautionLength, in: from..<to, splitGentle: splitGentle, skipFlat: skipFlat)
            }
            if z.end.isFinite { from = s.firstIndex { $0 >= z.end } ?? r.upperBound }
        }
        var all = braking + caution
        all.sort { $0.start < $1.start }
        return all
    }

    /// Where the clean piece starting at sample `p` (in `p..<hi`) ends: `last` is its last
    /// sample, `next` the first sample of the next piece (nil: the piece runs to `hi − 1`).
    static func gentleCut(s: [Double], e: [Double], from p: Int, to hi: Int) -> (last: Int, next: Int)? {
        let g = ZoneRules.gentleGradePct / 100
        func h(_ k: Int) -> Double { e[k] - g * s[k] }
        var lo = p, runningMin = Double.infinity
        for j in (p + 1)..<max(p + 1, hi) {
            while lo < j && s[lo] <= s[j] - ZoneRules.gentleSplitLength + 1e-6 { runningMin = min(runningMin, h(lo)); lo += 1 }
            guard runningMin < h(j) - ZoneRules.eps else { continue }
            // Samples p..<lo start a stretch of ≥ 60 m to j; the gentle ones lie below h(j).
            var last = lo - 1
            while last > p && !(h(last) < h(j) - ZoneRules.eps) { last -= 1 }
            return (j - 1, last + 1)
        }
        return nil
    }

    /// Zones of one level inside the sample range `r` (see `brakingZones`).
    static func zones(s: [Double], e: [Double], level: BrakingLevel, thresholdPct t: Double, minLength: Double, in r: Range<Int>,
                      splitGentle: Bool = true, skipFlat: Bool = true) -> [BrakingZone] {
        guard splitGentle else { return greedyZones(s: s, e: e, level: level, thresholdPct: t, minLength: minLength, in: r) }
        // Steep segments before each sample: a piece without one has no zone (`isSteepSegment`),
        // and once none is left nothing more can be found. On a flat line the clean pieces start
        // one sample apart (each ~60 m long), and searching every one of them was 17 % of
        // `skateroute bench`'s Heidelberg instructions (callgrind, issue 30 fifth round).
        let steepBefore = skipFlat ? steepSegmentsBefore(s: s, e: e, thresholdPct: t, in: r) : nil
        @inline(__always) func anySteep(_ a: Int, _ b: Int) -> Bool {
            guard let steepBefore else { return true }
            return steepBefore[b - r.lowerBound] > steepBefore[a - r.lowerBound]
        }
        // The cuts incrementally where `GentleCutter` gives `gentleCut`'s answers: the skip is on
        // (`skipFlat: false` keeps the scans, the tests' reference) and the values finite (else
        // `steepBefore` is nil), and the distances never decrease.
        var cutter = steepBefore != nil && isNonDecreasing(s, in: r) ? GentleCutter(s: s, e: e, from: r.lowerBound, to: r.upperBound) : nil
        var out: [BrakingZone] = []
        var p = r.lowerBound
        while r.upperBound - p >= 2 && anySteep(p, r.upperBound - 1) {
            let cut = cutter != nil ? cutter!.cut(from: p) : gentleCut(s: s, e: e, from: p, to: r.upperBound)
            let last = cut?.last ?? r.upperBound - 1
            let found = last > p && anySteep(p, last)
                ? greedyZones(s: s, e: e, level: level, thresholdPct: t, minLength: minLength, in: p..<(last + 1)) : []
            out += found
            guard let cut else { break }
            var next = cut.next
            if let z = found.last, let b = s.firstIndex(where: { $0 >= z.end - 1e-9 }) { next = max(next, b) }
            p = max(next, p + 1)
        }
        return joinedWhereClean(out, s: s, e: e)
    }

    /// `zones` with each two that touch (one ends where the next starts) made one where no
    /// stretch of `gentleSplitLength` gentler than `gentleGradePct` lies inside their union: a
    /// piece ends where such a stretch *begins*, which can fall inside a descent, and the next
    /// piece's zone then starts where the last one ended, and inside a piece the greedy start
    /// (before its trim) can stop short of where the trimmed zone could reach — one stretch read
    /// "caution … caution …".
    /// The union's mean is the two means weighted by length (both at or below the threshold).
    static func joinedWhereClean(_ zones: [BrakingZone], s: [Double], e: [Double]) -> [BrakingZone] {
        guard zones.count > 1 else { return zones }
        var out: [BrakingZone] = [zones[0]]
        for z in zones.dropFirst() {
            let prev = out[out.count - 1]
            guard prev.level == z.level, abs(prev.end - z.start) < 1e-9,
                  let a = s.firstIndex(where: { abs($0 - prev.start) < 1e-9 }), let b = s.firstIndex(where: { abs($0 - z.end) < 1e-9 }),
                  gentleCut(s: s, e: e, from: a, to: b + 1) == nil else { out.append(z); continue }
            let mean = s[b] > s[a] ? (e[b] - e[a]) / (s[b] - s[a]) * 100 : 0
            out[out.count - 1] = BrakingZone(start: s[a], end: s[b], level: z.level, gradePct: mean,
                                             minGradePct: ZoneRules.steepest(distance: s, elevation: e, from: a, to: b, mean: mean))
        }
        return out
    }

    /// Whether segment `k` (sample k to k + 1) could be part of a zone whose mean grade is at
    /// most `t` percent: h = e − t·s does not rise along it by more than `greedyZones`' rounding
    /// margin. When no segment of a range can, h rises strictly along it, the furthest sample
    /// that keeps a stretch's mean at or below `t` is the stretch's own start, and
    /// `greedyZones` finds nothing there (exact: the same h values, the same margin).
    @inline(__always) static func isSteepSegment(_ k: Int, s: [Double], e: [Double], thresholdPct t: Double) -> Bool {
        e[k + 1] - t / 100 * s[k + 1] <= e[k] - t / 100 * s[k] + greedyMargin
    }

    /// `greedyZones`' margin on h comparisons (metres).
    static let greedyMargin = 1e-12

    /// For each sample of `r` (index from `r.lowerBound`), how many segments before it are steep
    /// (`isSteepSegment`); one more entry than segments, so `[b] − [a]` counts segments a…b−1.
    /// Nil when a value is not finite (no skipping then: `greedyZones` reads such values its own way).
    static func steepSegmentsBefore(s: [Double], e: [Double], thresholdPct t: Double, in r: Range<Int>) -> [Int32]? {
        for k in r where !s[k].isFinite || !e[k].isFinite { return nil }
        var out = [Int32](repeating: 0, count: r.count)
        var n: Int32 = 0
        for k in r.dropLast() {
            if isSteepSegment(k, s: s, e: e, thresholdPct: t) { n += 1 }
            out[k + 1 - r.lowerBound] = n
        }
        return out
    }

    /// The greedy zones of one level inside `r`, without rule 3 (see `brakingZones`).
    static func greedyZones(s: [Double], e: [Double], level: BrakingLevel, thresholdPct t: Double, minLength: Double, in r: Range<Int>) -> [BrakingZone] {
        guard r.count >= 2 else { return [] }
        let lo = r.lowerBound, hi = r.upperBound
        // h = e − t·s: a stretch i…j averages ≤ t exactly when h[j] ≤ h[i].
        var h = [Double](repeating: 0, count: hi - lo)
        for i in lo..<hi { h[i - lo] = e[i] - t / 100 * s[i] }
        var sufMin = h
        for k in stride(from: sufMin.count - 2, through: 0, by: -1) { sufMin[k] = min(sufMin[k], sufMin[k + 1]) }
        func furthest(_ i: Int) -> Int? {
            // Last k with sufMin[k] ≤ h[i] (sufMin is non-decreasing).
            var a = i - lo, b = sufMin.count - 1
            guard sufMin[a] <= h[i - lo] + greedyMargin else { return nil }
            while a < b { let m = (a + b + 1) / 2; if sufMin[m] <= h[i - lo] + greedyMargin { a = m } else { b = m - 1 } }
            return a + lo
        }
        func grade(_ i: Int, _ j: Int) -> Double { s[j] > s[i] ? (e[j] - e[i]) / (s[j] - s[i]) * 100 : 0 }
        var out: [BrakingZone] = []
        var i = lo
        while i < hi - 1 {
            guard let j = furthest(i), s[j] - s[i] >= minLength - 1e-6 else { i += 1; continue }
            var a = i, b = j
            // Trim gentle ends while the zone stays long enough.
            while a + 1 < b && grade(a, a + 1) > t && s[b] - s[a + 1] >= minLength - 1e-6 { a += 1 }
            while b - 1 > a && grade(b - 1, b) > t && s[b - 1] - s[a] >= minLength - 1e-6 { b -= 1 }
            let mean = grade(a, b)
            out.append(BrakingZone(start: s[a], end: s[b], level: level, gradePct: mean,
                                   minGradePct: ZoneRules.steepest(distance: s, elevation: e, from: a, to: b, mean: mean)))
            i = max(b, i + 1)
        }
        return out
    }
}

extension PlanBuilder {
    /// A path's braking and caution metres on its conditioned profile, by the whole-line rule
    /// (`BrakingGrade.lineMetres`): what the planner weighs when it chooses between lines.
    public func steepMetres(_ path: RoutePath) -> (braking: Double, caution: Double) {
        Self.total(steepMetresPerLeg(path))
    }

    /// The sum of `steepMetresPerLeg`'s entries (what `steepMetres` returns for the same line):
    /// callers that need both compute the per-leg metres once.
    static func total(_ perLeg: [(braking: Double, caution: Double)]) -> (braking: Double, caution: Double) {
        perLeg.reduce((0, 0)) { ($0.0 + $1.braking, $0.1 + $1.caution) }
    }

    /// `steepMetres` leg by leg (one entry per leg of `path`).
    public func steepMetresPerLeg(_ path: RoutePath) -> [(braking: Double, caution: Double)] {
        steepMetresPerLeg(path, profile: lineProfile(path))
    }

    /// The profile `steepMetresPerLeg` and `Planner.tooFastRoadMetres` read (nil without legs):
    /// `leastSteepLine` computes it once per candidate line for both.
    func lineProfile(_ path: RoutePath) -> Profile? {
        guard !path.legs.isEmpty else { return nil }
        let (legStart, total) = legStarts(path.legs)
        return profile(path.legs, legStart: legStart, total: total)
    }

    /// `steepMetresPerLeg` on `path`'s profile, already computed (`lineProfile(path)`).
    func steepMetresPerLeg(_ path: RoutePath, profile: Profile?) -> [(braking: Double, caution: Double)] {
        var out = [(braking: Double, caution: Double)](repeating: (0, 0), count: path.legs.count)
        guard let p = profile, p.hasElevation else { return out }
        for (k, level) in BrakingGrade.lineLevels(distance: p.s, elevation: p.elevation, walked: p.walked).enumerated() {
            let d = p.s[k + 1] - p.s[k], li = p.leg[k]
            if level == .braking { out[li].braking += d } else if level == .caution { out[li].caution += d }
        }
        return out
    }
}
