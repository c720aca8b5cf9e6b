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
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
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
        // A route (5 points, untimed) and a track (1 timed point): the track is read (issue 15).
        let all11 = try GPXReader().read(path: all11Path)
        #expect(all11.fixCount == 1 && all11.source == .track && all11.ignoredPoints == 5)
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
        _ = FileManager.default.createFile(atPath: garbage, contents: Data(bytes))
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

/// Our reader against gpxpy, an independent GPX parser, on every real GPX file. The `gpxpy`
/// signatures are gpxpy 1.5's reading (Debian's python3-gpxpy), printed by
/// `scripts/gpxpy-signatures.py --swift` (the script says what each field means); the test computes
/// the same signature from `GPXReader` and compares. Where our reader differs on purpose, `ours`
/// names the fields that differ, with their values, and `why` says why; every other field must
/// still equal gpxpy's. `gpxpyStillPrintsTheseSignatures` re-runs the script when gpxpy is
/// installed, so the table cannot drift from gpxpy to our own reader's answers again (commit
/// 6ecfd33 had regenerated it from our reader).
///
/// What the signature leaves to other tests, because gpxpy has no such policy: the warnings, the
/// error texts, times synthesised from an assumed speed (`readsBOMFilesAndRoutes`,
/// `missingTimesIsAClearErrorUnlessSpeedAssumed`) and dropping backward times
/// (`sacalobraBackwardJumpIsSplitWithAWarning`).
@Suite struct GPXMatchesGpxpyTests {
    struct Expected {
        var file: String
        /// gpxpy's signature, as the script prints it.
        var gpxpy: String
        /// The fields where our reader differs on purpose (field name → our value).
        var ours: [String: String]
        var why: String
        init(_ file: String, _ gpxpy: String, ours: [String: String] = [:], why: String = "") {
            self.file = file
            self.gpxpy = gpxpy
            self.ours = ours
            self.why = why
        }

        /// gpxpy's signature with the differing fields replaced by ours.
        var oursExpected: String {
            if ours.isEmpty { return gpxpy }
            var parts = GPXMatchesGpxpyTests.fields(gpxpy)
            for (key, value) in ours {
                guard let i = parts.firstIndex(where: { $0.key == key }) else { return "unknown field \(key) in the table" }
                parts[i].value = value
            }
            return parts.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }

    static let keys = ["src", "segs", "timed", "first", "last", "ele", "eleSum", "lat", "lon", "name"]

    /// A signature cut into its fields (values may hold spaces: `segs=[1, 2]`, `name=a b`).
    static func fields(_ signature: String) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        var rest = Substring(signature)
        for (i, key) in keys.enumerated() {
            guard rest.hasPrefix(key + "=") else { return [("unparsed", signature)] }
            rest = rest.dropFirst(key.count + 1)
            if i + 1 < keys.count, let end = rest.range(of: " " + keys[i + 1] + "=") {
                out.append((key, String(rest[..<end.lowerBound])))
                rest = rest[rest.index(after: end.lowerBound)...]
            } else {
                out.append((key, String(rest)))
            }
        }
        return out
    }

    /// The script's signature computed from our reader (see `scripts/gpxpy-signatures.py`).
    /// A file whose points lack times is read with an assumed speed; the times that stay the same
    /// at 12 and 24 km/h are the file's own (a synthesised one moves with the speed), unless the
    /// file has none (the synthesised clock then starts at 0 at any speed).
    static func signature(_ path: String) -> String {
        let track: GPXTrack
        let timed: Int, total: Int
        let own: [Double?]
        do {
            do {
                track = try GPXReader().read(path: path)
                own = track.allFixes.map(\.time)
                total = own.count
                timed = total
            } catch let GPXError.missingTimes(_, missing, all) {
                track = try GPXReader(assumedSpeedKmh: 12).read(path: path)
                let faster = try GPXReader(assumedSpeedKmh: 24).read(path: path)
                own = zip(track.allFixes, faster.allFixes).map { missing < all && $0.time == $1.time ? $0.time : nil }
                timed = all - missing
                total = all
            }
        } catch GPXError.noTrackPoints {
            return "no points"
        } catch {
            return "error: \(error)"
        }
        let f = track.allFixes
        let times = own.compactMap { $0 }
        let ele = f.compactMap(\.elevation)
        let lat = f.reduce(0.0) { $0 + $1.coordinate.lat }, lon = f.reduce(0.0) { $0 + $1.coordinate.lon }
        func micro(_ t: Double?) -> String { t.map { String(format: "%.6f", $0) } ?? "nil" }
        let segs = track.segments.map { String($0.fixes.count) }.joined(separator: ", ")
        return "src=\(track.source.rawValue) segs=[\(segs)] timed=\(timed)/\(total) first=\(micro(times.first)) last=\(micro(times.last))"
            + " ele=\(ele.count) eleSum=\(ele.reduce(0, +)) lat=\(lat) lon=\(lon) name=\(track.name ?? "nil")"
    }

