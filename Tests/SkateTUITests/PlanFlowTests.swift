import Foundation
import SkateCore
import SkateStore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// The update function driven by key sequences: type a place, pick, plan, preview, ride,
/// report, undo, quit.
@Suite struct PlanFlowTests {
    let size = Size(width: 100, height: 30)

    /// Plans Skatepark Nord → Place Sud by typing and returns the model on the route list.
    func planned(_ app: TUIApp) -> AppModel {
        var m = app.initialModel(size: size)
        m = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter], from: m).0
        return m
    }

    @Test func typingShowsLiveResultsAndArrowsPick() {
        let app = RouteFixture.app()
        var m = app.initialModel(size: size)
        // Command mode first (issue 34); `/` edits the highlighted field.
        #expect(m.keyContext == .plan)
        m = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("sk"), from: m).0
        #expect(m.keyContext == .planInput)
        #expect(m.plan.origin.text == "sk")
        #expect(m.plan.origin.results.contains { $0.name == "Skatepark Nord" })
        let text = app.render(m).lines.joined(separator: "\n")
        #expect(text.contains("> Skatepark Nord"))
        // Letters are text while typing: q does not quit, m does not change the mode.
        let (typed, cmds) = RouteFixture.press(app, [.char("q"), .char("m")], from: m)
        #expect(typed.plan.origin.text == "skqm" && cmds.isEmpty && !typed.quitting && typed.plan.mode == .smoothest)
        let back = RouteFixture.press(app, [.backspace, .backspace], from: typed).0
        #expect(back.plan.origin.text == "sk")
        // A typed lat,lon is a result of its own.
        let c = RouteFixture.ascii.nodes["E"]!
        let coord = RouteFixture.press(app, [.ctrl("u")] + RouteFixture.typing("\(c.lat),\(c.lon)"), from: m).0
        #expect(coord.plan.origin.results.first?.kind == "coordinate")
    }

    @Test func enterPicksThenPlansAndListsAlternatives() throws {
        let app = RouteFixture.app()
        let m = planned(app)
        #expect(m.plan.origin.chosen?.name == "Skatepark Nord")
        #expect(m.plan.destination.chosen?.name == "Place Sud")
        #expect(m.plan.focus == .routes)
        let best = try #require(m.plan.routes.first).plan
        // 10 characters east and 2 south at 25 m each: the shortest line is 300 m.
        #expect(best.distance > 290 && best.distance < 400)
        let text = app.render(m).lines.joined(separator: "\n")
        #expect(text.contains("Routes") && text.contains("> best") && text.contains("crusty"))
        #expect(text.contains(PlanScreen.routeRow(best)))
        // Tab goes back to a field; Esc leaves it; m cycles the mode and replans.
        let (moded, _) = RouteFixture.press(app, [.char("m")], from: m)
        #expect(moded.plan.mode == RideMode.allCases[1] && !moded.plan.routes.isEmpty)
        #expect(moded.plan.routes[0].id != m.plan.routes[0].id)
    }

    @Test func unknownPlaceSaysSoAndPicksNothing() {
        let app = RouteFixture.app()
        let m = RouteFixture.press(app, [.enter] + RouteFixture.typing("zzzz") + [.enter], from: app.initialModel(size: size)).0
        #expect(m.plan.origin.chosen == nil && m.plan.focus == .origin && m.plan.editing)
        #expect(m.plan.message?.contains("No single place matches 'zzzz'") == true)
    }

    @Test func pointsOnTheMapCursorAreEndsToo() {
        let app = RouteFixture.app()
        var m = RouteFixture.press(app, [.escape], from: app.initialModel(size: size)).0
        #expect(m.keyContext == .plan)
        // Centre the map on A, set the origin; on F, the destination.
        m.plan.map!.viewport.center(on: RouteFixture.ascii.nodes["A"]!)
        m = RouteFixture.press(app, [.char("o")], from: m).0
        m.plan.map!.viewport.center(on: RouteFixture.ascii.nodes["F"]!)
        m = RouteFixture.press(app, [.char("d")], from: m).0
        #expect(m.plan.origin.chosen != nil && m.plan.destination.chosen != nil)
        #expect(!m.plan.routes.isEmpty && m.plan.focus == .routes)
    }

    @Test func previewRideReportUndoQuit() throws {
        let app = RouteFixture.app()
        var m = planned(app)
        // Enter on the route list: the preview.
        m = RouteFixture.press(app, [.enter], from: m).0
        #expect(m.screen == .preview)
        let pv = app.render(m).lines.joined(separator: "\n")
        #expect(pv.contains("Steps") && pv.contains("Arrive") && pv.contains("Elevation") && pv.contains("Preview"))
        #expect(pv.contains("A") && pv.contains("B"))
        // r: a simulated ride starts and follows the route.
        m = RouteFixture.press(app, [.char("r")], from: m).0
        #expect(m.screen == .ride)
        let r0 = try #require(m.ride)
        #expect(r0.start.duration > 30)
        #expect(app.tickInterval(m) == TUIApp.rideTick)
        // Faster, then ten seconds of ticks at ×5: fifty ride seconds.
        m = RouteFixture.press(app, [.char("]"), .char("]")], from: m).0  // ×1 → ×2 → ×5
        #expect(m.ride?.simSpeed == 5)
        for _ in 0..<10 { m = app.step(m, .tick(1)).0 }
        let r1 = try #require(m.ride)
        #expect(abs(r1.frame.t - min(50, r1.start.duration)) < 1.01)
        #expect(r1.frame.position != nil && r1.frame.distanceAlong > 50)
        let hud = app.render(m).lines.joined(separator: "\n")
        #expect(hud.contains("SPEED") && hud.contains("km/h") && hud.contains("×5") && hud.contains("LEFT"))
        // Pause: ticks do not move ride time; "." steps 0.1 s.
        m = RouteFixture.press(app, [.char(" ")], from: m).0
        let paused = app.step(m, .tick(1)).0
        #expect(paused.ride?.frame.t == m.ride?.frame.t)
        let stepped = RouteFixture.press(app, [.char(".")], from: paused).0
        #expect(abs((stepped.ride?.rideTime ?? 0) - ((m.ride?.rideTime ?? 0) + 0.1)) < 1e-6)
        // h 1 without a store: refused with the reason.
        let (noStore, _) = RouteFixture.press(app, [.char("h"), .char("1")], from: stepped)
        #expect(noStore.toast?.kind == .error && noStore.toast?.text.contains("reports not saved: no store in tests") == true)
        // q during a ride asks first; y quits and stops the ride.
        let (ask, none) = RouteFixture.press(app, [.char("q")], from: noStore)
        #expect(!ask.quitting && none.isEmpty && ask.leaving == .quit && app.render(ask).lines.last!.contains("Quit during the ride?"))
        let (q, c) = RouteFixture.press(app, [.char("y")], from: ask)
        #expect(q.quitting && c == [.quit])
    }

    @Test func reportsGoToTheStoreAndUndoWithinTenSeconds() throws {
        let dir = TestData.temporaryDirectory("tui-store")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SkateStore(dataDir: dir)
        let app = RouteFixture.app(store: store)
        var m = RouteFixture.press(app, [.enter, .char("r")], from: planned(app)).0
        m = app.step(m, .tick(2)).0
        let pos = try #require(m.ride?.frame.position)
        // h then 1: a pothole at the rider, confirmed by a toast.
        m = RouteFixture.press(app, [.char("h")], from: m).0
        #expect(m.pending == .hazard && app.render(m).lines.last!.contains("1 pothole"))
        m = RouteFixture.press(app, [.char("1")], from: m).0
        #expect(m.toast?.text.hasPrefix("Reported pothole #") == true && m.toast?.kind == .info)
        let stored = try store.hazards(now: RouteFixture.now)
        #expect(stored.count == 1 && stored[0].hazard.kind == .pothole && stored[0].hazard.source == .simulated)
        #expect(Geo.distance(stored[0].hazard.position, pos) < 0.01)
        // u within 10 s: withdrawn (the reporter's own gone vote).
        let undone = RouteFixture.press(app, [.char("u")], from: m).0
        #expect(undone.toast?.text.hasPrefix("Undone") == true && undone.lastReport == nil)
        let after = try store.hazard(id: stored[0].hazard.id, now: RouteFixture.now)
        #expect(after.hazard.goneVotes == 1)
        // After 10 s the undo is gone.
        var late = RouteFixture.press(app, [.char("h"), .char("2")], from: undone).0
        for _ in 0..<11 { late = app.step(late, .tick(1)).0 }
        late = RouteFixture.press(app, [.char("u")], from: late).0
        #expect(late.toast?.text.hasPrefix("nothing to undo") == true)
        // No rating key during a simulated ride (issue 34: it could never be stored).
        let rated = RouteFixture.press(app, [.char("r")], from: late).0
        #expect(rated.pending == nil && !app.render(late).lines.last!.contains("rate"))
        // The rating command itself still refuses simulated rides.
        let refused = app.perform(.rateSurface(.crusty, at: pos, simulated: true))
        #expect(refused == [.reportDone(ReportResult(text: "rating not saved: this is a replay/simulation, rate on a real ride or with skateroute rate", isError: true))])
        let cancelled = RouteFixture.press(app, [.char("h"), .char("x")], from: late).0
        #expect(cancelled.toast?.text == "report cancelled")
    }

    @Test func noReportZonesRefuse() throws {
        let dir = TestData.temporaryDirectory("tui-zone")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A school around the whole map.
        let b = RouteFixture.map.bbox
        let ring = [Coordinate(lat: b.minLat - 0.01, lon: b.minLon - 0.01), Coordinate(lat: b.minLat - 0.01, lon: b.maxLon + 0.01),
                    Coordinate(lat: b.maxLat + 0.01, lon: b.maxLon + 0.01), Coordinate(lat: b.maxLat + 0.01, lon: b.minLon - 0.01)]
        let zones = NoReportZones(zones: [.init(kind: .school, name: "École\u{1B}[31m", ring: ring)])
        let app = RouteFixture.app(zones: zones, store: try SkateStore(dataDir: dir))
        let m = RouteFixture.press(app, [.enter, .char("h"), .char("4")], from: planned(app)).0
        #expect(m.screen == .preview)
        #expect(m.toast?.kind == .error && m.toast?.text.contains("no-report zone") == true)
        #expect(m.toast?.text.contains("\u{1B}") == false)
    }

    @Test func resizeMidRideKeepsFollowing() throws {
        let app = RouteFixture.app()
        var m = RouteFixture.press(app, [.enter, .char("r")], from: planned(app)).0
        m = app.step(m, .tick(5)).0
        for s in [Size(width: 61, height: 20), Size(width: 40, height: 12), Size(width: 160, height: 50)] {
            m = app.step(m, .resize(s)).0
            let f = app.render(m)
            #expect(f.size == s)
            if !TooSmallScreen.isTooSmall(s) {
                #expect(m.ride?.viewport.size == Size(width: RideScreen.mapArea(s).width, height: RideScreen.mapArea(s).height))
                #expect(f.lines.joined().contains("SPEED"))
            }
        }
        m = app.step(m, .tick(1)).0
        let pos = try #require(m.ride?.frame.position)
        #expect(m.ride?.viewport.cell(pos) != nil)
    }

    @Test func escGoesBackAndStopsTheRide() {
        let app = RouteFixture.app()
        var m = RouteFixture.press(app, [.enter, .char("r")], from: planned(app)).0
        #expect(app.services.feed != nil)
        // Esc asks first; any other key keeps riding; Esc again (or y) leaves.
        m = RouteFixture.press(app, [.escape], from: m).0
        #expect(m.screen == .ride && m.leaving == .back && app.services.feed != nil)
        #expect(app.render(m).lines.last!.contains("Leave the ride?"))
        let kept = RouteFixture.press(app, [.char("z")], from: m).0
        #expect(kept.screen == .ride && kept.leaving == nil)
        m = RouteFixture.press(app, [.char("y")], from: m).0
        #expect(m.screen == .preview && m.ride == nil && app.services.feed == nil)
        m = RouteFixture.press(app, [.escape], from: m).0
        #expect(m.screen == .plan)
    }
}
