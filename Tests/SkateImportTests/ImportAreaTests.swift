import Foundation
import SkateCore
@testable import SkateImport
import SkateTestSupport
import Testing

/// `--bbox`, `--poly` and DEM tile names, without real data.
@Suite struct ImportAreaTests {
    @Test func tileNamesFollowTheSouthWestCorner() {
        #expect(DEMTiles.name(lat: 49.41, lon: 8.69) == "N49E008")
        #expect(DEMTiles.name(lat: -12.5, lon: -77.1) == "S13W078")
        #expect(DEMTiles.names(covering: BoundingBox(minLon: 7.7, minLat: 49.33, maxLon: 9.1, maxLat: 49.52)) == ["N49E007", "N49E008", "N49E009"])
        #expect(DEMTiles.tileName(ofFile: "/x/n49e008.hgt.zip") == "N49E008")
        #expect(DEMTiles.tileName(ofFile: "copernicus.tif") == nil)
    }

    @Test func bboxParsesOrSaysWhy() throws {
        #expect(try ImportArea.parseBox("49.405,8.685,49.418,8.715").get() == BoundingBox(minLon: 8.685, minLat: 49.405, maxLon: 8.715, maxLat: 49.418))
        for bad in ["49.4,8.6,49.3,8.7", "1,2,3", "a,b,c,d", "91,0,92,1"] {
            guard case .failure(let e) = ImportArea.parseBox(bad) else { Issue.record("\(bad) accepted"); continue }
            #expect(e.description.hasPrefix("--bbox") && !e.description.contains("\n"))
        }
    }

    @Test func polygonFileParsesWithHolesAndRefusesGarbage() throws {
        let text = """
        city
        1
           8.0  49.0
           9.0  49.0
           9.0  50.0
           8.0  50.0
        END
        !hole
           8.4E+00  49.4
           8.6  49.4
           8.6  49.6
        END
        END
        """
        let p = try OsmosisPolygon.parse(text, path: "city.poly")
        #expect(p.rings.count == 2 && p.bounds == BoundingBox(minLon: 8, minLat: 49, maxLon: 9, maxLat: 50))
        #expect(p.contains(lat: 49.2, lon: 8.2))
        #expect(!p.contains(lat: 49.45, lon: 8.55))  // in the hole
        #expect(!p.contains(lat: 50.5, lon: 8.5))
        for (bad, why) in [("city\n1\n 8 49\n 9 49\nEND\nEND\n", "vertices"), ("city\n1\n 8 x\nEND\nEND\n", "not a \"lon lat\""),
                           ("city\n1\n 8 49\n 9 49\n 9 50\n", "no END"), ("", "empty")] {
            #expect(throws: ImportAreaError.self) { try OsmosisPolygon.parse(bad, path: "p") }
            do { _ = try OsmosisPolygon.parse(bad, path: "p") } catch { #expect(error.description.contains(why), "\(error)") }
        }
    }

    @Test func clipperKeepsTheRunsOfWaysInside() {
        struct Sink: OSMHandler {
            var nodes: [Int64] = [], ways: [[Int64]] = []
            mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) { nodes.append(id) }
            mutating func way(id: Int64, refs: [Int64], tags: OSMTags) { ways.append(refs) }
            mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) {}
        }
        var c = AreaClipper(area: .box(BoundingBox(minLon: 0, minLat: 0, maxLon: 1, maxLat: 1)), inner: Sink())
        // 1,2 inside; 3 outside; 4,5 inside; 6 outside.
        for (id, lon) in [(1, 0.1), (2, 0.2), (3, 1.5), (4, 0.4), (5, 0.5), (6, 2.0)] { c.node(id: Int64(id), lat: 0.5, lon: lon, tags: OSMTags()) }
        c.way(id: 10, refs: [1, 2, 3, 4, 5, 6], tags: OSMTags([(key: "highway", value: "residential")]))
        c.way(id: 11, refs: [3, 6], tags: OSMTags())
        #expect(c.inner.nodes == [1, 2, 4, 5])
        #expect(c.inner.ways == [[1, 2], [4, 5]])
        #expect(c.nodesKept == 4 && c.waysKept == 1)
    }

    /// The PBF reader's path: nodes and ways the clipper drops are skipped before their tags are
    /// decoded (`skipsNode`/`skipsWay`), and what reaches the inner handler and the counts are
    /// the same as when every element is offered whole (the XML path above).
    @Test func skippedElementsNeverReachTheInnerHandler() throws {
        struct Sink: OSMHandler {
            var nodes: [Int64] = [], ways: [[Int64]] = [], tags: [String] = []
            mutating func node(id: Int64, lat: Double, lon: Double, tags t: OSMTags) { nodes.append(id); tags += t.pairs.map(\.value) }
            mutating func way(id: Int64, refs: [Int64], tags: OSMTags) { ways.append(refs) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("clip-\(getpid()).osm.pbf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let w = try PBFWriter(path: path, bbox: BoundingBox(minLon: 0, minLat: 0, maxLon: 3, maxLat: 1))
        // Every node tagged, so a skipped node's keys_vals run must be stepped over exactly.
        for (id, lon) in [(1, 0.1), (2, 0.2), (3, 1.5), (4, 0.4), (5, 0.5), (6, 2.0)] {
            try w.node(id: Int64(id), lat: 5_000_000, lon: Int64(lon * 1e7), tags: [(key: "name", value: "n\(id)"), (key: "x", value: "y")])
        }
        try w.way(id: 10, refs: [1, 2, 3, 4, 5, 6], tags: [(key: "highway", value: "residential")])
        try w.way(id: 11, refs: [3, 6], tags: [(key: "highway", value: "residential")])
        try w.finish()
        var c = AreaClipper(area: .box(BoundingBox(minLon: 0, minLat: 0, maxLon: 1, maxLat: 1)), inner: Sink())
        try OSMReader.read(path: path, into: &c)
        #expect(c.inner.nodes == [1, 2, 4, 5])
        #expect(c.inner.tags == ["n1", "y", "n2", "y", "n4", "y", "n5", "y"])
        #expect(c.inner.ways == [[1, 2], [4, 5]])
        #expect(c.nodesSeen == 6 && c.nodesKept == 4 && c.waysSeen == 2 && c.waysKept == 1)
        #expect(c.extractBounds.maxLon == 2.0)
    }

    /// The kept-id store answers as a `Set` would, in its sorted form and after ids arrive out of
    /// order.
    @Test func keptIdsAnswerAsASet() {
        var rng = SplitMix64(seed: 31)
        var ascending = KeptNodeIds(), shuffled = KeptNodeIds(), reference = Set<Int64>()
        var id: Int64 = -50
        for _ in 0..<1_000 {
            id += Int64(rng.next() % 7) + 1
            ascending.insert(id); reference.insert(id)
        }
        for x in reference.shuffled(using: &rng) { shuffled.insert(x) }
        #expect(ascending.count == reference.count && shuffled.count == reference.count)
        for q in Int64(-60)...(id + 10) {
            #expect(ascending.contains(q) == reference.contains(q), "\(q)")
            #expect(shuffled.contains(q) == reference.contains(q), "\(q)")
        }
        #expect(!ascending.containsAny([-1_000, id + 1]) && ascending.containsAny([-1_000, reference.first!]))
    }
}
