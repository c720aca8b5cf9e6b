import Foundation
import SkateCore
import SkateRide
import SkateTestSupport
import Testing

/// Interop 3: every plan output carries the alternatives, the final arrive step, the map's
/// attribution and a creation time (the clock injected through `SOURCE_DATE_EPOCH` or `--now`).
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct PlanOutputsCLITests {
    static let bundled = TestData.bundledMonaco
    static let schema = TestData.projectRoot.appendingPathComponent("Tests/Fixtures/gpx11-subset.xsd").path
    static let epoch = "1777636800"  // 2026-05-01T12:00:00Z
    static let iso = "2026-05-01T12:00:00Z"
    static let args = ["plan", "--from", "Place du Casino", "--to", "Stade Louis II", "--map", bundled, "--no-store", "--alternatives", "2"]

    static func plan(_ format: String, epoch: String = PlanOutputsCLITests.epoch) throws -> String {
        let r = try BuiltCLI.run(args + ["--format", format], environment: ["SOURCE_DATE_EPOCH": epoch])
        #expect(r.status == 0, "\(format): \(r.stderr)")
        return r.stdout
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The map's stored attribution names OSM, the ODbL and SRTM.
    static func checkAttribution(_ a: String?, _ label: String) {
        let a = a ?? ""
        #expect(a.contains("OpenStreetMap contributors") && a.contains("ODbL") && a.contains("SRTM"), "\(label): attribution '\(a)'")
    }

    @Test func jsonHasAlternativesArriveStepsAttributionAndTime() throws {
        let o = try Self.object(try Self.plan("json"))
        let alternatives = try #require(o["alternatives"] as? [[String: Any]])
        #expect(alternatives.count >= 1, "Casino → Stade Louis II has alternatives")
        for (i, route) in ([o] + alternatives).enumerated() {
            let steps = try #require(route["steps"] as? [[String: Any]])
            #expect(steps.last?["maneuver"] as? String == "arrive", "route \(i) ends with arrive")
        }
        Self.checkAttribution(o["attribution"] as? String, "json")
        #expect(o["created_at"] as? String == Self.iso)
    }

    @Test func gpxHasOneRoutePerAlternativeAndValidates() throws {
        let gpx = try Self.plan("gpx")
        let alternatives = try #require(try Self.object(try Self.plan("json"))["alternatives"] as? [Any]).count
        let routes = gpx.components(separatedBy: "<rte>").dropFirst()
        #expect(routes.count == 1 + alternatives, "\(routes.count) rte for \(alternatives) alternatives")
        for r in routes {
            let last = try #require(r.components(separatedBy: "<rtept").last)
            #expect(last.contains("<name>Arrive at destination</name>"), "each rte ends with the arrive step")
        }
        #expect(gpx.components(separatedBy: "<trk>").count == 2, "one track (what ride replays)")
        let meta = try #require(gpx.range(of: "<metadata>").flatMap { s in gpx.range(of: "</metadata>").map { gpx[s.lowerBound..<$0.upperBound] } })
        #expect(meta.contains("<copyright author=\"Map data © OpenStreetMap contributors, ODbL") && meta.contains("SRTM"), "\(meta)")
        #expect(meta.contains("<time>\(Self.iso)</time>"), "\(meta)")
        // xmllint against the vendored GPX 1.1 subset schema (copyright checked as the spec types it).
        guard let xmllint = ["/usr/bin/xmllint", "/bin/xmllint", "/usr/local/bin/xmllint"].first(where: FileManager.default.isExecutableFile) else {
            print("xmllint is not installed (apt-get install libxml2-utils): schema check skipped")
            return
        }
        let dir = TestData.temporaryDirectory("plan-gpx")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("plan.gpx")
        try gpx.write(to: file, atomically: true, encoding: .utf8)
        for (path, valid) in [(file.path, true), (try Self.brokenCopy(gpx, dir), false)] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: xmllint)
            p.arguments = ["--noout", "--schema", Self.schema, path]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            #expect((p.terminationStatus == 0) == valid, "\(path): xmllint exit \(p.terminationStatus)")
        }
    }

    /// The same GPX with the copyright's required author dropped: the schema must refuse it.
    static func brokenCopy(_ gpx: String, _ dir: URL) throws -> String {
        let broken = gpx.replacingOccurrences(of: "<copyright author=", with: "<copyright holder=")
        let path = dir.appendingPathComponent("broken.gpx").path
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func geojsonIsOneCollectionWithAnAlternativePerFeature() throws {
        let o = try Self.object(try Self.plan("geojson"))
        #expect(o["type"] as? String == "FeatureCollection")
        let features = try #require(o["features"] as? [[String: Any]])
        let alternatives = try #require(try Self.object(try Self.plan("json"))["alternatives"] as? [Any]).count
        var seen = Set<Int>()
        var arrivals = 0
        for f in features {
            let props = try #require(f["properties"] as? [String: Any])
            let alt = try #require(props["alternative"] as? Int, "every feature says its alternative")
            seen.insert(alt)
            if props["maneuver"] as? String == "arrive" {
                arrivals += 1
                #expect((f["geometry"] as? [String: Any])?["type"] as? String == "Point")
            }
        }
        #expect(seen == Set(0...alternatives), "\(seen)")
        #expect(arrivals == 1 + alternatives)
        Self.checkAttribution(o["attribution"] as? String, "geojson")
        #expect(o["created_at"] as? String == Self.iso)
    }

    @Test func textFooterAndInjectedClock() throws {
        let text = try Self.plan("text")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(text.contains("Arrive at destination"))
        #expect(lines.count >= 2 && lines[lines.count - 1] == "created: \(Self.iso)", "\(lines.suffix(2))")
        Self.checkAttribution(lines.dropLast().last.map { String($0.dropFirst("attribution: ".count)) }, "text")
        // The clock is injected: the same epoch gives the same bytes, another epoch another time.
        #expect(try Self.plan("json") == Self.plan("json"))
        let later = try Self.object(try Self.plan("json", epoch: "1777723200"))
        #expect(later["created_at"] as? String == "2026-05-02T12:00:00Z")
        // --now sets the plan's time and its stamp.
        let r = try BuiltCLI.run(Self.args + ["--json", "--now", "2026-03-04T05:06:07Z"])
        #expect(try Self.object(r.stdout)["created_at"] as? String == "2026-03-04T05:06:07Z")
    }
}

