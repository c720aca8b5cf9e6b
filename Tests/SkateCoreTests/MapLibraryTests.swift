import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// The map library's folders, names, the settings file and "did you mean".
@Suite struct MapLibraryTests {
    @Test func installedBinaryLooksInTheInstallNotTheCheckout() {
        let env = ["HOME": "/home/rider"]
        let installed = MapLibrary.standard(environment: { env[$0] }, executablePath: "/opt/sr/bin/skateroute")
        #expect(installed.folders.map(\.path) == ["/home/rider/.local/share/skateroute/maps", "/opt/sr/share/skateroute/maps"])
        #expect(installed.userFolder == "/home/rider/.local/share/skateroute/maps")
        // $SKATEROUTE_MAPS first, $XDG_DATA_HOME for the library; a relative XDG value is ignored.
        let env2 = ["HOME": "/h", "SKATEROUTE_MAPS": "/maps", "XDG_DATA_HOME": "/xdg"]
        #expect(MapLibrary.standard(environment: { env2[$0] }, executablePath: nil).folders.map(\.path) == ["/maps", "/xdg/skateroute/maps"])
        let env3 = ["HOME": "/h", "XDG_DATA_HOME": "relative"]
        #expect(MapLibrary.standard(environment: { env3[$0] }, executablePath: nil).userFolder == "/h/.local/share/skateroute/maps")
    }

    @Test func aBuildProductFindsItsCheckoutMaps() {
        let root = TestData.projectRoot.path
        let lib = MapLibrary.standard(environment: { _ in nil }, executablePath: root + "/.build/x86_64-unknown-linux-gnu/debug/skateroute")
        #expect(lib.folders.last == MapLibrary.Folder(path: root + "/Maps", origin: .checkout))
        #expect(lib.path(named: "monaco") == root + "/Maps/monaco.srmap")
        // A copy outside any build folder does not.
        #expect(!MapLibrary.standard(environment: { _ in nil }, executablePath: "/usr/local/bin/skateroute").folders.contains { $0.origin == .checkout })
    }

    @Test func namesComeFromExtractsAndAreChecked() {
        #expect(MapLibrary.name(fromExtract: "/dl/baden-wuerttemberg-latest.osm.pbf") == "baden-wuerttemberg")
        #expect(MapLibrary.name(fromExtract: "heidelberg.test.pbf") == "heidelberg")
        #expect(MapLibrary.slug("Heidelberg Altstadt") == "heidelberg-altstadt")
        // Display names: a download's lower-case stem capitalised, a name with capitals kept.
        #expect(MapLibrary.displayName(fromExtract: "heidelberg.test.pbf") == "Heidelberg")
        #expect(MapLibrary.displayName(fromExtract: "/dl/baden-wuerttemberg-latest.osm.pbf") == "Baden-Wuerttemberg")
        #expect(MapLibrary.displayName(fromExtract: "new_york_city.osm.pbf") == "New York City")
        #expect(MapLibrary.displayName(fromExtract: "MyTown.osm") == "MyTown")
        #expect(MapLibrary.displayName(fromExtract: "ÎLE-de-france.pbf") == "ÎLE-de-france")
        #expect(MapLibrary.displayName(fromExtract: "zürich.osm.pbf") == "Zürich")
        #expect(MapLibrary.isValidName("monaco") && !MapLibrary.isValidName("../x") && !MapLibrary.isValidName(".hidden") && !MapLibrary.isValidName(""))
        #expect(MapLibrary.looksLikePath("Maps/monaco.srmap") && MapLibrary.looksLikePath("x.srmap") && !MapLibrary.looksLikePath("monaco"))
    }

    @Test func libraryListsEachNameOnceFirstFolderWins() throws {
        let dir = TestData.temporaryDirectory("maplib")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        for d in [a, b] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        for (d, f) in [(a, "x.srmap"), (b, "x.srmap"), (b, "y.srmap"), (b, ".tmp.srmap"), (b, "notes.txt")] {
            try Data().write(to: d.appendingPathComponent(f))
        }
        let lib = MapLibrary(folders: [.init(path: a.path, origin: .user), .init(path: b.path, origin: .install)], userFolder: a.path)
        #expect(lib.entries().map(\.name) == ["x", "y"])
        #expect(lib.entry(named: "x")?.origin == .user)
        #expect(lib.entry(named: "Y")?.path == b.appendingPathComponent("y.srmap").path)
        #expect(lib.path(named: "z") == nil)
        // The name a rider gave `import --name` finds the map it was installed as.
        try Data().write(to: b.appendingPathComponent("valparaíso-sur.srmap"))
        #expect(lib.entry(named: "Valparaíso Sur")?.name == "valparaíso-sur")
        #expect(lib.entry(named: "Valparaíso Norte") == nil)
    }

    @Test func settingsFileParsesAndNamesItsBadLine() throws {
        let s = try Settings.parse("# mine\nmap = heidelberg  # city\n\nmode=chillFewCrossings\n", path: "/c")
        #expect(s.values == ["map": "heidelberg", "mode": "chillFewCrossings"])
        #expect(s.origin(of: "mode") == "file /c:4")
        #expect(throws: SettingsError(path: "/c", line: 2, problem: "unknown key 'mdoe' (did you mean 'mode'?); keys: map, mode, palette, units, speed")) {
            try Settings.parse("map = x\nmdoe = smoothest\n", path: "/c")
        }
        #expect(throws: SettingsError.self) { try Settings.parse("just words\n", path: "/c") }
        #expect(try Settings.load(path: "/nonexistent/config") == Settings())
    }

    @Test func didYouMeanFindsCloseWordsOnly() {
        #expect(TextSuggestion.closest("pln", among: ["plan", "places", "import"]) == "plan")
        #expect(TextSuggestion.closest("smoothst", among: ["smoothest", "nightSafe"]) == "smoothest")
        #expect(TextSuggestion.closest("imprt", among: ["plan", "import"]) == "import")
        #expect(TextSuggestion.closest("zzz", among: ["plan", "import"]) == nil)
    }

    @Test func lastUsedMapIsRememberedByName() throws {
        let dir = TestData.temporaryDirectory("lastmap")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_STATE_HOME": dir.path]
        #expect(LastUsedMap.read(environment: { env[$0] }) == nil)
        LastUsedMap.record("heidelberg", environment: { env[$0] })
        #expect(LastUsedMap.read(environment: { env[$0] }) == "heidelberg")
        LastUsedMap.record("../etc", environment: { env[$0] })
        #expect(LastUsedMap.read(environment: { env[$0] }) == "heidelberg")
    }

    @Test func aMapsAreaHoldsItsPlacesWithAMargin() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let b = map.bbox
        #expect(map.areaHolds(Coordinate(lat: 43.7390, lon: 7.4270)))
        #expect(map.areaHolds(Coordinate(lat: b.maxLat + 0.003, lon: b.minLon)))   // ≈ 330 m north of the box
        #expect(!map.areaHolds(Coordinate(lat: b.maxLat + 0.006, lon: b.minLon)))  // ≈ 670 m
        #expect(!map.areaHolds(Coordinate(lat: 49.4093, lon: 8.6933)))              // Heidelberg
    }
}
