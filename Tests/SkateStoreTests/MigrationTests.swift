import Foundation
import SkateCore
@testable import SkateStore
import SkateTestSupport
import Testing

/// Upgrading a store written by the previous schema (v1: hazards, votes, reporters, surface
/// observations) keeps every row and adds the rider's tables.
@Suite struct MigrationTests {
    /// Every row of the v1 tables, as text, in a fixed order.
    static func dumpV1(_ store: SkateStore) throws -> [String] {
        try store.db.read { db in
            var out: [String] = []
            for (table, order) in [("hazard", "id"), ("hazardVote", "hazardId, reporter"), ("reporter", "name"), ("surfaceObservation", "id")] {
                for row in try db.fetchAll(sql: "SELECT * FROM \(table) ORDER BY \(order)") {
                    out.append("\(table): \(row.description)")
                }
            }
            return out
        }
    }

    @Test func v1StoreKeepsEveryHazardAndMeasurement() throws {
        let dir = TestData.temporaryDirectory("skatestore-migrate")
        defer { try? FileManager.default.removeItem(at: dir) }
        let edge = EdgeKey(wayId: 42, fromNode: 1, toNode: 2)
        var before: [String] = []
        var hazardsBefore: [HazardState] = []
        do {
            // Written by today's code with only the v1 migration applied, as a v1 release left it.
            let old = try SkateStore(dataDir: dir, migratingUpTo: "v1")
            #expect(try old.storedSchemaVersion() == 1)
            let kinds: [HazardKind] = [.wet, .pothole, .gravel]
            for (i, kind) in kinds.enumerated() {
                let at = Coordinate(lat: 43.73 + Double(i) * 0.001, lon: 7.42)
                let change = try old.addHazard(HazardReport(kind: kind, position: at, severity: i + 1, reporter: "r\(i)"), zones: nil, now: t0)
                _ = try old.confirmHazard(id: change.state.hazard.id, reporter: "other", now: t0 + minute)
            }
            try old.rate(edge, rating: .crusty, reporter: "r0", now: t0)
            try old.recordMeasurements([(edge, 0.21), (EdgeKey(wayId: 43, fromNode: 2, toNode: 3), 0.07)], at: t0 + hour)
            before = try Self.dumpV1(old)
            hazardsBefore = try old.hazards(now: t0 + hour)
            let tables = try old.db.read { db in try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
            #expect(!tables.contains("savedPlace"))
        }
        #expect(before.count >= 3 + 3 + 2 + 3, "the v1 store holds hazards, votes, reporters and observations")
        let upgraded = try SkateStore(dataDir: dir)
        #expect(try upgraded.storedSchemaVersion() == SkateStore.schemaVersion)
        #expect(try Self.dumpV1(upgraded) == before)
        #expect(try upgraded.hazards(now: t0 + hour) == hazardsBefore)
        let surface = try upgraded.surface(of: edge, now: t0 + hour)
        #expect(surface.measured != nil && surface.rating != nil)
        #expect(try upgraded.integrityCheck() == "ok")
        // The new tables work on the upgraded file.
        try upgraded.addPlace(name: "Home", category: .home, at: Coordinate(lat: 43.73, lon: 7.42), now: t0)
        #expect(try upgraded.places().map(\.name) == ["Home"])
        // A second open migrates nothing and loses nothing.
        let again = try SkateStore(dataDir: dir)
        #expect(try Self.dumpV1(again) == before)
        #expect(try again.places().count == 1)
    }
}
