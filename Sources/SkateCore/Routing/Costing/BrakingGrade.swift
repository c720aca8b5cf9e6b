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