    static let split = "our reader starts a new segment where time goes back (a replay must be monotone); gpxpy keeps the file's one segment"

    static let expected: [Expected] = [
        Expected("gpxpy-testfiles/Mojstrovka.gpx",
                 "src=track segs=[184] timed=184/184 first=-2147483647.792657 last=-2147483647.792657 ele=184 eleSum=336960.7281600001 lat=8543.675177 lon=2528.6884970000015 name=nil",
                 ours: ["segs": "[1, 183]", "first": "-2147483647.792656", "last": "-2147483647.792656"],
                 why: "the second point's time goes back: " + split + "; the times (1901, with 7 decimals) keep their 100 ns digit here, gpxpy's datetime truncates to the microsecond"),
        Expected("gpxpy-testfiles/around-visnjan-with-car.gpx",
                 "src=track segs=[104] timed=104/104 first=1608272150.000000 last=1608272664.000000 ele=104 eleSum=23127.83 lat=4708.6785497703 lon=1426.5852327738996 name=2020-12-18 07:24:29"),
        Expected("gpxpy-testfiles/cerknicko-jezero-no-creator.gpx",
                 "src=track segs=[173, 52, 2, 44, 2, 2, 21] timed=296/296 first=1281018239.000000 last=1281025429.000000 ele=296 eleSum=162927.8685499998 lat=13547.734576710996 lon=4248.871361307 name=ACTIVE LOG"),
        Expected("gpxpy-testfiles/cerknicko-jezero-with-elevations-zero.gpx",
                 "src=track segs=[173, 52, 2, 44, 2, 2, 21] timed=296/296 first=1281018239.000000 last=1281025429.000000 ele=296 eleSum=0.0 lat=13547.734576710996 lon=4248.871361307 name=ACTIVE LOG"),
        Expected("gpxpy-testfiles/cerknicko-jezero-without-elevations.gpx",
                 "src=track segs=[173, 52, 2, 44, 2, 2, 21] timed=295/296 first=1281018239.000000 last=1281025415.000000 ele=0 eleSum=0.0 lat=13547.734576710996 lon=4248.871361307 name=ACTIVE LOG"),
        Expected("gpxpy-testfiles/cerknicko-jezero.gpx",
                 "src=track segs=[173, 52, 2, 44, 2, 2, 21] timed=296/296 first=1281018239.000000 last=1281025429.000000 ele=296 eleSum=162927.8685499998 lat=13547.734576710996 lon=4248.871361307 name=ACTIVE LOG"),
        Expected("gpxpy-testfiles/cerknicko-without-times.gpx",
                 "src=track segs=[173, 52, 2, 44, 2, 2, 21] timed=5/296 first=1281025372.000000 last=1281025429.000000 ele=296 eleSum=162927.8685499998 lat=13547.734576710996 lon=4248.871361307 name=ACTIVE LOG"),
        Expected("gpxpy-testfiles/custom_schema_locations.gpx",
                 "no points"),
        Expected("gpxpy-testfiles/default_schema_locations.gpx",
                 "no points"),
        Expected("gpxpy-testfiles/first_and_last_elevation.gpx",
                 "src=track segs=[10] timed=10/10 first=1368865384.000000 last=1368868984.000000 ele=2 eleSum=280.0 lat=456.93156762190006 lon=146.58229283749998 name=nil",
                 ours: ["segs": "[9, 1]"], why: split),
        Expected("gpxpy-testfiles/gpx-with-node-with-comments.gpx",
                 "src=track segs=[1] timed=1/1 first=1399379373.000000 last=1399379373.000000 ele=1 eleSum=81.0 lat=51.519402 lon=-0.134462 name=2014-05-06_132925"),
        Expected("gpxpy-testfiles/gpx1.0_with_all_fields.gpx",
                 "src=track segs=[1] timed=1/1 first=1357041604.000000 last=1357041604.000000 ele=1 eleSum=11.1 lat=10.1 lon=-20.2 name=example name"),
        Expected("gpxpy-testfiles/gpx1.1_with_all_fields.gpx",
                 "src=track segs=[1] timed=1/1 first=1357041604.000000 last=1357041604.000000 ele=1 eleSum=11.1 lat=10.1 lon=-20.2 name=example name"),
        Expected("gpxpy-testfiles/gpx1.1_with_extensions.gpx",
                 "no points"),
        Expected("gpxpy-testfiles/gpx1.1_with_extensions_without_namespaces.gpx",
                 "no points"),
        Expected("gpxpy-testfiles/gpx_with_garmin_extension.gpx",
                 "no points"),
        Expected("gpxpy-testfiles/korita-zbevnica.gpx",
                 "src=track segs=[358, 176, 337] timed=513/871 first=1286098590.000000 last=1286111971.000000 ele=871 eleSum=785205.7387590006 lat=39564.60552373401 lon=12260.539379134992 name=03-OCT-10"),
        Expected("gpxpy-testfiles/route.gpx",
                 "src=route segs=[55] timed=0/55 first=nil last=nil ele=0 eleSum=0.0 lat=2490.646843889 lon=755.4911365365001 name=nil"),
        Expected("gpxpy-testfiles/track-with-empty-segment.gpx",
                 "src=track segs=[9] timed=9/9 first=1373131586.000000 last=1373131662.000000 ele=9 eleSum=1724.3997804 lat=456.9981379 lon=54.742611999999994 name=2013-07-06T14:59:00Z"),
        Expected("gpxpy-testfiles/track-with-extremes.gpx",
                 "src=track segs=[25] timed=0/25 first=nil last=nil ele=25 eleSum=441.0 lat=1137.050461249 lon=337.8385094740001 name=Untitled Path"),
        Expected("gpxpy-testfiles/track-with-less-sec-time.gpx",
                 "src=track segs=[2] timed=2/2 first=1449844993.000000 last=1449844993.994000 ele=2 eleSum=47.104799 lat=114.02292600000001 lon=19.985746 name=nil"),
        Expected("gpxpy-testfiles/track-with-small-floats.gpx",
                 "src=track segs=[3] timed=0/3 first=nil last=nil ele=3 eleSum=22.000005 lat=0.169864131 lon=0.007753096 name=Untitled Path"),
        Expected("gpxpy-testfiles/track_with_dilution_errors.gpx",
                 "src=track segs=[1] timed=0/1 first=nil last=nil ele=0 eleSum=0.0 lat=12.1 lon=13.2 name=nil"),
        Expected("gpxpy-testfiles/track_with_speed.gpx",
                 "src=track segs=[3] timed=3/3 first=1236002752.000000 last=1236002765.000000 ele=3 eleSum=160.510225 lat=156.992813 lon=16.624048000000002 name=nil"),
        Expected("gpxpy-testfiles/unicode.gpx",
                 "no points"),
        Expected("gpxpy-testfiles/unicode2.gpx",
                 "no points"),
        Expected("gpxpy-testfiles/unicode_with_bom.gpx",
                 "no points"),
        Expected("gpxpy-testfiles/unicode_with_bom_noencoding.gpx",
                 "no points"),
        Expected("graphhopper-tests/another-tour-with-loop.gpx",
                 "src=track segs=[14] timed=14/14 first=1423208206.000000 last=1423208318.000000 ele=0 eleSum=0.0 lat=718.8228500000001 lon=173.069868 name=GraphHopper Track"),
        Expected("graphhopper-tests/gpxv1_0.gpx",
                 "src=track segs=[14] timed=14/14 first=1423208206.000000 last=1423208318.000000 ele=0 eleSum=0.0 lat=718.8228500000001 lon=173.069868 name=GraphHopper Track"),
        Expected("graphhopper-tests/issue-127.gpx",
                 "src=track segs=[2] timed=0/2 first=nil last=nil ele=0 eleSum=0.0 lat=82.0238178 lon=58.1782173 name=nil"),
        Expected("graphhopper-tests/issue-13.gpx",
                 "src=track segs=[29] timed=29/29 first=1420112102.000000 last=1420112102.000000 ele=0 eleSum=0.0 lat=1189.33346955 lon=843.62190835 name=nil"),
        Expected("graphhopper-tests/issue-70.gpx",
                 "src=track segs=[17] timed=17/17 first=1262307653.000000 last=1262308613.000000 ele=17 eleSum=6494.0 lat=769.1627845094475 lon=335.1156157627702 name=converted track"),
        Expected("graphhopper-tests/no_trk.gpx",
                 "no points"),
        Expected("graphhopper-tests/no_trkpt.gpx",
                 "no points"),
        Expected("graphhopper-tests/no_trkseg.gpx",
                 "no points"),
        Expected("graphhopper-tests/test-only-wpt.gpx",
                 "src=route segs=[5] timed=0/5 first=nil last=nil ele=0 eleSum=0.0 lat=256.88406200000003 lon=61.703097 name=nil"),
        Expected("graphhopper-tests/test1.gpx",
                 "src=track segs=[264] timed=264/264 first=0.000000 last=796.000000 ele=0 eleSum=0.0 lat=13556.559682000005 lon=3263.985795999998 name=GraphHopper"),
        Expected("graphhopper-tests/test2.gpx",
                 "src=track segs=[2] timed=2/2 first=0.001000 last=14.002000 ele=0 eleSum=0.0 lat=102.754749 lon=24.677383 name=GraphHopper"),
        Expected("graphhopper-tests/test2_no_millis.gpx",
                 "src=track segs=[3] timed=0/3 first=nil last=nil ele=0 eleSum=0.0 lat=154.13246800000002 lon=37.016549 name=GraphHopper"),
        Expected("graphhopper-tests/tour-with-loop.gpx",
                 "src=track segs=[11] timed=11/11 first=1422984845.000000 last=1422984922.000000 ele=0 eleSum=0.0 lat=564.772292 lon=135.985051 name=GraphHopper Track"),
        Expected("graphhopper-tests/tour2-with-loop.gpx",
                 "src=track segs=[12] timed=12/12 first=1423208206.000000 last=1423208318.000000 ele=0 eleSum=0.0 lat=616.1330690000001 lon=148.344657 name=GraphHopper Track"),
        Expected("graphhopper-tests/tour3-with-long-edge.gpx",
                 "src=track segs=[7] timed=7/7 first=1423515181.000000 last=1423515238.000000 ele=0 eleSum=0.0 lat=359.511467 lon=86.50733699999999 name=GraphHopper Track"),
        Expected("graphhopper-tests/tour4-with-uturn.gpx",
                 "src=track segs=[5] timed=5/5 first=1423642595.000000 last=1423642659.000000 ele=0 eleSum=0.0 lat=256.720974 lon=61.807877000000005 name=GraphHopper Track"),
        Expected("sacalobra-strava/sa_calobra_strava_2018-10-16.gpx",
                 "src=track segs=[4662] timed=4662/4662 first=1539683443.000000 last=1539683442.000000 ele=4662 eleSum=1867613.8999999955 lat=185710.79582899986 lon=13086.457853000024 name=Sa Calobra",
                 ours: ["segs": "[3243, 1419]"], why: split),
    ]

