import Foundation
import SkateCore
@testable import SkateStore
import SkateTestSupport
import Testing

/// Stores written by the GRDB version of SkateStore (real files, Fixtures/GRDBStores/README.md)
/// open with today's code, keep every row and read back exactly as GRDB read them.
@Suite struct GRDBStoreFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/GRDBStores")
    /// The moment the fixture writer read its stores back at: 2026-05-01T16:00:00Z.
    static let dumpedAt = t0 + 4 * hour

    /// A fresh copy of fixture store `name` ("v1", "v2") in a temporary data directory.
    static func copy(_ name: String) throws -> URL {
        let dir = TestData.temporaryDirectory("grdb-fixture-\(name)")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("\(name)/skateroute.sqlite"),
                                         to: StorePaths.databaseURL(in: dir))
        return dir
    }

    static func expected(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent("\(name)-api.txt"), encoding: .utf8)
    }

    /// Every row of every table (sqlite_sequence and grdb_migrations too), read through a plain
    /// connection, plus the schema and user_version.
    static func rawDump(_ dir: URL) throws -> [String] {
        let db = try SQLiteConnection(path: StorePaths.databaseURL(in: dir).path, flags: SQLiteConnection.readWrite)
        var out = try db.fetchAll(sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").map(\.description)
        out.append("user_version \(try db.pragma("user_version") ?? .null)")
        for table in try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            out += try db.fetchAll(sql: "SELECT * FROM \"\(table)\" ORDER BY rowid").map { "\(table) \($0)" }
        }
        return out
    }

    /// What the public API reads from a store at `now`, one fact a line: a verbatim copy of the
    /// fixture writer's `apiDump` (Fixtures/GRDBStores/README.md), which wrote `v1-api.txt` / `v2-api.txt`.
    static func apiDump(_ s: SkateStore, now: Date, v2: Bool) throws -> String {
        var lines: [String] = []
        lines.append("schema \(try s.storedSchemaVersion())")
        for h in try s.hazards(now: now, includeExpired: true) {
            let x = h.hazard
            lines.append("hazard \(x.id) \(x.kind.rawValue) \(x.position.lat),\(x.position.lon) \(x.geohash) sev=\(x.severity) \(x.source.rawValue) \(x.reporter) created=\(x.createdAt.timeIntervalSince1970) last=\(x.lastConfirmedAt.timeIntervalSince1970) conf=\(x.confirmations) gone=\(x.goneVotes) confidence=\(h.confidence) trust=\(h.reporterTrust) live=\(h.isLive)")
        }
        for r in ["alice", "bob", "carol", "dave", "Zoë \"Z\" O'Neil", "nobody"] {
            lines.append("trust \(r) \(try s.trust(ofReporter: r))")
        }
        for e in [EdgeKey(wayId: 42, fromNode: 1, toNode: 2), EdgeKey(wayId: 43, fromNode: 2, toNode: 3), EdgeKey(wayId: 9_007_199_254_740_993, fromNode: -5, toNode: 4_611_686_018_427_387_904)] {
            let sf = try s.surface(of: e, now: now)
            lines.append("surface \(e.wayId)/\(e.fromNode)/\(e.toNode) measured=\(String(describing: sf.measured)) rating=\(String(describing: sf.rating))")
        }
        lines.append("confirmedByOthers alice \(try s.hazardsConfirmedByOthers(reporter: "alice").map(\.timeIntervalSince1970))")
        if v2 {
            for p in try s.places() {
                lines.append("place \(p.id) \(p.name) \(p.category.rawValue) \(p.at.lat),\(p.at.lon) note=\(p.note) private=\(p.isPrivate) created=\(p.createdAt.timeIntervalSince1970)")
            }
            for r in try s.recentDestinations() {
                lines.append("recent \(r.name) \(r.at.lat),\(r.at.lon) used=\(r.usedAt.timeIntervalSince1970)")
            }
            for (r, intact) in try s.savedRoutes() {
                lines.append("route \(r.name) \(r.mode) \(r.fromName) -> \(r.toName) \(r.from) \(r.to) \(r.mapIdentity) intact=\(intact) created=\(r.createdAt.timeIntervalSince1970) plan=\(r.planJSON)")
            }
            for r in try s.indexedRides() {
                let x = r.record
                lines.append("ride \(x.rideId) \(x.path) \(x.startEpoch) \(x.map) \(x.mode) \(x.distance) \(x.duration) \(x.movingTime) \(x.climb) \(x.descent) \(x.crustyMetres) \(x.maxSpeed) complete=\(x.complete) size=\(r.fileSize) mtime=\(r.fileModified)")
            }
            lines.append("setting \(SkateStore.weeklyGoalKey)=\(String(describing: try s.setting(SkateStore.weeklyGoalKey)))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
    /// Since schema v3 (issue 28: impacts and surface stretches) a v2 store is migrated on open:
    /// every v2 row stays byte for byte, v3 only adds its tables and its record.
    @Test func aGRDBWrittenV2StoreIsUpgradedKeepingEveryRowAndReadsTheSame() throws {
        let dir = try Self.copy("v2")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Self.rawDump(dir)
        #expect(before.contains("grdb_migrations [identifier:'v2']"))
        #expect(before.count > 40, "the fixture holds rows of every table")
        let expected = try Self.expected("v2").replacingOccurrences(of: "schema 2\n", with: "schema \(SkateStore.schemaVersion)\n")
        let store = try SkateStore(dataDir: dir)
        #expect(try store.storedSchemaVersion() == SkateStore.schemaVersion)
        #expect(try Self.apiDump(store, now: Self.dumpedAt, v2: true) == expected)
        let after = try Self.rawDump(dir)
        let rowsBefore = before.filter { !$0.hasPrefix("[") && !$0.hasPrefix("user_version") }
        #expect(Set(rowsBefore).isSubset(of: Set(after)), "a v2 row changed or went missing")
        #expect(after.contains("grdb_migrations [identifier:'v3']"))
        // Now fully migrated: the short open recognises it (else it would fall back to a pool).
        let short = try SkateStore(openingExisting: dir)
        #expect(short.db.isSingleConnection)
        #expect(try Self.apiDump(short, now: Self.dumpedAt, v2: true) == expected)
        #expect(try Self.rawDump(dir) == after, "a second open migrated nothing and changed no row")
        #expect(try store.integrityCheck() == "ok")
        // It takes new rows as any store does (AUTOINCREMENT carries on after GRDB's ids).
        let added = try store.addHazard(HazardReport(kind: .debris, position: Coordinate(lat: 43.74, lon: 7.43), reporter: "new"), zones: nil, now: Self.dumpedAt)
        #expect(added.state.hazard.id == 5)
        try short.addPlace(name: "New spot", category: .spot, at: Coordinate(lat: 43.73, lon: 7.42), now: Self.dumpedAt)
        #expect(try store.places().count == 4)
    }

    @Test func aGRDBWrittenV1StoreIsUpgradedKeepingEveryRow() throws {
        let dir = try Self.copy("v1")
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Self.rawDump(dir)
        #expect(before.contains("user_version 1"))
        let store = try SkateStore(dataDir: dir)
        #expect(try store.storedSchemaVersion() == SkateStore.schemaVersion)
        // Everything the v1 store answered, it still answers (the schema line aside).
        let expected = try Self.expected("v1").replacingOccurrences(of: "schema 1\n", with: "schema \(SkateStore.schemaVersion)\n")
        #expect(try Self.apiDump(store, now: Self.dumpedAt, v2: false) == expected)
        // Every v1 row is still there, byte for byte; v2 added its tables and its record.
        let after = try Self.rawDump(dir)
        let rowsBefore = before.filter { !$0.hasPrefix("[") && !$0.hasPrefix("user_version") }
        #expect(Set(rowsBefore).isSubset(of: Set(after)))
        #expect(after.contains("grdb_migrations [identifier:'v1']") && after.contains("grdb_migrations [identifier:'v2']")
                && after.contains("grdb_migrations [identifier:'v3']"))
        #expect(try store.places().isEmpty)
        try store.addPlace(name: "Home", category: .home, at: Coordinate(lat: 43.73, lon: 7.42), now: t0)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func aNewStoreHasTheSameSchemaAsAGRDBWrittenOne() throws {
        let old = try Self.copy("v2")
        defer { try? FileManager.default.removeItem(at: old) }
        _ = try SkateStore(dataDir: old)  // migrated to today's schema, as any open does
        let t = try TempStore()
        let schema = { (dir: URL) in try Self.rawDump(dir).filter { $0.hasPrefix("[") || $0.hasPrefix("user_version") || $0.hasPrefix("grdb_migrations") } }
        #expect(try schema(t.dir) == schema(old))
        #expect(try t.store.db.read { try $0.fetchOne(String.self, sql: "PRAGMA journal_mode") } == "wal")
    }
}
