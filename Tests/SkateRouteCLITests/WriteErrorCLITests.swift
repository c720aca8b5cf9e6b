import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Issue 29 row 6: every writer reports a failed write (disk full, EIO, `/dev/full`, a file size
/// limit) with one line and a non-zero exit, and leaves what it already wrote parseable. A full
/// disk is stood in for by `/dev/full` (ENOSPC on every write) and by `ulimit -f` with SIGXFSZ
/// ignored (EFBIG past the limit, after a short write: the mid-line cut a full disk makes).
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct WriteErrorCLITests {
    static let bundled = TestData.bundledMonaco
    static let ride = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher").path
    static let plan = ["plan", "--map", bundled, "--from", "Place du Casino", "--to", "Stade Louis II", "--no-store"]

    /// Runs the CLI under `/bin/sh` with `prefix` (shell words before the command, e.g. a ulimit)
    /// and stdout sent to `stdout` (a path).
    /// What a run left: its status, standard error and whether a signal ended it.
    struct Run { var status: Int32; var stderr: String; var killed: Bool }

    static func shell(_ args: [String], stdout: String = "/dev/null", prefix: String = "") throws -> Run {
        func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = ([BuiltCLI.url!.path] + args).map(q).joined(separator: " ")
        return try run("/bin/sh", ["-c", "\(prefix) exec \(command) > \(q(stdout))"])
    }

    static func run(_ exe: String, _ args: [String]) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_CONFIG_HOME": BuiltCLI.isolatedHome + "/config", "XDG_STATE_HOME": BuiltCLI.isolatedHome + "/state"]) { _, n in n }
        let e = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = e
        try p.run()
        let ed = e.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(status: p.terminationStatus, stderr: String(decoding: ed, as: UTF8.self), killed: p.terminationReason == .uncaughtSignal)
    }

    /// One line on stderr naming `needle`, a non-zero status, no signal.
    static func expectOneLine(_ r: Run, _ needle: String, status: Int32? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.killed, "killed: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.status != 0, sourceLocation: sourceLocation)
        if let status { #expect(r.status == status, "\(r.status): \(r.stderr)", sourceLocation: sourceLocation) }
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("skateroute:") }
        #expect(lines.count == 1 && lines[0].contains(needle), "\(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test func everyFormatToAFullStandardOutputFails() throws {
        for format in ["text", "json", "gpx", "geojson"] {
            let r = try Self.shell(Self.plan + ["--format", format], stdout: "/dev/full")
            Self.expectOneLine(r, "cannot write the output: No space left on device", status: 74)
        }
        // A raw-written output (hazards export) as well; a plan to /dev/null still succeeds.
        let data = TestData.temporaryDirectory("write-errors-store").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        Self.expectOneLine(try Self.shell(["hazards", "export", "--data-dir", data], stdout: "/dev/full"), "No space left on device", status: 74)
        #expect(try Self.shell(Self.plan).status == 0)
    }

    @Test func aRideLogOnAFullDeviceIsRefusedAtOnce() throws {
        let r = try Self.shell(["ride", Self.ride, "--headless", "--no-store", "--map", Self.bundled, "--log", "/dev/full"])
        Self.expectOneLine(r, "/dev/full: cannot write ride log: No space left on device")
    }

    @Test func aRideLogCutByAFullDiskEndsOnAWholeLine() throws {
        let dir = TestData.temporaryDirectory("write-errors-ride")
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = dir.appendingPathComponent("full.ndjson").path
        #expect(try Self.shell(["ride", Self.ride, "--headless", "--no-store", "--map", Self.bundled, "--log", full]).status == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: full)[.size] as? Int)
        // A limit (512-byte blocks) at about a third of the log: the write crossing it is cut short.
        let blocks = size / 3 / 512
        try #require(blocks >= 2, "the ride's log is \(size) bytes")
        let cut = dir.appendingPathComponent("cut.ndjson").path
        let r = try Self.shell(["ride", Self.ride, "--headless", "--no-store", "--map", Self.bundled, "--log", cut],
                               prefix: "trap '' XFSZ; ulimit -f \(blocks);")
        Self.expectOneLine(r, "cut.ndjson: cannot write ride log: File too large")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cut))
        #expect(bytes.count > 0 && bytes.count <= blocks * 512)
        #expect(bytes.last == 0x0A, "the log ends on a whole line")
        let lines = bytes.split(separator: 0x0A)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line))) != nil, "\(String(decoding: line, as: UTF8.self))")
        }
        // The lines kept are the full log's first lines, byte for byte.
        let whole = try Data(contentsOf: URL(fileURLWithPath: full))
        #expect(whole.prefix(bytes.count).split(separator: 0x0A).count == lines.count)
    }

    @Test func aPlanOrMapThatCannotBeWrittenLeavesTheOldFile() throws {
        let dir = TestData.temporaryDirectory("write-errors-out")
        defer { try? FileManager.default.removeItem(at: dir) }
        let old = Data("the old file\n".utf8)
        let limit = "trap '' XFSZ; ulimit -f 1;"  // 512 bytes: every plan and map is longer
        let planOut = dir.appendingPathComponent("plan.gpx").path
        try old.write(to: URL(fileURLWithPath: planOut))
        Self.expectOneLine(try Self.shell(Self.plan + ["--format", "gpx", "--out", planOut], prefix: limit), "--out \(planOut): cannot write (File too large)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: planOut)) == old)

        let osm = dir.appendingPathComponent("tiny.osm").path
        try Data("""
            <?xml version="1.0"?><osm version="0.6"><node id="1" lat="43.74" lon="7.42"/><node id="2" lat="43.741" lon="7.421"/>
            <way id="3"><nd ref="1"/><nd ref="2"/><tag k="highway" v="footway"/></way></osm>
            """.utf8).write(to: URL(fileURLWithPath: osm))
        let mapOut = dir.appendingPathComponent("tiny.srmap").path
        try old.write(to: URL(fileURLWithPath: mapOut))
        Self.expectOneLine(try Self.shell(["import", "--osm", osm, "--out", mapOut], prefix: limit), "File too large")
        #expect(try Data(contentsOf: URL(fileURLWithPath: mapOut)) == old)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
