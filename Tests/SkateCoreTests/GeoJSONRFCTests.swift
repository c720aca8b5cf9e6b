import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Issue 29 row 10: plan GeoJSON follows RFC 7946 — no `properties` on the FeatureCollection
/// (the plan's figures are the foreign member `skateroute`), and a lift whose ends share one
/// position is a Point, not a zero-length LineString. Checked by `GeoJSONCheck` (test support)
/// and, when python3-shapely is installed, by shapely's `is_valid`.
@Suite struct GeoJSONRFCTests {
    static let origin = Coordinate(lat: 43.74, lon: 7.42)
    static func tags(_ d: [String: String]) -> OSMTags { OSMTags(d.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }) }

    /// Two footways on different levels joined by a lift node (node 2): the lift becomes a 0 m
    /// connector with both ends at the lift's position.
    static func liftMap() -> SkateMap {
        var c = MapCompiler(options: ImportOptions(name: "lift"))
        let proj = LocalProjection(origin: origin)
        for (id, east, t) in [(Int64(1), 0.0, [String: String]()), (2, 60, ["highway": "elevator", "name": "Ascenseur"]), (3, 120, [:])] {
            let p = proj.unproject(x: east, y: 0)
            c.node(id: id, lat: p.lat, lon: p.lon, tags: tags(t))
        }
        c.way(id: 10, refs: [1, 2], tags: tags(["highway": "footway", "surface": "asphalt"]))
        c.way(id: 11, refs: [2, 3], tags: tags(["highway": "footway", "surface": "asphalt", "layer": "-1"]))
        return c.build(dem: nil, sources: ["test"])
    }

    /// shapely's verdict on every feature geometry: nil when python3-shapely is absent.
    static func shapelyInvalidCount(_ geojson: String) throws -> Int? {
        let script = """
        import json, sys
        try:
            from shapely.geometry import shape
        except ImportError:
            print("absent"); sys.exit(0)
        d = json.load(sys.stdin)
        print(sum(0 if shape(f["geometry"]).is_valid else 1 for f in d["features"]))
        """
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        try p.run()
        input.fileHandleForWriting.write(Data(geojson.utf8))
        try input.fileHandleForWriting.close()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        p.waitUntilExit()
        return Int(out)
    }

    @Test func theValidatorCatchesWhatTheRFCForbids() {
        #expect(GeoJSONCheck.problems(#"{"type":"FeatureCollection","features":[],"properties":{}}"#).count == 1)
        let zeroLength = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[7.42,43.74,10],[7.42,43.74,30]]}}]}"#
        #expect(GeoJSONCheck.problems(zeroLength).count == 1)
        #expect(GeoJSONCheck.problems(#"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[200,43]}}"#).count == 1)
        #expect(GeoJSONCheck.problems(#"{"type":"FeatureCollection","skateroute":{},"features":[{"type":"Feature","properties":null,"geometry":{"type":"Point","coordinates":[7.42,43.74]}}]}"#).isEmpty)
    }

    @Test func aLiftIsAPointAndTheCollectionHasNoProperties() throws {
        let map = Self.liftMap()
        let planner = Planner(map: map)
        let proj = LocalProjection(origin: Self.origin)
        let plan = try planner.plan(from: proj.unproject(x: 0, y: 0), to: proj.unproject(x: 120, y: 0), mode: .smoothest)
        let liftSteps = plan.steps.filter { $0.geometry.count >= 2 && !PlanFormatsProbe.distinct($0.geometry) }
        try #require(!liftSteps.isEmpty, "the route rides the lift: \(plan.steps.map(\.geometry.count))")
        let text = PlanFormats.geojson(plan)
        #expect(GeoJSONCheck.problems(text) == [])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(o["properties"] == nil && (o["skateroute"] as? [String: Any])?["mode"] as? String == "smoothest")
        let features = try #require(o["features"] as? [[String: Any]])
        let points = features.filter { ($0["geometry"] as? [String: Any])?["type"] as? String == "Point" }
        #expect(points.count == 1 + liftSteps.count, "the arrival and each lift: \(points)")
        if let invalid = try Self.shapelyInvalidCount(text) { #expect(invalid == 0) }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco), "Maps/monaco.srmap is absent"))
    func monacoPlansWithLiftsAreValid() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        let planner = Planner(map: m)
        // Across Monaco's lifts (nightSafe takes them), and a plain plan with its alternatives.
        let pairs = [(Coordinate(lat: 43.7317, lon: 7.4205), Coordinate(lat: 43.7378, lon: 7.4240), RideMode.nightSafe),
                     (Coordinate(lat: 43.7432, lon: 7.4318), Coordinate(lat: 43.7488, lon: 7.4388), RideMode.smoothest)]
        for (a, b, mode) in pairs {
            let text = PlanFormats.geojson(try planner.plan(from: a, to: b, mode: mode))
            #expect(GeoJSONCheck.problems(text) == [], "\(mode)")
            if let invalid = try Self.shapelyInvalidCount(text) { #expect(invalid == 0, "\(mode)") }
        }
    }
}

/// The distinct-position rule the GeoJSON writer applies, restated for the test.
enum PlanFormatsProbe {
    static func distinct(_ g: [Coordinate]) -> Bool {
        Set(g.map { "\(($0.lon * 1e6).rounded()),\(($0.lat * 1e6).rounded())" }).count >= 2
    }
}
