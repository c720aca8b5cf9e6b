import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Hardening 2, the last unbounded reads: a huge regular file (20 GB, sparse: no disk used) given
/// to any input gives one clear line within seconds instead of being read into memory, and a FIFO
/// where a reader used to open it blindly (`routes save --plan`, a `.prj`, the rides folder) does
/// not hang the command.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct HugeFileCLITests {
    static let bundled = TestData.bundledMonaco
    static let ride = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher")
    /// Two nodes and a footway: enough for an import to reach its DEM.
    static let tinyOSM = "<?xml version='1.0'?><osm version='0.6'><node id='1' lat='43.73' lon='7.42'/><node id='2' lat='43.731' lon='7.421'/>"
        + "<way id='3'><nd ref='1'/><nd ref='2'/><tag k='highway' v='footway'/></way></osm>\n"

    @Test func hugeMotionFilesAreOneLine() throws {
        let dir = FuzzFiles.folder("huge-motion")
        defer { try? FileManager.default.removeItem(at: dir) }
        let huge = try FuzzFiles.huge("huge.csv", in: dir)
        FuzzRegressionCLITests.expectRefused(try FuzzRegressionCLITests.run(["roughness", huge]), ["huge.csv", "longer than"])
        let gpx = Self.ride.appendingPathComponent("ride.gpx").path
        FuzzRegressionCLITests.expectRefused(try FuzzRegressionCLITests.run(
            ["ride", gpx, "--headless", "--no-store", "--map", Self.bundled, "--motion", huge, "--log", dir.appendingPathComponent("l.ndjson").path]),
            ["huge.csv", "longer than"])
    }

    @Test func hugeDEMsAreOneLine() throws {
        let dir = FuzzFiles.folder("huge-dem")
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try FuzzFiles.write(Self.tinyOSM, "tiny.osm", in: dir)
        let out = dir.appendingPathComponent("o.srmap").path
        for (name, needle) in [("N43E007.hgt", "SRTM tile"), ("N43E007.hgt.zip", "SRTM tile"), ("grid.asc", "ASCII grid")] {
            let huge = try FuzzFiles.huge(name, in: dir)
            FuzzRegressionCLITests.expectRefused(try FuzzRegressionCLITests.run(["import", "--osm", osm, "--dem", huge, "--out", out]), [name, needle, "limit"])
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func hugeRideLogsAndPlansAreOneLine() throws {
        let dir = FuzzFiles.folder("huge-logs")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try FuzzFiles.huge("huge.ndjson", in: dir)
        FuzzRegressionCLITests.expectRefused(try FuzzRegressionCLITests.run(
            ["export", "disagreements", "--ride-log", log, "--map", Self.bundled, "--data-dir", dir.path]), ["huge.ndjson"])
        FuzzRegressionCLITests.expectRefused(try FuzzRegressionCLITests.run(["export", "ride", log, "--map", Self.bundled]), ["huge.ndjson", "limit"])
        let plan = try FuzzFiles.huge("plan.json", in: dir)
        FuzzRegressionCLITests.expectRefused(try FuzzRegressionCLITests.run(
            ["routes", "save", "x", "--plan", plan, "--map", Self.bundled, "--data-dir", dir.path]), ["plan.json", "larger than"])
        let fifo = try #require(FuzzFiles.fifo("p.json", in: dir))
        FuzzRegressionCLITests.expectRefused(try FuzzRegressionCLITests.run(
            ["routes", "save", "x", "--plan", fifo, "--map", Self.bundled, "--data-dir", dir.path]), ["p.json", "FIFO"])
    }

    /// `stats` indexes every log in the rides folder: a huge one is a warning and a FIFO is passed
    /// over, never a hang or an allocation the size of the file.
    @Test func statsSkipsHugeAndSpecialLogs() throws {
        let dir = FuzzFiles.folder("huge-stats")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rides = dir.appendingPathComponent("rides")
        try FileManager.default.createDirectory(at: rides, withIntermediateDirectories: true)
        try FuzzFiles.huge("big.ndjson", in: rides)
        _ = try #require(FuzzFiles.fifo("pipe.ndjson", in: rides))
        let r = try FuzzRegressionCLITests.run(["stats", "--rides", rides.path, "--data-dir", dir.path])
        #expect(!r.killed, "stats hung or read without bound")
        let all = r.stdout + r.stderr
        #expect(all.contains("big.ndjson") && all.contains("larger than"), "\(all)")
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// A `.prj` beside an ASCII grid that is a FIFO: refused in one line, not waited on.
    @Test func projectionFileFIFOIsOneLine() throws {
        let dir = FuzzFiles.folder("prj-fifo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try FuzzFiles.write(Self.tinyOSM, "tiny.osm", in: dir)
        let grid = "ncols 2\nnrows 2\nxllcorner 7.4\nyllcorner 43.7\ncellsize 0.1\nNODATA_value -9999\n1 2\n3 4\n"
        let asc = try FuzzFiles.write(grid, "dem.asc", in: dir)
        _ = try #require(FuzzFiles.fifo("dem.prj", in: dir))
        FuzzRegressionCLITests.expectRefused(try FuzzRegressionCLITests.run(
            ["import", "--osm", osm, "--dem", asc, "--out", dir.appendingPathComponent("o.srmap").path]), ["dem.prj", "FIFO"])
    }
}
