import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// `skateroute stats` over a replayed shipped ride and a cut log, with the weekly goal.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct StatsCLITests {
    @Test func statsFromAReplayAndACutLog() throws {
        let dir = TestData.temporaryDirectory("stats-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rides = dir.appendingPathComponent("rides")
        let ride = TestData.projectRoot.appendingPathComponent("Rides/descent-jardin-exotique").path
        let replay = try BuiltCLI.run(["ride", ride, "--headless", "--log", rides.appendingPathComponent("descent.ndjson").path,
                                       "--map", TestData.bundledMonaco, "--no-store"])
        #expect(replay.status == 0, "\(replay.stderr)")
        // A copy cut mid-line, with its own ride id.
        let full = try String(contentsOf: rides.appendingPathComponent("descent.ndjson"), encoding: .utf8)
        let cut = String(full.prefix(full.count / 3)).replacingOccurrences(of: "descent-jardin-exotique", with: "crashed")
        try cut.write(to: rides.appendingPathComponent("crashed.ndjson"), atomically: true, encoding: .utf8)
        let goal = try BuiltCLI.run(["stats", "goal", "20km", "--data-dir", dir.path])
        #expect(goal.status == 0 && goal.stdout.contains("20.0 km"))
        let badGoal = try BuiltCLI.run(["stats", "goal", "lots", "--data-dir", dir.path])
        #expect(badGoal.status == 1 && badGoal.stderr.split(separator: "\n").count == 1)

        let args = ["stats", "--all", "--json", "--data-dir", dir.path, "--map", TestData.bundledMonaco, "--now", "2026-05-02T12:00:00Z"]
        let r = try BuiltCLI.run(args)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("crashed.ndjson") && r.stderr.split(separator: "\n").count == 1, "one line for the cut log: \(r.stderr)")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let totals = try #require(obj["totals"] as? [String: Any])
        #expect(totals["rides"] as? Int == 2)
        // The descent ride drops ~100 m down the Jardin Exotique hairpins (map elevation).
        #expect((totals["descent_m"] as? Double ?? 0) > 50, "\(totals)")
        let moving = totals["moving_s"] as? Double ?? 0, elapsed = totals["duration_s"] as? Double ?? 0
        #expect(moving > 0 && moving <= elapsed + 1)
        let badges = try #require(obj["badges"] as? [[String: Any]])
        #expect(badges.first?["id"] as? String == "first_ride" && badges.first?["earned"] as? String == "2026-05-01")
        #expect((obj["goal"] as? [String: Any])?["weekly_m"] as? Double == 20_000)
        // A second run reads the index, not the logs again, and gives the same figures; a deleted log stays in the history.
        try FileManager.default.removeItem(at: rides.appendingPathComponent("descent.ndjson"))
        let again = try BuiltCLI.run(args)
        let obj2 = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect((obj2["totals"] as? [String: Any])?["distance_m"] as? Double == totals["distance_m"] as? Double)
        let text = try BuiltCLI.run(["stats", "--week", "--data-dir", dir.path, "--now", "2026-05-02T12:00:00Z"])
        #expect(text.stdout.contains("this week: 2 rides") && text.stdout.contains("weekly goal:") && text.stdout.contains("First ride — record a first ride"),
                "\(text.stdout)")
    }
}
