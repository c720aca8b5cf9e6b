import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// `units = imperial` in the settings file: `plan`'s text reads feet and miles, its JSON stays metric.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct UnitsCLITests {
    /// A number followed by a metric distance unit: "76 m", "2.42 km", "31 m from".
    static var metricDistance: Regex<AnyRegexOutput> { try! Regex("[0-9] k?m\\b") }

    @Test func imperialPlanTextReadsFeetAndMilesAndTheJSONStaysMetric() throws {
        let metric = try SettingsCLITests.run(SettingsCLITests.plan, config: nil)
        let imperial = try SettingsCLITests.run(SettingsCLITests.plan, config: "units = imperial\n")
        #expect(metric.status == 0 && imperial.status == 0, "\(metric.stderr)\(imperial.stderr)")
        // The pattern finds metric text, so its absence below means something.
        #expect(metric.stdout.contains(Self.metricDistance), "\(metric.stdout)")
        #expect(!imperial.stdout.contains(Self.metricDistance), "\(imperial.stdout)")
        #expect(imperial.stdout.contains(" mi, ") && imperial.stdout.contains(" ft"), "\(imperial.stdout)")
        #expect(imperial.stdout.contains("(steepest 98 ft"), "\(imperial.stdout)")

        let json = SettingsCLITests.plan + ["--format", "json"]
        let metricJSON = try SettingsCLITests.run(json, config: nil)
        let imperialJSON = try SettingsCLITests.run(json, config: "units = imperial\n")
        #expect(metricJSON.status == 0 && metricJSON.stdout.contains("\"distance_m\""), "\(metricJSON.stdout.prefix(400))\(metricJSON.stderr)")
        #expect(imperialJSON.stdout == metricJSON.stdout)
    }

    @Test func imperialRideSummaryReadsMilesFeetAndMilesPerHour() throws {
        let gpx = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher/ride.gpx").path
        let dir = TestData.temporaryDirectory("units-ride")
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["ride", "--headless", "--no-store", "--log", dir.appendingPathComponent("l.ndjson").path, gpx]
        let metric = try SettingsCLITests.run(args, config: nil)
        let imperial = try SettingsCLITests.run(args, config: "units = imperial\n")
        let line = { (r: BuiltCLI.Result, prefix: String) in r.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init) ?? "" }
        #expect(line(metric, "ride: ").contains(" km/h") && line(metric, "surface: ").contains(" m"), "\(metric.stdout)\(metric.stderr)")
        let ride = line(imperial, "ride: "), surface = line(imperial, "surface: ")
        #expect(ride.contains(" mph") && !ride.contains("km"), "\(imperial.stdout)\(imperial.stderr)")
        #expect(ride.contains(" mi,") || ride.contains(" ft,"), "\(ride)")
        #expect(surface.contains(" ft") && !surface.contains(Self.metricDistance), "\(surface)")
    }

    @Test func imperialGPXDescriptionsStayMetric() throws {
        let gpx = SettingsCLITests.plan + ["--format", "gpx"]
        let metric = try SettingsCLITests.run(gpx, config: nil)
        let imperial = try SettingsCLITests.run(gpx, config: "units = imperial\n")
        #expect(metric.status == 0 && imperial.stdout == metric.stdout, "\(imperial.stderr)")
    }
}
