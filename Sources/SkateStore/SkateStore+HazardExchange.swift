import FoundationEssentials
import SkateCore

extension SkateStore {
    /// Imports reports read from a friend's or a club's file, all in one transaction (a failure
    /// writes nothing). Each report:
    /// - already imported from `origin` (same stable id) → unchanged (re-importing is a no-op);
    /// - past its kind's lifetime at `now` → not imported;
    /// - near a live hazard of its kind (`HazardRules.mergeRadius`, ours or another file's) →
    ///   a confirmation with the source's trust: the hazard's life extends to the report's last
    ///   confirmation, nothing else of it changes (never what the rider filed: kind, place,
    ///   severity, reporter);
    /// - else → a new hazard of source `imported` whose reporter is `origin`.
    /// - Parameters:
    ///   - origin: the source's name (`--from`), kept on every report.
    ///   - trust: the source's trust, `HazardExchange.trustRange`.
    /// - Throws: `StoreError` for a bad origin or trust, or a database error (nothing written).
    public func importHazards(_ reports: [HazardExchange.Report], origin: String, trust: Double, now: Date) throws -> HazardImportSummary {
        let origin = try Self.validReporter(origin)
        guard HazardExchange.trustRange.contains(trust) else { throw StoreError.badValue("trust \(trust) is outside 0…1") }
        let t = now.timeIntervalSince1970
        return try write { db in
            var sum = HazardImportSummary()
            try db.execute(sql: "INSERT OR IGNORE INTO reporter(name) VALUES (?)", arguments: [origin])
            for r in reports {
                if try db.fetchOne(sql: "SELECT hazardId FROM hazardImport WHERE origin = ? AND externalId = ?",
                                   arguments: [origin, r.externalId]) != nil {
                    sum.unchanged += 1
                    continue
                }
                let confirmed = min(r.lastConfirmedAt, now)
                if now.timeIntervalSince(confirmed) >= r.kind.lifetime || r.createdAt > now {
                    sum.expired += 1
                    continue
                }
                let hazardId: Int64
                if let near = try Self.nearestLiveHazard(db, kind: r.kind, at: r.position, now: now), near.source != .simulated {
                    hazardId = near.id
                    try db.execute(sql: "UPDATE hazard SET lastConfirmedAt = max(lastConfirmedAt, ?) WHERE id = ?",
                                   arguments: [confirmed.timeIntervalSince1970, hazardId])
                    sum.confirmed += 1
                } else {
                    try db.execute(sql: """
                        INSERT INTO hazard(kind, lat, lon, geohash, severity, source, reporter, createdAt, lastConfirmedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [r.kind.rawValue, r.position.lat, r.position.lon, Geohash.encode(r.position), r.severity,
                                         HazardSource.imported.rawValue, origin, r.createdAt.timeIntervalSince1970,
                                         confirmed.timeIntervalSince1970])
                    hazardId = db.lastInsertedRowID
                    sum.added += 1
                }
                try db.execute(sql: """
                    INSERT INTO hazardImport(origin, externalId, hazardId, trust, reportedAt, importedAt) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [origin, r.externalId, hazardId, trust, confirmed.timeIntervalSince1970, t])
            }
            return sum
        }
    }

    /// Our own live hazards to share (no imported ones: a file never echoes a friend's reports
    /// back to them), optionally only those confirmed since `since` and inside `area`.
    public func shareableHazards(now: Date, since: Date? = nil, area: (south: Double, west: Double, north: Double, east: Double)? = nil) throws -> [HazardState] {
        try hazards(now: now).filter { s in
            let h = s.hazard
            guard h.source != .imported, h.source != .simulated else { return false }
            if let since, h.lastConfirmedAt < since { return false }
            if let a = area, !(h.position.lat >= a.south && h.position.lat <= a.north && h.position.lon >= a.west && h.position.lon <= a.east) {
                return false
            }
            return true
        }
    }

    /// Origins a hazard was imported from, sorted (empty for a hazard no file reported).
    public func importOrigins(ofHazard id: Int64) throws -> [String] {
        try read { db in
            try db.fetchAll(sql: "SELECT DISTINCT origin FROM hazardImport WHERE hazardId = ? ORDER BY origin", arguments: [id])
                .map { try $0.string("origin") }
        }
    }

    /// Whether the store has the v4 import table (a store opened by today's code but migrated
    /// only to an older version, as the upgrade tests write one, has none: nothing imported).
    static func hasImportTable(_ db: SQLiteConnection) throws -> Bool {
        try db.fetchOne(sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hazardImport'") != nil
    }

    /// Σ over origins of the best trust any file of that origin gave hazard `hazardId`.
    static func importedEvidence(_ db: SQLiteConnection, hazardId: Int64) throws -> Double {
        guard try hasImportTable(db), let row = try db.fetchOne(sql: """
            SELECT coalesce(sum(t), 0) AS e FROM (SELECT max(trust) AS t FROM hazardImport WHERE hazardId = ? GROUP BY origin)
            """, arguments: [hazardId]) else { return 0 }
        return try row.double("e")
    }

    /// `importedEvidence` of every hazard a file reported, by hazard id.
    static func importedEvidenceTable(_ db: SQLiteConnection) throws -> [Int64: Double] {
        var out: [Int64: Double] = [:]
        guard try hasImportTable(db) else { return out }
        for row in try db.fetchAll(sql: """
            SELECT hazardId, sum(t) AS e FROM (SELECT hazardId, max(trust) AS t FROM hazardImport GROUP BY hazardId, origin) GROUP BY hazardId
            """) {
            out[try row["hazardId"]] = try row.double("e")
        }
        return out
    }
}
