import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Bad DEM files: one line naming the file and the problem, never a crash (issue 11, "Bad input").
@Suite("Bad DEM input")
struct DEMBadInputTests {
    /// Extra metres two imports of the same streets may differ by when their DEM layers have
    /// different cells: `GroundModel` measures roofed shares per layer (measured: 6.2 − 5 m on Monaco).
    static let groundModelLayerSlack = 2.0

    /// A 4 × 3 grid of plausible heights.
    static let tiny: [Float] = [10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33]

    /// Loads `path` expecting an `ImportError` that names the file and mentions `needle`.
    static func expectRefused(_ path: String, mentioning needle: String, window: BoundingBox? = nil,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try DEMReader.load(path: path, window: window)
            Issue.record("\(path) should be refused", sourceLocation: sourceLocation)
        } catch let e as ImportError {
            #expect(e.path == path, sourceLocation: sourceLocation)
            #expect(!e.description.contains("\n"), "\(e)", sourceLocation: sourceLocation)
            #expect(e.problem.contains(needle), "\(e)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func filesThatAreNotDEMs() throws {
        let dir = TestData.temporaryDirectory("dem-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = dir.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
        let noise = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }
        Self.expectRefused(try file("noise.tif", noise), mentioning: "not a TIFF")
        Self.expectRefused(try file("noise.asc", noise), mentioning: "not an ESRI ASCII grid")
        Self.expectRefused(try file("noise.dat", noise), mentioning: "not a DEM")
        Self.expectRefused(try file("empty.asc", []), mentioning: "empty")
        Self.expectRefused(try file("readme.asc", Array("hello world\n".utf8)), mentioning: "not an ESRI ASCII grid")
        // A truncated TIFF: a valid header pointing past the end.
        Self.expectRefused(try file("cut.tif", [0x49, 0x49, 0x2A, 0x00, 0x00, 0x10, 0x00, 0x00]), mentioning: "not a TIFF")
        Self.expectRefused(dir.appendingPathComponent("missing.tif").path, mentioning: "no such file")
        // ASCII grids with broken headers or data.
        let header = "ncols 4\nnrows 3\nxllcorner 7.4\nyllcorner 43.7\ncellsize 0.001\n"
        Self.expectRefused(try file("short.asc", Array((header + "1 2 3 4\n5 6 7\n").utf8)), mentioning: "ends after 7 of 12 values")
        Self.expectRefused(try file("word.asc", Array((header + "1 2 3 4\n5 six 7 8\n9 10 11 12\n").utf8)), mentioning: "bad value at row 2, column 2")
        Self.expectRefused(try file("nocell.asc", Array("ncols 4\nnrows 3\nxllcorner 7.4\nyllcorner 43.7\n1 2 3 4 5 6 7 8 9 10 11 12\n".utf8)), mentioning: "cellsize")
        Self.expectRefused(try file("zero.asc", Array("ncols 0\nnrows 3\nxllcorner 7.4\nyllcorner 43.7\ncellsize 0.001\n".utf8)), mentioning: "not a usable DEM")
        Self.expectRefused(try file("negative.asc", Array((header.replacingOccurrences(of: "0.001", with: "-0.001") + "1 2 3 4 5 6 7 8 9 10 11 12").utf8)), mentioning: "positive")
    }

    @Test func plainTIFFWithoutGeoreferencing() throws {
        let dir = TestData.temporaryDirectory("dem-plain")
        defer { try? FileManager.default.removeItem(at: dir) }
        var plain = TestDEMFiles.GeoTIFF(width: 4, height: 3, values: Self.tiny, georeference: .none)
        plain.modelType = nil
        let path = dir.appendingPathComponent("photo.tif").path
        try TestDEMFiles.write(plain, to: path)
        Self.expectRefused(path, mentioning: "no GeoTIFF georeferencing")
        // GeoKeys saying WGS84, but no tie point or transformation.
        let keysOnly = dir.appendingPathComponent("keys-only.tif").path
        try TestDEMFiles.write(TestDEMFiles.GeoTIFF(width: 4, height: 3, values: Self.tiny, georeference: .none), to: keysOnly)
        Self.expectRefused(keysOnly, mentioning: "no georeferencing")
        // A tie point but no GeoKeys: the CRS is unknown.
        var noKeys = TestDEMFiles.GeoTIFF(width: 4, height: 3, values: Self.tiny, georeference: .tiepoint(lon: 7.4, lat: 43.8, scaleX: 0.001, scaleY: 0.001))
        noKeys.modelType = nil
        let noKeysPath = dir.appendingPathComponent("no-keys.tif").path
        try TestDEMFiles.write(noKeys, to: noKeysPath)
        Self.expectRefused(noKeysPath, mentioning: "no GeoKeys")
        // The same grid properly georeferenced as 8-bit samples reads: pixel-is-area puts value 10 at pixel (0, 0)'s centre.
        var bytes = TestDEMFiles.GeoTIFF(width: 4, height: 3, values: Self.tiny, georeference: .tiepoint(lon: 7.4, lat: 43.8, scaleX: 0.001, scaleY: 0.001))
        bytes.sampleType = .uint8
        let u8 = dir.appendingPathComponent("u8.tif").path
        try TestDEMFiles.write(bytes, to: u8)
        let grid = try DEMReader.load(path: u8)
        #expect(try #require(grid.elevation(lat: 43.8 - 0.0005, lon: 7.4 + 0.0005)) == 10)
    }

