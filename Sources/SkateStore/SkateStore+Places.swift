import FoundationEssentials
import SkateCore

extension SkateStore {
    /// How many recent destinations are kept (the oldest goes when a new one comes).
    public static let recentLimit = 20

    /// Saves a place under a new name.
    /// - Throws: `StoreError.badName` / `.duplicateName` / `.badValue` (one line each).
    @discardableResult
    public func addPlace(name raw: String, category: SavedPlaceCategory, at: Coordinate, note: String = "",
                         isPrivate: Bool = true, now: Date) throws -> SavedPlace {
        let name = try RiderName.validate(raw, what: "place")
        let cleanNote = try RiderName.validateNote(note)
        guard at.lat.isFinite, at.lon.isFinite, abs(at.lat) <= 90, abs(at.lon) <= 180 else {
            throw StoreError.badValue("place position \(at) is not a valid latitude/longitude")
        }
        let key = RiderName.folded(name)
        return try write { db in
            if let existing = try db.fetchOne(String.self, sql: "SELECT name FROM savedPlace WHERE foldedName = ?", arguments: [key]) {
                throw StoreError.duplicateName(what: "place", name: existing)
            }
            try db.execute(sql: """
                INSERT INTO savedPlace(name, foldedName, category, lat, lon, note, private, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [name, key, category.rawValue, at.lat, at.lon, cleanNote, isPrivate, now.timeIntervalSince1970])
            return SavedPlace(id: db.lastInsertedRowID, name: name, category: category, at: at, note: cleanNote,
                              isPrivate: isPrivate, createdAt: now)
        }
    }

    /// Every saved place, by name.
    public func places() throws -> [SavedPlace] {
        try read { db in
            try db.fetchAll(sql: "SELECT * FROM savedPlace ORDER BY foldedName").map(Self.place)
        }
    }

    /// The saved place whose name folds to the same key as `name`, if any.
    public func place(named name: String) throws -> SavedPlace? {
        let key = RiderName.folded(RiderName.clean(name))
        return try read { db in
            try db.fetchOne(sql: "SELECT * FROM savedPlace WHERE foldedName = ?", arguments: [key]).map(Self.place)
        }
    }

    /// Removes a saved place. - Throws: `StoreError.unknownName`.
    public func removePlace(named name: String) throws {
        let key = RiderName.folded(RiderName.clean(name))
        try write { db in
            try db.execute(sql: "DELETE FROM savedPlace WHERE foldedName = ?", arguments: [key])
            if db.changesCount == 0 { throw StoreError.unknownName(what: "place", name: name) }
        }
    }

    /// Renames a saved place. - Throws: `StoreError.unknownName` / `.duplicateName` / `.badName`.
    @discardableResult
    public func renamePlace(_ old: String, to new: String) throws -> String {
        let name = try RiderName.validate(new, what: "place")
        let oldKey = RiderName.folded(RiderName.clean(old)), newKey = RiderName.folded(name)
        return try write { db in
            guard try db.fetchOne(Int.self, sql: "SELECT COUNT(*) FROM savedPlace WHERE foldedName = ?", arguments: [oldKey]) == 1 else {
                throw StoreError.unknownName(what: "place", name: old)
            }
            if newKey != oldKey, let existing = try db.fetchOne(String.self, sql: "SELECT name FROM savedPlace WHERE foldedName = ?", arguments: [newKey]) {
                throw StoreError.duplicateName(what: "place", name: existing)
            }
            try db.execute(sql: "UPDATE savedPlace SET name = ?, foldedName = ? WHERE foldedName = ?", arguments: [name, newKey, oldKey])
            return name
        }
    }

    static func place(_ row: Row) throws -> SavedPlace {
        try SavedPlace(id: row["id"], name: row["name"], category: SavedPlaceCategory(rawValue: row["category"]) ?? .other,
                   at: Coordinate(lat: row["lat"], lon: row["lon"]), note: row["note"], isPrivate: row["private"],
                   createdAt: Date(timeIntervalSince1970: row["createdAt"]))
    }

    // MARK: Recents

    /// Records a destination: it becomes the most recent (one entry per name), and only the
    /// `recentLimit` most recent stay.
    public func recordDestination(name raw: String, at: Coordinate, now: Date) throws {
        let name = String(RiderName.clean(raw).prefix(RiderName.maxLength))
        guard !name.isEmpty, at.lat.isFinite, at.lon.isFinite else { return }
        let key = RiderName.folded(name).isEmpty ? name : RiderName.folded(name)
        try write { db in
            try db.execute(sql: """
                INSERT INTO recentDestination(foldedName, name, lat, lon, usedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(foldedName) DO UPDATE SET name = excluded.name, lat = excluded.lat, lon = excluded.lon, usedAt = excluded.usedAt
                """, arguments: [key, name, at.lat, at.lon, now.timeIntervalSince1970])
            try db.execute(sql: """
                DELETE FROM recentDestination WHERE foldedName NOT IN
                    (SELECT foldedName FROM recentDestination ORDER BY usedAt DESC, foldedName LIMIT ?)
                """, arguments: [Self.recentLimit])
        }
    }

    /// The recent destinations, most recent first.
    public func recentDestinations() throws -> [RecentDestination] {
        try read { db in
            try db.fetchAll(sql: "SELECT * FROM recentDestination ORDER BY usedAt DESC, foldedName").map {
                try RecentDestination(name: $0["name"], at: Coordinate(lat: $0["lat"], lon: $0["lon"]),
                                  usedAt: Date(timeIntervalSince1970: $0["usedAt"]))
            }
        }
    }

    // MARK: Settings

    /// The setting holding the weekly distance goal (metres, as text; empty: none).
    public static let weeklyGoalKey = "weeklyGoalMetres"

    /// A small setting (e.g. the weekly goal), or nil.
    public func setting(_ key: String) throws -> String? {
        try read { db in try db.fetchOne(String.self, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func setSetting(_ key: String, _ value: String) throws {
        try write { db in
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        }
    }
}
