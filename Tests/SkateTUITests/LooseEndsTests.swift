import Foundation
import SkateCore
import SkateStore
import Testing
@testable import SkateTUI

/// Issue 34 item 7 and the ride's elevation chart: saved places and routes opened from the TUI,
/// ASCII transliteration, words for kinds and modes, the rider marked on the ride's chart.
@Suite struct LooseEndsTests {
    let size = Size(width: 100, height: 30)

    var nodes: [String: Coordinate] { Dictionary(uniqueKeysWithValues: RouteFixture.ascii.nodes.map { (String($0.key), $0.value) }) }

    func app(_ rider: RiderData) -> TUIApp {
        let services = TUIServices(map: RouteFixture.map, store: nil, storeProblem: "no store in tests", ridesDirectory: "/nonexistent-rides",
                                   zones: NoReportZones(zones: []), now: { RouteFixture.now }, rider: rider)
        return TUIApp(map: RouteFixture.map, theme: Theme(colorMode: .none, glyphMode: .unicode), services: services)
    }

    @Test func savedPlacesAndRoutesAreListedAndOpened() throws {
        let rider = MemoryRiderData(places: [RiderPlace(name: "Home", category: "home", at: nodes["F"]!)])
        rider.routes = [SavedRoute(name: "quiet line", mode: RideMode.nightSafe.rawValue, fromName: "Skatepark Nord", toName: "Place Sud",
                                   from: nodes["A"]!, to: nodes["F"]!, mapIdentity: "x", planJSON: "{}", createdAt: RouteFixture.now)]
        let a = app(rider)
        var m = RouteFixture.press(a, [.char("l")], from: a.initialModel(size: size)).0
        #expect(m.keyContext == .savedList && m.savedList?.rows?.map(\.name) == ["Home", "quiet line"])
        let screen = a.render(m).lines.joined(separator: "\n")
        #expect(screen.contains("Saved places and routes") && screen.contains("> Home") && screen.contains("route"), "\(screen)")
        // A place without a From: it becomes To and From is highlighted to be chosen.
        let place = RouteFixture.press(a, [.enter], from: m).0
        #expect(place.plan.destination.chosen?.name == "Home" && place.plan.origin.chosen == nil && place.plan.routes.isEmpty)
        // A route: both ends and its mode, planned.
        m = RouteFixture.press(a, [.down, .enter], from: m).0
        #expect(m.savedList == nil && m.plan.mode == .nightSafe && !m.plan.routes.isEmpty)
        #expect(m.plan.origin.chosen?.name == "Skatepark Nord" && m.plan.destination.chosen?.name == "Place Sud")
    }

    @Test func asciiTerminalsGetTransliteratedNames() {
        #expect(HumanText.ascii("Allée Lazare Sauvaigo") == "Allee Lazare Sauvaigo")
        #expect(HumanText.ascii("Untere Straße") == "Untere Strasse")
        #expect(HumanText.ascii("Œuvre Ørsted Łódź") == "OEuvre Orsted Lodz")
        // Decomposed accents (e + U+0301) lose the mark too.
        #expect(HumanText.ascii("Alle\u{0301}e") == "Allee")
        var b = ScreenBuffer(width: 30, height: 1)
        b.asciiOnly = true
        b.write("Place Honoré II → Straße", x: 0, y: 0)
        #expect(b.lines[0] == "Place Honore II -> Strasse    ")
        let ascii = b.lines[0].utf8.allSatisfy { $0 < 0x80 }
        #expect(ascii)
    }

    @Test func kindsAndModesInWords() {
        #expect(HumanText.kind(.pedestrianArea) == "plaza" && HumanText.kind(.amenity) == "facility")
        #expect(HumanText.kind(named: "pedestrian_area") == "plaza")
        for mode in RideMode.allCases { #expect(HumanText.mode(mode) == HumanText.mode(mode).lowercased(), "\(mode)") }
        #expect(HumanText.mode(.chillFewCrossings) == "chill, few crossings")
    }

    @Test func theRideChartMarksTheRider() throws {
        let a = RouteFixture.app()
        var m = RouteFixture.press(a, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter, .enter, .char("r")],
                                   from: a.initialModel(size: Size(width: 120, height: 40))).0
        for _ in 0..<6 { m = a.step(m, .tick(1)).0 }
        let text = a.render(m).lines.joined(separator: "\n")
        #expect(text.contains("Elevation") && text.contains("▲"), "\(text)")
    }
}
