import FoundationEssentials
import SkateCore

/// A ride index row: the record and the log file's size and modification time it was read at.
public struct IndexedRide: Sendable, Equatable {
    public var record: RideRecord
    public var fileSize: Int64
    public var fileModified: Double
    public init(record: RideRecord, fileSize: Int64, fileModified: Double) {
        self.record = record; self.fileSize = fileSize; self.fileModified = fileModified
    }
}

extension SkateStore {
    /// Every indexed ride, oldest first. Rows stay when their log file is deleted (the history
    /// keeps the ride). Rows with a figure no ride can hold are left out (see
    /// `indexedRidesCheckingRows` for the warnings).
    public func indexedRides() throws -> [IndexedRide] {
        try indexedRidesCheckingRows().rides
    }

    /// Every plausible indexed ride, oldest first, and one warning line per row skipped because
    /// a figure lies outside `PlausibleRange` (a row written by an older build, or by hand): the
    /// row stays in the store untouched, it only stops poisoning totals.
    public func indexedRidesCheckingRows() throws -> (rides: [IndexedRide], warnings: [String]) {
        let all: [IndexedRide] = try read { db in
            try db.fetchAll(sql: "SELECT * FROM rideIndex ORDER BY startEpoch, rideId").map { row in
                try IndexedRide(record: RideRecord(rideId: row["rideId"], path: row["path"], startEpoch: row["startEpoch"], map: row["map"],
                                               mode: row["mode"], distance: row["distance"], duration: row["duration"],
                                               movingTime: row["movingTime"], climb: row["climb"], descent: row["descent"],
                                               crustyMetres: row["crustyMetres"], maxSpeed: row["maxSpeed"], complete: row["complete"]),
                            fileSize: row["fileSize"], fileModified: row["fileModified"])
            }
        }
        var rides: [IndexedRide] = [], warnings: [String] = []
        for r in all {
            if let field = r.record.implausibleField {
                warnings.append("ride index: skipped ride \(TerminalSafe.clean(r.record.rideId)): its \(field) is out of range")
            } else {
                rides.append(r)
            }
        }
        return (rides, warnings)
    }

    /// Adds or replaces the index row of a ride.
    public func indexRide(_ r: IndexedRide) throws {
        let x = r.record
        if let field = x.implausibleField {
            throw StoreError.badValue("ride \(TerminalSafe.clean(x.rideId)): its \(field) is out of range")
        }
        try write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO rideIndex(rideId, path, fileSize, fileModified, startEpoch, map, mode, distance, duration,
                                                 movingTime, climb, descent, crustyMetres, maxSpeed, complete)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [x.rideId, x.path, r.fileSize, r.fileModified, x.startEpoch, x.map, x.mode, x.distance, x.duration,
                                 x.movingTime, x.climb, x.descent, x.crustyMetres, x.maxSpeed, x.complete])
        }
    }

    /// For each hazard `reporter` reported that another rider confirmed, the first such
    /// confirmation's time, oldest first.
    public func hazardsConfirmedByOthers(reporter: String) throws -> [Date] {
        try read { db in
            try db.fetchAll(Double.self, sql: """
                SELECT MIN(v.at) FROM hazardVote v JOIN hazard h ON h.id = v.hazardId
                WHERE h.reporter = ? AND v.reporter != h.reporter AND v.vote = 'confirm'
                GROUP BY h.id ORDER BY 1
                """, arguments: [reporter]).map { Date(timeIntervalSince1970: $0) }
        }
    }
}
