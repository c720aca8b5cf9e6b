import Foundation
import Testing
import SkateCore
import SkateImport
import SkateTestSupport

@Suite("SRTM tiles and DEM", .enabled(if: TestData.available, TestData.skip))
struct ElevationTests {
    /// Allowed error against surveyed heights: ±10 m (3" cells are ~90 m wide on steep ground).
    static let pointTolerance = 10.0
    /// Largest allowed difference between the void-filled GraphHopper copy and pyhgtmap's copy.
    static let fillTolerance = 25.0
    /// The Monaco box the compiled map uses, sampled every ~50 m.
    static let monaco = (minLat: 43.72, maxLat: 43.76, minLon: 7.40, maxLon: 7.44, step: 0.0005)

    @Test func pyhgtmapTileAtKnownPlaces() throws {
        let tile = try SRTMTile(path: TestData.monacoDEMFilled)
        #expect(tile.name == "N43E007")
        #expect(tile.south == 43 && tile.west == 7 && tile.size == 1201)
        #expect(tile.voidCount == 4)  // per SOURCE.txt
        #expect(tile.filledCount == 4)
        let jardin = try #require(tile.elevation(lat: 43.7341, lon: 7.4149))  // Jardin Exotique ≈ 115 m
        #expect(abs(jardin - 115) <= Self.pointTolerance, "\(jardin)")
        let stade = try #require(tile.elevation(lat: 43.7260, lon: 7.4142))  // Stade Louis II ≈ 8 m
        #expect(abs(stade - 8) <= Self.pointTolerance, "\(stade)")
        // Samples sit on whole arc-seconds: a grid point returns its sample exactly.
        let r = 300, c = 500
        let onGrid = try #require(tile.elevation(lat: 44 - Double(r) / 1200, lon: 7 + Double(c) / 1200))
        #expect(abs(onGrid - Double(try #require(tile.sample(row: r, column: c)))) < 1e-6)
        // Corners are inside, anything past them is not.
        #expect(tile.elevation(lat: 43, lon: 7) != nil && tile.elevation(lat: 44, lon: 8) != nil)
        #expect(tile.elevation(lat: 42.999, lon: 7.5) == nil)
        #expect(tile.elevation(lat: 43.5, lon: 8.0001) == nil)
    }

    @Test func graphHopperZipVoidsFilledAndCloseToPyhgtmap() throws {
        let zipped = try SRTMTile(path: TestData.monacoDEMZip)
        let filled = try SRTMTile(path: TestData.monacoDEMFilled)
        #expect(zipped.name == "N43E007")
        #expect(zipped.voidCount == 1_595)  // per SOURCE.txt
        #expect(zipped.filledCount == zipped.voidCount)
        #expect(!zipped.heights.contains(SRTMTile.void))
        var samples = 0, worst = 0.0
        var lat = Self.monaco.minLat
        while lat <= Self.monaco.maxLat + 1e-9 {
            var lon = Self.monaco.minLon
            while lon <= Self.monaco.maxLon + 1e-9 {
                let a = try #require(zipped.elevation(lat: lat, lon: lon))
                let b = try #require(filled.elevation(lat: lat, lon: lon))
                #expect(a.isFinite && a >= -20 && a <= 1200, "\(lat),\(lon): \(a)")
                worst = max(worst, abs(a - b))
                samples += 1
                lon += Self.monaco.step
            }
            lat += Self.monaco.step
        }
        #expect(samples > 6000)
        #expect(worst <= Self.fillTolerance, "largest difference \(worst) m")
    }

    @Test func demLooksUpCoversAndRefusesOutside() throws {
        let dem = try DEM(paths: [TestData.monacoDEMFilled])
        #expect(dem.tiles.count == 1)
        let h = try #require(dem.elevation(lat: 43.7341, lon: 7.4149))
        #expect(abs(h - 115) <= Self.pointTolerance)
        #expect(dem.elevation(lat: 49.41, lon: 8.69) == nil)  // Heidelberg: no tile
        #expect(dem.elevation(lat: .nan, lon: 7.5) == nil)
        #expect(dem.elevation(lat: 44.0, lon: 8.0) != nil)   // the tile's own NE corner
        #expect(dem.covers(BoundingBox(minLon: 7.40, minLat: 43.72, maxLon: 7.44, maxLat: 43.76)))
        #expect(dem.covers(BoundingBox(minLon: 7.0, minLat: 43.0, maxLon: 8.0, maxLat: 44.0)))
        #expect(!dem.covers(BoundingBox(minLon: 7.9, minLat: 43.9, maxLon: 8.1, maxLat: 44.1)))
        #expect(!dem.covers(BoundingBox(minLon: 8.6, minLat: 49.3, maxLon: 8.8, maxLat: 49.5)))
        #expect(!dem.covers(.empty))
    }