    @Test func otherCoordinateSystems() throws {
        let dir = TestData.temporaryDirectory("dem-crs")
        defer { try? FileManager.default.removeItem(at: dir) }
        // UTM zone 32N in metres.
        var utm = TestDEMFiles.GeoTIFF(width: 4, height: 3, values: Self.tiny, georeference: .tiepoint(lon: 360_000, lat: 4_850_000, scaleX: 25, scaleY: 25))
        utm.modelType = 1; utm.projectedType = 32632
        let utmPath = dir.appendingPathComponent("utm.tif").path
        try TestDEMFiles.write(utm, to: utmPath)
        Self.expectRefused(utmPath, mentioning: "projected CRS EPSG:32632")
        // NAD83 lon/lat: geographic, but not WGS84.
        var nad83 = TestDEMFiles.GeoTIFF(width: 4, height: 3, values: Self.tiny, georeference: .tiepoint(lon: -122.5, lat: 37.8, scaleX: 0.001, scaleY: 0.001))
        nad83.geographicType = 4269
        let nadPath = dir.appendingPathComponent("nad83.tif").path
        try TestDEMFiles.write(nad83, to: nadPath)
        Self.expectRefused(nadPath, mentioning: "EPSG:4269, not WGS84")
        // An ASCII grid in metres (no .prj): the extent is no lon/lat.
        let metres = dir.appendingPathComponent("metres.asc").path
        try TestDEMFiles.writeASCIIGrid(to: metres, width: 4, height: 3, values: Self.tiny, west: 360_000, south: 4_850_000, cellSize: 25)
        Self.expectRefused(metres, mentioning: "not WGS84 longitude/latitude")
        // An ASCII grid in degrees but with a .prj naming a projected CRS (as GDAL writes it).
        let projected = dir.appendingPathComponent("lambert.asc").path
        try TestDEMFiles.writeASCIIGrid(to: projected, width: 4, height: 3, values: Self.tiny, west: 7.4, south: 43.7, cellSize: 0.001)
        try #"PROJCS["RGF93 v1 / Lambert-93",GEOGCS["RGF93 v1",DATUM["Reseau_Geodesique_Francais_1993_v1"]]]"#
            .write(toFile: dir.appendingPathComponent("lambert.prj").path, atomically: true, encoding: .utf8)
        Self.expectRefused(projected, mentioning: "projected CRS")
        let other = dir.appendingPathComponent("ed50.asc").path
        try TestDEMFiles.writeASCIIGrid(to: other, width: 4, height: 3, values: Self.tiny, west: 7.4, south: 43.7, cellSize: 0.001)
        try #"GEOGCS["ED50",DATUM["European_Datum_1950",SPHEROID["International 1924",6378388,297]]]"#
            .write(toFile: dir.appendingPathComponent("ed50.prj").path, atomically: true, encoding: .utf8)
        Self.expectRefused(other, mentioning: "other than WGS84")
        // …and a WGS84 .prj is accepted.
        let fine = dir.appendingPathComponent("wgs84.asc").path
        try TestDEMFiles.writeASCIIGrid(to: fine, width: 4, height: 3, values: Self.tiny, west: 7.4, south: 43.7, cellSize: 0.001)
        try #"GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]"#
            .write(toFile: dir.appendingPathComponent("wgs84.prj").path, atomically: true, encoding: .utf8)
        #expect(try DEMReader.load(path: fine).elevation(lat: 43.7015, lon: 7.4015) != nil)
    }