    @Test(.enabled(if: TestData.available, TestData.skip))
    func everyRealGPXFileReadsAsGpxpyDoes() throws {
        let root = TestData.path("gpx") + "/"
        let found = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".gpx") }.sorted()
        // Every file in the folder is covered (a new file needs its gpxpy line here).
        #expect(found == Self.expected.map(\.file))
        for e in Self.expected {
            #expect(Self.fields(e.gpxpy).count == Self.keys.count || e.gpxpy == "no points", "\(e.file): unparsed table line")
            #expect(Self.signature(root + e.file) == e.oursExpected, "\(e.file)\(e.why.isEmpty ? "" : ": " + e.why)")
        }
    }

    /// The python3 that imports gpxpy: the one on $PATH, else Debian's (python3-gpxpy installs for
    /// /usr/bin/python3, which a pyenv or venv python3 does not see); nil without gpxpy.
    static let gpxpyPython: String? = {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { String($0) + "/python3" }
        return (path + ["/usr/bin/python3"]).first { exe in
            FileManager.default.isExecutableFile(atPath: exe)
                && (try? BuiltCLI.runProgram(exe, ["-c", "import gpxpy"], cwd: TestData.projectRoot).status) == 0
        }
    }()

    @Test(.enabled(if: TestData.available && GPXMatchesGpxpyTests.gpxpyPython != nil,
                   "gpxpy or ../shared/data is absent (apt-get install python3-gpxpy): gpxpy table check skipped"))
    func gpxpyStillPrintsTheseSignatures() throws {
        let script = TestData.projectRoot.appendingPathComponent("scripts/gpxpy-signatures.py").path
        let r = try BuiltCLI.runProgram(Self.gpxpyPython!, [script, TestData.path("gpx")], cwd: TestData.projectRoot)
        #expect(r.status == 0, "\(r.stderr)")
        let printed = r.stdout.split(separator: "\n").map { line -> (String, String) in
            let parts = line.split(separator: "\t", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        #expect(printed.map(\.0) == Self.expected.map(\.file))
        for ((file, sig), e) in zip(printed, Self.expected) {
            #expect(sig == e.gpxpy, "\(file)")
        }
    }
}

@Suite struct GPXReaderXMLEdgeTests {
    @Test func cdataEntitiesAndCommentsInFields() throws {
        // CDATA is read (XMLParser's delegate here ignored it, losing names such as Ultra GPS
        // Logger's); entities and character references are decoded; comments split nothing.
        let path = GPXReaderTests.write("""
        <gpx><trk><name><![CDATA[Ride <1>]]> &amp; &#x1F6F9;</name><trkseg>
        <trkpt lat=" 43.7 " lon='7.4'><ele>1<!-- c -->2</ele><time><![CDATA[2020-01-01T00:00:00Z]]></time></trkpt>
        </trkseg></trk></gpx>
        """)
        let t = try GPXReader().read(path: path)
        #expect(t.name == "Ride <1> & 🛹")
        #expect(t.allFixes.first?.elevation == 12)
        #expect(t.allFixes.first?.time == 1_577_836_800)
    }

    @Test func malformedXMLNamesTheLine() throws {
        let mismatched = GPXReaderTests.write("<gpx>\n<trk>\n<trkseg>\n</trk>\n</gpx>")
        #expect(throws: GPXError.malformed(path: mismatched, line: 4, reason: "</trk> closes <trkseg> (opened at line 3)")) {
            try GPXReader().read(path: mismatched)
        }
        let e = GPXError.malformed(path: "r.gpx", line: 4, reason: "</trk> closes <trkseg> (opened at line 3)")
        #expect(e.description == "r.gpx:4: not a valid GPX/XML file: </trk> closes <trkseg> (opened at line 3)")
        let kml = GPXReaderTests.write("<?xml version=\"1.0\"?>\n<!-- x -->\n<kml><Placemark/></kml>")
        #expect(throws: GPXError.malformed(path: kml, line: 3, reason: "root element is <kml>, not <gpx>")) { try GPXReader().read(path: kml) }
        let truncated = GPXReaderTests.write("<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">\n<time>2020-01-01T00:00:00Z</ti")
        do {
            _ = try GPXReader().read(path: truncated)
            Issue.record("truncated file parsed")
        } catch let e as GPXError {
            guard case let .malformed(_, line, reason) = e else { Issue.record("unexpected \(e)"); return }
            #expect(line == 3 && reason.contains("truncated"))
        }
    }

    @Test func entityBombInAGPXIsRefusedFast() throws {
        var doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n<!ENTITY a \"aaaaaaaaaa\">\n"
        for i in 1...9 { doc += "<!ENTITY a\(i) \"" + String(repeating: "&a\(i == 1 ? "" : String(i - 1));", count: 10) + "\">\n" }
        doc += "]>\n<gpx><trk><name>&a9;</name><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>\n"
        let path = GPXReaderTests.write(doc)
        do {
            _ = try GPXReader().read(path: path)
            Issue.record("entity bomb parsed")
        } catch let e as GPXError {
            guard case let .malformed(_, line, reason) = e else { Issue.record("unexpected \(e)"); return }
            #expect(line == 14 && reason.contains("&a9;"))
        }
    }

    @Test func encodingsAndDirectories() throws {
        var latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx><trk><name>Z".utf8)
        latin1 += [0xFC] + Array("rich</name><trkseg><trkpt lat=\"47.4\" lon=\"8.5\"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>".utf8)
        let dir = TestData.temporaryDirectory("gpx")
        let path = dir.appendingPathComponent("latin1.gpx").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(latin1))
        #expect(try GPXReader().read(path: path).name == "Zürich")
        let utf16 = dir.appendingPathComponent("utf16.gpx").path
        _ = FileManager.default.createFile(atPath: utf16, contents: "<gpx/>".data(using: .utf16))
        #expect(throws: GPXError.malformed(path: utf16, line: 1, reason: "UTF-16 is not supported: save the file as UTF-8")) {
            try GPXReader().read(path: utf16)
        }
        #expect(throws: GPXError.unreadable(path: dir.path, reason: "is a directory, not a file")) { try GPXReader().read(path: dir.path) }
    }

    @Test func formatsNumbersLikePrintf() {
        #expect(formatNumber(5395) == "5395")
        #expect(formatNumber(2.5) == "2.5")
        #expect(formatNumber(0.125) == "0.125")
        #expect(formatNumber(1234.5) == "1.23e+03")
        #expect(formatNumber(-0.5) == "-0.5")
        #expect(trimmedSpace(" \t\n x y \u{00A0}\r") == "x y")
        #expect(trimmedSpace(" 43.7\n", newlines: false) == "43.7\n")
    }
}
