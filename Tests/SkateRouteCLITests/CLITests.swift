import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// The built `skateroute` binary, run as a user would: exit codes, one-line errors, outputs.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct CLITests {
    static let bundled = TestData.bundledMonaco

    func expectOneLineError(_ r: BuiltCLI.Result, mentioning needle: String, status: Int32 = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "exit \(r.status), stderr: \(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr was: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(needle), "stderr was: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(!r.killed, sourceLocation: sourceLocation)
    }

    @Test func mapInfoJSONHasTheKeys() throws {
        let r = try BuiltCLI.run(["map", "info", "--json", "--map", Self.bundled])
        #expect(r.status == 0, "\(r.stderr)")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        for key in ["nodes", "edges", "bbox", "elevation", "length_m_by_surface", "attribution"] { #expect(obj[key] != nil, "missing \(key)") }
        #expect((obj["bbox"] as? [Double])?.count == 4)
        #expect((obj["attribution"] as? String)?.contains("OpenStreetMap") == true)
        let elev = try #require(obj["elevation"] as? [String: Double])
        #expect((elev["min"] ?? 99) < 5 && (elev["max"] ?? 0) > 100)
    }

    @Test func planFormatsAndDeterminism() throws {
        let args = ["plan", "--from", "Jardin Exotique", "--to", "Stade Louis II", "--map", Self.bundled, "--no-store"]
        // Every output carries its creation time: determinism holds for one instant (--now).
        let at = ["--now", "2026-06-01T12:00:00Z"]
        let j1 = try BuiltCLI.run(args + at + ["--format", "json", "--alternatives", "1"])
        let j2 = try BuiltCLI.run(args + at + ["--format", "json", "--alternatives", "1"])
        #expect(j1.status == 0, "\(j1.stderr)")
        #expect(j1.stdout == j2.stdout, "JSON differs between two runs")
        let text = try BuiltCLI.run(args)
        #expect(text.stdout.contains("Depart") && text.stdout.contains("Arrive"))
        let gpx = try BuiltCLI.run(args + ["--format", "gpx"])
        #expect(gpx.stdout.contains("<rtept") && gpx.stdout.contains("<trkpt"))
        let gj = try BuiltCLI.run(args + ["--format", "geojson"])
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(gj.stdout.utf8)) as? [String: Any])
        #expect(obj["type"] as? String == "FeatureCollection")
        #expect(((obj["features"] as? [Any])?.count ?? 0) >= 2)
    }

    @Test func planBadInput() throws {
        let base = ["--map", Self.bundled, "--no-store"]
        expectOneLineError(try BuiltCLI.run(["plan", "--from", "zzqxv nowhere", "--to", "casino"] + base), mentioning: "no place matches")
        expectOneLineError(try BuiltCLI.run(["plan", "--from", "casino", "--to", "port", "--mode", "warp"] + base), mentioning: "unknown mode", status: 64)
        expectOneLineError(try BuiltCLI.run(["plan", "--from", "10,10", "--to", "casino"] + base), mentioning: "no rideable street")
        // Escape sequences in a typed name never reach the terminal.
        let r = try BuiltCLI.run(["plan", "--from", "\u{1B}]0;pwned\u{07}zz\u{1B}[31mqq", "--to", "casino"] + base)
        #expect(r.status == 1 && !r.stderr.contains("\u{1B}"))
    }

    @Test func importRefusesABadLandmarkLayoutInOneLine() throws {
        let out = TestData.temporaryDirectory("cli-landmarks").appendingPathComponent("x.srmap").path
        for bad in ["smoothest", "smoothest+warp", "per-mode,shared"] {
            expectOneLineError(try BuiltCLI.run(["import", "--osm", "none.pbf", "--out", out, "--landmarks", bad]), mentioning: "--landmarks: expected", status: 64)
        }
        expectOneLineError(try BuiltCLI.run(["import", "--osm", "none.pbf", "--out", out, "--compact", "--landmarks", "shared"]), mentioning: "choose one", status: 64)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func importBadInputsAreOneLineAndLeaveNoFile() throws {
        let dir = TestData.temporaryDirectory("cli-import")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.srmap").path
        let cut = dir.appendingPathComponent("cut.osm.pbf")
        try Data(contentsOf: URL(fileURLWithPath: TestData.monacoPBF)).prefix(50_000).write(to: cut)
        let garbage = dir.appendingPathComponent("garbage.osm.pbf")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: garbage)
        let unknownXML = dir.appendingPathComponent("odd.osm")
        try Data("<?xml version='1.0'?><osm version='0.6'><wibble/><node id='1' lat='43.7' lon='7.4'/></osm>".utf8).write(to: unknownXML)
        let badHgt = dir.appendingPathComponent("N43E007.hgt")
        try Data(repeating: 1, count: 12345).write(to: badHgt)
        let farHgt = dir.appendingPathComponent("N50E010.hgt")
        try FileManager.default.copyItem(atPath: TestData.monacoDEMFilled, toPath: farHgt.path)

        let cases: [([String], String)] = [
            (["--osm", cut.path], "cut.osm.pbf"),
            (["--osm", garbage.path], "garbage.osm.pbf"),
            (["--osm", dir.appendingPathComponent("missing.pbf").path], "missing.pbf"),
            (["--osm", unknownXML.path], "odd.osm"),  // unknown elements are fine, but there are no ways
            (["--osm", TestData.monacoPBF, "--dem", badHgt.path], "N43E007.hgt"),
            (["--osm", TestData.monacoPBF, "--dem", farHgt.path], "N50E010.hgt"),
        ]
        for (args, needle) in cases {
            expectOneLineError(try BuiltCLI.run(["import"] + args + ["--out", out]), mentioning: needle)
            #expect(!FileManager.default.fileExists(atPath: out), "a failed import left \(out)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    /// The size `import` reports is the written file's: without corelibs Foundation an
    /// `attributesOfItem[.size] as? Int` cast reads nil (the value is a UInt) and printed "0 KiB".
    @Test(.enabled(if: TestData.available, TestData.skip))
    func importReportsTheWrittenFileSize() throws {
        let dir = TestData.temporaryDirectory("cli-import-size")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("mc.srmap").path
        let r = try BuiltCLI.run(["import", "--osm", TestData.monacoPBF, "--out", out, "--name", "Monaco"])
        #expect(r.status == 0, "\(r.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: out)[.size] as? UInt)
        #expect(size > 100_000)
        #expect(r.stdout.contains(", \(size / 1024) KiB"), "\(r.stdout)")
    }

    @Test func corruptMapIsAClearError() throws {
        let dir = TestData.temporaryDirectory("cli-map")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.bundled))
        bytes[bytes.count / 2] ^= 0x55
        let bad = dir.appendingPathComponent("bad.srmap")
        try bytes.write(to: bad)
        expectOneLineError(try BuiltCLI.run(["map", "info", "--map", bad.path]), mentioning: "corrupt")
        let text = dir.appendingPathComponent("text.srmap")
        try Data("hello".utf8).write(to: text)
        expectOneLineError(try BuiltCLI.run(["map", "info", "--map", text.path]), mentioning: "not a SkateRoute map")
    }

    @Test func tuiWithoutATerminalSaysSo() throws {
        let r = try BuiltCLI.run(["--map", Self.bundled])
        #expect(r.status == 1)
        #expect(r.stderr.contains("not a terminal"), "\(r.stderr)")
    }
}

