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
}
