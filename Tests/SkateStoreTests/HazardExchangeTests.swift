import Foundation
import SkateCore
@testable import SkateStore
import SkateTestSupport
import Testing

/// Hazards between riders (issue 32): export → import, idempotence, merging as a confirmation,
/// foreign files, big and malformed files in one transaction.
@Suite struct HazardExchangeTests {
    let t0 = Date(timeIntervalSince1970: 1_780_000_000)
    let base = Coordinate(lat: 43.7384, lon: 7.4246)

    func store(_ name: String) throws -> (SkateStore, URL) {
        let dir = TestData.temporaryDirectory("hazard-exchange-\(name)")
        return (try SkateStore(dataDir: dir), dir)
    }

    /// `metres` north and east of `base`.
    func at(_ north: Double, _ east: Double) -> Coordinate {
        LocalProjection(origin: base).unproject(x: east, y: north)
    }

    func read(_ json: JSONValue, now: Date) throws -> HazardExchange.Reading {
        try HazardExchange.read(Array(json.text(pretty: false).utf8), now: now)
    }

    @Test func exportThenImportIntoAnEmptyStoreGivesTheSameHazardsWithTheirOrigin() throws {
        let (a, dirA) = try store("a"); defer { try? FileManager.default.removeItem(at: dirA) }
        let (b, dirB) = try store("b"); defer { try? FileManager.default.removeItem(at: dirB) }
        try a.addHazard(HazardReport(kind: .pothole, position: at(0, 0), severity: 3, reporter: "me"), zones: nil, now: t0)
        try a.addHazard(HazardReport(kind: .gravel, position: at(200, 50), severity: 1, reporter: "me"), zones: nil, now: t0)
        try a.addHazard(HazardReport(kind: .rail, position: at(-300, 120), reporter: "me"), zones: nil, now: t0)
        try a.confirmHazard(id: 3, reporter: "pal", now: t0.addingTimeInterval(3_600))
        let now = t0.addingTimeInterval(7_200)
        let shared = try a.shareableHazards(now: now)
        let file = HazardExchange.geoJSON(shared, exportedAt: now).text(pretty: true)
        #expect(!file.contains("\"me\"") && !file.contains("\"pal\"") && !file.contains("reporter"), "no rider identity leaves the machine")
        let reading = try HazardExchange.read(Array(file.utf8), now: now)
        #expect(reading.reports.count == 3 && reading.skippedCount == 0)
        let summary = try b.importHazards(reading.reports, origin: "club", trust: 0.3, now: now)
        #expect(summary == HazardImportSummary(added: 3, confirmed: 0, unchanged: 0, expired: 0))
        let mine = try a.hazards(now: now), theirs = try b.hazards(now: now)
        #expect(theirs.count == 3)
        for (x, y) in zip(mine, theirs) {
            #expect(x.hazard.kind == y.hazard.kind && x.hazard.severity == y.hazard.severity)
            #expect(Geo.distance(x.hazard.position, y.hazard.position) < 0.02)
            #expect(abs(x.hazard.createdAt.timeIntervalSince(y.hazard.createdAt)) < 1)
            #expect(abs(x.hazard.lastConfirmedAt.timeIntervalSince(y.hazard.lastConfirmedAt)) < 1)
            #expect(y.origin == "club" && y.hazard.source == .imported && y.isLive)
            #expect(abs(y.importedEvidence - 0.3) < 1e-9)
            #expect(try b.importOrigins(ofHazard: y.hazard.id) == ["club"])
        }
        // A filter by time and area: only the rail lies south of the base.
        let south = try a.shareableHazards(now: now, area: (south: 43.70, west: 7.40, north: base.lat - 0.0001, east: 7.45))
        #expect(south.map(\.hazard.kind) == [.rail])
        #expect(try a.shareableHazards(now: now, since: t0.addingTimeInterval(1_800)).map(\.hazard.kind) == [.rail])
        // Imported reports are not exported again (no echo back to their origin).
        #expect(try b.shareableHazards(now: now).isEmpty)
    }

