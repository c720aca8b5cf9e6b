/// How many metres of an edge a rider rides at braking grade (≤ `PlanBuilder.brakingGradePct`)
/// and at caution grade (≤ `PlanBuilder.cautionGradePct`, gentler than braking), per direction,
/// from the edge's stored elevation profile. Each sample gap counts by the mean grade of the
/// `windowMetres` centred on it (clipped to the edge), so a short steep bit costs its own metres
/// whatever the length of the stretch around it: the costing charges these metres
/// (`ModeWeights.brakingSecondsPerMetre`, `cautionSecondsPerMetre`), and a line cannot dodge the
/// cost by stringing steep bits shorter than the zone rule's 50 m together.
public enum BrakingGrade {
    /// Metres over which the grade of one spot is judged: the caution rule's sustain window, so
    /// one DEM sample's noise does not make a braking metre.
    public static let windowMetres = EdgeTable.sustainWindow

    /// Braking and caution metres along (`Fwd`) and against (`Bwd`) the drawing direction.
    /// - Parameters:
    ///   - profile: elevations (m) equally spaced along the edge, first to last.
    ///   - length: the edge's length in metres.
    public static func metres(profile: [Float], length: Double) -> (brakingFwd: Float, brakingBwd: Float, cautionFwd: Float, cautionBwd: Float) {
        let n = profile.count
        guard n >= 2, length > 0 else { return (0, 0, 0, 0) }
        let spacing = length / Double(n - 1)
        let half = max(1, Int((windowMetres / 2 / spacing).rounded()))
        var bf = 0.0, bb = 0.0, cf = 0.0, cb = 0.0
        for i in 0..<(n - 1) {
            let lo = max(0, i + 1 - half), hi = min(n - 1, i + half)
            let g = Double(profile[hi] - profile[lo]) / (Double(hi - lo) * spacing) * 100
            if g <= PlanBuilder.brakingGradePct { bf += spacing } else if g <= PlanBuilder.cautionGradePct { cf += spacing }
            if -g <= PlanBuilder.brakingGradePct { bb += spacing } else if -g <= PlanBuilder.cautionGradePct { cb += spacing }
        }
        return (Float(bf), Float(bb), Float(cf), Float(cb))
    }

    /// How much worse a braking metre is on a rough surface: × (1 + this × (rms − butter) /
    /// (crusty − butter)), so braking on crusty costs twice braking on butter (small wheels
    /// skid and chatter instead of slowing).
    public static let roughBrakingFactor = 1.0

    /// The roughness multiplier of a braking metre on a surface of `rms` g.
    public static func roughnessMultiplier(rms: Double) -> Double {
        1 + roughBrakingFactor * max(0, rms - RoughnessClass.butterMax) / (RoughnessClass.mehMax - RoughnessClass.butterMax)
    }
}

extension BrakingGrade {
    /// Longest window (metres) a line's braking and caution metres are judged over: a sustained
    /// descent longer than this is still caught, since every sub-window of it qualifies.
    public static let lineMaxWindowMetres = 300.0

    /// Metres a window must drop below its start before `lineLevels` scans it: 0.9 of the least
    /// drop either rule asks for (caution: 6 % of 30 m = 1.8 m; braking: 8 % of 50 m = 4 m), the
    /// rest a margin far above rounding. 0 (no skipping) if a rule's grade were not a descent.
    static let lineSkipDropMetres: Double = {
        guard PlanBuilder.cautionGradePct < 0, PlanBuilder.brakingGradePct < 0 else { return 0 }
        return 0.9 * min(PlanBuilder.cautionLength * -PlanBuilder.cautionGradePct, PlanBuilder.brakingLength * -PlanBuilder.brakingGradePct) / 100
    }()

    /// Braking and caution metres of a whole line, by the issue 26 rule the bench's scorer also
    /// uses: a metre brakes when it lies inside some window of ≥ `PlanBuilder.brakingLength` (and
    /// ≤ `lineMaxWindowMetres`) whose mean grade is ≤ `PlanBuilder.brakingGradePct`, and needs
    /// caution when it lies inside a window of ≥ `PlanBuilder.cautionLength` at ≤
    /// `PlanBuilder.cautionGradePct` (and does not brake). Unlike `metres`, windows run across
    /// edges, so a descent cut into short steep edges with gentler bits between counts whole.
    /// - Parameters:
    ///   - s: metres from the start of each sample, increasing.
    ///   - e: elevation of each sample.
    ///   - walked: per gap (sample i to i + 1), true where the rider walks or rides a lift:
    ///     those metres never count (stairs and lifts are the gentle way down).
    public static func lineMetres(distance s: [Double], elevation e: [Double], walked: [Bool] = []) -> (braking: Double, caution: Double) {
        var braking = 0.0, caution = 0.0
        for (k, level) in lineLevels(distance: s, elevation: e, walked: walked).enumerated() {
            if level == .braking { braking += s[k + 1] - s[k] } else if level == .caution { caution += s[k + 1] - s[k] }
        }
        return (braking, caution)
    }

