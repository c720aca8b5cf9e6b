import SkateCore

/// Measured roughness per edge: the windows and events gathered while one edge is ridden (a
/// pass), and each edge's passes summed over the ride. Memory holds one pass's windows.
struct EdgeRoughnessTally {
    /// One finished pass over an edge that carried evidence (a robust RMS or events).
    struct Pass {
        /// The edge's totals including this pass.
        var totals: EdgeRoughness
        /// Robust RMS of the pass's clean windows, g; nil when too few.
        var rms: Double?
        /// Clean (non-impact) windows in the pass.
        var windows: Int
        var events: Int
        /// Ride time the pass began, seconds.
        var since: Double
        /// Robust RMS per stretch of ≤ `EdgeStretches.maxBinLength` m with enough clean windows.
        var stretches: [StretchRoughness] = []
    }

    /// The edge being ridden, if any.
    private(set) var current: Int?
    private var windows: [RoughnessWindow] = []
    /// Offset along the edge (m) of each window in `windows`, nil where it is unknown.
    private var offsets: [Double?] = []
    private var events = 0
    private var passStart = 0.0
    private var totals: [Int: EdgeRoughness] = [:]
    private var order: [Int] = []

    /// Adds a window to the current pass (ignored off any edge), felt `offset` metres along it.
    mutating func add(_ w: RoughnessWindow, offset: Double? = nil) {
        if current != nil { windows.append(w); offsets.append(offset) }
    }

    /// Counts an event in the current pass (ignored off any edge).
    mutating func addEvent() { if current != nil { events += 1 } }

    /// Moves to edge `e` (nil: off the network) at ride time `t`; returns the pass just ended when it carried evidence.
    mutating func switchTo(_ e: Int?, t: Double, map: SkateMap?) -> Pass? {
        guard e != current else { return nil }
        let pass = flush(map: map)
        current = e
        passStart = t
        return pass
    }

    /// Ends the current pass (end of ride).
    mutating func finish(map: SkateMap?) -> Pass? {
        let pass = flush(map: map)
        current = nil
        return pass
    }

    /// Every edge with evidence, in the order first ridden.
    var edges: [EdgeRoughness] { order.compactMap { totals[$0] } }

    private mutating func flush(map: SkateMap?) -> Pass? {
        defer { windows.removeAll(keepingCapacity: true); offsets.removeAll(keepingCapacity: true); events = 0 }
        guard let e = current else { return nil }
        let rms = RoughnessEngine.robustRMS(for: windows)
        let clean = windows.reduce(0) { $0 + ($1.isImpact ? 0 : 1) }
        guard rms != nil || events > 0 else { return nil }
        if totals[e] == nil { order.append(e) }
        var st = totals[e] ?? EdgeRoughness(edge: e)
        if let map {
            let ref = MatchedEdge(map: map, edge: e, offset: 0)
            st.wayId = ref.wayId; st.fromNode = ref.fromNode; st.toNode = ref.toNode
        }
        st.passes += 1
        st.events += events
        st.windows += clean
        if let r = rms { st.passRMS.append(r) }
        totals[e] = st
        var pass = Pass(totals: st, rms: rms, windows: clean, events: events, since: passStart)
        if let map, rms != nil { pass.stretches = stretches(length: Double(map.edgeLength[e])) }
        return pass
    }

    /// The pass's clean windows binned by offset into equal stretches of ≤ 25 m, each with its
    /// robust RMS when it holds `EdgeStretches.minimumWindows` clean windows.
    private func stretches(length: Double) -> [StretchRoughness] {
        let (n, width) = EdgeStretches.bins(length: length)
        guard width > 0 else { return [] }
        var bins = [[RoughnessWindow]](repeating: [], count: n)
        for (w, o) in zip(windows, offsets) where !w.isImpact {
            guard let o else { continue }
            bins[min(n - 1, max(0, Int(o / width)))].append(w)
        }
        var out: [StretchRoughness] = []
        for (k, b) in bins.enumerated() where b.count >= EdgeStretches.minimumWindows {
            guard let r = RoughnessEngine.robustRMS(for: b) else { continue }
            out.append(StretchRoughness(from: Double(k) * width, to: Double(k + 1) * width, rms: r, windows: b.count))
        }
        return out
    }
}
