import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// `skateroute export ride LOG`: a GPX 1.1 track checked by the field's own tools — xmllint
/// against a GPX 1.1 schema (Tests/Fixtures/gpx11-subset.xsd, a subset written from the GPX 1.1
/// specification, not the official file), gpxpy, and our own reader.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct ExportRideGPXTests {
    static let bundled = TestData.bundledMonaco
    static let ride = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher").path
    static let schema = TestData.projectRoot.appendingPathComponent("Tests/Fixtures/gpx11-subset.xsd").path

    /// The first `tool` on $PATH (then the usual system folders).
    static func which(_ tool: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (path + ["/usr/local/bin", "/usr/bin", "/bin"]).map { $0 + "/" + tool }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ exe: String, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let o = Pipe(), e = Pipe()
        p.standardOutput = o
        p.standardError = e
        try p.run()
        let od = o.fileHandleForReading.readDataToEndOfFile(), ed = e.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: od, as: UTF8.self), String(decoding: ed, as: UTF8.self))
    }

    /// Replays the shipped ride and exports its log; returns (folder, gpx path, summary JSON).
    static func exported() throws -> (URL, String, [String: Any]) {
        let dir = TestData.temporaryDirectory("export-ride")
        let log = dir.appendingPathComponent("ride.ndjson").path
        let r = try BuiltCLI.run(["ride", ride, "--headless", "--json", "--no-store", "--map", bundled, "--log", log])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let gpx = dir.appendingPathComponent("ride.gpx").path
        let e = try BuiltCLI.run(["export", "ride", log, "--out", gpx, "--map", bundled, "--no-privacy"])
        #expect(e.status == 0, "\(e.stderr)")
        #expect(e.stderr.contains("with elevation, written to"))
        return (dir, gpx, summary)
    }

    @Test func exportHasTimesElevationsSpeedsAndReadsBack() throws {
        let (dir, gpx, summary) = try Self.exported()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.contains("<gpx version=\"1.1\"") && text.contains("xmlns:sr=\"urn:skateroute:gpx:1\""))
        #expect(text.contains("<sr:speed>") && text.contains("<sr:roughness>") && text.contains("<ele>"))
        // Our own reader takes it back: the same fixes in time order, about the ride's length.
        let stdout = try BuiltCLI.run(["export", "ride", dir.appendingPathComponent("ride.ndjson").path, "--map", Self.bundled, "--no-privacy"])
        #expect(stdout.stdout == text, "stdout and --out carry the same document")
        let replay = try BuiltCLI.run(["ride", gpx, "--headless", "--json", "--no-store", "--map", Self.bundled,
                                       "--log", dir.appendingPathComponent("again.ndjson").path])
        #expect(replay.status == 0, "\(replay.stderr)")
        let again = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        let d0 = try #require(summary["distance_m"] as? Double), d1 = try #require(again["distance_m"] as? Double)
        #expect(abs(d1 - d0) / d0 < 0.1, "replayed export \(d1) m vs ride \(d0) m")
    }

    @Test(.enabled(if: ExportRideGPXTests.which("xmllint") != nil, "xmllint is not installed (apt-get install libxml2-utils): schema check skipped"))
    func exportValidatesAgainstTheGPX11Schema() throws {
        let (dir, gpx, _) = try Self.exported()
        defer { try? FileManager.default.removeItem(at: dir) }
        let xmllint = try #require(Self.which("xmllint"))
        let ok = try Self.run(xmllint, ["--noout", "--schema", Self.schema, gpx])
        #expect(ok.status == 0, "\(ok.err)")
        // The check can fail: a GPX-namespace element out of place does not validate.
        let bad = dir.appendingPathComponent("bad.gpx").path
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "<sr:speed>", with: "<speed>").replacingOccurrences(of: "</sr:speed>", with: "</speed>").utf8)
            .write(to: URL(fileURLWithPath: bad))
        let refused = try Self.run(xmllint, ["--noout", "--schema", Self.schema, bad])
        #expect(refused.status != 0, "a GPX 1.0-style <speed> inside <extensions> must not validate")
    }

    /// The first python3 that imports gpxpy: the one on $PATH, else Debian's (python3-gpxpy
    /// installs for /usr/bin/python3, which a pyenv or venv python3 on $PATH does not see).
    static let gpxpyPython: String? = {
        let candidates = [which("python3"), "/usr/bin/python3"].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) && (try? run($0, ["-c", "import gpxpy"]).status) == 0 }
    }()
    static var gpxpyAvailable: Bool { gpxpyPython != nil }

    @Test(.enabled(if: ExportRideGPXTests.gpxpyAvailable, "gpxpy is not importable by python3 (pip install gpxpy): gpxpy round trip skipped"))
    func gpxpyReadsTheExport() throws {
        let (dir, gpx, _) = try Self.exported()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trkpts = try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
        let script = """
        import gpxpy, sys
        g = gpxpy.parse(open(sys.argv[1], encoding="utf-8"))
        pts = [p for t in g.tracks for s in t.segments for p in s.points]
        times = [p.time for p in pts]
        assert all(a < b for a, b in zip(times, times[1:])), "times not increasing"
        speeds = [e.text for p in pts for e in p.extensions if e.tag == "{urn:skateroute:gpx:1}speed"]
        print(len(pts), sum(p.elevation is not None for p in pts), len(speeds), round(g.length_2d()))
        """
        let r = try Self.run(try #require(Self.gpxpyPython), ["-c", script, gpx])
        #expect(r.status == 0, "\(r.err)")
        let nums = r.out.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(nums.count == 4, "\(r.out)")
        #expect(nums[0] == trkpts && nums[0] > 50)
        #expect(nums[1] > nums[0] * 9 / 10, "elevations: \(nums[1]) of \(nums[0])")
        #expect(nums[2] == nums[0], "every point carries its speed")
        #expect(nums[3] > 500, "length \(nums[3]) m")
    }

    @Test func badLogsAreOneLine() throws {
        let dir = FuzzFiles.folder("export")
        defer { try? FileManager.default.removeItem(at: dir) }
        let notLog = try FuzzFiles.write("hello\n", "x.ndjson", in: dir)
        for (args, needle) in [(["export", "ride", notLog], "not a ride log"), (["export", "ride", "/dev/zero"], "character device"),
                               (["export", "ride", "/nonexistent/r.ndjson"], "no such file")] {
            let r = try BuiltCLI.run(args)
            #expect(r.status == 1 && r.stderr.contains(needle) && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
    }
}
