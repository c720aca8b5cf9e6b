import FoundationEssentials

/// The map's per-edge elevation samples, read as `PlanBuilder.elevation(edge:offset:entering:)`
/// reads them, from the three arrays they live in, taken once per line: per sample, the builder
/// took (retained and released) each array again, half of `profile`'s instructions on a 15 km
/// Heidelberg line (callgrind, issue 30 tenth round).
struct EdgeElevations {
    /// `SkateMap.edgeElevStart`, `elevation` and `edgeLength`.
    let starts: FlatArray<UInt32>
    let samples: FlatArray<Float>
    let lengths: FlatArray<Float>

    init(_ map: SkateMap) {
        starts = map.edgeElevStart
        samples = map.elevation
        lengths = map.edgeLength
    }

    /// Elevation (metres) at `offset` metres along edge `e` from its `edgeFrom` end, or nil when
    /// unknown. A zero-length edge (a lift) has no offsets: `fromTo` picks its end — the `to` end
    /// when true, else `from`.
    func at(edge e: Int, offset: Double, entering fromTo: Bool = false) -> Double? {
        // A file without elevation stores no offsets (`edgeElevStart` empty).
        guard e + 1 < starts.count else { return nil }
        let first = Int(starts[e]), count = Int(starts[e + 1]) - first
        guard count >= 2 else { return nil }
        let len = Double(lengths[e])
        if len <= 0 { return Double(fromTo ? samples[first + count - 1] : samples[first]) }
        let x = len > 0 ? min(max(offset / len, 0), 1) * Double(count - 1) : 0
        let i = min(Int(x), count - 2)
        let t = x - Double(i)
        let a = Double(samples[first + i]), b = Double(samples[first + i + 1])
        return a + (b - a) * t
    }
}
