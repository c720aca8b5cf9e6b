import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Issue 29, row 1: five inputs that made a `Double` → `Int` conversion trap (exit 132), each
/// rebuilt here from plain files and rows, on the built binary. Now each is one line (or a
/// skipped row with a warning) and the commands after it still work.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct NumericTrapCLITests {
    static let ride = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher")

    /// A trap is SIGILL/SIGTRAP: `killed`, or a shell-style status of 128 + signal.
    static func expectNoTrap(_ r: BuiltCLI.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.killed && r.status < 128, "\(what): trapped (status \(r.status)): \(r.stderr)", sourceLocation: sourceLocation)
    }

    /// Runs SQL with the sqlite3 command-line shell (Debian's `sqlite3`, installed by `.ci/run`).
    static func sql(_ db: String, _ statement: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["sqlite3", db, statement]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "sqlite3 failed on: \(statement)")
    }
    static var hasSQLite3: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") }

    @Test func motionSampleAtTimeOneE18IsOneLine() throws {
        let dir = FuzzFiles.folder("trap-motion")
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("m.csv").path
        try "# units: g\nt,ax,ay,az\n0.00,0,0,1\n0.01,0,0,1\n1e18,0,0,1\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let gpx = Self.ride.appendingPathComponent("ride.gpx").path
        let r = try BuiltCLI.run(["ride", gpx, "--motion", csv, "--headless", "--no-store", "--map", TestData.bundledMonaco,
                                  "--log", dir.appendingPathComponent("l.ndjson").path])
        Self.expectNoTrap(r, "ride with t = 1e18")
        #expect(r.status == 1 && r.stderr.contains("m.csv:5") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        let rough = try BuiltCLI.run(["roughness", csv])
        Self.expectNoTrap(rough, "roughness with t = 1e18")
        #expect(rough.status == 1 && rough.stderr.contains("m.csv:5"))
    }

    @Test func planJSONWithHugeDistanceIsNotSaved() throws {
        let dir = FuzzFiles.folder("trap-routes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data").path
        let plan = try BuiltCLI.run(["plan", "--from", "Place du Casino", "--to", "Stade Louis II", "--format", "json", "--no-store",
                                     "--map", TestData.bundledMonaco])
        try #require(plan.status == 0, "\(plan.stderr)")
        // The same plan with its distance turned into 1e19 metres.
        let bad = try #require(plan.stdout.replacingFirstMatch(of: #""distance_m" : "#, suffixNumberWith: "1e19"))
        let file = dir.appendingPathComponent("bad.json").path
        try bad.write(toFile: file, atomically: true, encoding: .utf8)
        let save = try BuiltCLI.run(["routes", "save", "Bad", "--plan", file, "--data-dir", data, "--map", TestData.bundledMonaco])
        Self.expectNoTrap(save, "routes save of distance 1e19")
        #expect(save.status == 1 && save.stderr.split(separator: "\n").count == 1, "\(save.stderr)")
        let list = try BuiltCLI.run(["routes", "list", "--data-dir", data])
        Self.expectNoTrap(list, "routes list after the refused save")
        #expect(list.status == 0)
    }

    @Test(.enabled(if: hasSQLite3, "sqlite3 is not installed (.ci/run installs it)"))
    func hazardRowAtTimeNinePointThreeE18IsListed() throws {
        let dir = FuzzFiles.folder("trap-hazard")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data").path
        let add = try BuiltCLI.run(["hazards", "add", "--kind", "pothole", "--at", "43.7384,7.4246", "--data-dir", data,
                                    "--map", TestData.bundledMonaco])
        try #require(add.status == 0, "\(add.stderr)")
        try Self.sql(data + "/skateroute.sqlite", "UPDATE hazard SET createdAt = 9.3e18, lastConfirmedAt = 9.3e18")
        for args in [["hazards", "list"], ["hazards", "list", "--json"], ["hazards", "export"]] {
            let r = try BuiltCLI.run(args + ["--data-dir", data])
            Self.expectNoTrap(r, args.joined(separator: " "))
            #expect(r.status == 0, "\(args): \(r.stderr)")
        }
    }

    @Test func rideLogWithTimeOneE300IsSkippedAndForgotten() throws {
        let dir = FuzzFiles.folder("trap-stats")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data").path
        let rides = dir.appendingPathComponent("rides")
        try FileManager.default.createDirectory(at: rides, withIntermediateDirectories: true)
        let log = rides.appendingPathComponent("bad.ndjson").path
        try """
            {"schema":2,"ride_id":"bad","map":"","mode":"smoothest","start_epoch":1780000000,"start":"2026-05-28T20:26:40Z"}
            {"t":0,"lat":43.73,"lon":7.42,"speed":3}
            {"t":1e300,"lat":43.731,"lon":7.421,"speed":3}

            """.write(toFile: log, atomically: true, encoding: .utf8)
        let first = try BuiltCLI.run(["stats", "--rides", rides.path, "--data-dir", data])
        Self.expectNoTrap(first, "stats over a log at t = 1e300")
        #expect(first.status == 0, "\(first.stderr)")
        try FileManager.default.removeItem(atPath: log)
        let after = try BuiltCLI.run(["stats", "--rides", rides.path, "--data-dir", data])
        Self.expectNoTrap(after, "stats after deleting the log")
        #expect(after.status == 0 && after.stdout.contains("0 rides"), "\(after.stdout)\n\(after.stderr)")
    }

    @Test(.enabled(if: hasSQLite3, "sqlite3 is not installed (.ci/run installs it)"))
    func poisonedRideIndexRowIsSkippedWithAWarning() throws {
        let dir = FuzzFiles.folder("trap-index")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data").path
        let rides = dir.appendingPathComponent("rides")
        try FileManager.default.createDirectory(at: rides, withIntermediateDirectories: true)
        // An empty history creates the store; then a row no ride can hold, as an older build
        // (or a hand) could have written it.
        let empty = try BuiltCLI.run(["stats", "--rides", rides.path, "--data-dir", data])
        try #require(empty.status == 0, "\(empty.stderr)")
        try Self.sql(data + "/skateroute.sqlite", """
            INSERT INTO rideIndex(rideId, path, fileSize, fileModified, startEpoch, map, mode, distance, duration, movingTime,
                                  climb, descent, crustyMetres, maxSpeed, complete)
            VALUES ('poison', '/nowhere.ndjson', 1, 1, 1780000000, '', 'smoothest', 1000, 1e300, 1e300, 1e300, 0, 0, 3, 1)
            """)
        for args in [["stats"], ["stats", "--json"]] {
            let r = try BuiltCLI.run(args + ["--rides", rides.path, "--data-dir", data])
            Self.expectNoTrap(r, args.joined(separator: " "))
            #expect(r.status == 0 && r.stderr.contains("poison") && r.stderr.contains("out of range"), "\(r.stderr)")
        }
    }
}

private extension String {
    /// This text with the number after the first `key` replaced by `value`, or nil.
    func replacingFirstMatch(of key: String, suffixNumberWith value: String) -> String? {
        guard let r = range(of: key) else { return nil }
        var end = r.upperBound
        while end < endIndex, "-+.0123456789eE".contains(self[end]) { end = index(after: end) }
        return String(self[..<r.upperBound]) + value + String(self[end...])
    }
}