    @Test func importingTheSameFileTwiceChangesNothing() throws {
        let (b, dir) = try store("twice"); defer { try? FileManager.default.removeItem(at: dir) }
        let json: JSONValue = .object(["type": .string("FeatureCollection"), "features": .array([
            feature(at(0, 0), kind: "pothole", id: "p1"), feature(at(100, 0), kind: "crack", id: "c1"),
            feature(at(100, 5), kind: "crack", id: "c2"),   // the same crack seen twice in one file
        ])])
        let now = t0
        let first = try b.importHazards(try read(json, now: now).reports, origin: "friend", trust: 0.4, now: now)
        #expect(first == HazardImportSummary(added: 2, confirmed: 1, unchanged: 0, expired: 0))
        let before = try b.hazards(now: now)
        let second = try b.importHazards(try read(json, now: now).reports, origin: "friend", trust: 0.4, now: now)
        #expect(second == HazardImportSummary(added: 0, confirmed: 0, unchanged: 3, expired: 0))
        #expect(try b.hazards(now: now) == before)
        // One origin counts once on a hazard, however many of its reports merged into it.
        #expect(before.map(\.importedEvidence) == [0.4, 0.4])
    }

    @Test func anImportedReportEightMetresFromOursIsAConfirmationAndChangesNothingWeFiled() throws {
        let (b, dir) = try store("merge"); defer { try? FileManager.default.removeItem(at: dir) }
        let mine = try b.addHazard(HazardReport(kind: .pothole, position: at(0, 0), severity: 1, reporter: "me"), zones: nil, now: t0)
        let later = t0.addingTimeInterval(86_400)
        let json: JSONValue = .object(["type": .string("FeatureCollection"), "features": .array([
            feature(at(8, 0), kind: "pothole", id: "x", severity: 3, time: later),
        ])])
        let reading = try read(json, now: later)
        #expect(abs(Geo.distance(reading.reports[0].position, mine.state.hazard.position) - 8) < 0.1)
        let before = try b.hazard(id: mine.state.hazard.id, now: later)
        let summary = try b.importHazards(reading.reports, origin: "club", trust: 0.3, now: later)
        #expect(summary.confirmed == 1 && summary.added == 0)
        let all = try b.hazards(now: later)
        #expect(all.count == 1)
        let after = all[0]
        #expect(after.hazard.id == mine.state.hazard.id && after.hazard.reporter == "me" && after.hazard.source == .cli)
        #expect(after.hazard.severity == 1 && after.hazard.position == mine.state.hazard.position && after.hazard.kind == .pothole)
        #expect(after.origin == "" && abs(after.importedEvidence - 0.3) < 1e-9)
        #expect(after.confidence > before.confidence, "\(after.confidence) vs \(before.confidence)")
        #expect(after.hazard.lastConfirmedAt == later, "the confirmation extends its life")
        // A report of another kind at the same place is a hazard of its own.
        let other = try read(.object(["type": .string("FeatureCollection"), "features": .array([feature(at(8, 0), kind: "gravel", id: "g")])]), now: later)
        #expect(try b.importHazards(other.reports, origin: "club", trust: 0.3, now: later).added == 1)
    }

