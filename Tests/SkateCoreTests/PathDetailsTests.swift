import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Path details for every plan (issue 26, item 6): intervals over the geometry's point indices,
/// raw OSM surface and smoothness kept by the map, elevation on every geometry point.
@Suite struct PathDetailsTests {
    /// A → B asphalt (way 1000), B → C unhewn cobblestone tagged smoothness=intermediate (way 1001),
    /// rising 5 m over B → C.
    static func map() -> AsciiMap {
        AsciiMap("A-------B-------C", ways: [
            ("AB", ["highway": "residential", "surface": "asphalt", "name": "Smooth Street"]),
            ("BC", ["highway": "residential", "surface": "unhewn_cobblestone", "smoothness": "intermediate", "name": "Old Lane"]),
        ], elevation: { x, _ in 20 + max(0, x - 200) * 0.025 })
    }

    static func json(_ p: RoutePlan) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(PlanFormats.json(p).utf8)) as? [String: Any])
    }

    @Test("details cover the geometry with GraphHopper-style intervals and carry the raw OSM tags")
    func detailsCoverTheGeometry() throws {
        let m = Self.map()
        let p = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["C"]!, mode: .fastMildRoughness)
        let last = p.geometry.count - 1
        for key in PathDetails.keys {
            let iv = p.details[key]
            #expect(!iv.isEmpty, "\(key)")
            #expect(iv.first?.from == 0 && iv.last?.to == last, "\(key): \(iv)")
            for (a, b) in zip(iv, iv.dropFirst()) { #expect(a.to == b.from && a.value != b.value, "\(key): \(iv)") }
        }
        #expect(p.details["way_id"].map(\.value) == [.integer(1000), .integer(1001)])
        // The raw value, not the folded `cobblestone`.
        #expect(p.details["surface"].map(\.value) == [.text("asphalt"), .text("unhewn_cobblestone")])
        #expect(p.details["smoothness"].map(\.value) == [.none, .text("intermediate")])
        #expect(p.details["roughness_source"].allSatisfy { $0.value == .text("tag") })
        #expect(p.details["legality"].map(\.value) == [.text("ok")])
        // The way change sits at B's point.
        let b = p.details["way_id"][0].to
        #expect(Geo.distance(p.geometry[b], m.nodes["B"]!) < 1)
        guard case .number(let g)? = p.details["grade_pct"].last?.value else { Issue.record("no grade"); return }
        #expect(abs(g - 2.5) < 0.6, "grade \(g)")
    }

    @Test("plan JSON carries details per plan and alternative, and [lon, lat, ele] points; GeoJSON steps too")
    func jsonAndGeoJSONCarryElevation() throws {
        let m = Self.map()
        let p = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["C"]!, mode: .smoothest, alternatives: 1)
        let d = try Self.json(p)
        let details = try #require(d["details"] as? [String: Any])
        #expect(Set(details.keys) == Set(PathDetails.keys))
        let ways = try #require(details["way_id"] as? [[Any]])
        #expect(ways.first?.count == 3 && ways.first?[2] as? Int == 1000, "\(ways)")
        let geometry = try #require(d["geometry"] as? [[Double]])
        #expect(geometry.count == p.geometry.count && geometry.allSatisfy { $0.count == 3 })
        #expect(abs(geometry.last![2] - 25) < 1, "end elevation \(geometry.last!)")
        for alt in (d["alternatives"] as? [[String: Any]]) ?? [] { #expect(alt["details"] != nil) }
        // Each step's points are the plan's from its first point on.
        for st in p.steps where st.geometry.count >= 2 {
            for (k, c) in st.geometry.enumerated() { #expect(Geo.distance(c, p.geometry[st.firstPoint + k]) < 0.6, "step \(st.index) point \(k)") }
        }
        let geo = try #require(try JSONSerialization.jsonObject(with: Data(PlanFormats.geojson(p).utf8)) as? [String: Any])
        let features = try #require(geo["features"] as? [[String: Any]])
        let lines = features.compactMap { ($0["geometry"] as? [String: Any]).flatMap { $0["type"] as? String == "LineString" ? $0["coordinates"] as? [[Double]] : nil } }
        #expect(!lines.isEmpty && lines.allSatisfy { $0.allSatisfy { $0.count == 3 } })
    }

    @Test("GeoJSON zone features carry elevation on their cut points too")
    func zoneFeaturesCarryElevation() throws {
        let m = AsciiMap("A---------------B", ways: [("AB", ["highway": "residential", "surface": "asphalt"])],
                         elevation: { x, _ in 50 - 0.09 * min(max(x - 170, 0), 60) })
        let p = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        let geo = try #require(try JSONSerialization.jsonObject(with: Data(PlanFormats.geojson(p).utf8)) as? [String: Any])
        let zones = (geo["features"] as? [[String: Any]] ?? []).filter { ($0["properties"] as? [String: Any])?["kind"] as? String == "braking_zone" }
        let coords = try #require((zones.first?["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        #expect(coords.allSatisfy { $0.count == 3 }, "\(coords)")
        // The zone falls 9 % over its length: its ends read about 50 m and 44.6 m.
        #expect(coords.first![2] - coords.last![2] > 4, "\(coords)")
    }

    @Test("a map without elevation writes [lon, lat] points and grade 0 details")
    func noElevationNoThirdCoordinate() throws {
        let m = AsciiMap("A-------B", ways: [("AB", ["highway": "residential", "surface": "asphalt"])])
        let p = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        let geometry = try #require(try Self.json(p)["geometry"] as? [[Double]])
        #expect(geometry.allSatisfy { $0.count == 2 })
        #expect(p.details["grade_pct"].map(\.value) == [.number(0)])
    }

    @Test("the raw surface and smoothness tags survive the map file (format 8)")
    func rawTagsRoundTrip() throws {
        let m = Self.map().map
        let bytes = try MapFormat.encode(m)
        let back = try bytes.withUnsafeBytes { try MapFormat.decode($0, path: "mem") }
        #expect(MapFormat.version == 8)
        let tags = (0..<back.edgeCount).map { back.surfaceTag(ofEdge: $0) + "/" + back.smoothnessTag(ofEdge: $0) }
        #expect(Set(tags) == ["asphalt/", "unhewn_cobblestone/intermediate"], "\(tags)")
        #expect(back.consistencyProblem() == nil)
    }

    @Test("real Monaco: every plan's way_id details name ways whose raw tags the map kept")
    func bundledMapKeepsRawTags() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        #expect(m.edgeSurfaceTag.count == m.edgeCount && m.edgeSmoothnessTag.count == m.edgeCount)
        let p = try Planner(map: m).plan(from: Coordinate(lat: 43.7276, lon: 7.4143), to: Coordinate(lat: 43.7394, lon: 7.4276), mode: .smoothest)
        #expect(p.details["way_id"].count >= 5)
        #expect(p.details["surface"].contains { $0.value == .text("asphalt") })
        #expect(p.geometryElevation.count == p.geometry.count)
    }
}