/// A map whose names carry terminal escape sequences must not reach the terminal raw.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct HostileNamesTests {
    @Test func escapeSequencesInMapNamesAreStripped() throws {
        let dir = TestData.temporaryDirectory("cli-hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        let evil = "Rue \u{1B}]0;pwned\u{07}\u{1B}[31mRouge\u{1B}[0m"
        let m = AsciiMap("""
        A----B----C
        """, ways: [("ABC", ["highway": "residential", "name": evil])], places: ["C": ["amenity": "cafe", "name": "Café \u{1B}[2JEvil"]])
        var map = m.map
        map.metadata.name = "Evil\u{1B}[5mMap"
        let path = dir.appendingPathComponent("evil.srmap").path
        try MapFormat.write(map, to: path)
        let a = m.nodes["A"]!, c = m.nodes["C"]!
        let plan = try BuiltCLI.run(["plan", "--from", "\(a.lat),\(a.lon)", "--to", "\(c.lat),\(c.lon)", "--map", path, "--no-store"])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("Rouge") && !plan.stdout.contains("\u{1B}"), "\(plan.stdout)")
        let info = try BuiltCLI.run(["map", "info", "--map", path])
        #expect(info.status == 0 && !info.stdout.contains("\u{1B}"))
        let byName = try BuiltCLI.run(["plan", "--from", "\(a.lat),\(a.lon)", "--to", "cafe evil", "--map", path, "--no-store"])
        #expect(byName.status == 0 && !byName.stdout.contains("\u{1B}"), "\(byName.stderr)")
    }
}