    @Test func gridOutsideTheMapWindow() throws {
        let dir = TestData.temporaryDirectory("dem-far")
        defer { try? FileManager.default.removeItem(at: dir) }
        let far = dir.appendingPathComponent("heidelberg.asc").path
        try TestDEMFiles.writeASCIIGrid(to: far, width: 4, height: 3, values: Self.tiny, west: 8.69, south: 49.41, cellSize: 0.001)
        let monaco = BoundingBox(minLon: 7.40, minLat: 43.72, maxLon: 7.44, maxLat: 43.76)
        Self.expectRefused(far, mentioning: "does not cover the map", window: monaco)
        // Several files: the one elsewhere is skipped, the other answers.
        let near = dir.appendingPathComponent("monaco.asc").path
        try TestDEMFiles.writeASCIIGrid(to: near, width: 4, height: 3, values: Self.tiny, west: 7.39, south: 43.71, cellSize: 0.02)
        let both = try CompositeDEM.load(paths: [far, near], window: monaco)
        #expect(both.skipped == [far] && both.layers.map(\.path) == [near])
    }

    @Test func voidsAndImplausibleValuesAreFilled() throws {
        let dir = TestData.temporaryDirectory("dem-void")
        defer { try? FileManager.default.removeItem(at: dir) }
        var v: [Float] = (0..<64).map { Float($0 % 8) * 10 }  // a plane rising east, 10 m per column
        v[27] = .nan           // written as NODATA
        v[28] = -3.4e38        // float "no data" without the tag
        var spec = TestDEMFiles.GeoTIFF(width: 8, height: 8, values: v, georeference: .tiepoint(lon: 7.4, lat: 43.8, scaleX: 0.001, scaleY: 0.001))
        spec.sampleType = .float32; spec.nodata = "-32768"
        let path = dir.appendingPathComponent("voids.tif").path
        try TestDEMFiles.write(spec, to: path)
        let grid = try #require(try DEMReader.load(path: path) as? GeoGrid)
        #expect(grid.voidCount == 2 && grid.filledCount == 2)
        let filled = try #require(grid.sample(x: 3, y: 3)), filled2 = try #require(grid.sample(x: 4, y: 3))
        #expect(abs(filled - 30) <= 10 && abs(filled2 - 40) <= 10, "\(filled), \(filled2)")
    }
}

/// Several `--dem` files at once: the finest resolution wins where they overlap.
@Suite("Composite DEM")
struct CompositeDEMTests {
    /// A flat grid of `height` metres over the box, `cell` degrees apart.
    static func flat(_ height: Float, west: Double, south: Double, cells: Int, cell: Double, dir: URL, name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try TestDEMFiles.writeASCIIGrid(to: path, width: cells, height: cells, values: [Float](repeating: height, count: cells * cells),
                                        west: west, south: south, cellSize: cell)
        return path
    }