    @Test func wrongSizeAndBadTilesThrow() throws {
        let dir = TestData.temporaryDirectory("dem-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = try Data(contentsOf: URL(fileURLWithPath: TestData.monacoDEMFilled))
        let cut = dir.appendingPathComponent("N43E007.hgt")
        try full.prefix(1_000_000).write(to: cut)
        do {
            _ = try SRTMTile(path: cut.path)
            Issue.record("a truncated tile should not load")
        } catch let e as ImportError {
            #expect(e.path == cut.path)
            #expect(e.problem.contains("1000000 bytes"), "\(e.problem)")
        }
        #expect(throws: ImportError.self) { try DEM(paths: [TestData.monacoDEMFilled, cut.path]) }

        let badName = dir.appendingPathComponent("monaco.hgt")
        try full.write(to: badName)
        #expect(throws: ImportError.self) { try SRTMTile(path: badName.path) }

        let fakeZip = dir.appendingPathComponent("N43E007.hgt.zip")
        try Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 7, count: 100)).write(to: fakeZip)
        #expect(throws: ImportError.self) { try SRTMTile(path: fakeZip.path) }
        #expect(throws: ImportError.self) { try SRTMTile(path: dir.appendingPathComponent("N00E000.hgt").path) }

        // A corrupted deflate stream inside the real zip.
        var zip = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestData.monacoDEMZip)))
        for i in 200_000..<200_100 { zip[i] ^= 0xA5 }
        let scribbled = dir.appendingPathComponent("scribbled.hgt.zip")
        try Data(zip).write(to: scribbled)
        #expect(throws: ImportError.self) { try SRTMTile(path: scribbled.path) }
    }
}

@Suite("SRTM void filling")
struct VoidFillTests {
    /// A synthetic 3" tile: a plane rising east, with a void square punched in it.
    @Test func voidsInAPlaneAreFilledNearThePlane() throws {
        let side = SRTMTile.size3Arcsecond
        var bytes = [UInt8](repeating: 0, count: 2 * side * side)
        var voids = 0
        for r in 0..<side {
            for c in 0..<side {
                let isVoid = (500..<540).contains(r) && (600..<650).contains(c)
                let v: Int16 = isVoid ? SRTMTile.void : Int16(c / 4)
                if isVoid { voids += 1 }
                let u = UInt16(bitPattern: v)
                bytes[2 * (r * side + c)] = UInt8(u >> 8)
                bytes[2 * (r * side + c) + 1] = UInt8(u & 0xFF)
            }
        }
        let tile = try SRTMTile(name: "S01W002.hgt", bytes: bytes, path: "synthetic")
        #expect(tile.south == -1 && tile.west == -2)
        #expect(tile.voidCount == voids && tile.filledCount == voids)
        for r in stride(from: 500, to: 540, by: 5) {
            for c in stride(from: 600, to: 650, by: 5) {
                let h = Double(try #require(tile.sample(row: r, column: c)))
                #expect(abs(h - Double(c) / 4) <= 6, "row \(r) col \(c): \(h)")
            }
        }
    }

    @Test func allVoidTileKeepsItsVoids() throws {
        let side = SRTMTile.size3Arcsecond
        // Big-endian 0x8000 (−32768) in every cell, built by one memory copy (fast in debug builds).
        let bytes = [UInt16](repeating: UInt16(0x8000).bigEndian, count: side * side).withUnsafeBytes { Array($0) }
        let tile = try SRTMTile(name: "N00E000", bytes: bytes, path: "synthetic")
        #expect(tile.voidCount == side * side && tile.filledCount == 0)
        #expect(tile.elevation(lat: 0.5, lon: 0.5) == nil)
    }
}
