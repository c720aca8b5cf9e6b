import FoundationEssentials
import SkateCore

extension SkateStore {
    // MARK: Writing

    /// Adds a hazard report, merging it with a live report of the same kind within
    /// `HazardRules.mergeRadius`:
    /// - none near → a new row (`.added`);
    /// - the same reporter within `HazardRules.debounceInterval` → `.debounced`, nothing written;
    /// - the same reporter later → `.refreshed` (life extended, no confirmation counted);
    /// - another reporter → `.confirmed` (counted once per reporter; extends life; raises severity
    ///   to the highest reported; raises the original reporter's trust).
    /// Committed before it returns.
    /// - Parameters:
    ///   - report: the report.
    ///   - zones: the map's no-report zones, or nil to skip the check (no map at hand).
    ///   - now: the report time.
    /// - Throws: `StoreError.noReportZone` inside a school/hospital/kindergarten area, bad severity
    ///   or reporter, or a database error.
    @discardableResult
    public func addHazard(_ report: HazardReport, zones: NoReportZones?, now: Date) throws -> HazardChange {
        let reporter = try Self.validReporter(report.reporter)
        guard HazardRules.severityRange.contains(report.severity) else { throw StoreError.badSeverity(report.severity) }
        let p = report.position
        guard p.lat.isFinite, p.lon.isFinite, abs(p.lat) <= 90, abs(p.lon) <= 180 else {
            throw StoreError.badValue("position \(p.lat),\(p.lon) is not a valid latitude,longitude")
        }
        if let z = zones?.zone(containing: p) { throw StoreError.noReportZone(kind: z.kind, name: z.name) }
        let t = now.timeIntervalSince1970
        return try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO reporter(name) VALUES (?)", arguments: [reporter])
            // A simulated report never confirms a real one (nor the other way round).
            if let near = try Self.nearestLiveHazard(db, kind: report.kind, at: p, now: now),
               (near.source == .simulated) == (report.source == .simulated) {
                let id = near.id
                if near.reporter == reporter {
                    if now.timeIntervalSince(near.lastConfirmedAt) < HazardRules.debounceInterval {
                        return HazardChange(outcome: .debounced, state: try Self.state(db, id: id, now: now))
                    }
                    try db.execute(sql: "UPDATE hazard SET lastConfirmedAt = max(lastConfirmedAt, ?), severity = max(severity, ?) WHERE id = ?",
                                   arguments: [t, report.severity, id])
                    return HazardChange(outcome: .refreshed, state: try Self.state(db, id: id, now: now))
                }
                guard try Self.confirm(db, hazardId: id, hazardReporter: near.reporter, voter: reporter, at: t) else {
                    return HazardChange(outcome: .debounced, state: try Self.state(db, id: id, now: now))
                }
                try db.execute(sql: "UPDATE hazard SET severity = max(severity, ?) WHERE id = ?", arguments: [report.severity, id])
                return HazardChange(outcome: .confirmed, state: try Self.state(db, id: id, now: now))
            }
            try db.execute(sql: """
                INSERT INTO hazard(kind, lat, lon, geohash, severity, source, reporter, createdAt, lastConfirmedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [report.kind.rawValue, p.lat, p.lon, Geohash.encode(p), report.severity,
                                 report.source.rawValue, reporter, t, t])
            return HazardChange(outcome: .added, state: try Self.state(db, id: db.lastInsertedRowID, now: now))
        }
    }

    /// A rider confirms hazard `id` is still there: `.confirmed` (counted once per reporter, extends
    /// life), `.refreshed` for the original reporter, `.debounced` for a repeat within the
    /// debounce interval. Committed before it returns.
    /// - Throws: `StoreError.unknownHazard` for an unknown id.
    @discardableResult
    public func confirmHazard(id: Int64, reporter: String, now: Date) throws -> HazardChange {
        let reporter = try Self.validReporter(reporter)
        let t = now.timeIntervalSince1970
        return try write { db in
            guard let h = try Self.fetchHazard(db, id: id) else { throw StoreError.unknownHazard(id: id) }
            try db.execute(sql: "INSERT OR IGNORE INTO reporter(name) VALUES (?)", arguments: [reporter])
            if h.reporter == reporter {
                if now.timeIntervalSince(h.lastConfirmedAt) < HazardRules.debounceInterval {
                    return HazardChange(outcome: .debounced, state: try Self.state(db, id: id, now: now))
                }
                try db.execute(sql: "UPDATE hazard SET lastConfirmedAt = max(lastConfirmedAt, ?) WHERE id = ?", arguments: [t, id])
                return HazardChange(outcome: .refreshed, state: try Self.state(db, id: id, now: now))
            }
            guard try Self.confirm(db, hazardId: id, hazardReporter: h.reporter, voter: reporter, at: t) else {
                return HazardChange(outcome: .debounced, state: try Self.state(db, id: id, now: now))
            }
            return HazardChange(outcome: .confirmed, state: try Self.state(db, id: id, now: now))
        }
    }

    /// A rider says hazard `id` is gone. One vote per reporter (a later vote replaces an earlier
    /// confirmation by the same reporter); lowers the original reporter's trust unless they retract
    /// their own report. Committed before it returns.
    /// - Throws: `StoreError.unknownHazard` for an unknown id.
    @discardableResult
    public func voteGone(id: Int64, reporter: String, now: Date) throws -> HazardChange {
        let reporter = try Self.validReporter(reporter)
        return try write { db in
            guard let h = try Self.fetchHazard(db, id: id) else { throw StoreError.unknownHazard(id: id) }
            try db.execute(sql: "INSERT OR IGNORE INTO reporter(name) VALUES (?)", arguments: [reporter])
            try Self.vote(db, hazardId: id, hazardReporter: h.reporter, voter: reporter, vote: "gone",
                          at: now.timeIntervalSince1970)
            return HazardChange(outcome: .votedGone, state: try Self.state(db, id: id, now: now))
        }
    }

    // MARK: Reading

    /// Hazard `id` as it stands at `now`.
    /// - Throws: `StoreError.unknownHazard` for an unknown id.
    public func hazard(id: Int64, now: Date) throws -> HazardState {
        try read { db in
            guard try Self.fetchHazard(db, id: id) != nil else { throw StoreError.unknownHazard(id: id) }
            return try Self.state(db, id: id, now: now)
        }
    }

    /// Hazards at `now`, ordered by id.
    /// - Parameters:
    ///   - now: the moment to evaluate confidence and life at (reports made after it are left out).
    ///   - near: only hazards within `radius` metres of this point, when given.
    ///   - radius: metres.
    ///   - includeExpired: also list hazards that are no longer live.
    public func hazards(now: Date, near: Coordinate? = nil, radius: Double = .infinity,
                        includeExpired: Bool = false) throws -> [HazardState] {
        let t = now.timeIntervalSince1970
        return try read { db in
            let trust = try Self.trustTable(db)
            let imported = try Self.importedEvidenceTable(db)
            var out: [HazardState] = []
            // Without expired ones, skip rows older than the longest lifetime outright.
            let oldest = includeExpired ? -Double.greatestFiniteMagnitude : t - HazardKind.longestLifetime
            for row in try db.fetchAll(sql: "SELECT * FROM hazard WHERE createdAt <= ? AND lastConfirmedAt >= ? ORDER BY id",
                                       arguments: [t, oldest]) {
                let h = try Hazard(row: row)
                if let c = near, !(Geo.distance(c, h.position) <= radius) { continue }
                let s = HazardState(hazard: h, reporterTrust: trust[h.reporter] ?? HazardRules.newcomerTrust, now: now,
                                    importedEvidence: imported[h.id] ?? 0)
                if includeExpired || s.isLive { out.append(s) }
            }
            return out
        }
    }

    /// Trust of `reporter` (0…1; a reporter never seen has the newcomer's trust).
    public func trust(ofReporter reporter: String) throws -> Double {
        try read { db in try Self.trust(db, reporter: reporter) }
    }

    // MARK: Helpers (inside a transaction)

    static func validReporter(_ name: String) throws -> String {
        let r = name.trimmingWhitespaceAndNewlines()
        // Printable only: a stored name is shown in other riders' terminals later.
        guard !r.isEmpty, r.count <= HazardRules.maxReporterLength, TerminalSafe.clean(r) == r else { throw StoreError.badReporter(name) }
        return r
    }

    static func fetchHazard(_ db: SQLiteConnection, id: Int64) throws -> Hazard? {
        try db.fetchOne(sql: "SELECT * FROM hazard WHERE id = ?", arguments: [id]).map(Hazard.init(row:))
    }

    static func trust(_ db: SQLiteConnection, reporter: String) throws -> Double {
        guard let row = try db.fetchOne(sql: "SELECT confirmationsReceived, goneReceived FROM reporter WHERE name = ?",
                                        arguments: [reporter]) else { return HazardRules.newcomerTrust }
        return try HazardRules.trust(confirmationsReceived: row["confirmationsReceived"], goneReceived: row["goneReceived"])
    }

    static func trustTable(_ db: SQLiteConnection) throws -> [String: Double] {
        var out: [String: Double] = [:]
        for row in try db.fetchAll(sql: "SELECT name, confirmationsReceived, goneReceived FROM reporter") {
            out[try row["name"]] = try HazardRules.trust(confirmationsReceived: row["confirmationsReceived"], goneReceived: row["goneReceived"])
        }
        return out
    }

    static func state(_ db: SQLiteConnection, id: Int64, now: Date) throws -> HazardState {
        guard let h = try fetchHazard(db, id: id) else { throw StoreError.unknownHazard(id: id) }
        return HazardState(hazard: h, reporterTrust: try trust(db, reporter: h.reporter), now: now,
                           importedEvidence: try importedEvidence(db, hazardId: h.id))
    }

    /// The nearest live hazard of `kind` within the merge radius of `p` at `now`.
    static func nearestLiveHazard(_ db: SQLiteConnection, kind: HazardKind, at p: Coordinate, now: Date) throws -> Hazard? {
        let proj = LocalProjection(origin: p)
        let dLat = HazardRules.mergeRadius / proj.mPerDegLat
        let dLon = HazardRules.mergeRadius / max(proj.mPerDegLon, 1)
        let rows = try db.fetchAll(sql: """
            SELECT * FROM hazard WHERE kind = ? AND lat BETWEEN ? AND ? AND lon BETWEEN ? AND ? AND createdAt <= ?
            """, arguments: [kind.rawValue, p.lat - dLat, p.lat + dLat, p.lon - dLon, p.lon + dLon, now.timeIntervalSince1970])
        var best: (Hazard, Double)?
        for row in rows {
            let h = try Hazard(row: row)
            let d = Geo.distance(p, h.position)
            guard d <= HazardRules.mergeRadius else { continue }
            guard HazardState(hazard: h, reporterTrust: try trust(db, reporter: h.reporter), now: now,
                              importedEvidence: try importedEvidence(db, hazardId: h.id)).isLive else { continue }
            if best == nil || d < best!.1 || (d == best!.1 && h.id > best!.0.id) { best = (h, d) }
        }
        return best?.0
    }

    /// Counts `voter`'s confirmation of a hazard someone else reported (`vote`), unless the same
    /// voter confirmed it less than `HazardRules.debounceInterval` ago: then nothing is written
    /// and the answer is false (debounced). The one debounce of a confirming vote, for a report
    /// merged into a nearby hazard and for `confirmHazard`.
    static func confirm(_ db: SQLiteConnection, hazardId: Int64, hazardReporter: String, voter: String, at t: Double) throws -> Bool {
        if let prior = try db.fetchOne(sql: "SELECT vote, at FROM hazardVote WHERE hazardId = ? AND reporter = ?",
                                       arguments: [hazardId, voter]),
           try prior.string("vote") == "confirm", try t - prior.double("at") < HazardRules.debounceInterval {
            return false
        }
        try vote(db, hazardId: hazardId, hazardReporter: hazardReporter, voter: voter, vote: "confirm", at: t)
        return true
    }

    /// Records `voter`'s vote on a hazard (replacing their earlier one), then recounts the
    /// hazard's confirmations / gone votes and its reporter's received counts from the votes,
    /// so the denormalised counts can never drift. A confirmation also extends the hazard's life.
    static func vote(_ db: SQLiteConnection, hazardId: Int64, hazardReporter: String, voter: String, vote: String, at t: Double) throws {
        try db.execute(sql: """
            INSERT INTO hazardVote(hazardId, reporter, vote, at) VALUES (?, ?, ?, ?)
            ON CONFLICT(hazardId, reporter) DO UPDATE SET vote = excluded.vote, at = excluded.at
            """, arguments: [hazardId, voter, vote, t])
        if vote == "confirm" {
            try db.execute(sql: "UPDATE hazard SET lastConfirmedAt = max(lastConfirmedAt, ?) WHERE id = ?", arguments: [t, hazardId])
        }
        try db.execute(sql: """
            UPDATE hazard SET
                confirmations = (SELECT count(*) FROM hazardVote v WHERE v.hazardId = hazard.id AND v.vote = 'confirm' AND v.reporter != hazard.reporter),
                goneVotes = (SELECT count(*) FROM hazardVote v WHERE v.hazardId = hazard.id AND v.vote = 'gone')
            WHERE id = ?
            """, arguments: [hazardId])
        try db.execute(sql: "INSERT OR IGNORE INTO reporter(name) VALUES (?)", arguments: [hazardReporter])
        try db.execute(sql: """
            UPDATE reporter SET
                confirmationsReceived = (SELECT count(*) FROM hazardVote v JOIN hazard h ON v.hazardId = h.id
                                         WHERE h.reporter = reporter.name AND v.reporter != reporter.name AND v.vote = 'confirm'),
                goneReceived = (SELECT count(*) FROM hazardVote v JOIN hazard h ON v.hazardId = h.id
                                WHERE h.reporter = reporter.name AND v.reporter != reporter.name AND v.vote = 'gone')
            WHERE name = ?
            """, arguments: [hazardReporter])
    }
}
