import FoundationEssentials
import SkateCore

/// An impact a ride felt, placed on an edge, as the store keeps it (`impactEvent` row).
public struct StoredImpact: Sendable, Equatable {
    public var id: Int64
    public var edge: EdgeKey
    /// Metres along the edge from `edge.fromNode`.
    public var offset: Double
    public var position: Coordinate
    /// Event-band peak, g.
    public var peak: Double
    /// `ImpactKind` name: pothole, bump or crack.
    public var kind: String
    /// The ride it came from.
    public var rideId: String
    public var at: Date
    /// The detected hazard it made or confirmed, if any.
    public var hazardId: Int64?

    public init(id: Int64 = 0, edge: EdgeKey, offset: Double, position: Coordinate, peak: Double, kind: String,
                rideId: String, at: Date, hazardId: Int64? = nil) {
        self.id = id; self.edge = edge; self.offset = offset; self.position = position; self.peak = peak
        self.kind = kind; self.rideId = rideId; self.at = at; self.hazardId = hazardId
    }

    init(row: Row) throws {
        id = try row["id"]
        edge = try EdgeKey(wayId: row["wayId"], fromNode: row["fromNode"], toNode: row["toNode"])
        offset = try row["offset"]
        position = try Coordinate(lat: row["lat"], lon: row["lon"])
        peak = try row["peak"]
        kind = try row["kind"]
        rideId = try row["rideId"]
        at = try Date(timeIntervalSince1970: row["at"])
        let h: SQLValue = try row["hazardId"]
        if case .integer(let v) = h { hazardId = v } else { hazardId = nil }
    }
}

/// What `recordImpacts` did.
public struct ImpactLearningOutcome: Sendable, Equatable {
    /// Impacts stored.
    public var stored = 0
    /// True when the ride's impacts were already stored (a replay teaches nothing twice).
    public var alreadyKnown = false
    /// Detected hazards added, refreshed or confirmed, by id.
    public var hazards: [HazardChange] = []
    /// Spots that qualified but lie in a no-report zone.
    public var refusedInZones = 0
}

extension SkateStore {
    /// Stores a ride's impacts and files a *detected* hazard (`HazardSource.detected`, reporter
    /// `ImpactRules.detectorReporter`) at every spot that now has hits on `passesForHazard`
    /// passes, or one hit of at least `hardHitPeak`. A ride whose impacts are already stored adds
    /// nothing. Impacts are committed in one transaction before any hazard is filed.
    /// - Parameters:
    ///   - impacts: the ride's impacts (`id`, `hazardId` ignored).
    ///   - rideId: the ride they came from.
    ///   - zones: the map's no-report zones (no hazard is filed inside one), nil to skip the check.
    /// - Throws: `StoreError.badValue` for a non-finite figure (nothing written), or a database error.
    @discardableResult
    public func recordImpacts(_ impacts: [StoredImpact], rideId: String, zones: NoReportZones?) throws -> ImpactLearningOutcome {
        var out = ImpactLearningOutcome()
        for i in impacts where !(i.offset.isFinite && i.peak.isFinite && i.position.lat.isFinite && i.position.lon.isFinite) {
            throw StoreError.badValue("impact on \(i.edge) has a non-finite offset, peak or position")
        }
        guard !impacts.isEmpty else { return out }
        let inserted: [StoredImpact] = try write { db in
            if try db.fetchOne(Int64.self, sql: "SELECT id FROM impactEvent WHERE rideId = ? LIMIT 1", arguments: [rideId]) != nil { return [] }
            var rows: [StoredImpact] = []
            for i in impacts {
                try db.execute(sql: """
                    INSERT INTO impactEvent(wayId, fromNode, toNode, offset, lat, lon, peak, kind, rideId, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [i.edge.wayId, i.edge.fromNode, i.edge.toNode, i.offset, i.position.lat, i.position.lon,
                                     i.peak, i.kind, rideId, i.at.timeIntervalSince1970])
                var r = i
                r.id = db.lastInsertedRowID
                r.rideId = rideId
                rows.append(r)
            }
            return rows
        }
        if inserted.isEmpty { out.alreadyKnown = true; return out }
        out.stored = inserted.count
        for i in inserted {
            let spot = try storedImpacts(near: i.edge, offset: i.offset)
            let passes = ImpactRules.passes(spot.map { $0.at.timeIntervalSince1970 })
            let hard = i.peak >= ImpactRules.hardHitPeak
            guard passes >= ImpactRules.passesForHazard || hard else { continue }
            // The spot's middle; the kind most of its hits suggest (the newest on a tie).
            let lat = spot.reduce(0) { $0 + $1.position.lat } / Double(spot.count)
            let lon = spot.reduce(0) { $0 + $1.position.lon } / Double(spot.count)
            let kind = Self.commonestKind(spot) ?? i.kind
            let report = HazardReport(kind: ImpactRules.hazardKind(impactKind: kind), position: Coordinate(lat: lat, lon: lon),
                                      severity: hard ? ImpactRules.hardHitSeverity : ImpactRules.detectedSeverity,
                                      source: .detected, reporter: ImpactRules.detectorReporter)
            let change: HazardChange
            do {
                change = try addHazard(report, zones: zones, now: i.at)
            } catch StoreError.noReportZone {
                out.refusedInZones += 1
                continue
            }
            out.hazards.append(change)
            let id = change.state.hazard.id
            try write { db in
                for s in spot where s.hazardId == nil {
                    try db.execute(sql: "UPDATE impactEvent SET hazardId = ? WHERE id = ?", arguments: [id, s.id])
                }
            }
        }
        return out
    }

    /// Stored impacts on `edge` within `ImpactRules.sameSpotMetres` of `offset`, oldest first.
    public func storedImpacts(near edge: EdgeKey, offset: Double) throws -> [StoredImpact] {
        try read { db in
            try db.fetchAll(sql: """
                SELECT * FROM impactEvent WHERE wayId = ? AND fromNode = ? AND toNode = ? AND offset BETWEEN ? AND ? ORDER BY at, id
                """, arguments: [edge.wayId, edge.fromNode, edge.toNode, offset - ImpactRules.sameSpotMetres, offset + ImpactRules.sameSpotMetres])
                .map(StoredImpact.init(row:))
        }
    }

    /// The kind most hits of a spot suggest; the newest hit's kind among equals.
    static func commonestKind(_ spot: [StoredImpact]) -> String? {
        var count: [String: Int] = [:]
        var best: String?
        for s in spot {  // oldest first: a later kind with as many hits wins the tie
            count[s.kind, default: 0] += 1
            if let b = best, count[b, default: 0] > count[s.kind]! { continue }
            best = s.kind
        }
        return best
    }

    /// The impacts stored from one ride, oldest first (the TUI's arrival question).
    public func impacts(ofRide rideId: String) throws -> [StoredImpact] {
        try read { db in
            try db.fetchAll(sql: "SELECT * FROM impactEvent WHERE rideId = ? ORDER BY at, id", arguments: [rideId]).map(StoredImpact.init(row:))
        }
    }

    /// Every stored impact, oldest first (exports, tests).
    public func allImpacts() throws -> [StoredImpact] {
        try read { db in try db.fetchAll(sql: "SELECT * FROM impactEvent ORDER BY at, id").map(StoredImpact.init(row:)) }
    }
}
