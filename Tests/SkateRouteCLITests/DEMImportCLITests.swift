import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// `skateroute import --dem` with ESRI ASCII grids, GeoTIFFs and several files, run as a user would.
extension CLITests {
    @Test(.enabled(if: TestData.available, TestData.skip))
    func importWithASCIIGridGeoTIFFAndSeveralDEMs() throws {
        let dir = TestData.temporaryDirectory("cli-dem")
        defer { try? FileManager.default.removeItem(at: dir) }
        for dems in [[TestData.monacoCropASC], [TestData.monacoCropTIF], [TestData.monacoDEMZip, TestData.monacoCropTIF]] {
            let out = dir.appendingPathComponent("monaco.srmap").path
            let r = try BuiltCLI.run(["import", "--osm", TestData.monacoPBF, "--out", out] + dems.flatMap { ["--dem", $0] })
            #expect(r.status == 0, "\(dems): \(r.stderr)")
            let map = try MapFormat.load(path: out)
            #expect(map.metadata.hasElevation && map.edgeCount > 5_000)
            #expect(map.metadata.sources.contains(URL(fileURLWithPath: dems[0]).lastPathComponent))
            try FileManager.default.removeItem(atPath: out)
        }
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func importBadDEMsAreOneLineAndLeaveNoFile() throws {
        let dir = TestData.temporaryDirectory("cli-dem-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.srmap").path
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: path("noise.tif")))
        try Data("hello world\n".utf8).write(to: URL(fileURLWithPath: path("hello.asc")))
        let tiny: [Float] = [10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33]
        var plain = TestDEMFiles.GeoTIFF(width: 4, height: 3, values: tiny, georeference: .none)
        plain.modelType = nil
        try TestDEMFiles.write(plain, to: path("plain.tif"))
        var utm = TestDEMFiles.GeoTIFF(width: 4, height: 3, values: tiny, georeference: .tiepoint(lon: 370_000, lat: 4_840_000, scaleX: 30, scaleY: 30))
        utm.modelType = 1; utm.projectedType = 32632
        try TestDEMFiles.write(utm, to: path("utm32.tif"))
        try TestDEMFiles.writeASCIIGrid(to: path("heidelberg.asc"), width: 4, height: 3, values: tiny, west: 8.69, south: 49.41, cellSize: 0.001)
        try TestDEMFiles.writeASCIIGrid(to: path("corner.asc"), width: 4, height: 3, values: tiny, west: 7.38, south: 43.70, cellSize: 0.01)

        let cases: [([String], String, String)] = [
            (["noise.tif"], "noise.tif", "not a TIFF"),
            (["hello.asc"], "hello.asc", "not an ESRI ASCII grid"),
            (["plain.tif"], "plain.tif", "no GeoTIFF georeferencing"),
            (["utm32.tif"], "utm32.tif", "EPSG:32632"),
            (["heidelberg.asc"], "heidelberg.asc", "does not cover the map"),
            (["corner.asc"], "corner.asc", "covers only"),
            (["heidelberg.asc", "corner.asc"], "corner.asc", "covers only"),
        ]
        for (dems, file, problem) in cases {
            let r = try BuiltCLI.run(["import", "--osm", TestData.monacoPBF, "--out", out] + dems.flatMap { ["--dem", path($0)] })
            expectOneLineError(r, mentioning: file)
            #expect(r.stderr.contains(problem), "\(dems): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "a failed import left \(out)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }
}
