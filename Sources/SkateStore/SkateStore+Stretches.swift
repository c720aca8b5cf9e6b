import FoundationEssentials
import SkateCore

/// The aged measured roughness of one stretch of an edge.
public struct StretchFigure: Sendable, Equatable {
    /// Metres from the edge's `fromNode` where the stretch starts and ends.
    public var from: Double
    public var to: Double
    /// Aged weighted-median RMS (g), freshness and count, as `SurfaceAging.summarize` gives them.
    public var observation: EdgeObservation
    /// Length in metres.
    public var length: Double { max(0, to - from) }
}

extension SkateStore {
    /// Records the robust RMS (g) per stretch of one pass over `edge`, committed before it returns.
    /// - Throws: `StoreError.badValue` for a non-finite or negative figure or a stretch that ends
    ///   before it starts (nothing is written then).
    public func recordStretches(_ edge: EdgeKey, stretches: [(from: Double, to: Double, rms: Double, windows: Int)], at: Date) throws {
        for s in stretches where !(s.rms.isFinite && s.rms >= 0 && s.from.isFinite && s.to.isFinite && s.to > s.from) {
            throw StoreError.badValue("stretch \(s.from)–\(s.to) m of \(edge) with RMS \(s.rms) g is not a valid measurement")
        }
        try write { db in
            for s in stretches {
                try db.execute(sql: """
                    INSERT INTO surfaceStretch(wayId, fromNode, toNode, fromOffset, toOffset, rms, windows, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [edge.wayId, edge.fromNode, edge.toNode, s.from, s.to, s.rms, s.windows, at.timeIntervalSince1970])
            }
        }
    }

    /// The aged stretches of one edge at `now`, by start offset.
    public func stretches(of edge: EdgeKey, now: Date) throws -> [StretchFigure] {
        try allStretches(now: now, only: edge)[edge] ?? []
    }

    /// Aged stretches of every edge measured in the window before `now` (or of `only`). Rows of
    /// the same stretch (same ends to 0.1 m) age into one figure as an edge's rows do.
    func allStretches(now: Date, only: EdgeKey? = nil) throws -> [EdgeKey: [StretchFigure]] {
        let t = now.timeIntervalSince1970
        var sql = "SELECT wayId, fromNode, toNode, fromOffset, toOffset, rms, at FROM surfaceStretch WHERE at <= ? AND at >= ?"
        var args: StatementArguments = [t, t - SurfaceAging.window]
        if let e = only {
            sql += " AND wayId = ? AND fromNode = ? AND toNode = ?"
            args = [t, t - SurfaceAging.window, e.wayId, e.fromNode, e.toNode]
        }
        struct Bin: Hashable { var key: EdgeKey; var from: Int; var to: Int }
        let rows = try read { db in try db.fetchAll(sql: sql, arguments: args) }
        var bins: [Bin: [(rms: Double, at: Date)]] = [:]
        for r in rows {
            let key = try EdgeKey(wayId: r[0], fromNode: r[1], toNode: r[2])
            let from: Double = try r[3], to: Double = try r[4]
            bins[Bin(key: key, from: Int((from * 10).rounded()), to: Int((to * 10).rounded())), default: []]
                .append((try r[5], try Date(timeIntervalSince1970: r[6])))
        }
        var out: [EdgeKey: [StretchFigure]] = [:]
        for (b, obs) in bins {
            guard let o = SurfaceAging.summarize(obs, source: .measured, now: now) else { continue }
            out[b.key, default: []].append(StretchFigure(from: Double(b.from) / 10, to: Double(b.to) / 10, observation: o))
        }
        for k in out.keys { out[k]!.sort { $0.from != $1.from ? $0.from < $1.from : $0.to < $1.to } }
        return out
    }

    /// One figure for an edge of `length` metres from its stretches, such that the costing's
    /// roughness term (linear in RMS above `CostingConstants.roughnessFloor`) over the whole edge
    /// equals the sum over its stretches: 20 m of cobbles inside a 120 m edge cost what 20 m of
    /// cobbles cost. Length the stretches do not cover reads `rest` (the edge's own figure), or is
    /// left out when there is none. Overlapping stretches (a rebuilt map) are averaged.
    /// - Returns: the effective RMS (g), nil without stretches.
    public static func stretchRMS(_ stretches: [StretchFigure], length: Double, rest: Double?) -> Double? {
        let covered = stretches.reduce(0) { $0 + $1.length }
        guard covered > 0 else { return nil }
        let floor = CostingConstants.roughnessFloor
        var excess = stretches.reduce(0) { $0 + $1.length * max(0, $1.observation.rms - floor) }
        var total = covered
        if let r = rest, length > covered {
            excess += (length - covered) * max(0, r - floor)
            total = length
        }
        // All smooth (below the floor): the plain length-weighted mean, which costs the same.
        if excess == 0 {
            return stretches.reduce(0) { $0 + $1.length * $1.observation.rms } / covered
        }
        return floor + excess / total
    }
}
