import FoundationEssentials
import SkateCore

/// A route the rider saved for offline use: the plan as JSON (geometry, steps with their
/// attributes, zones, grade summary), its ends and mode, the map it was planned on and a checksum.
public struct SavedRoute: Sendable, Equatable {
    public var name: String
    /// A `RideMode` raw value.
    public var mode: String
    public var fromName: String
    public var toName: String
    public var from: Coordinate
    public var to: Coordinate
    /// "map name@xxhash64 of the map file's payload" (see the CLI's `MapIdentity`).
    public var mapIdentity: String
    /// The plan as `skateroute plan --format json` prints it.
    public var planJSON: String
    public var createdAt: Date

    public init(name: String, mode: String, fromName: String, toName: String, from: Coordinate, to: Coordinate,
                mapIdentity: String, planJSON: String, createdAt: Date) {
        self.name = name; self.mode = mode; self.fromName = fromName; self.toName = toName; self.from = from; self.to = to
        self.mapIdentity = mapIdentity; self.planJSON = planJSON; self.createdAt = createdAt
    }

    /// XXHash64 (hex) over every stored field but the time, so any edit to the row shows.
    public var checksum: String {
        let fields = [name, mode, fromName, toName, from.description, to.description, mapIdentity, planJSON]
        let bytes = Array(fields.joined(separator: "\u{1F}").utf8)
        let h = bytes.withUnsafeBytes { XXHash64.hash($0) }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension SkateStore {
    /// Saves a route under a new name. - Throws: `StoreError.badName` / `.duplicateName`.
    @discardableResult
    public func saveRoute(_ route: SavedRoute) throws -> SavedRoute {
        var r = route
        r.name = try RiderName.validate(route.name, what: "route")
        r.fromName = String(RiderName.clean(route.fromName).prefix(200))
        r.toName = String(RiderName.clean(route.toName).prefix(200))
        let key = RiderName.folded(r.name)
        let checksum = r.checksum
        return try write { db in
            if let existing = try db.fetchOne(String.self, sql: "SELECT name FROM savedRoute WHERE foldedName = ?", arguments: [key]) {
                throw StoreError.duplicateName(what: "route", name: existing)
            }
            try db.execute(sql: """
                INSERT INTO savedRoute(foldedName, name, mode, fromName, toName, fromLat, fromLon, toLat, toLon,
                                       mapIdentity, planJSON, checksum, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [key, r.name, r.mode, r.fromName, r.toName, r.from.lat, r.from.lon, r.to.lat, r.to.lon,
                                 r.mapIdentity, r.planJSON, checksum, r.createdAt.timeIntervalSince1970])
            return r
        }
    }

    /// The names of the saved routes with their checksum state, by name (listing never refuses a
    /// corrupted row; it says so).
    public func savedRoutes() throws -> [(route: SavedRoute, intact: Bool)] {
        try read { db in
            try db.fetchAll(sql: "SELECT * FROM savedRoute ORDER BY foldedName").map { row in
                let r = Self.route(row)
                return (r, r.checksum == Self.text(row, "checksum"))
            }
        }
    }

    /// The saved route of this name, checked. - Throws: `.unknownName`, `.corruptRoute`.
    public func savedRoute(named name: String) throws -> SavedRoute {
        let key = RiderName.folded(RiderName.clean(name))
        let found: (SavedRoute, String)? = try read { db in
            try db.fetchOne(sql: "SELECT * FROM savedRoute WHERE foldedName = ?", arguments: [key]).map {
                (Self.route($0), Self.text($0, "checksum"))
            }
        }
        guard let (route, stored) = found else { throw StoreError.unknownName(what: "route", name: name) }
        guard route.checksum == stored else { throw StoreError.corruptRoute(name: route.name) }
        return route
    }

    /// Removes a saved route. - Throws: `.unknownName`.
    public func removeRoute(named name: String) throws {
        let key = RiderName.folded(RiderName.clean(name))
        try write { db in
            try db.execute(sql: "DELETE FROM savedRoute WHERE foldedName = ?", arguments: [key])
            if db.changesCount == 0 { throw StoreError.unknownName(what: "route", name: name) }
        }
    }

    /// A row as a route; a tampered cell of the wrong type reads as empty/NaN (the checksum then refuses it).
    static func route(_ row: Row) -> SavedRoute {
        func text(_ c: String) -> String { Self.text(row, c) }
        func number(_ c: String) -> Double { (try? row.double(c)) ?? .nan }
        return SavedRoute(name: text("name"), mode: text("mode"), fromName: text("fromName"), toName: text("toName"),
                          from: Coordinate(lat: number("fromLat"), lon: number("fromLon")),
                          to: Coordinate(lat: number("toLat"), lon: number("toLon")),
                          mapIdentity: text("mapIdentity"), planJSON: text("planJSON"),
                          createdAt: Date(timeIntervalSince1970: number("createdAt")))
    }

    /// Text column `c`, or "" for a cell of another type (NULL, a number, a tampered blob).
    static func text(_ row: Row, _ c: String) -> String { (try? row.string(c)) ?? "" }
}
