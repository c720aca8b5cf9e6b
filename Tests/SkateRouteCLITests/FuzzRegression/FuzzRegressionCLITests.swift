import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// The fuzzing findings of issue 15 (hardening 1–3), each reproduced on the built binary with a
/// tiny file the test writes (`FuzzFiles`): endless and special files, a ride manifest that names
/// files outside its folder, corrupt PBF coordinates, and control bytes in errors and outputs.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct FuzzRegressionCLITests {
    static let bundled = TestData.bundledMonaco
    static let ride = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher")
    /// A bad input must be refused well within this (s); the unfixed reader grew to GBs or hung.
    static let deadline: TimeInterval = 20

    /// Runs the CLI, killing it after `deadline` seconds (a hang is a failure, not a stuck test).
    static func run(_ args: [String]) throws -> BuiltCLI.Result {
        let (p, o, e) = try BuiltCLI.start(args)
        let timer = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: timer)
        let r = BuiltCLI.finish(p, o, e)
        timer.cancel()
        return r
    }

    /// One line on stderr, exit 1, no control bytes, containing every needle.
    static func expectRefused(_ r: BuiltCLI.Result, _ needles: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.killed, "killed after \(deadline) s: the input was read without bound", sourceLocation: sourceLocation)
        #expect(r.status == 1, "exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1, "stderr: \(r.stderr)", sourceLocation: sourceLocation)
        for n in needles { #expect(r.stderr.contains(n), "'\(n)' not in: \(r.stderr)", sourceLocation: sourceLocation) }
        #expect(!hasControlBytes(r.stderr), "control bytes in: \(r.stderr.debugDescription)", sourceLocation: sourceLocation)
    }

    static func hasControlBytes(_ s: String) -> Bool {
        s.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test func roughnessOfDevZeroAndAFIFO() throws {
        let dir = FuzzFiles.folder("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        Self.expectRefused(try Self.run(["roughness", "/dev/zero"]), ["/dev/zero", "character device"])
        let fifo = try #require(FuzzFiles.fifo("motion.csv", in: dir))
        Self.expectRefused(try Self.run(["roughness", fifo]), ["motion.csv", "FIFO"])
    }

    @Test func rideMotionFromDevZeroAndAFIFO() throws {
        let dir = FuzzFiles.folder("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let gpx = Self.ride.appendingPathComponent("ride.gpx").path
        let base = ["ride", gpx, "--headless", "--no-store", "--map", Self.bundled, "--log", dir.appendingPathComponent("l.ndjson").path]
        Self.expectRefused(try Self.run(base + ["--motion", "/dev/zero"]), ["/dev/zero", "character device"])
        let fifo = try #require(FuzzFiles.fifo("m.csv", in: dir))
        Self.expectRefused(try Self.run(base + ["--motion", fifo]), ["m.csv", "FIFO"])
        Self.expectRefused(try Self.run(["ride", "/dev/zero", "--headless", "--no-store"]), ["/dev/zero"])
    }

    @Test func importDEMFromDevZero() throws {
        let dir = FuzzFiles.folder("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try FuzzFiles.write("<?xml version='1.0'?><osm version='0.6'><node id='1' lat='43.73' lon='7.42'/></osm>\n", "tiny.osm", in: dir)
        let out = dir.appendingPathComponent("o.srmap").path
        Self.expectRefused(try Self.run(["import", "--osm", osm, "--dem", "/dev/zero", "--out", out]), ["/dev/zero", "character device"])
        Self.expectRefused(try Self.run(["import", "--osm", "/dev/zero", "--out", out]), ["/dev/zero"])
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A ride folder whose manifest points at `/dev/zero`, outside the folder or through `..`.
    @Test func rideManifestPathsStayInTheirFolder() throws {
        let dir = FuzzFiles.folder("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("ride")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.ride.appendingPathComponent("ride.gpx"), to: folder.appendingPathComponent("ride.gpx"))
        func manifest(motion: String) throws {
            try FuzzFiles.write("{\"schema_version\": 1, \"gpx\": \"ride.gpx\", \"motion\": \"\(motion)\"}\n", "ride.json", in: folder)
        }
        let base = ["ride", folder.path, "--headless", "--no-store", "--map", Self.bundled, "--log", dir.appendingPathComponent("l.ndjson").path]
        try manifest(motion: "/dev/zero")
        Self.expectRefused(try Self.run(base), ["leaves the ride folder", "--allow-outside-paths"])
        Self.expectRefused(try Self.run(base + ["--allow-outside-paths"]), ["/dev/zero", "character device"])
        try FuzzFiles.write("t,ax,ay,az\n", "outside.csv", in: dir)
        try manifest(motion: "../outside.csv")
        Self.expectRefused(try Self.run(base), ["leaves the ride folder"])
        try manifest(motion: "sub/../../outside.csv")
        Self.expectRefused(try Self.run(base), ["leaves the ride folder"])
        // The manifest itself may not be a device.
        Self.expectRefused(try Self.run(["ride", "/dev/null/ride.json", "--headless", "--no-store"]), ["ride.json"])
    }

    @Test func corruptPBFLatitudesAreOneLine() throws {
        let dir = FuzzFiles.folder("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pbf = try FuzzFiles.write(FuzzFiles.pbfWithFlippedLatitudeBits(), "flipped.osm.pbf", in: dir)
        let out = dir.appendingPathComponent("o.srmap").path
        Self.expectRefused(try Self.run(["import", "--osm", pbf, "--out", out]), ["flipped.osm.pbf", "out of range"])
    }

    /// `lat="ESC]0;pwnedBEL"` with NUL, CR and LF: the error names the problem, not the title.
    @Test func osmXMLErrorsAreSanitized() throws {
        let dir = FuzzFiles.folder("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try FuzzFiles.write(FuzzFiles.hostileOSMXML, "title.osm", in: dir)
        let r = try Self.run(["import", "--osm", osm, "--out", dir.appendingPathComponent("o.srmap").path])
        Self.expectRefused(r, ["title.osm", "lat"])
        #expect(!r.stderr.contains("pwned") && !r.stderr.contains("]0;"), "\(r.stderr)")
    }

    /// A value typed on the command line is quoted cleaned and cut, however long or hostile.
    @Test func quotedValuesAreCleanedAndCut() throws {
        let long = String(repeating: "\u{1B}[31mx", count: 2_000)
        let r = try Self.run(["plan", "--from", "casino", "--to", "port", "--mode", long, "--no-store", "--map", Self.bundled])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(!Self.hasControlBytes(r.stderr) && r.stderr.count < 400, "\(r.stderr.count) characters")
        let dir = FuzzFiles.folder("cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let add = ["hazards", "add", "--kind", "pothole", "--at", "43.7384,7.4246", "--data-dir", dir.path, "--map", Self.bundled,
                   "--now", "2026-05-01T12:00:00Z", "--reporter"]
        let evil = try Self.run(add + ["ev\u{1B}]0;pwned\u{07}il"])
        #expect(evil.status == 1 && evil.stderr.contains("reporter name"), "escapes in a reporter name are refused, not stored: \(evil.stderr)")
        #expect(!Self.hasControlBytes(evil.stderr) && !evil.stderr.contains("pwned"))
        let tooLong = try Self.run(add + [String(repeating: "n", count: 10_000)])
        #expect(tooLong.status == 1 && tooLong.stderr.contains("reporter name") && tooLong.stderr.count < 400, "\(tooLong.stderr.prefix(300))")
    }
}
