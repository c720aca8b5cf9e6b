import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Saved routes through the CLI: round trip, tamper detection, a changed map, another map.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct SavedRoutesCLITests {
    static let street: [String: String] = ["highway": "residential", "surface": "asphalt"]
    /// Two ways from A to C: the straight one is gravel, so `smoothest` rides round by D, E, F.
    static let art = """
    A-----B-----C
    |           |
    D-----E-----F
    """

    static func writeMap(_ path: String, straightSurface: String) throws {
        let m = AsciiMap(art, ways: [("ABC", ["highway": "residential", "surface": straightSurface]), ("ADEFC", street)])
        try MapFormat.write(m.map, to: path)
    }

    func run(_ args: [String], _ dir: URL) throws -> BuiltCLI.Result {
        try BuiltCLI.run(args + ["--data-dir", dir.path])
    }

    @Test func roundTripTamperAndChangedMap() throws {
        let dir = TestData.temporaryDirectory("routes-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mapPath = dir.appendingPathComponent("square.srmap").path
        try Self.writeMap(mapPath, straightSurface: "gravel")
        let a = AsciiMap.origin
        let c = AsciiMap(Self.art, ways: [("ABC", Self.street)]).nodes["C"]!
        // Save from plan JSON (stdin-free: a file).
        let plan = try run(["plan", "--from", a.description, "--to", c.description, "--map", mapPath, "--format", "json", "--no-store"], dir)
        #expect(plan.status == 0, "\(plan.stderr)")
        let planFile = dir.appendingPathComponent("p.json")
        try plan.stdout.write(to: planFile, atomically: true, encoding: .utf8)
        let save = try run(["routes", "save", "Loop", "--plan", planFile.path, "--map", mapPath], dir)
        #expect(save.status == 0, "\(save.stderr)")
        // Round trip: the JSON comes back byte for byte (modulo the trailing newline).
        let shown = try run(["routes", "show", "loop", "--json", "--map", mapPath], dir)
        #expect(shown.status == 0 && shown.stderr.isEmpty, "\(shown.stderr)")
        #expect(shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == plan.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let gpx = try run(["routes", "export", "Loop", "--gpx", "--map", mapPath], dir)
        let planObj = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let points = (planObj["geometry"] as? [[Double]])?.count ?? -1
        #expect(gpx.stdout.components(separatedBy: "<trkpt").count - 1 == points)
        // A duplicate name is one line.
        let dup = try run(["routes", "save", "LOOP", "--plan", planFile.path, "--map", mapPath], dir)
        #expect(dup.status == 1 && dup.stderr.contains("already exists") && dup.stderr.split(separator: "\n").count == 1)

        // The map changes (the straight way is paved now): show re-plans and says what changed.
        try Self.writeMap(mapPath, straightSurface: "asphalt")
        let changed = try run(["routes", "show", "Loop", "--map", mapPath], dir)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stderr.contains("map changed") && changed.stderr.contains("re-planned") && changed.stderr.split(separator: "\n").count == 1,
                "\(changed.stderr)")
        #expect(changed.stderr.contains("distance 400 → 300 m (-100 m)") && changed.stderr.contains("steps 3 → 2"), "the straight line (300 m) replaces the loop (400 m): \(changed.stderr)")
        #expect(changed.stdout.contains("Arrive"))

        // Tampering with the stored plan is refused in one line (and `list` says so).
        let db = dir.appendingPathComponent("skateroute.sqlite").path
        try sqlite(db, "UPDATE savedRoute SET planJSON = replace(planJSON, '\"mode\"', '\"mode \"')")
        let bad = try run(["routes", "show", "Loop", "--map", mapPath], dir)
        #expect(bad.status == 1 && bad.stderr.contains("corrupted") && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        #expect(try run(["routes", "list"], dir).stdout.contains("CORRUPTED"))
        #expect(try run(["routes", "rm", "Loop"], dir).status == 0)
        #expect(try run(["routes", "list"], dir).stdout.contains("no saved routes"))
    }

    @Test func aPlanFromAnotherMapIsRefused() throws {
        let dir = TestData.temporaryDirectory("routes-cli-other")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mapPath = dir.appendingPathComponent("square.srmap").path
        try Self.writeMap(mapPath, straightSurface: "gravel")
        let monaco = try run(["plan", "--from", "Jardin Exotique", "--to", "Stade Louis II", "--format", "json", "--no-store",
                              "--map", TestData.bundledMonaco], dir)
        let f = dir.appendingPathComponent("m.json")
        try monaco.stdout.write(to: f, atomically: true, encoding: .utf8)
        let r = try run(["routes", "save", "Wrong", "--plan", f.path, "--map", mapPath], dir)
        #expect(r.status == 1 && r.stderr.contains("is not on map") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        // Truncated JSON is not a plan.
        try String(monaco.stdout.prefix(500)).write(to: f, atomically: true, encoding: .utf8)
        let t = try run(["routes", "save", "Cut", "--plan", f.path, "--map", TestData.bundledMonaco], dir)
        #expect(t.status == 1 && t.stderr.contains("is not a plan") && t.stderr.split(separator: "\n").count == 1, "\(t.stderr)")
    }

    /// Runs SQL on a database with GRDB-free sqlite3 (skips the tamper step when it is absent).
    func sqlite(_ db: String, _ sql: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["sqlite3", db, sql]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "sqlite3 is needed for the tamper step")
    }
}
