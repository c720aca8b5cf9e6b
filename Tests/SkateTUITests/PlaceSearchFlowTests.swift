import Foundation
import SkateCore
import SkateStore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// Issue 27 item 4 and issue 29 row 2 in the TUI: the From/To list names each place's town and
/// distance, an ambiguous name is listed for the rider to pick, the chosen end shows its town;
/// typing is bounded (field length, bursts drawn once, overlong escape sequences dropped) and the
/// search runs debounced as a command whose stale answers are dropped.
@Suite struct PlaceSearchFlowTests {
    /// Two villages 1 km apart, each with its own Hauptstraße (25 m per character).
    ///
    /// ```
    /// N A----B                                 S C----D
    /// ```
    nonisolated(unsafe) static let twoTowns = AsciiMap("N A----B                                 S C----D", ways: [
        ("AB", ["highway": "residential", "name": "Hauptstraße", "surface": "asphalt"]),
        ("CD", ["highway": "residential", "name": "Hauptstraße", "surface": "asphalt"]),
        ("BC", ["highway": "residential", "name": "Landstraße", "surface": "asphalt"]),
    ], places: [
        "N": ["name": "Nordheim", "place": "village"],
        "S": ["name": "Sudheim", "place": "village"],
    ])

    static func app(debounce: Double = 0) -> TUIApp {
        let services = TUIServices(map: twoTowns.map, storeProblem: "no store in tests", ridesDirectory: "/nonexistent-rides",
                                   zones: NoReportZones(zones: []), now: { RouteFixture.now })
        services.searchDebounce = debounce
        return TUIApp(map: twoTowns.map, theme: Theme(colorMode: .none, glyphMode: .unicode), services: services)
    }

    static let size = Size(width: 120, height: 40)

