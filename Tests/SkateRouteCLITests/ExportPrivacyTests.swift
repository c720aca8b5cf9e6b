import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// `skateroute export ride` privacy (issue 17): on by default, the first/last metres and every
/// point within the radius of a saved home are left out; `--no-privacy` exports all;
/// `--downsample` thins the track. Uses the shipped replay Rides/old-town-rocher on Monaco.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct ExportPrivacyTests {
    static let bundled = TestData.bundledMonaco
    static let ride = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher").path

    /// The track points of a GPX document, in order.
    static func points(_ gpx: String) -> [Coordinate] {
        let re = try! NSRegularExpression(pattern: "<trkpt lat=\"([-0-9.]+)\" lon=\"([-0-9.]+)\"")
        let ns = gpx as NSString
        return re.matches(in: gpx, range: NSRange(location: 0, length: ns.length)).map {
            Coordinate(lat: Double(ns.substring(with: $0.range(at: 1)))!, lon: Double(ns.substring(with: $0.range(at: 2)))!)
        }
    }

    /// Metres along the track at each point.
    static func along(_ pts: [Coordinate]) -> [Double] {
        var a = [0.0]
        for i in pts.indices.dropFirst() { a.append(a[i - 1] + Geo.distance(pts[i - 1], pts[i])) }
        return a
    }

    @Test func defaultExportHidesHomeAndTheEnds() throws {
        let dir = TestData.temporaryDirectory("export-privacy")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("ride.ndjson").path, data = dir.appendingPathComponent("data").path
        let r = try BuiltCLI.run(["ride", Self.ride, "--headless", "--json", "--no-store", "--map", Self.bundled, "--log", log])
        #expect(r.status == 0, "\(r.stderr)")
        let all = try BuiltCLI.run(["export", "ride", log, "--map", Self.bundled, "--no-privacy", "--data-dir", data])
        #expect(all.status == 0, "\(all.stderr)")
        let full = Self.points(all.stdout)
        #expect(full.count > 50)
        let along = Self.along(full)
        // Home halfway along the ride.
        let home = full[along.firstIndex { $0 >= along.last! / 2 }!]
        // The shipped ride is ~650 m: the default 200 m trim leaves ~250 m; a 60 m radius hides its middle.
        let radius = 60.0
        let add = try BuiltCLI.run(["places", "add", "Home", "--at", "\(home.lat),\(home.lon)", "--category", "home", "--data-dir", data])
        #expect(add.status == 0, "\(add.stderr)")
        // The unprotected track passes through home.
        #expect(full.contains { Geo.distance($0, home) <= radius })

        let e = try BuiltCLI.run(["export", "ride", log, "--map", Self.bundled, "--data-dir", data, "--privacy-radius", "60"])
        #expect(e.status == 0, "\(e.stderr)")
        let kept = Self.points(e.stdout)
        #expect(!kept.isEmpty && kept.count < full.count)
        // No point within the radius of home.
        let nearest = kept.map { Geo.distance($0, home) }.min()!
        #expect(nearest > radius, "a kept point is \(nearest) m from home")
        // The first and last 200 m are gone: every kept point lies 200 m or more along from both ends.
        let total = along.last!
        for p in kept {
            let i = try #require(full.firstIndex(of: p))
            #expect(along[i] >= 200 && total - along[i] >= 200)
        }
        #expect(e.stderr.contains("privacy: kept \(kept.count) of \(full.count) point(s)") && e.stderr.contains("1 saved home/work place"))

        // A bigger radius hides more.
        let wide = Self.points(try BuiltCLI.run(["export", "ride", log, "--map", Self.bundled, "--data-dir", data, "--privacy-radius", "100"]).stdout)
        #expect(wide.count < kept.count && wide.allSatisfy { Geo.distance($0, home) > 100 })

        // --downsample 50: kept points at least 50 m apart, fewer of them.
        let thin = Self.points(try BuiltCLI.run(["export", "ride", log, "--map", Self.bundled, "--no-privacy", "--downsample", "50", "--data-dir", data]).stdout)
        #expect(thin.count < full.count / 2 && thin.count > 2)
        for i in thin.indices.dropFirst() { #expect(Geo.distance(thin[i - 1], thin[i]) >= 50) }
    }

    @Test func badPrivacyNumbersAreOneLineUsageErrors() throws {
        for args in [["--trim=-5"], ["--privacy-radius", "nan"], ["--downsample", "1e9"]] {
            let r = try BuiltCLI.run(["export", "ride", "/nonexistent/r.ndjson"] + args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("metres"), "\(args): \(r.stderr)")
        }
    }
}
