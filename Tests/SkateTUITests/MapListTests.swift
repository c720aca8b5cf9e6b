import Foundation
import SkateCore
import SkateStore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// Issue 27: `M` lists the installed maps, Enter on another one leaves the loop asking for it
/// (`runTUI` then opens it on the same terminal); the open map is marked and Enter on it only
/// closes the list.
@Suite struct MapListTests {
    static func app() -> TUIApp {
        let services = TUIServices(map: RouteFixture.map, storeProblem: "no store in tests", ridesDirectory: "/nonexistent-rides",
                                   zones: NoReportZones(zones: []), now: { RouteFixture.now })
        services.mapPath = "/maps/fixture.srmap"
        services.maps = MapSwitcher(list: {
            [MapListRow(name: "fixture", detail: "library", path: "/maps/fixture.srmap"),
             MapListRow(name: "heidelberg", detail: "library", path: "/maps/heidelberg.srmap")]
        }, open: { _ in throw CancellationError() })
        return TUIApp(map: RouteFixture.map, theme: Theme(colorMode: .none, glyphMode: .unicode), services: services)
    }

    @Test func mapKeyListsMapsAndEnterSwitches() {
        let app = Self.app()
        let m0 = app.initialModel(size: Size(width: 100, height: 30))
        let (open, c0) = RouteFixture.press(app, [.char("M")], from: m0)
        #expect(c0.isEmpty && open.keyContext == .mapList)
        #expect(open.mapList?.rows?.count == 2 && open.mapList?.selected == 0)
        let text = app.render(open).lines.joined(separator: "\n")
        #expect(text.contains("Maps") && text.contains("> fixture") && text.contains("open · library") && text.contains("heidelberg"),
                Comment(rawValue: text))
        #expect(text.contains("open map"))
        // Enter on the open map closes the list; on another one the loop is asked to switch.
        let same = RouteFixture.press(app, [.enter], from: open)
        #expect(same.0.mapList == nil && same.1.isEmpty)
        let (switched, c1) = RouteFixture.press(app, [.down, .enter], from: open)
        #expect(c1.contains(.switchMap("/maps/heidelberg.srmap")) && switched.mapList == nil)
        // The loop ends with the switch (the terminal stays open for the next map).
        let t = RecordingTerminal(size: Size(width: 100, height: 30), script: [.key(.char("M")), .key(.down), .key(.enter)])
        var clock = 0.0
        let exit = AppLoop.run(app: app, terminal: t, tickInterval: 0.25, now: { clock += 0.01; return clock })
        #expect(exit == .switchMap(path: "/maps/heidelberg.srmap"))
        // Esc closes without switching.
        #expect(RouteFixture.press(app, [.escape], from: open).0.mapList == nil)
        // A map that could not be opened: the app opens again on the old one with one line.
        app.services.startNotice = "map not opened: heidelberg.srmap: cannot read map"
        let again = app.initialModel(size: Size(width: 100, height: 30))
        #expect(again.toast?.kind == .error && again.toast?.text.contains("map not opened") == true)
        #expect(app.render(again).lines[0].contains("map not opened"))
    }
}