    /// The level of each gap (sample k to k + 1) by `lineMetres`'s rule (`.none` where neither).
    /// `skipFlat`: false scans every window (the tests' reference for the skip in `pieceLevels`).
    public static func lineLevels(distance s: [Double], elevation e: [Double], walked: [Bool] = [], skipFlat: Bool = true) -> [BrakingLevel] {
        let n = s.count
        guard n >= 2, e.count == n else { return [] }
        var levels = [BrakingLevel](repeating: .none, count: n - 1)
        // Windows never span a walked gap (a lift's floors would read as a cliff).
        var start = 0
        for k in 0..<n {
            let cut = k == n - 1 || (k < walked.count && walked[k])
            guard cut else { continue }
            if k > start { pieceLevels(s, e, start...k, skipFlat: skipFlat, into: &levels) }
            start = k + 1
        }
        return levels
    }

    /// `lineLevels` on samples `r` (no walked gap inside). Both rules in one scan of each
    /// window: the windows are the same, only the length and grade each asks for differ (the
    /// scan was run once per rule, 4.4 % of `skateroute bench`'s Heidelberg CPU samples).
    ///
    /// A window qualifies only where the line drops at least `lineSkipDropMetres` below its
    /// start, so the windows from a sample are scanned only when the lowest sample within
    /// `lineMaxWindowMetres` after it lies that far below it (a sliding-window minimum, O(1) per
    /// sample): on a flat line almost none are, and scanning every window of every sample was
    /// 5.6 % of `skateroute bench`'s Heidelberg instructions (callgrind, issue 30 fifth round).
    /// The levels are the same: a skipped sample's windows all fail both rules.
    static func pieceLevels(_ s: [Double], _ e: [Double], _ r: ClosedRange<Int>, skipFlat: Bool = true, into levels: inout [BrakingLevel]) {
        let lo = r.lowerBound, hi = r.upperBound
        // The skip needs increasing distances and finite elevations (else every window is scanned).
        var canSkip = skipFlat && lineSkipDropMetres > 0
        for k in lo..<hi where !(s[k + 1] >= s[k]) || !e[k].isFinite { canSkip = false; break }
        if !e[hi].isFinite { canSkip = false }
        // Samples after i within the window, lowest first in a rising run (a monotone deque).
        var lows = [Int](), head = 0, pushed = lo
        if canSkip { lows.reserveCapacity(hi - lo) }
        // Each gap i up to the farthest end of a qualifying window that starts at or before it.
        var reachBraking = lo, reachCaution = lo
        for i in lo..<hi {
            if canSkip {
                while pushed < hi && s[pushed + 1] - s[i] <= lineMaxWindowMetres {
                    pushed += 1
                    while lows.count > head && e[lows[lows.count - 1]] >= e[pushed] { lows.removeLast() }
                    lows.append(pushed)
                }
                while head < lows.count && lows[head] <= i { head += 1 }
                if head == lows.count || e[lows[head]] > e[i] - lineSkipDropMetres {
                    levels[i] = i < reachBraking ? .braking : (i < reachCaution ? .caution : .none)
                    continue
                }
            }
            var j = i + 1, farBraking = -1, farCaution = -1
            while j <= hi && s[j] - s[i] <= lineMaxWindowMetres {
                let len = s[j] - s[i]
                let grade = (e[j] - e[i]) / len * 100
                if len >= PlanBuilder.brakingLength && grade <= PlanBuilder.brakingGradePct { farBraking = j }
                if len >= PlanBuilder.cautionLength && grade <= PlanBuilder.cautionGradePct { farCaution = j }
                j += 1
            }
            reachBraking = max(reachBraking, farBraking)
            reachCaution = max(reachCaution, farCaution)
            levels[i] = i < reachBraking ? .braking : (i < reachCaution ? .caution : .none)
        }
    }
}