    @Test func foreignGeoJSONWithAKindPropertyImportsAndExpiredReportsDoNot() throws {
        let (b, dir) = try store("foreign"); defer { try? FileManager.default.removeItem(at: dir) }
        let text = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":17,"geometry":{"type":"Point","coordinates":[7.4246,43.7384]},"properties":{"kind":"Glass"}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[7.4300,43.7400]},"properties":{"kind":"wet","time":"2026-05-01T08:00:00Z"}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[7.4310,43.7410]},"properties":{"kind":"unicorn","severity":1}}
        ]}
        """
        let now = Date(timeIntervalSince1970: try #require(ISO8601Time.parseDateOrDateTime("2026-05-04T08:00:00Z")))
        let reading = try HazardExchange.read(Array(text.utf8), now: now)
        #expect(reading.reports.map(\.kind) == [.debris, .wet, .other])
        #expect(reading.reports[0].externalId == "17" && reading.reports[0].createdAt == now)
        let s = try b.importHazards(reading.reports, origin: "osm-notes", trust: 0.2, now: now)
        #expect(s == HazardImportSummary(added: 2, confirmed: 0, unchanged: 0, expired: 1), "a 3-day-old wet patch has dried")
        // Without ids, the same file still re-imports to nothing (ids from kind, place and time).
        #expect(try b.importHazards(HazardExchange.read(Array(text.utf8), now: now).reports, origin: "osm-notes", trust: 0.2, now: now).unchanged == 2)
        #expect(throws: HazardExchange.FileError.notFeatureCollection) { try HazardExchange.read(Array("{\"type\":\"Feature\"}".utf8), now: now) }
        #expect(throws: HazardExchange.FileError.notJSON) { try HazardExchange.read(Array("not json".utf8), now: now) }
    }

    @Test func tenThousandReportsAndMalformedFeaturesOneSummaryAndNothingHalfWritten() throws {
        let (b, dir) = try store("big"); defer { try? FileManager.default.removeItem(at: dir) }
        var features: [JSONValue] = []
        for i in 0..<10_000 {   // a 100 × 100 grid 25 m apart: no two merge
            features.append(feature(at(Double(i / 100) * 25, Double(i % 100) * 25), kind: "crack", id: "c\(i)"))
        }
        features += [
            .object(["type": .string("Feature"), "geometry": .object(["type": .string("LineString"), "coordinates": .array([])]), "properties": .object(["kind": .string("crack")])]),
            .object(["type": .string("Feature"), "geometry": .object(["type": .string("Point"), "coordinates": .array([.number(7.4), .number(95)])]), "properties": .object(["kind": .string("crack")])]),
            .object(["type": .string("Feature"), "geometry": .object(["type": .string("Point"), "coordinates": .array([.number(7.4), .number(43.7)])]), "properties": .object([:])]),
            .object(["type": .string("Feature"), "geometry": .object(["type": .string("Point"), "coordinates": .array([.number(7.4), .number(43.7)])]), "properties": .object(["kind": .string("crack"), "severity": .int(9)])]),
            .string("junk"),
        ]
        let reading = try read(.object(["type": .string("FeatureCollection"), "features": .array(features)]), now: t0)
        #expect(reading.reports.count == 10_000 && reading.features == 10_005)
        #expect(reading.skippedLine == "skipped 5 of 10005 features: 1 not a Feature, 1 not a Point, 1 with a severity outside 1…3, 1 without a kind, 1 without a valid position")
        // A report the database refuses (severity 9 past the reader) fails the whole import: nothing written.
        var bad = reading.reports
        bad[5_000].severity = 9
        #expect(throws: (any Error).self) { try b.importHazards(bad, origin: "club", trust: 0.3, now: t0) }
        #expect(try b.hazards(now: t0).isEmpty)
        let s = try b.importHazards(reading.reports, origin: "club", trust: 0.3, now: t0)
        #expect(s.added == 10_000)
        #expect(try b.hazards(now: t0).count == 10_000)
    }

    func feature(_ p: Coordinate, kind: String, id: String, severity: Int = 2, time: Date? = nil) -> JSONValue {
        var props: JSONObject = ["kind": .string(kind), "severity": .int(Int64(severity)), "report_id": .string(id)]
        if let time { props["created_at"] = .string(ISO8601Time.format(time.timeIntervalSince1970)) }
        return .object(["type": .string("Feature"), "geometry": .object(["type": .string("Point"), "coordinates": .array([.number(p.lon), .number(p.lat)])]),
                        "properties": .object(props)])
    }
}
