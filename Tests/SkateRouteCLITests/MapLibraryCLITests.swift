import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// The map library as a rider meets it: `maps`, `--map NAME`, `import` into the library, `maps rm`,
/// the default map, and DEM tiles named for you. Each test runs with its own empty XDG folders.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct MapLibraryCLITests {
    /// A fresh home: library, state and config folders, all empty; removed by the caller.
    struct Home {
        let dir = TestData.temporaryDirectory("maplib-cli")
        var env: [String: String] {
            ["XDG_DATA_HOME": dir.appendingPathComponent("data").path, "XDG_STATE_HOME": dir.appendingPathComponent("state").path,
             "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path]
        }
        var library: URL { dir.appendingPathComponent("data/skateroute/maps") }
        func run(_ args: [String], cwd: URL? = nil) throws -> BuiltCLI.Result { try BuiltCLI.run(args, environment: env) }
        func remove() { try? FileManager.default.removeItem(at: dir) }
    }

    static let plan = ["plan", "--from", "Place du Casino", "--to", "Stade Louis II", "--no-store", "--now", "2026-05-01T12:00:00Z"]

    func expectOneLine(_ r: BuiltCLI.Result, _ needle: String, status: Int32 = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(needle), "stderr: \(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test func mapsListsTheBundledMapAndMapTakesItsName() throws {
        let home = Home(); defer { home.remove() }
        let list = try home.run(["maps"])
        #expect(list.status == 0 && list.stdout.contains("* monaco") && list.stdout.contains("Monaco"), "\(list.stdout)\(list.stderr)")
        let json = try home.run(["maps", "--json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let maps = try #require(doc["maps"] as? [[String: Any]])
        let monaco = try #require(maps.first { $0["name"] as? String == "monaco" })
        #expect(doc["schema"] as? String == "skateroute.maps/1")
        #expect((monaco["bbox"] as? [Double])?.count == 4 && (monaco["bytes"] as? Int ?? 0) > 1_000_000 && monaco["default"] as? Bool == true)
        #expect((monaco["dem"] as? [String]) == ["N43E007.pyhgtmap.hgt"] && monaco["source"] as? String == "monaco-latest.osm.pbf")
        let byName = try home.run(Self.plan + ["--map", "monaco"])
        let byDefault = try home.run(Self.plan)
        #expect(byName.status == 0 && byName.stdout == byDefault.stdout && byName.stdout.contains("Stade Louis II"), "\(byName.stderr)")
    }

    @Test func anUnknownMapNameListsTheInstalledOnes() throws {
        let home = Home(); defer { home.remove() }
        expectOneLine(try home.run(Self.plan + ["--map", "monco"]), "no map named 'monco' (did you mean 'monaco'?); installed: monaco")
        expectOneLine(try home.run(["maps", "rm", "nowhere"]), "installed: monaco")
        expectOneLine(try home.run(["maps", "rm", "monaco"]), "not in your library")
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func importGoesIntoTheLibraryUnderItsNameAndBecomesTheLastUsed() throws {
        let home = Home(); defer { home.remove() }
        let imp = try home.run(["import", "--osm", TestData.monacoPBF, "--dem", TestData.monacoDEMFilled, "--name", "My Monaco"])
        #expect(imp.status == 0 && imp.stdout.contains("wrote map my-monaco"), "\(imp.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.library.appendingPathComponent("my-monaco.srmap").path))
        // The same name again is refused (nothing rewritten) unless --replace.
        expectOneLine(try home.run(["import", "--osm", TestData.monacoPBF, "--name", "My Monaco"]), "already installed")
        expectOneLine(try home.run(["import", "--osm", TestData.monacoPBF, "--name", "monaco"]), "add --replace")
        // Chosen by name once, it becomes the default; a path does not.
        let named = try home.run(Self.plan + ["--map", "my-monaco"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try String(contentsOf: home.dir.appendingPathComponent("state/skateroute/last-map"), encoding: .utf8) == "my-monaco\n")
        let list = try home.run(["maps"])
        #expect(list.stdout.contains("* my-monaco") && list.stdout.contains("  monaco"), "\(list.stdout)")
        _ = try home.run(Self.plan + ["--map", TestData.bundledMonaco])
        #expect(try home.run(["maps"]).stdout.contains("* my-monaco"))
        let removed = try home.run(["maps", "rm", "my-monaco"])
        #expect(removed.status == 0 && removed.stdout.contains("removed my-monaco"), "\(removed.stderr)")
        // The last used map is gone: back to the bundled one.
        #expect(try home.run(["maps"]).stdout.contains("* monaco"))
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func failedImportsWriteNothingToTheLibrary() throws {
        let home = Home(); defer { home.remove() }
        let poly = home.dir.appendingPathComponent("bad.poly")
        try "city\n1\n 7.41 43.73\nEND\nEND\n".write(to: poly, atomically: true, encoding: .utf8)
        let noHighways = home.dir.appendingPathComponent("nohighway.osm")
        try "<osm version=\"0.6\"><node id=\"1\" lat=\"43.73\" lon=\"7.42\"/><node id=\"2\" lat=\"43.74\" lon=\"7.42\"/><way id=\"3\"><nd ref=\"1\"/><nd ref=\"2\"/><tag k=\"building\" v=\"yes\"/></way></osm>\n"
            .write(to: noHighways, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--osm", TestData.monacoPBF, "--bbox", "49.40,8.68,49.42,8.72"], "selects no node"),
            (["--osm", TestData.monacoPBF, "--bbox", "43.8,7.4,43.7,7.5"], "south must be below north"),
            (["--osm", TestData.monacoPBF, "--poly", poly.path], "vertices"),
            (["--osm", noHighways.path], "no highway=* ways"),
            (["--osm", TestData.monacoPBF, "--bbox", "43.73,7.41,43.74,7.42", "--poly", poly.path], "choose one"),
        ]
        for (args, needle) in cases {
            let r = try home.run(["import", "--name", "somewhere"] + args)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(needle), "\(args): \(r.stderr)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: home.library.path)) ?? []
            #expect(left.isEmpty, "\(args) left \(left) in the library")
        }
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func aDEMFolderMissingATileNamesThatTile() throws {
        let home = Home(); defer { home.remove() }
        let dems = home.dir.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dems, withIntermediateDirectories: true)
        // Heidelberg's extract spans N49E007…N49E009; leave out N49E009.
        for t in ["N49E007", "N49E008"] {
            try FileManager.default.copyItem(atPath: TestData.path("dem/srtm3-south-west-germany/\(t).hgt.zip"), toPath: dems.appendingPathComponent("\(t).hgt.zip").path)
        }
        let r = try home.run(["import", "--osm", TestData.heidelbergPBF, "--dem-dir", dems.path])
        expectOneLine(r, "missing SRTM tile N49E009 ")
        #expect(r.stderr.contains("earthexplorer.usgs.gov") && r.stderr.contains("--allow-partial-dem"), "\(r.stderr)")
        #expect(!r.stderr.contains("N49E007,") && !r.stderr.contains("N49E008,"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.library.path + "/heidelberg.srmap"))
        // A folder without any of the tiles says which ones the map needs, before reading any.
        let empty = home.dir.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestData.path("dem/srtm3-south-west-germany/N47E010.hgt.zip"), toPath: empty.appendingPathComponent("N47E010.hgt.zip").path)
        expectOneLine(try home.run(["import", "--osm", TestData.heidelbergPBF, "--dem-dir", empty.path]), "missing SRTM tiles N49E007, N49E008, N49E009")
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func savedPlacesBelongToTheMapThatHoldsThem() throws {
        let home = Home(); defer { home.remove() }
        let store = ["--data-dir", home.dir.appendingPathComponent("store").path]
        // A small cut of Monaco around the port, and a saved place outside it (Stade Louis II).
        let imp = try home.run(["import", "--osm", TestData.monacoPBF, "--bbox", "43.732,7.418,43.740,7.430", "--name", "port"])
        #expect(imp.status == 0, "\(imp.stderr)")
        _ = try home.run(["places", "add", "Stadium", "--at", "43.7276,7.4156"] + store)
        _ = try home.run(["places", "add", "Quay", "--at", "43.7350,7.4230"] + store)
        let list = try home.run(["places", "list", "--map", "port"] + store)
        #expect(list.stdout.contains("Quay") && !list.stdout.contains("Stadium") && list.stdout.contains("1 on other maps"), "\(list.stdout)")
        #expect(try home.run(["places", "list", "--map", "port", "--all"] + store).stdout.contains("Stadium"))
        let r = try home.run(["plan", "--map", "port", "--from", "Quay", "--to", "Stadium", "--now", "2026-05-01T12:00:00Z"] + store)
        expectOneLine(r, "saved place 'Stadium' (43.727600,7.415600) is outside this map; it is on the installed map monaco: add --map monaco")
        let onMonaco = try home.run(["plan", "--map", "monaco", "--from", "Quay", "--to", "Stadium", "--now", "2026-05-01T12:00:00Z"] + store)
        #expect(onMonaco.status == 0, "\(onMonaco.stderr)")
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func aDEMFolderGivesTheTilesTheMapTouchesAndNoOthers() throws {
        let home = Home(); defer { home.remove() }
        let dems = home.dir.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dems, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestData.monacoDEMZip, toPath: dems.appendingPathComponent("N43E007.hgt.zip").path)
        try FileManager.default.copyItem(atPath: TestData.path("dem/srtm3-south-west-germany/N49E008.hgt.zip"), toPath: dems.appendingPathComponent("N49E008.hgt.zip").path)
        let r = try home.run(["import", "--osm", TestData.monacoPBF, "--dem-dir", dems.path, "--name", "monaco-dir"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let json = try home.run(["maps", "--json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let map = try #require((doc["maps"] as? [[String: Any]])?.first { $0["name"] as? String == "monaco-dir" })
        #expect(map["dem"] as? [String] == ["N43E007.hgt.zip"], "\(map)")
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func allowPartialDEMReportsTheUncoveredShareAndBuilds() throws {
        let home = Home(); defer { home.remove() }
        let dems = home.dir.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dems, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestData.path("dem/srtm3-south-west-germany/N49E008.hgt.zip"), toPath: dems.appendingPathComponent("N49E008.hgt.zip").path)
        // A strip of the Neckar valley across 9° E: half of it lies in N49E009, which is not there.
        let args = ["import", "--osm", TestData.heidelbergPBF, "--bbox", "49.40,8.95,49.50,9.05", "--dem-dir", dems.path, "--name", "edge"]
        expectOneLine(try home.run(args), "missing SRTM tile N49E009 ")
        #expect(!FileManager.default.fileExists(atPath: home.library.appendingPathComponent("edge.srmap").path))
        let r = try home.run(args + ["--allow-partial-dem"])
        #expect(r.status == 0 && r.stdout.contains("wrote map edge"), "\(r.stderr)")
        #expect(r.stderr.contains("warning: the DEMs cover 34.2 % of the way nodes") && r.stderr.contains("in N49E009 have no height"), "\(r.stderr)")
    }
}
