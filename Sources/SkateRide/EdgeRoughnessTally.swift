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
    }

    /// The edge being ridden, if any.
    private(set) var current: Int?
    private var windows: [RoughnessWindow] = []
    private var events = 0
    private var passStart = 0.0
    private var totals: [Int: EdgeRoughness] = [:]
    private var order: [Int] = []

    /// Adds a window to the current pass (ignored off any edge).
    mutating func add(_ w: RoughnessWindow) { if current != nil { windows.append(w) } }

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
        defer { windows.removeAll(keepingCapacity: true); events = 0 }
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
        return Pass(totals: st, rms: rms, windows: clean, events: events, since: passStart)
    }
}
