import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Issue 31's generated region: K × K copies of real Heidelberg written as a PBF by the project's
/// own writer, imported like any extract, routable across the tiles' borders.
@Suite(.enabled(if: TestData.available, TestData.skip))
struct RegionGeneratorTests {
    /// Bergheim and the Altstadt (the area import's test box): real streets, small enough that
    /// four copies import in seconds in a debug build.
    static let crop = BoundingBox(minLon: 8.680, minLat: 49.400, maxLon: 8.722, maxLat: 49.420)

    @Test func a2x2RegionImportsAndRoutesFromTile00To11OverAJoin() throws {
        let source = try RegionSource.read(path: TestData.heidelbergPBF, crop: Self.crop)
        #expect(source.nodeCount > 1_000 && source.roadNodeCount > 500, "\(source.nodeCount) nodes, \(source.roadNodeCount) road nodes")
        let dir = TestData.temporaryDirectory("region")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("region-2.osm.pbf").path
        let summary = try RegionGenerator.write(source, k: 2, columns: 2, to: path)
        let layout = summary.layout
        #expect(layout.rows == 2 && layout.columns == 2)

        // The file reads back whole: four copies of every element plus the joins.
        let counts = try OSMReader.countElements(path: path)
        #expect(counts.nodes == 4 * source.nodeCount)
        #expect(counts.ways == 4 * source.wayCount + summary.joins.count)
        #expect(counts.relations == 4 * source.relationCount)
        // Four shared borders in a 2 × 2 grid, a few joins each, none of them long.
        #expect(summary.joins.count >= 4 && summary.joins.count <= 4 * RegionGenerator.joinsPerBorder)
        for j in summary.joins { #expect(j.lengthM < 1_000, "join \(j.wayId) is \(j.lengthM) m") }

        // Tiles abut: tile (1, 1) starts where tile (0, 0) ends, one box up and one box right.
        let t00 = try #require(layout.tile(row: 0, column: 0)), t11 = try #require(layout.tile(row: 1, column: 1))
        let b00 = layout.box(ofTile: t00, source: source), b11 = layout.box(ofTile: t11, source: source)
        #expect(abs(b11.minLat - b00.maxLat) < 1e-7 && abs(b11.minLon - b00.maxLon) < 1e-7)
        #expect(b00.minLat >= RegionLayout.demSouth && b00.minLon >= RegionLayout.demWest)

        let (map, _) = try MapImporter.compile(ImportRequest(osmPath: path, options: ImportOptions(name: "Region 2")))

        // Bismarckplatz in tile (0, 0) to Karlstor in tile (1, 1).
        let from = layout.coordinate(Coordinate(lat: 49.4093, lon: 8.6933), inTile: t00)
        let to = layout.coordinate(Coordinate(lat: 49.4128, lon: 8.7147), inTile: t11)
        let plan = try Planner(map: map).plan(from: from, to: to, mode: .smoothest)
        #expect(Geo.distance(plan.geometry.first!, from) < 100 && Geo.distance(plan.geometry.last!, to) < 100)
        let ways = Set(plan.details["way_id"].compactMap { i -> Int64? in if case .integer(let id) = i.value { return id } else { return nil } })
        let joinIds = Set(summary.joins.map(\.wayId))
        #expect(!ways.isDisjoint(with: joinIds), "the route uses none of the \(joinIds.count) joining ways")
    }

    @Test func tilesFillColumnsInsideTheDEMAndIdsNeverCollide() throws {
        let source = try RegionSource.read(path: TestData.heidelbergPBF, crop: Self.crop)
        let dir = TestData.temporaryDirectory("region")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("region-3.osm.pbf").path
        let summary = try RegionGenerator.write(source, k: 3, to: path)
        let layout = summary.layout
        // Nine small tiles fit one column inside the DEM's four degrees of latitude.
        #expect(layout.columns == 1 && layout.rows == 9)
        for t in 0..<layout.tileCount {
            let b = layout.box(ofTile: t, source: source)
            #expect(b.maxLat <= RegionLayout.demNorth && b.minLon >= RegionLayout.demWest)
        }
        #expect(layout.idStride > 2 * (source.nodeIds.map { abs($0) }.max() ?? 0))
        // Every id once per kind: the importer would silently merge colliding nodes.
        var ids = IdCollector()
        try OSMReader.read(path: path, into: &ids)
        #expect(ids.nodes.count == 9 * source.nodeCount && ids.duplicates == 0)
        #expect(ids.sorted, "ids are not ascending within a kind")
    }

    struct IdCollector: OSMHandler {
        var nodes = Set<Int64>(), ways = Set<Int64>()
        var duplicates = 0
        var sorted = true
        var last: Int64 = .min, lastWay: Int64 = .min
        mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {
            if !nodes.insert(id).inserted { duplicates += 1 }
            if id <= last { sorted = false }
            last = id
        }
        mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {
            if !ways.insert(id).inserted { duplicates += 1 }
            if id <= lastWay { sorted = false }
            lastWay = id
        }
    }
}
