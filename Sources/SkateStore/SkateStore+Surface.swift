import FoundationEssentials
import SkateCore

extension SkateStore {
    /// Records a rider's rating of an edge. A rider's newer rating of the same edge replaces their
    /// older one (a change of mind, not a second vote). Committed before it returns.
    public func rate(_ edge: EdgeKey, rating: SurfaceRating, reporter: String, now: Date) throws {
        let reporter = try Self.validReporter(reporter)
        try write { db in
            try db.execute(sql: """
                DELETE FROM surfaceObservation WHERE source = 'rating' AND reporter = ? AND wayId = ? AND fromNode = ? AND toNode = ?
                """, arguments: [reporter, edge.wayId, edge.fromNode, edge.toNode])
            try db.execute(sql: """
                INSERT INTO surfaceObservation(wayId, fromNode, toNode, source, rating, rms, at, reporter)
                VALUES (?, ?, ?, 'rating', ?, ?, ?, ?)
                """, arguments: [edge.wayId, edge.fromNode, edge.toNode, rating.rawValue, rating.nominalRMS,
                                 now.timeIntervalSince1970, reporter])
        }
    }

    /// Records roughness measured on rides (robust RMS in g per edge pass), all in one
    /// transaction committed before it returns.
    /// - Parameters:
    ///   - measurements: one entry per edge pass.
    ///   - at: when the ride passed (the ride's time, not the wall clock).
    /// - Throws: `StoreError.badValue` for a negative or non-finite RMS (nothing is written then).
    public func recordMeasurements(_ measurements: [(edge: EdgeKey, rms: Double)], at: Date) throws {
        for m in measurements where !(m.rms.isFinite && m.rms >= 0) {
            throw StoreError.badValue("measured RMS \(m.rms) g on \(m.edge) is not a finite non-negative number")
        }
        try write { db in
            for m in measurements {
                try db.execute(sql: """
                    INSERT INTO surfaceObservation(wayId, fromNode, toNode, source, rms, at) VALUES (?, ?, ?, 'measured', ?, ?)
                    """, arguments: [m.edge.wayId, m.edge.fromNode, m.edge.toNode, m.rms, at.timeIntervalSince1970])
            }
        }
    }

    /// Records one measured roughness (g) on one edge.
    public func recordMeasurement(_ edge: EdgeKey, rms: Double, at: Date) throws {
        try recordMeasurements([(edge, rms)], at: at)
    }

    /// The aged measured and rated figures of one edge at `now`.
    public func surface(of edge: EdgeKey, now: Date) throws -> (measured: EdgeObservation?, rating: EdgeObservation?) {
        let t = now.timeIntervalSince1970
        let rows = try read { db in
            try db.fetchAll(sql: """
                SELECT wayId, fromNode, toNode, source, rms, at FROM surfaceObservation
                WHERE wayId = ? AND fromNode = ? AND toNode = ? AND at <= ? AND at >= ?
                """, arguments: [edge.wayId, edge.fromNode, edge.toNode, t, t - SurfaceAging.window]).map(StoredObservation.init(row:))
        }
        var measured: [(rms: Double, at: Date)] = [], rated: [(rms: Double, at: Date)] = []
        for r in rows {
            if r.measured { measured.append((r.rms, r.at)) } else { rated.append((r.rms, r.at)) }
        }
        return (SurfaceAging.summarize(measured, source: .measured, now: now),
                SurfaceAging.summarize(rated, source: .rating, now: now))
    }

    /// Aged figures for every edge key with observations in the window before `now`.
    func allSurfaces(now: Date) throws -> [EdgeKey: (measured: EdgeObservation?, rating: EdgeObservation?)] {
        let t = now.timeIntervalSince1970
        let rows = try read { db in
            try db.fetchAll(sql: """
                SELECT wayId, fromNode, toNode, source, rms, at FROM surfaceObservation WHERE at <= ? AND at >= ?
                """, arguments: [t, t - SurfaceAging.window]).map(StoredObservation.init(row:))
        }
        var measured: [EdgeKey: [(rms: Double, at: Date)]] = [:], rated: [EdgeKey: [(rms: Double, at: Date)]] = [:]
        for r in rows {
            if r.measured { measured[r.key, default: []].append((r.rms, r.at)) } else { rated[r.key, default: []].append((r.rms, r.at)) }
        }
        var out: [EdgeKey: (measured: EdgeObservation?, rating: EdgeObservation?)] = [:]
        for key in Set(measured.keys).union(rated.keys) {
            out[key] = (SurfaceAging.summarize(measured[key] ?? [], source: .measured, now: now),
                        SurfaceAging.summarize(rated[key] ?? [], source: .rating, now: now))
        }
        return out
    }
}

/// One `surfaceObservation` row, read out of the database as a value.
struct StoredObservation: Sendable {
    var key: EdgeKey
    /// True for a ride measurement, false for a rating.
    var measured: Bool
    var rms: Double
    var at: Date

    /// From a row selected as `wayId, fromNode, toNode, source, rms, at` (by position: several
    /// times faster than by name over tens of thousands of rows).
    init(row: Row) throws {
        key = try EdgeKey(wayId: row[0], fromNode: row[1], toNode: row[2])
        measured = try row[3] as String == "measured"
        rms = try row[4]
        at = try Date(timeIntervalSince1970: row[5])
    }
}
