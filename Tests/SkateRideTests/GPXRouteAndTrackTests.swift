import Foundation
import Testing
import SkateCore
@testable import SkateRide
import SkateTestSupport

/// Interop 1 (issue 15): a GPX with both a route and a track (as our own plan GPX) is read as its
/// track, a route-only GPX as its route, and the reader says which.
@Suite struct GPXRouteAndTrackTests {
    static func length(_ fixes: [GPXFix]) -> Double {
        zip(fixes, fixes.dropFirst()).reduce(0) { $0 + Geo.distance($1.0.coordinate, $1.1.coordinate) }
    }

    @Test func bothRouteAndTrackReadsTheTrackOnly() throws {
        let dir = FuzzFiles.folder("gpx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try FuzzFiles.write(FuzzFiles.gpxWithRouteAndTrack(trackPoints: 20), "both.gpx", in: dir)
        let t = try GPXReader().read(path: path)
        #expect(t.source == .track)
        #expect(t.fixCount == 20 && t.ignoredPoints == 4)
        #expect(t.warnings.contains { $0.contains("has a route (4 point(s)) and a track") }, "\(t.warnings)")
        // 19 steps of 0.00002° latitude ≈ 42 m; joining the route's points 1 km away would add kilometres.
        #expect(abs(Self.length(t.allFixes) - 19 * 0.00002 * 111_195) < 1, "\(Self.length(t.allFixes))")
    }

    @Test func routeOnlyIsReadAsTheRoute() throws {
        let dir = FuzzFiles.folder("gpx")
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = FuzzFiles.gpxWithRouteAndTrack(trackPoints: 0)
        text = text.replacingOccurrences(of: "<trk><name>geometry</name><trkseg>\n</trkseg></trk>\n", with: "")
        #expect(!text.contains("<trk>"))
        let path = try FuzzFiles.write(text, "route.gpx", in: dir)
        let t = try GPXReader(assumedSpeedKmh: 12).read(path: path)
        #expect(t.source == .route && t.fixCount == 4 && t.ignoredPoints == 0)
        let src = try RideSource.open(path, assumeSpeedKmh: 12)
        #expect(src.warnings.contains { $0.contains("no track; replaying its route's 4 point(s)") }, "\(src.warnings)")
    }

    /// Route points without times beside a timed track no longer need --assume-speed.
    @Test func untimedRouteBesideATimedTrackIsNotAMissingTimeError() throws {
        let dir = FuzzFiles.folder("gpx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try FuzzFiles.write(FuzzFiles.gpxWithRouteAndTrack(trackPoints: 10, timed: true), "both.gpx", in: dir)
        let t = try GPXReader().read(path: path)
        #expect(t.allFixes.allSatisfy { $0.time != nil })
    }
}