    @Test func listNamesTownKindAndDistanceAndTheChosenEndShowsItsTown() {
        let app = Self.app()
        var m = app.initialModel(size: Self.size)
        m = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("hauptstrasse"), from: m).0
        let rows = m.plan.origin.results
        #expect(Set(rows.map(\.town)) == ["Nordheim", "Sudheim"], "\(rows)")
        #expect(rows.allSatisfy { $0.kind == "street" && $0.distance != nil })
        let text = app.render(m).lines.joined(separator: "\n")
        #expect(text.contains("street, Nordheim,") && text.contains("street, Sudheim,"), Comment(rawValue: text))
        // ↓ Enter picks the second; the field shows the town after the name.
        let second = rows[1]
        m = RouteFixture.press(app, [.down, .enter], from: m).0
        #expect(m.plan.origin.chosen == ChosenPlace(name: "Hauptstraße", at: second.at, town: second.town))
        let line = app.render(m).lines.first { $0.contains("From") } ?? ""
        #expect(line.contains("Hauptstraße, " + second.town), Comment(rawValue: line))
    }

    @Test func enterOnAnAmbiguousNameListsTheCandidatesInsteadOfGuessing() {
        // Debounced: Enter comes before the search, so the text itself is looked up.
        let app = Self.app(debounce: 10)
        var m = app.initialModel(size: Self.size)
        m = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("Hauptstraße") + [.enter], from: m).0
        #expect(m.plan.origin.chosen == nil && m.plan.editing)
        #expect(m.plan.message?.contains("several places") == true, "\(m.plan.message ?? "")")
        #expect(Set(m.plan.origin.results.map(\.town)) == ["Nordheim", "Sudheim"])
        let pickedTown = m.plan.origin.results[0].town
        m = RouteFixture.press(app, [.enter], from: m).0
        #expect(m.plan.origin.chosen?.town == pickedTown)
        // "Name, Town" settles it without a list.
        var n = app.initialModel(size: Self.size)
        n = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("Hauptstraße, Sudheim") + [.enter], from: n).0
        #expect(n.plan.origin.chosen?.town == "Sudheim")
    }

    @Test func searchIsDebouncedSentAsACommandAndStaleAnswersAreDropped() {
        let app = Self.app(debounce: 0.12)
        var m = app.initialModel(size: Self.size)
        var cmds: [AppCommand] = []
        m = RouteFixture.press(app, [.char("/")], from: m).0
        for ch in "haupt" {
            let (n, c) = app.update(m, .key(.char(ch)))
            m = n; cmds += c
        }
        // No search while typing: the results are stale until the debounce runs out.
        #expect(!cmds.contains { if case .searchPlaces = $0 { true } else { false } })
        #expect(m.plan.origin.stale && m.plan.searchDue != nil)
        let (early, c1) = app.update(m, .tick(0.05))
        #expect(c1.isEmpty)
        let (due, c2) = app.update(early, .tick(0.1))
        guard case .searchPlaces(let q)? = c2.first else { Issue.record("no search sent: \(c2)"); return }
        #expect(q.text == "haupt")
        let answer = PlanScreen.answer(q, search: app.services.search)
        #expect(!answer.mapResults.isEmpty)
        // The rider typed on before the answer came: it is dropped.
        let typedOn = app.update(due, .key(.char("s"))).0
        let dropped = app.update(typedOn, .searched(answer)).0
        #expect(dropped.plan.origin.stale && dropped.plan.origin.text == "haupts")
        // Taken when it is the newest.
        let taken = app.update(due, .searched(answer)).0
        #expect(!taken.plan.origin.stale && taken.plan.origin.results.count == answer.mapResults.count)
    }

    @Test func fieldsHoldAtMostTheirLengthAndSayTheRestWasCut() {
        let app = Self.app(debounce: 0.12)
        var m = app.initialModel(size: Self.size)
        m = RouteFixture.press(app, [.char("/")], from: m).0
        let paste = String(repeating: "Place du Casino ", count: 250)  // 4,000 characters
        for ch in paste { m = app.update(m, .key(.char(ch))).0 }
        #expect(m.plan.origin.text.count == PlanScreen.fieldMaxLength)
        #expect(m.plan.message?.contains("cut") == true)
        // Keys still edit: Ctrl-U clears, and the field takes text again.
        m = RouteFixture.press(app, [.ctrl("u")] + RouteFixture.typing("haupt"), from: m).0
        #expect(m.plan.origin.text == "haupt")
    }

    @Test func aBurstOfKeysIsDrawnOnceNotPerKey() {
        let app = Self.app(debounce: 0.12)
        let keys: [TerminalInput?] = [.key(.char("/"))] + Array(repeating: TerminalInput.key(.char("a")), count: 300)
        let t = RecordingTerminal(size: Self.size, script: keys)
        t.deliversBursts = true
        var clock = 0.0
        AppLoop.run(app: app, terminal: t, tickInterval: 0.25, now: { clock += 0.001; return clock })
        // First frame, then the 301 keys in bursts of `maxBurst`: 3 frames, not 302.
        #expect(t.frames.count <= 4, "\(t.frames.count) frames")
        #expect(t.frames.last?.lines.joined().contains(String(repeating: "a", count: 20)) == true)
    }

    @Test func overlongEscapeSequencesAreSwallowedNotTyped() {
        func read(_ text: String) -> (Key, rest: String) {
            var bytes = Array(text.unicodeScalars.map(\.value))[...]
            let k = EscapeSequence.read { bytes.popFirst() }
            return (k, String(String.UnicodeScalarView(bytes.compactMap(Unicode.Scalar.init))))
        }
        #expect(read("[A").0 == .up)
        #expect(read("[1~x").0 == .home && read("[1~x").rest == "x")
        // 20 KB of parameters: one unknown key, nothing left to type but what follows the final byte.
        let long = "[" + String(repeating: "1;", count: 10_000) + "mhi"
        let (k, rest) = read(long)
        #expect(k == .unknown(27) && rest == "hi")
        // Unterminated: swallowed up to the cap, never typed.
        let (k2, rest2) = read("[" + String(repeating: "9", count: 100))
        #expect(k2 == .unknown(27) && rest2.isEmpty)
    }
}

