import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// `roughness` (events, --speed, --evaluate), `ride --json` per-edge figures and the log's
/// matched edges, `export disagreements --ride-log`, run as a user would.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct SensingCLITests {
    static let bundled = TestData.bundledMonaco
    static let ride = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher").path

    @Test func roughnessJSONReportsEventsBesideTheExistingFields() throws {
        let motion = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher/motion.csv").path
        let r = try BuiltCLI.run(["roughness", motion, "--json", "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        for k in ["robust_rms_g", "robust_class", "seconds_by_class", "events", "events_per_min", "events_per_100m",
                  "effective_rate_hz", "warnings", "degraded", "band_low_hz", "band_high_hz", "event_band_high_hz"] {
            #expect(o.keys.contains(k), "missing \(k)")
        }
        #expect(o["events_per_100m"] is NSNull)
        let withSpeed = try BuiltCLI.run(["roughness", motion, "--json", "--summary", "--speed", "4"])
        let o2 = try #require(try JSONSerialization.jsonObject(with: Data(withSpeed.stdout.utf8)) as? [String: Any])
        #expect(o2["events_per_100m"] is NSNumber && (o2["speed_mps"] as? Double) == 4)
        let bad = try BuiltCLI.run(["roughness", motion, "--speed=-1"])
        #expect(bad.status == 1 && bad.stderr.split(separator: "\n").count == 1)
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func evaluatePrintsMediansAndAUCsBesideTheBaseline() throws {
        let dir = TestData.path("motion/escooter-sidewalk-street-techiepizza2020")
        let r = try BuiltCLI.run(["roughness", "--evaluate", dir, "--classes", "sidewalk,street,standing"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("per-class medians") && r.stdout.contains("sidewalk > street") && r.stdout.contains("naive_std"))
        let j = try BuiltCLI.run(["roughness", "--evaluate", dir, "--classes", "sidewalk,street", "--json"])
        let o = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        let pairs = try #require(o["auc"] as? [[String: Any]])
        let events = try #require(pairs.first?["auc_events_per_min"] as? Double)
        let naive = try #require(pairs.first?["auc_naive_std_g"] as? Double)
        // 0.77 with the strike rule (issue 28; the 4–80 Hz band rule read 0.89 at 200 Hz, 0.68 at 50).
        #expect(events >= 0.75 && events > naive)
        let missing = try BuiltCLI.run(["roughness", "--evaluate", dir, "--classes", "gravel"])
        #expect(missing.status == 1 && missing.stderr.contains("no such class folder") && missing.stderr.split(separator: "\n").count == 1)
        let notDir = try BuiltCLI.run(["roughness", "--evaluate", "/nonexistent/labelled"])
        #expect(notDir.status == 1 && notDir.stderr.split(separator: "\n").count == 1)
    }

    @Test func rideJSONListsEdgesAndTheLogFeedsExport() throws {
        let dir = TestData.temporaryDirectory("sensing-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("ride.ndjson").path
        let r = try BuiltCLI.run(["ride", Self.ride, "--headless", "--json", "--no-store", "--map", Self.bundled, "--log", log])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let edges = try #require(o["edges"] as? [[String: Any]])
        #expect(edges.count >= 3)
        for e in edges {
            #expect((e["way"] as? NSNumber).map { $0.int64Value > 0 } == true)
            #expect(e["from_node"] is NSNumber && e["to_node"] is NSNumber && e["events"] is NSNumber)
        }
        #expect(edges.contains { $0["rms_g"] is NSNumber && $0["class"] is String })
        for k in ["dropped_fixes", "gps_jumps", "max_fix_speed_mps", "events", "events_per_min"] { #expect(o.keys.contains(k), "missing \(k)") }
        // Every sample line of the log names its matched edge when it has one, with units in the header.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["schema"] as? Int == 2 && (header["units"] as? [String: String])?["speed"] == "m/s")
        let samples = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.filter { $0["event"] == nil && $0["lat"] != nil }
        #expect(samples.count > 1000)
        let matched = samples.filter { $0["way"] is NSNumber }
        #expect(Double(matched.count) > 0.8 * Double(samples.count))
        #expect(matched.allSatisfy { $0["offset_m"] is NSNumber && $0["from_node"] is NSNumber && $0["to_node"] is NSNumber })
        #expect(lines.contains { $0.contains("\"edge_pass\"") })
        // export disagreements straight from the fresh log (no store involved).
        let ex = try BuiltCLI.run(["export", "disagreements", "--ride-log", log, "--map", Self.bundled])
        #expect(ex.status == 0, "\(ex.stderr)")
        let g = try #require(try JSONSerialization.jsonObject(with: Data(ex.stdout.utf8)) as? [String: Any])
        #expect(g["type"] as? String == "FeatureCollection")
        #expect(ex.stderr.contains("measured edge(s) in 1 ride log(s)"))
        // A schema-1 log says why it cannot be used, in one line.
        let old = dir.appendingPathComponent("old.ndjson").path
        _ = FileManager.default.createFile(atPath: old, contents: Data("{\"map\":\"Monaco\",\"mode\":\"free\",\"ride_id\":\"x\",\"schema\":1,\"start\":\"2026-05-01T10:00:00Z\",\"start_epoch\":1}\n".utf8))
        let bad = try BuiltCLI.run(["export", "disagreements", "--ride-log", old, "--map", Self.bundled])
        #expect(bad.status == 1 && bad.stderr.contains("schema 1") && bad.stderr.split(separator: "\n").count == 1)
    }
}
