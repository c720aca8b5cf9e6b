import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Issue 15's interop checks on the built binary: our own plan GPX replays as planned,
/// `--version`, usage errors and completions.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct InteropCLITests {
    static let bundled = TestData.bundledMonaco

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A plan GPX (route + track) replays as its track: the planned length, no false reroute.
    @Test func planGPXReplaysAsItsTrack() throws {
        let dir = TestData.temporaryDirectory("interop-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["plan", "--from", "Jardin Exotique", "--to", "Stade Louis II", "--map", Self.bundled, "--no-store"]
        let planned = try Self.json(try BuiltCLI.run(args + ["--format", "json"]).stdout)
        let plannedM = try #require(planned["distance_m"] as? Double)
        let gpx = try BuiltCLI.run(args + ["--format", "gpx"])
        let path = dir.appendingPathComponent("plan.gpx").path
        try Data(gpx.stdout.utf8).write(to: URL(fileURLWithPath: path))
        #expect(gpx.stdout.contains("<rtept") && gpx.stdout.contains("<trkpt"), "the plan GPX carries both")
        let r = try BuiltCLI.run(["ride", path, "--headless", "--json", "--no-store", "--assume-speed", "12", "--map", Self.bundled,
                                  "--log", dir.appendingPathComponent("r.ndjson").path])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try Self.json(r.stdout)
        let rideM = try #require(o["distance_m"] as? Double)
        #expect(abs(rideM - plannedM) / plannedM < 0.05, "ride \(rideM) m vs plan \(plannedM) m")
        #expect(o["reroutes"] as? Int == 0)
        let warnings = (o["warnings"] as? [String]) ?? []
        #expect(warnings.contains { $0.contains("replaying the track only") } || r.stderr.contains("replaying the track only"),
                "the ride says it used the track: \(warnings) \(r.stderr)")
    }

    @Test func versionNamesTheMapFormatAndBuild() throws {
        let r = try BuiltCLI.run(["--version"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = r.stdout.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix("skateroute ") && !line.contains("\n"), "\(r.stdout)")
        #expect(line.contains("map format \(MapFormat.version)"), "\(line)")
        #expect(line.contains("build") && line.contains("Swift"), "\(line)")
    }

    /// Usage errors exit 64 with a line about the value; none falls through into place search.
    @Test func usageErrorsExit64() throws {
        let base = ["--map", Self.bundled, "--no-store"]
        let cases: [([String], String)] = [
            (["plan", "--from", "91,7", "--to", "casino"] + base, "latitude 91"),
            (["plan", "--from", "casino", "--to", "43.7,181"] + base, "longitude 181"),
            (["plan", "--from", "casino", "--to", "port", "--mode", "warp"] + base, "unknown mode 'warp'"),
            (["plan", "--from", "casino", "--to", "port", "--alternatives", "two"] + base, "two"),
            (["plan", "--from", "casino", "--to", "port", "--alternatives", "9"] + base, "--alternatives"),
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["hazards", "list", "--near", "95,7", "--data-dir", "/nonexistent/x"], "latitude 95"),
        ]
        for (args, needle) in cases {
            let r = try BuiltCLI.run(args)
            #expect(r.status == 64, "\(args): exit \(r.status), \(r.stderr)")
            #expect(r.stderr.contains(needle), "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("no place matches") && !r.stderr.contains("USAGE: skateroute tui"), "\(args): \(r.stderr)")
        }
        // The fast path and ArgumentParser agree: the same line with an `=` form takes the other parser.
        let fast = try BuiltCLI.run(["plan", "--from", "91,7", "--to", "casino"] + base)
        let slow = try BuiltCLI.run(["plan", "--from=91,7", "--to", "casino", "--no-store", "--map", Self.bundled, "--now", "2026-01-01"])
        #expect(fast.status == slow.status && fast.stderr == slow.stderr)
    }

    /// The bash completion script completes file paths for the file options (run in bash itself).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "bash is not installed: completion test skipped"))
    func bashCompletionOffersFilesForFileOptions() throws {
        let dir = TestData.temporaryDirectory("interop-completion")
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try BuiltCLI.run(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let scriptPath = dir.appendingPathComponent("skateroute.bash").path
        try Data(script.stdout.utf8).write(to: URL(fileURLWithPath: scriptPath))
        for name in ["a.osm.pbf", "b.txt", "c.srmap", "d.hgt", "e.gpx", "f.csv"] {
            FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data())
        }
        func complete(_ words: [String]) throws -> [String] {
            let line = words.joined(separator: " ") + " "
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/bash")
            p.currentDirectoryURL = dir
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            p.arguments = ["-c", "source '\(scriptPath)'; COMP_WORDS=(\(quoted) ''); COMP_CWORD=\(words.count); COMP_LINE='\(line)'; "
                           + "COMP_POINT=${#COMP_LINE}; _skateroute skateroute '' '\(words.last!)'; printf '%s\\n' \"${COMPREPLY[@]}\""]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
        }
        #expect(try complete(["skateroute", "import", "--osm"]) == ["a.osm.pbf"])
        #expect(try complete(["skateroute", "plan", "--map"]) == ["c.srmap"])
        #expect(try complete(["skateroute", "import", "--osm", "x", "--dem"]) == ["d.hgt"])
        #expect(try complete(["skateroute", "ride", "--plan"]) == ["e.gpx"])
        #expect(try complete(["skateroute", "ride", "--motion"]) == ["f.csv"])
    }
}

/// Interop 5: one machine-readable convention — snake_case keys in the hazards JSON too.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct SnakeCaseJSONTests {
    static func keys(_ value: Any) -> [String] {
        if let o = value as? [String: Any] { return o.keys + o.values.flatMap(keys) }
        if let a = value as? [Any] { return a.flatMap(keys) }
        return []
    }

    @Test func hazardsJSONKeysAreSnakeCase() throws {
        let dir = TestData.temporaryDirectory("snake")
        defer { try? FileManager.default.removeItem(at: dir) }
        let add = try BuiltCLI.run(["hazards", "add", "--kind", "pothole", "--at", "43.7384,7.4246", "--reporter", "tester",
                                    "--data-dir", dir.path, "--map", TestData.bundledMonaco, "--now", "2026-05-01T12:00:00Z"])
        #expect(add.status == 0, "\(add.stderr)")
        for args in [["hazards", "list", "--json"], ["hazards", "export", "--geojson"]] {
            let r = try BuiltCLI.run(args + ["--data-dir", dir.path, "--now", "2026-05-01T12:00:00Z"])
            #expect(r.status == 0, "\(r.stderr)")
            let all = Self.keys(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)))
            #expect(all.contains("expires_at"), "\(args): \(all)")
            let camel = all.filter { $0.contains(where: \.isUppercase) }
            #expect(camel.isEmpty, "\(args): camelCase keys \(camel)")
        }
    }
}