/// Interop 4: the NDJSON ride log states the unit of every numeric field and lists the fields of
/// every line; its summary line is `ride --json` (same rounding, cues filled); a headless replay
/// refuses a pace.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct RideLogCLITests {
    static let bundled = TestData.bundledMonaco
    static let ride = TestData.projectRoot.appendingPathComponent("Rides/detour-fontvieille").path

    @Test func logStatesUnitsAndFieldsAndItsSummaryIsRideJSON() throws {
        let dir = TestData.temporaryDirectory("ride-log-units")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("r.ndjson").path
        let r = try BuiltCLI.run(["ride", Self.ride, "--json", "--no-store", "--map", Self.bundled, "--log", log])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let header = try #require(lines.first)
        let units = try #require(header["units"] as? [String: String])
        let fields = Set(try #require(header["fields"] as? [String]))
        let eventFields = try #require(header["event_fields"] as? [String: [String]])
        let attribution = header["attribution"] as? String ?? ""
        #expect(attribution.contains("OpenStreetMap") && header["created_at"] is String, "\(header)")
        var missingUnits = Set<String>()
        func walk(_ v: Any, _ key: String) {
            if let o = v as? [String: Any] { for (k, x) in o { walk(x, k) }; return }
            if let a = v as? [Any] { for x in a { walk(x, key) }; return }
            // JSONSerialization gives true/false as Bool on Linux; numbers as NSNumber.
            if type(of: v) == Bool.self { return }
            if let n = v as? NSNumber, String(cString: n.objCType) == "c" { return }  // a JSON boolean
            if v is NSNumber || v is Double || v is Int, units[key] == nil { missingUnits.insert(key) }
        }
        var kinds = Set<String>()
        for line in lines.dropFirst() {
            if let event = line["event"] as? String {
                kinds.insert(event)
                let listed = Set(try #require(eventFields[event], "event '\(event)' is listed in the header"))
                #expect(Set(line.keys).isSubset(of: listed), "\(event): \(Set(line.keys).subtracting(listed))")
                if event == "summary" {
                    // Keys whose unit covers an object's values (metres by class name).
                    var s = line["summary"] as? [String: Any] ?? [:]
                    if units["metres_by_class"] != nil { s["metres_by_class"] = nil }
                    walk(s, "summary")
                } else {
                    walk(line, "")
                }
            } else {
                #expect(Set(line.keys) == fields, "sample keys \(Set(line.keys).symmetricDifference(fields))")
                walk(line, "")
            }
        }
        for (k, v) in header where k != "units" && k != "event_fields" { walk(v, k) }
        #expect(missingUnits.isEmpty, "numeric keys without a unit: \(missingUnits.sorted())")
        #expect(kinds.contains("summary") && kinds.contains("cue"), "\(kinds)")
        // The summary line is the --json document (less its schema and the log's own path), cues included.
        var printed = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(printed.removeValue(forKey: "schema") as? String == "skateroute.ride/1")
        #expect(printed.removeValue(forKey: "log_path") as? String == log)
        let logged = try #require(lines.last?["summary"] as? [String: Any])
        func canonical(_ o: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self)
        }
        #expect(try canonical(logged) == canonical(printed), "summary line differs from ride --json")
        #expect(((logged["cues"] as? [Any])?.count ?? 0) > 0, "the cue list is filled")
    }

    @Test func headlessRefusesAPace() throws {
        for args in [["--headless", "--speed", "10"], ["--json", "--speed", "2"]] {
            let r = try BuiltCLI.run(["ride", Self.ride, "--no-store", "--map", Self.bundled, "--log", "/dev/null"] + args)
            #expect(r.status == 64, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stderr.contains("--speed") && r.stderr.contains("headless") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
        let dir = TestData.temporaryDirectory("ride-headless-max")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ok = try BuiltCLI.run(["ride", Self.ride, "--no-store", "--map", Self.bundled, "--headless", "--speed", "max",
                                   "--log", dir.appendingPathComponent("r.ndjson").path])
        #expect(ok.status == 0, "\(ok.stderr)")
    }
}
