/// A crusty stretch inside a step whose own class reads better: the step's class is its
/// length-weighted mean, so 44 m of cobblestones in an 877 m "okay" street would otherwise reach
/// the rider only as a colour on the map. Text, JSON and the TUI's step list name it.
public struct StepRoughSpan: Sendable, Equatable {
    /// Where the stretch starts, metres into the step.
    public var fromM: Double
    /// Its length, metres.
    public var lengthM: Double
    /// The OSM `surface` of its longest way ("" when untagged).
    public var surface: String

    /// "crusty for 44 m from 833 m into this step (cobblestone)"; "crusty for the whole step" is
    /// never said: a step that crusty reads crusty itself.
    public var phrase: String {
        "crusty for \(UnitFormatter.length(lengthM)) from \(UnitFormatter.length(fromM)) into this step"
            + (surface.isEmpty ? "" : " (\(surface))")
    }
}

extension PlanBuilder {
    /// Shortest crusty stretch a step names: a shorter one (a kerb ramp, a drain cover, a crossing's
    /// setts) is felt as a bump, and the step list would drown in it.
    static let minRoughSpanMetres = 10.0

    /// The crusty stretches of the legs `range` (one step), for a step whose class is `stepClass`:
    /// none when the step itself reads crusty (its class says it already).
    func roughSpans(_ legs: [RouteLeg], _ range: Range<Int>, stepClass: RoughnessClass) -> [StepRoughSpan] {
        guard stepClass != .crusty else { return [] }
        var out: [StepRoughSpan] = []
        var along = 0.0
        var open: (from: Double, length: Double, surface: String, longest: Double)?
        func close() {
            if let o = open, o.length >= Self.minRoughSpanMetres { out.append(StepRoughSpan(fromM: o.from, lengthM: o.length, surface: o.surface)) }
            open = nil
        }
        for li in range {
            let e = legs[li].edge, len = legs[li].length
            if RoughnessClass(rms: Double(costing.table.rms[e])) == .crusty, len > 0 {
                let surface = map.surfaceTag(ofEdge: e)
                if var o = open {
                    o.length += len
                    if len > o.longest { o.longest = len; o.surface = surface }
                    open = o
                } else {
                    open = (along, len, surface, len)
                }
            } else if len > 0 {
                close()
            }
            along += len
        }
        close()
        return out
    }
}
