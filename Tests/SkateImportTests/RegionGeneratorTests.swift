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
        #expect(counts.nodes == 4 * source.nodeCount + summary.joins.reduce(0) { $0 + $1.shapeNodes })
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

        // Every seeded pair drawn as `bench --scale` draws them (ends on rideable edges of the
        // main network, at most 20 km apart) whose ends lie in different tiles routes, in every
        // mode: the tiles are one network, not four the main-network test lets through.
        let planner = Planner(map: map)
        let edges = (0..<map.edgeCount).filter { planner.components.isMain(edge: $0) && map.isRideable(edge: $0) }
        func tile(_ c: Coordinate) -> Int? {
            (0..<layout.tileCount).first { t in
                let b = layout.box(ofTile: t, source: source)
                return c.lat >= b.minLat && c.lat <= b.maxLat && c.lon >= b.minLon && c.lon <= b.maxLon
            }
        }
        var rng = SplitMix64(seed: 31)
        var pairs: [(Coordinate, Coordinate)] = []
        for _ in 0..<10_000 where pairs.count < Self.crossTilePairs {
            let a = map.coordinate(ofNode: Int(map.edgeFrom[edges[Int(rng.next() % UInt64(edges.count))]]))
            let b = map.coordinate(ofNode: Int(map.edgeTo[edges[Int(rng.next() % UInt64(edges.count))]]))
            if tile(a) != tile(b), Geo.distance(a, b) <= 20_000 { pairs.append((a, b)) }
        }
        #expect(pairs.count == Self.crossTilePairs)
        for mode in RideMode.allCases {
            for (a, b) in pairs {
                #expect(throws: Never.self, "\(mode) from \(a) to \(b)") { try planner.plan(from: a, to: b, mode: mode) }
            }
        }
    }

    /// Cross-tile pairs routed per mode in the 2 × 2 region.
    static let crossTilePairs = 6

    /// The joins of the whole Heidelberg extract, whose box reaches far beyond its streets (a
    /// trunk road's pieces run 60 km west): every step of every joining way is one the importer
    /// keeps (`MapCompiler.maxSegmentLength`; it cuts longer steps as broken data, and the tiles
    /// then fell apart into networks of their own), and the joins between tiles stacked north to
    /// south, where the streets nearly reach the box, stay short.
    @Test func joinsOfAWholeExtractAreKeptByTheImporter() throws {
        let source = try RegionSource.read(path: TestData.heidelbergPBF)
        let dir = TestData.temporaryDirectory("region")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("region-2x2.osm.pbf").path
        let summary = try RegionGenerator.write(source, k: 2, columns: 2, to: path)
        let layout = summary.layout
        var ways = JoinWays()
        try OSMReader.read(path: path, into: &ways)
        var nodes = NodesOf(wanted: Set(ways.refs.values.flatMap { $0 }))
        try OSMReader.read(path: path, into: &nodes)
        #expect(ways.refs.count == summary.joins.count && summary.joins.count >= 4)
        for j in summary.joins {
            let refs = try #require(ways.refs[j.wayId])
            let points = refs.compactMap { nodes.at[$0] }
            #expect(points.count == refs.count, "join \(j.wayId) names nodes the file does not hold")
            for (p, q) in zip(points, points.dropFirst()) {
                #expect(Geo.distance(p, q) <= MapCompiler.maxSegmentLength, "join \(j.wayId) has a \(Int(Geo.distance(p, q))) m step")
            }
            if layout.position(ofTile: j.fromTile).column == layout.position(ofTile: j.toTile).column {
                #expect(j.lengthM < Self.northSouthJoinMetres, "join \(j.wayId) between tiles \(j.fromTile) and \(j.toTile) is \(Int(j.lengthM)) m")
            }
        }
    }

    /// Heidelberg's joinable streets end ~0.6 km inside its box's north side and ~3.4 km inside
    /// its south side: its north–south joins are 4.8–6.2 km, and were 18–23 km.
    static let northSouthJoinMetres = 8_000.0

    struct JoinWays: OSMHandler {
        var refs: [Int64: [Int64]] = [:]
        mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {}
        mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {
            if tags["name"]?.hasPrefix(RegionGenerator.joinName) == true { self.refs[id] = refs }
        }
    }

    struct NodesOf: OSMHandler {
        let wanted: Set<Int64>
        var at: [Int64: Coordinate] = [:]
        mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {
            if wanted.contains(id) { at[id] = Coordinate(lat: lat, lon: lon) }
        }
        mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {}
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
