import Foundation
import Testing
import SkateCore
@testable import SkateRide
import SkateTestSupport

@Suite struct GPXTimeTests {
    @Test func parsesGPXTimeForms() {
        #expect(ISO8601Time.parse("1970-01-01T00:00:00Z") == 0)
        #expect(ISO8601Time.parse("2018-10-16T09:26:33Z") == 1_539_681_993)
        let withOffset = ISO8601Time.parse("2010-10-03T08:29:53.994+01:00")!
        #expect(abs(withOffset - (ISO8601Time.parse("2010-10-03T07:29:53Z")! + 0.994)) < 1e-6)
        #expect(ISO8601Time.parse("2015-12-11T15:43:13.9999999Z")! > ISO8601Time.parse("2015-12-11T15:43:13Z")!)
        #expect(ISO8601Time.parse("2015-02-06T07:36:46") == ISO8601Time.parse("2015-02-06T07:36:46Z"))
        #expect(ISO8601Time.parse("2015-02-06T07:36:46-0230") == ISO8601Time.parse("2015-02-06T10:06:46Z"))
        #expect(ISO8601Time.parse("yesterday") == nil)
        #expect(ISO8601Time.parse("2015-13-06T07:36:46Z") == nil)
        #expect(ISO8601Time.format(1_539_681_993) == "2018-10-16T09:26:33Z")
    }
}

