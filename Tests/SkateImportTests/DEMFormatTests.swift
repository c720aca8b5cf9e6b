import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// ESRI ASCII grid and GeoTIFF DEMs against the `.hgt` tiles they were cut from (issue 11 part 2).
@Suite("ASCII grid and GeoTIFF DEMs", .enabled(if: TestData.available, TestData.skip))
struct DEMFormatTests {
    /// Issue 11: `.asc` and `.tif` DEMs give node elevations within 2 m of the `.hgt` import of the same data.
    static let nodeTolerance = 2.0
    /// Where the same samples are read through two formats, interpolation must agree to float precision.
    static let sameDataTolerance = 0.01
    /// One 3" SRTM cell in degrees.
    static let cell = 1.0 / 1200
    /// The GDAL crops: `gdal_translate -projwin 7.35 43.78 7.55 43.70` → 240 × 96 samples, first at 7.35, 43.78.
    static let crop = (west: 7.35, north: 43.78, columns: 240, rows: 96)

    /// The Monaco graph's nodes (compiled without a DEM).
    static let monacoNodes: [Coordinate] = {
        guard let (m, _) = try? MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [], options: ImportOptions(name: "Monaco")) else { return [] }
        return (0..<m.nodeCount).map(m.coordinate(ofNode:))
    }()

    /// Largest and mean |a − b| over the Monaco graph nodes; every node must have both.
    static func compareAtNodes(_ a: any ElevationSource, _ b: any ElevationSource, shiftLat: Double = 0) throws -> (max: Double, mean: Double) {
        #expect(monacoNodes.count > 4_000)
        var worst = 0.0, sum = 0.0
        for c in monacoNodes {
            let x = try #require(a.elevation(lat: c.lat, lon: c.lon), "no height at \(c)")
            let y = try #require(b.elevation(lat: c.lat + shiftLat, lon: c.lon), "no height at \(c)")
            worst = max(worst, abs(x - y)); sum += abs(x - y)
        }
        return (worst, sum / Double(monacoNodes.count))
    }

    @Test func gdalCropsMatchTheirTilesAtTheGraphNodes() throws {
        // SOURCE.txt: the GraphHopper copy has 14 void cells (NODATA −32768) in this crop, pyhgtmap's none.
        let pairs: [(String, String, Int)] = [
            (TestData.monacoDEMZip, TestData.monacoCropASC, 14),
            (TestData.monacoDEMZip, TestData.monacoCropTIF, 14),
            (TestData.monacoDEMFilled, TestData.monacoCropFilledASC, 0),
        ]
        for (hgt, cropPath, voids) in pairs {
            let tile = try SRTMTile(path: hgt)
            let crop = try DEMReader.load(path: cropPath)
            let grid = try #require(crop as? GeoGrid)
            #expect(grid.width == Self.crop.columns && grid.height == Self.crop.rows)
            #expect(grid.voidCount == voids && grid.filledCount == voids, "\(cropPath): \(grid.voidCount) voids")
            #expect(abs(grid.resolutionMetres - tile.resolutionMetres) / tile.resolutionMetres < CompositeDEM.sameResolutionTolerance)
            // The first sample sits ON 7.35 E, 43.78 N (GDAL's corner is 1.5" further out).
            let first = grid.georeference.location(x: 0, y: 0)
            #expect(abs(first.lon - Self.crop.west) < 1e-9 && abs(first.lat - Self.crop.north) < 1e-9, "\(first)")
            let d = try Self.compareAtNodes(tile, crop)
            print("[dem] \(URL(fileURLWithPath: cropPath).lastPathComponent) vs \(URL(fileURLWithPath: hgt).lastPathComponent): max |Δ| \(d.max) m, mean \(d.mean) m over \(Self.monacoNodes.count) nodes")
            #expect(d.max <= Self.nodeTolerance, "\(cropPath): max |Δ| \(d.max) m")
            // The test can fail: reading the crop half a cell off (the corner/centre mix-up) breaks it.
            let shifted = try Self.compareAtNodes(tile, crop, shiftLat: Self.cell / 2)
            #expect(shifted.max > Self.nodeTolerance, "a half-cell shift should be visible on Monaco's slopes (\(shifted.max) m)")
        }
    }

    @Test func endToEndImportsGiveTheSameNodeElevations() throws {
        let options = ImportOptions(name: "Monaco")
        func nodeHeights(_ dem: String) throws -> (SkateMap, [Float]) {
            let (m, stats) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [dem], options: options)
            #expect(stats.edgesWithElevation == m.edgeCount)
            var z = [Float](repeating: .nan, count: m.nodeCount)
            for e in 0..<m.edgeCount {
                let p = m.elevationProfile(ofEdge: e)
                guard let a = p.first, let b = p.last else { continue }
                if z[Int(m.edgeFrom[e])].isNaN { z[Int(m.edgeFrom[e])] = a }
                if z[Int(m.edgeTo[e])].isNaN { z[Int(m.edgeTo[e])] = b }
            }
            return (m, z)
        }
        for (hgt, crops) in [(TestData.monacoDEMZip, [TestData.monacoCropASC, TestData.monacoCropTIF]),
                             (TestData.monacoDEMFilled, [TestData.monacoCropFilledASC])] {
            let (ref, zRef) = try nodeHeights(hgt)
            for crop in crops {
                let (m, z) = try nodeHeights(crop)
                #expect(m.nodeCount == ref.nodeCount && m.edgeCount == ref.edgeCount)
                var worst = 0.0, compared = 0
                for n in 0..<m.nodeCount where !zRef[n].isNaN {
                    #expect(!z[n].isNaN)
                    worst = max(worst, Double(abs(z[n] - zRef[n])))
                    compared += 1
                }
                print("[dem] import with \(URL(fileURLWithPath: crop).lastPathComponent): \(compared) graph nodes, max |Δ| \(worst) m vs \(URL(fileURLWithPath: hgt).lastPathComponent)")
                #expect(compared > 4_000)
                #expect(worst <= Self.nodeTolerance, "\(crop): max |Δ| \(worst) m")
            }
        }
    }

    /// The crop's samples out of the pyhgtmap tile, north row first.
    static func cropValues(_ tile: SRTMTile, rows: Int = crop.rows, columns: Int = crop.columns) throws -> [Float] {
        let row0 = Int(((44 - crop.north) * 1200).rounded()), col0 = Int(((crop.west - 7) * 1200).rounded())
        var v: [Float] = []
        for r in 0..<rows { for c in 0..<columns { v.append(Float(try #require(tile.sample(row: row0 + r, column: col0 + c)))) } }
        return v
    }

    /// Every supported layout read back equals the tile it was written from, at each sample and between them.
    @Test func geoTIFFLayoutsAndConventions() throws {
        let tile = try SRTMTile(path: TestData.monacoDEMFilled)
        let values = try Self.cropValues(tile)
        let dir = TestData.temporaryDirectory("dem-tif")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (w, h, c) = (Self.crop.columns, Self.crop.rows, Self.cell)
        let corner = (lon: Self.crop.west - c / 2, lat: Self.crop.north + c / 2)
        var specs: [(String, TestDEMFiles.GeoTIFF)] = []
        // GDAL's default: pixel-is-area, tie point at the outer corner, float32, tiled, DEFLATE + float predictor.
        var area = TestDEMFiles.GeoTIFF(width: w, height: h, values: values, georeference: .tiepoint(lon: corner.lon, lat: corner.lat, scaleX: c, scaleY: c))
        area.sampleType = .float32; area.tileSize = 64
        specs.append(("area-float32-tiled", area))
        // Pixel-is-point with a ModelTransformation, int16 strips, GDAL_NODATA.
        var point = TestDEMFiles.GeoTIFF(width: w, height: h, values: values,
                                         georeference: .transformation([c, 0, 0, Self.crop.west, 0, -c, 0, Self.crop.north, 0, 0, 0, 0, 0, 0, 0, 1]))
        point.rasterType = .pixelIsPoint; point.nodata = "-32768"
        specs.append(("point-int16-matrix", point))
        // Pixel-is-area via a ModelTransformation, uncompressed.
        var areaMatrix = TestDEMFiles.GeoTIFF(width: w, height: h, values: values,
                                              georeference: .transformation([c, 0, 0, corner.lon, 0, -c, 0, corner.lat, 0, 0, 0, 0, 0, 0, 0, 1]))
        areaMatrix.deflate = false
        specs.append(("area-int16-matrix-raw", areaMatrix))
        for (name, spec) in specs {
            let path = dir.appendingPathComponent("\(name).tif").path
            try TestDEMFiles.write(spec, to: path)
            let grid = try #require(try DEMReader.load(path: path) as? GeoGrid, "\(name)")
            #expect(grid.width == w && grid.height == h && grid.voidCount == 0, "\(name)")
            var worst = 0.0
            for r in stride(from: 0, to: h, by: 7) {
                for col in stride(from: 0, to: w, by: 5) {
                    for (fr, fc) in [(0.0, 0.0), (0.3, 0.6)] where r + 1 < h && col + 1 < w {
                        let lat = Self.crop.north - (Double(r) + fr) * c, lon = Self.crop.west + (Double(col) + fc) * c
                        let a = try #require(tile.elevation(lat: lat, lon: lon)), b = try #require(grid.elevation(lat: lat, lon: lon), "\(name) \(lat),\(lon)")
                        worst = max(worst, abs(a - b))
                    }
                }
            }
            #expect(worst <= Self.sameDataTolerance, "\(name): max |Δ| \(worst) m")
            // Cropped on loading (a window starting inside a tile or strip) it reads the same.
            let window = BoundingBox(minLon: 7.43, minLat: 43.73, maxLon: 7.47, maxLat: 43.75)
            let part = try #require(try DEMReader.load(path: path, window: window) as? GeoGrid)
            #expect(part.width < w && part.height < h)
            for (lat, lon) in [(43.73, 7.43), (43.7412, 7.4533), (43.75, 7.47)] {
                let a = try #require(grid.elevation(lat: lat, lon: lon)), b = try #require(part.elevation(lat: lat, lon: lon))
                #expect(abs(a - b) < 1e-6, "\(name) cropped at \(lat),\(lon)")
            }
        }
    }

    @Test func asciiGridCornerAndCentreHeaders() throws {
        let tile = try SRTMTile(path: TestData.monacoDEMFilled)
        let values = try Self.cropValues(tile, rows: 40, columns: 50)
        let dir = TestData.temporaryDirectory("dem-asc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let south = Self.crop.north - 39 * Self.cell
        let cornerPath = dir.appendingPathComponent("corner.asc").path, centrePath = dir.appendingPathComponent("centre.asc").path
        try TestDEMFiles.writeASCIIGrid(to: cornerPath, width: 50, height: 40, values: values, west: Self.crop.west - Self.cell / 2,
                                        south: south - Self.cell / 2, cellSize: Self.cell, corner: true)
        try TestDEMFiles.writeASCIIGrid(to: centrePath, width: 50, height: 40, values: values, west: Self.crop.west, south: south,
                                        cellSize: Self.cell, corner: false)
        for path in [cornerPath, centrePath] {
            let grid = try DEMReader.load(path: path)
            for (lat, lon) in [(43.77, 7.36), (43.7555, 7.3711), (Self.crop.north, Self.crop.west)] {
                let a = try #require(tile.elevation(lat: lat, lon: lon)), b = try #require(grid.elevation(lat: lat, lon: lon))
                #expect(abs(a - b) <= Self.sameDataTolerance, "\(path) at \(lat),\(lon): \(a) vs \(b)")
            }
            #expect(grid.elevation(lat: 43.70, lon: 7.36) == nil)  // south of the 40 rows
        }
    }

    @Test func croppedLoadingMatchesWholeFile() throws {
        let monaco = BoundingBox(minLon: 7.40, minLat: 43.72, maxLon: 7.44, maxLat: 43.76)
        for path in [TestData.monacoCropASC, TestData.monacoCropTIF] {
            let whole = try #require(try DEMReader.load(path: path) as? GeoGrid)
            let part = try #require(try DEMReader.load(path: path, window: monaco) as? GeoGrid)
            #expect(part.width < whole.width && part.height < whole.height)
            #expect(part.bounds.minLon <= monaco.minLon && part.bounds.maxLon >= monaco.maxLon)
            #expect(part.bounds.minLat <= monaco.minLat && part.bounds.maxLat >= monaco.maxLat)
            var lat = monaco.minLat
            while lat <= monaco.maxLat {
                var lon = monaco.minLon
                while lon <= monaco.maxLon {
                    let a = try #require(whole.elevation(lat: lat, lon: lon)), b = try #require(part.elevation(lat: lat, lon: lon))
                    #expect(abs(a - b) < 1e-6, "\(path) at \(lat),\(lon)")
                    lon += 0.0013
                }
                lat += 0.0011
            }
        }
    }
}