/// Issue 27: the map opens on home, else the last view, else a small map whole, else a large
/// one on its densest area.
@Suite struct OpeningViewTests {
    /// A dense block of streets 20 km east of a lone street (joined by a track): the bounding
    /// box's centre is empty.
    static func spreadMap() -> SkateMap {
        var art = "A-B" + String(repeating: " ", count: 800)
        art += "C-D-E-F-G"
        let lower = String(repeating: " ", count: 803) + "H-I-J-K-L"
        return AsciiMap(art + "\n" + lower, ways: [
            ("AB", ["highway": "residential"]), ("BC", ["highway": "track"]), ("CDEFG", ["highway": "residential"]), ("HIJKL", ["highway": "residential"]),
            ("CH", ["highway": "residential"]), ("GL", ["highway": "residential"]),
        ]).map
    }

    @Test func largeMapOpensOnItsDensestAreaNotTheBoxCentre() {
        let map = Self.spreadMap()
        let size = Size(width: 60, height: 20)
        let vp = OpeningView.viewport(map: map, size: size)
        let dense = OpeningView.densestArea(map)!
        #expect(Geo.distance(vp.center, dense) < 1)
        #expect(Geo.distance(vp.center, map.bbox.center) > 5_000)
        // The dense block is in view.
        #expect(vp.visibleBox.contains(dense))
    }

    /// A region's opening view reads every k-th node (issue 31: the first frame does not walk
    /// the whole map): a sample of every other node still finds the same dense block.
    @Test func sampledDensestAreaFindsTheSameBlock() {
        let map = Self.spreadMap()
        let all = OpeningView.densestArea(map)!
        let sampled = OpeningView.densestArea(map, sampleNodes: max(1, map.nodeCount / 2))!
        #expect(Geo.distance(all, sampled) < OpeningView.densityCellMetres, "\(all) vs \(sampled)")
        #expect(Geo.distance(sampled, map.bbox.center) > 5_000)
    }

    @Test func homeWinsAndSmallMapsOpenWhole() {
        let map = Self.spreadMap()
        let size = Size(width: 60, height: 20)
        let home = map.coordinate(ofNode: 0)
        #expect(Geo.distance(OpeningView.viewport(map: map, size: size, home: home).center, home) < 1)
        // Outside the map: ignored.
        let away = Coordinate(lat: home.lat + 1, lon: home.lon)
        #expect(Geo.distance(OpeningView.viewport(map: map, size: size, home: away).center, home) > 1_000)
        // The last view on this map comes next; one off the map is ignored.
        let spot = map.coordinate(ofNode: 3)
        let last = MapView(center: spot, metresPerDot: 5)!
        let reopened = OpeningView.viewport(map: map, size: size, last: last)
        #expect(Geo.distance(reopened.center, spot) < 1 && reopened.metresPerDot == 5)
        #expect(Geo.distance(OpeningView.viewport(map: map, size: size, home: home, last: last).center, home) < 1)
        #expect(Geo.distance(OpeningView.viewport(map: map, size: size, last: MapView(center: away, metresPerDot: 5)).center, away) > 1_000)
        #expect(MapView(center: spot, metresPerDot: .infinity) == nil && MapView(center: spot, metresPerDot: 1e6) == nil)
        // The route fixture (a few hundred metres) opens whole, as before.
        let small = RouteFixture.map
        var fitted = MapViewport(origin: small.bbox.center, metresPerDot: MapBrowseScreen.defaultMetresPerDot, size: size)
        fitted.fit(small.bbox)
        let opened = OpeningView.viewport(map: small, size: size)
        #expect(opened.center == fitted.center && opened.metresPerDot == fitted.metresPerDot)
    }
}