@Suite struct GPXReaderTests {
    static func write(_ text: String, name: String = "t.gpx") -> String {
        let dir = TestData.temporaryDirectory("gpx")
        let path = dir.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func readsSeveralTracksSegmentsAndNamespacePrefixes() throws {
        let path = Self.write("""
        <?xml version="1.0"?>
        <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1">
          <g:trk><g:name>Loop</g:name>
            <g:trkseg>
              <g:trkpt lat="43.7" lon="7.4"><g:ele>10</g:ele><g:time>2020-01-01T00:00:00Z</g:time>
                <g:extensions><x:time xmlns:x="urn:x">1999-01-01T00:00:00Z</x:time></g:extensions></g:trkpt>
              <g:trkpt lat="43.701" lon="7.4"><g:time>2020-01-01T00:00:01.5Z</g:time></g:trkpt>
            </g:trkseg>
            <g:trkseg><g:trkpt lat="43.702" lon="7.4"><g:time>2020-01-01T00:00:03Z</g:time></g:trkpt></g:trkseg>
          </g:trk>
          <g:trk><g:trkseg><g:trkpt lat="43.703" lon="7.4"><g:time>2020-01-01T00:00:04Z</g:time></g:trkpt></g:trkseg></g:trk>
        </g:gpx>
        """)
        let t = try GPXReader().read(path: path)
        #expect(t.name == "Loop")
        #expect(t.segments.map(\.fixes.count) == [2, 1, 1])
        let f = t.allFixes
        #expect(f[0].elevation == 10)
        #expect(f[1].elevation == nil)
        #expect(f[0].time == ISO8601Time.parse("2020-01-01T00:00:00Z"))  // extension time ignored
        #expect(f[1].time! - f[0].time! == 1.5)
        #expect(t.warnings.isEmpty)
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func readsGPX10And11RealFiles() throws {
        let v10 = try GPXReader().read(path: TestData.path("gpx/graphhopper-tests/gpxv1_0.gpx"))
        #expect(v10.fixCount == 14)
        #expect(v10.allFixes.allSatisfy { $0.time != nil && $0.elevation == nil })
        let all11Path = TestData.path("gpx/gpxpy-testfiles/gpx1.1_with_all_fields.gpx")
        #expect(throws: GPXError.missingTimes(path: all11Path, missing: 4, total: 6)) { try GPXReader().read(path: all11Path) }
        let all11 = try GPXReader(assumedSpeedKmh: 12).read(path: all11Path)
        #expect(all11.fixCount == 6)
        let v10all = try GPXReader(assumedSpeedKmh: 12).read(path: TestData.path("gpx/gpxpy-testfiles/gpx1.0_with_all_fields.gpx"))
        #expect(v10all.fixCount > 0)
        let lessSec = try GPXReader().read(path: TestData.path("gpx/gpxpy-testfiles/track-with-less-sec-time.gpx"))
        let times = lessSec.allFixes.compactMap(\.time)
        #expect(times.count == 2)
        #expect(abs(times[1] - times[0] - 0.994) < 1e-6)
        #expect(times[0] == ISO8601Time.parse("2015-12-11T14:43:13Z"))  // +01:00 offset applied
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func readsBOMFilesAndRoutes() throws {
        // These hold a single <wpt> after a BOM: parsed (not "malformed"), but no track points.
        for name in ["unicode_with_bom.gpx", "unicode_with_bom_noencoding.gpx"] {
            let path = TestData.path("gpx/gpxpy-testfiles/" + name)
            #expect(throws: GPXError.noTrackPoints(path: path)) { try GPXReader().read(path: path) }
        }
        let bom = Self.write("\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?><gpx version=\"1.0\"><trk><trkseg>"
            + "<trkpt lat=\"43.7\" lon=\"7.4\"><time>2020-01-01T00:00:00Z</time><name>Ž</name></trkpt></trkseg></trk></gpx>")
        #expect(try GPXReader().read(path: bom).fixCount == 1)
        let route = TestData.path("gpx/gpxpy-testfiles/route.gpx")
        #expect(throws: GPXError.self) { try GPXReader().read(path: route) }  // rtept without times
        let r = try GPXReader(assumedSpeedKmh: 18).read(path: route)
        #expect(r.fixCount > 10)
        let fixes = r.allFixes
        // Times synthesised from distance at 18 km/h = 5 m/s, starting at 0.
        #expect(fixes[0].time == 0)
        let d = Geo.distance(fixes[0].coordinate, fixes[1].coordinate)
        #expect(abs(fixes[1].time! - d / 5) < 1e-9)
        #expect(r.warnings.contains { $0.contains("synthesised") })
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func missingTimesIsAClearErrorUnlessSpeedAssumed() throws {
        let path = TestData.path("gpx/gpxpy-testfiles/cerknicko-without-times.gpx")
        do {
            _ = try GPXReader().read(path: path)
            Issue.record("expected an error")
        } catch let e as GPXError {
            #expect(e.description.contains("cerknicko-without-times.gpx"))
            #expect(e.description.contains("--assume-speed"))
        }
        let t = try GPXReader(assumedSpeedKmh: 10).read(path: path)
        let times = t.allFixes.map { $0.time! }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(throws: GPXError.badAssumedSpeed(0)) { try GPXReader(assumedSpeedKmh: 0).read(path: path) }
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func sacalobraBackwardJumpIsSplitWithAWarning() throws {
        let path = TestData.path("gpx/sacalobra-strava/sa_calobra_strava_2018-10-16.gpx")
        let t = try GPXReader().read(path: path)
        #expect(t.fixCount == 4662)
        #expect(t.segments.count == 2)
        #expect(t.segments[0].fixes.count == 3243)
        let jumps = t.warnings.filter { $0.contains("time goes back") }
        #expect(jumps.count == 1)
        #expect(jumps.first?.contains("5395 s") == true)
        #expect(jumps.first?.contains("index 3243") == true)
        for seg in t.segments {
            let times = seg.fixes.map { $0.time! }
            #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        }
        #expect(t.allFixes.allSatisfy { $0.elevation != nil })

        let ordered = t.fixesInTimeOrder
        #expect(ordered.count == 4662)
        #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.time! <= $1.time! })
        #expect(ordered.first?.time == ISO8601Time.parse("2018-10-16T09:26:33Z"))
        #expect(ordered.last?.time == ISO8601Time.parse("2018-10-16T10:56:28Z"))
        // Merged with motion, the replay stream is monotone.
        let motion = stride(from: ordered.first!.time!, to: ordered.first!.time! + 5, by: 0.01).map { MotionSample(t: $0, ax: 0, ay: 0, az: 1) }
        let merged = Array(StreamMerge<RideInput>.ride(fixes: ordered, motion: motion))
        #expect(merged.count == 4662 + motion.count)
        #expect(zip(merged, merged.dropFirst()).allSatisfy { $0.time <= $1.time })

        let dropped = try GPXReader(backwardTime: .drop).read(path: path)
        #expect(dropped.segments.count == 1)
        #expect(dropped.fixCount == 3243)
        #expect(dropped.warnings.contains { $0.contains("dropped 1419 point(s) from index 3243") })
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func malformedFilesGiveClearErrors() throws {
        for name in ["no_trk.gpx", "no_trkpt.gpx", "no_trkseg.gpx"] {
            let path = TestData.path("gpx/graphhopper-tests/" + name)
            #expect(throws: GPXError.noTrackPoints(path: path), "\(name)") { try GPXReader(assumedSpeedKmh: 10).read(path: path) }
        }
        // Waypoints plus a timeless 5-point <rte>: a clear error, or the route with a speed.
        let wpt = TestData.path("gpx/graphhopper-tests/test-only-wpt.gpx")
        #expect(throws: GPXError.missingTimes(path: wpt, missing: 5, total: 5)) { try GPXReader().read(path: wpt) }
        #expect(try GPXReader(assumedSpeedKmh: 10).read(path: wpt).fixCount == 5)
        #expect(GPXError.noTrackPoints(path: "x.gpx").description == "x.gpx: no track points (no <trkpt> or <rtept> with lat/lon)")
    }

    @Test func garbageAndMissingFilesNeverCrash() throws {
        var rng = SeededGenerator(seed: 42)
        let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let dir = TestData.temporaryDirectory("gpx")
        let garbage = dir.appendingPathComponent("garbage.gpx").path
        FileManager.default.createFile(atPath: garbage, contents: Data(bytes))
        do {
            _ = try GPXReader().read(path: garbage)
            Issue.record("garbage parsed")
        } catch let e as GPXError {
            guard case .malformed = e else { Issue.record("unexpected \(e)"); return }
            #expect(e.description.hasPrefix(garbage))
        }
        let notGPX = Self.write("<kml><Placemark/></kml>")
        #expect(throws: GPXError.self) { try GPXReader().read(path: notGPX) }
        let truncated = Self.write("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2020-01-01T00:00:00Z</ti")
        #expect(throws: GPXError.self) { try GPXReader().read(path: truncated) }
        let empty = Self.write("")
        #expect(throws: GPXError.self) { try GPXReader().read(path: empty) }
        #expect(throws: GPXError.unreadable(path: "/nonexistent/x.gpx", reason: "no such file")) {
            try GPXReader().read(path: "/nonexistent/x.gpx")
        }
    }

    @Test func badPointsAreSkippedWithAWarning() throws {
        let path = Self.write("""
        <gpx><trk><trkseg>
        <trkpt lat="43.7" lon="7.4"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="north" lon="7.4"><time>2020-01-01T00:00:01Z</time></trkpt>
        <trkpt lat="95" lon="7.4"><time>2020-01-01T00:00:02Z</time></trkpt>
        <trkpt lat="43.7" lon="7.41"><time>2020-01-01T00:00:03Z</time></trkpt>
        </trkseg></trk></gpx>
        """)
        let t = try GPXReader().read(path: path)
        #expect(t.fixCount == 2)
        #expect(t.warnings.count == 1)
        #expect(t.warnings[0].contains("skipped 2 point(s)") && t.warnings[0].contains("index 1"))
    }
}

@Suite struct GPXLargeFileTests {
    /// XMLParser(data:) refuses documents over 10,000,000 bytes; the reader must not.
    @Test func readsAFileOverTenMegabytes() throws {
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        let pad = String(repeating: " ", count: 60)
        let n = 80_000
        for i in 0..<n {
            let lat = 43.7 + Double(i) * 1e-6
            text += "<trkpt lat=\"\(lat)\" lon=\"7.42\"><ele>12.5</ele><time>\(ISO8601Time.format(1_600_000_000 + Double(i)))</time></trkpt>\(pad)\n"
        }
        text += "</trkseg></trk></gpx>\n"
        #expect(text.utf8.count > 10_000_000)
        let path = GPXReaderTests.write(text, name: "big.gpx")
        let t = try GPXReader().read(path: path)
        #expect(t.fixCount == n)
        #expect(t.segments.count == 1 && t.warnings.isEmpty)
    }
}