    @Test func finestAnswersWhereTheyOverlapAndOrderDoesNotMatter() throws {
        let dir = TestData.temporaryDirectory("dem-stack")
        defer { try? FileManager.default.removeItem(at: dir) }
        let coarse = try Self.flat(100, west: 7.0, south: 43.0, cells: 50, cell: 0.02, dir: dir, name: "coarse.asc")   // ~1.9 km cells
        let fine = try Self.flat(7, west: 7.40, south: 43.70, cells: 100, cell: 0.0005, dir: dir, name: "fine.asc")      // ~50 m cells
        let inFine = (lat: 43.72, lon: 7.42), outside = (lat: 43.5, lon: 7.5)
        for order in [[coarse, fine], [fine, coarse]] {
            let dem = try CompositeDEM.load(paths: order, window: nil)
            #expect(dem.layers.map(\.path) == [fine, coarse])
            #expect(dem.elevation(lat: inFine.lat, lon: inFine.lon) == 7)
            #expect(dem.elevation(lat: outside.lat, lon: outside.lon) == 100)
            #expect(dem.elevation(lat: 10, lon: 10) == nil)
        }
        // Equal resolutions: the first given wins.
        let twin = try Self.flat(55, west: 7.40, south: 43.70, cells: 100, cell: 0.0005, dir: dir, name: "twin.asc")
        #expect(try CompositeDEM.load(paths: [twin, fine], window: nil).elevation(lat: inFine.lat, lon: inFine.lon) == 55)
        #expect(try CompositeDEM.load(paths: [fine, twin], window: nil).elevation(lat: inFine.lat, lon: inFine.lon) == 7)
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func fineGridOverSRTMInAMonacoImport() throws {
        let dir = TestData.temporaryDirectory("dem-stack-import")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 1" patch over Fontvieille and the Rock: the SRTM surface raised by 30 m, so the import shows
        // which layer answered while grades inside stay those of the terrain.
        let tile = try SRTMTile(path: TestData.monacoDEMFilled)
        let (west, south, cells, cell) = (7.410, 43.725, 60, 1.0 / 3600)
        let raise = 30.0
        var values: [Float] = []
        for r in 0..<cells {
            for c in 0..<cells {
                let lat = south + Double(cells - 1 - r) * cell, lon = west + Double(c) * cell
                values.append(Float(try #require(tile.elevation(lat: lat, lon: lon)) + raise))
            }
        }
        let patch = dir.appendingPathComponent("patch.asc").path
        try TestDEMFiles.writeASCIIGrid(to: patch, width: cells, height: cells, values: values, west: west, south: south, cellSize: cell, corner: false)

        // Raw: the composite answers from the patch inside it, from the tile elsewhere, whatever the order.
        let east = west + Double(cells - 1) * cell, north = south + Double(cells - 1) * cell
        let margin = 0.001  // ~100 m: keep clear of the patch's edge
        func inside(_ c: Coordinate) -> Bool { c.lat > south + margin && c.lat < north - margin && c.lon > west + margin && c.lon < east - margin }
        func outside(_ c: Coordinate) -> Bool { c.lat < south - margin || c.lat > north + margin || c.lon < west - margin || c.lon > east + margin }
        let (m, stats) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [TestData.monacoDEMFilled, patch], options: ImportOptions(name: "Monaco"))
        #expect(stats.edgesWithElevation == m.edgeCount)
        for order in [[TestData.monacoDEMFilled, patch], [patch, TestData.monacoDEMFilled]] {
            let dem = try CompositeDEM.load(paths: order, window: nil)
            #expect(dem.layers.first?.path == patch)
            for n in 0..<m.nodeCount {
                let c = m.coordinate(ofNode: n)
                let z = try #require(dem.elevation(lat: c.lat, lon: c.lon)), srtm = try #require(tile.elevation(lat: c.lat, lon: c.lon))
                if inside(c) { #expect(abs(z - srtm - raise) < 0.5, "node \(n): \(z) vs \(srtm)") }
                if outside(c) { #expect(z == srtm) }
            }
        }
        // Through the import: graph nodes inside the patch sit ~30 m above the SRTM-only import, those outside do not move.
        // The import smooths heights along streets over about one DEM cell (`TerrainConditioning`),
        // so the patch's artificial 30 m cliff blurs a few hundred metres: compare well inside/outside.
        let importMargin = 0.003  // ~300 m
        func wellInside(_ c: Coordinate) -> Bool { c.lat > south + importMargin && c.lat < north - importMargin && c.lon > west + importMargin && c.lon < east - importMargin }
        func wellOutside(_ c: Coordinate) -> Bool { c.lat < south - importMargin || c.lat > north + importMargin || c.lon < west - importMargin || c.lon > east + importMargin }
        let (plain, _) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [TestData.monacoDEMFilled], options: ImportOptions(name: "Monaco"))
        var raised = 0, kept = 0
        for e in 0..<m.edgeCount {
            guard let z = m.elevationProfile(ofEdge: e).first, let z0 = plain.elevationProfile(ofEdge: e).first else { continue }
            let c = m.coordinate(ofNode: Int(m.edgeFrom[e]))
            if wellInside(c) {
                // 5 m of smoothing, plus up to ~1.2 m because `GroundModel` re-reads roofed posts per
                // layer: the finer patch resolves building outlines the 3″ tile averages.
                #expect(abs(Double(z - z0) - raise) <= 5 + DEMBadInputTests.groundModelLayerSlack, "edge \(e): \(z) vs \(z0)")
                raised += 1
            } else if wellOutside(c) {
                #expect(abs(z - z0) <= 5, "edge \(e): \(z) vs \(z0)")
                kept += 1
            }
        }
        #expect(raised > 50 && kept > 1000, "\(raised) raised, \(kept) kept")
    }
}
