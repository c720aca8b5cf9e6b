import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// The settings file, `skateroute config`, `--out -` and "did you mean".
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct SettingsCLITests {
    static let plan = ["plan", "--from", "Place du Casino", "--to", "Stade Louis II", "--no-store", "--now", "2026-05-01T12:00:00Z"]

    /// Runs with its own config folder holding `config` (nil: no file).
    static func run(_ args: [String], config: String?) throws -> BuiltCLI.Result {
        let dir = TestData.temporaryDirectory("settings-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        if let config {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("skateroute"), withIntermediateDirectories: true)
            try config.write(to: dir.appendingPathComponent("skateroute/config"), atomically: true, encoding: .utf8)
        }
        return try BuiltCLI.run(args, environment: ["XDG_CONFIG_HOME": dir.path, "XDG_STATE_HOME": dir.appendingPathComponent("state").path])
    }

    @Test func configPrintsEachSettingAndItsOrigin() throws {
        let plain = try Self.run(["config"], config: nil)
        #expect(plain.status == 0 && plain.stdout.contains("mode     = smoothest") && plain.stdout.contains("(absent)"), "\(plain.stdout)\(plain.stderr)")
        let r = try Self.run(["config", "--palette", "high-contrast"], config: "# mine\nmode = nightSafe\nunits = imperial\n")
        #expect(r.stdout.contains("nightSafe") && r.stdout.contains("config:2"), "\(r.stdout)")
        #expect(r.stdout.contains("high-contrast") && r.stdout.contains(" flag"), "\(r.stdout)")
        #expect(r.stdout.contains("map      = monaco") && r.stdout.contains("default (bundled)"), "\(r.stdout)")
    }

    @Test func theFileModeAppliesUnlessAFlagIsGiven() throws {
        let fromFile = try Self.run(Self.plan, config: "mode = nightSafe\n")
        #expect(fromFile.status == 0 && fromFile.stdout.contains("[nightSafe]"), "\(fromFile.stdout)\(fromFile.stderr)")
        let flag = try Self.run(Self.plan + ["--mode", "smoothest"], config: "mode = nightSafe\n")
        #expect(flag.stdout.contains("[smoothest]"), "\(flag.stdout)")
    }

    @Test func badSettingsAndTyposGetOneLineWithASuggestion() throws {
        for (args, config, needle) in [
            (Self.plan, "mdoe = nightSafe\n", "config:1: unknown key 'mdoe' (did you mean 'mode'?)"),
            (Self.plan, "mode = nightsaf\n", "unknown mode 'nightsaf' (did you mean 'nightSafe'?)"),
            (Self.plan, "map = monco\n", "no map named 'monco' (did you mean 'monaco'?)"),
            (Self.plan + ["--mode", "smoothst"], nil, "unknown mode 'smoothst' (did you mean 'smoothest'?)"),
            (["pln"], nil, "unknown command 'pln' (did you mean 'plan'?)"),
        ] as [([String], String?, String)] {
            let r = try Self.run(args, config: config)
            #expect(r.status != 0 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(needle), "\(args) \(config ?? ""): \(r.stderr)")
        }
    }

    @Test func planOutDashIsStdoutAndAFileIsWrittenWhole() throws {
        let stdout = try Self.run(Self.plan + ["--format", "gpx", "--out", "-"], config: nil)
        #expect(stdout.status == 0 && stdout.stdout.hasPrefix("<?xml"), "\(stdout.stderr)")
        let dir = TestData.temporaryDirectory("plan-out")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("casino.gpx")
        let r = try Self.run(Self.plan + ["--format", "gpx", "--out", file.path], config: nil)
        #expect(r.status == 0 && r.stdout.isEmpty, "\(r.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == stdout.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["casino.gpx"])
    }

    @Test func rideDashReadsAGPXFromStandardInput() throws {
        let gpx = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher/ride.gpx").path
        let dir = TestData.temporaryDirectory("ride-stdin")
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["ride", "--headless", "--no-store", "--log", dir.appendingPathComponent("l.ndjson").path]
        let byPath = try BuiltCLI.run(args + [gpx])
        let piped = try Self.runWithInput(args + ["-"], input: gpx)
        #expect(byPath.status == 0 && piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == byPath.stdout && piped.stdout.contains("fixes 183"), "\(piped.stdout)")
        let empty = try BuiltCLI.run(args + ["-"])
        #expect(empty.status == 1 && empty.stderr.contains("nothing on standard input"), "\(empty.stderr)")
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func importDashReadsTheExtractFromStandardInput() throws {
        let dir = TestData.temporaryDirectory("import-stdin")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("piped.srmap").path
        let r = try Self.runWithInput(["import", "--osm", "-", "--out", out], input: TestData.monacoXMLBz2)
        #expect(r.status == 0 && r.stdout.contains("5503 nodes"), "\(r.stderr)")
        let bare = try Self.runWithInput(["import", "--osm", "-"], input: TestData.monacoXMLBz2)
        #expect(bare.status == 64 && bare.stderr.contains("give --name"), "\(bare.stderr)")
    }

    /// Runs the CLI with a file as its standard input.
    static func runWithInput(_ args: [String], input: String) throws -> BuiltCLI.Result {
        let p = Process()
        p.executableURL = BuiltCLI.url!
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": BuiltCLI.isolatedHome + "/config", "XDG_STATE_HOME": BuiltCLI.isolatedHome + "/state"]) { _, n in n }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle(forReadingAtPath: input)
        try p.run()
        return BuiltCLI.finish(p, out, err)
    }
}
