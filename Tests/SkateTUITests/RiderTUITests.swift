import Foundation
import SkateCore
import SkateStore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// Issue 17 in the TUI: saved places and recents in the search, the spots layer and list with
/// "go there", the weekly goal line, ride alerts and the bell, saving a route from the preview.
@Suite struct RiderTUITests {
    let size = Size(width: 100, height: 30)

    /// An app on the route fixture with in-memory rider data.
    func app(_ rider: RiderData, alertBell: Bool = false, store: SkateStore? = nil) -> TUIApp {
        let services = TUIServices(map: RouteFixture.map, store: store, storeProblem: "no store in tests", ridesDirectory: "/nonexistent-rides",
                                   zones: NoReportZones(zones: []), now: { RouteFixture.now }, rider: rider)
        services.alertBell = alertBell
        return TUIApp(map: RouteFixture.map, theme: Theme(colorMode: .none, glyphMode: .unicode), services: services)
    }

    func text(_ app: TUIApp, _ m: AppModel) -> String { app.render(m).lines.joined(separator: "\n") }

    var nodes: [String: Coordinate] { Dictionary(uniqueKeysWithValues: RouteFixture.ascii.nodes.map { (String($0.key), $0.value) }) }

    // MARK: Search

    @Test func savedPlacesRankFirstAndAreMarked() throws {
        let rider = MemoryRiderData(places: [RiderPlace(name: "Skate shop Est", category: "shop", at: nodes["C"]!),
                                             RiderPlace(name: "Home", category: "home", at: nodes["E"]!)])
        let a = app(rider)
        let m = RouteFixture.press(a, [.char("/")] + RouteFixture.typing("skate"), from: a.initialModel(size: size)).0
        let r = m.plan.origin.results
        // The saved place first, then the map's skatepark (which would otherwise lead).
        #expect(r.first?.name == "Skate shop Est" && r.first?.kind == "[shop]" && r.first?.mark == .saved)
        #expect(r.dropFirst().contains { $0.name == "Skatepark Nord" && $0.mark == nil })
        let screen = text(a, m)
        #expect(screen.contains("> ★ Skate shop Est") && screen.contains("[shop]"))
        // A saved name matches without case or accents, and Enter picks it.
        let home = RouteFixture.press(a, [.ctrl("u")] + RouteFixture.typing("HÔME") + [.enter], from: m).0
        #expect(home.plan.origin.chosen == ChosenPlace(name: "Home", at: nodes["E"]!))
    }

    @Test func emptyFieldListsTheLastTwentyRecentsAndChoosingRecordsOne() throws {
        let rider = MemoryRiderData()
        for i in 0..<25 { rider.recordDestination(ChosenPlace(name: "Place \(i)", at: nodes["B"]!), now: RouteFixture.now) }
        let a = app(rider)
        // Enter on From edits it: the recents are listed.
        let m0 = RouteFixture.press(a, [.enter], from: a.initialModel(size: size)).0
        let shown = m0.plan.origin.results
        #expect(shown.count == SkateStore.recentLimit && shown.first?.name == "Place 24" && shown.last?.name == "Place 5")
        #expect(shown.allSatisfy { $0.mark == .recent })
        let screen = text(a, m0)
        #expect(screen.contains("Recent destinations") && screen.contains("> Place 24"))
        // Typing hides them; clearing brings them back.
        let typed = RouteFixture.press(a, RouteFixture.typing("sk"), from: m0).0
        #expect(!typed.plan.origin.results.contains { $0.mark == .recent })
        let cleared = RouteFixture.press(a, [.backspace, .backspace], from: typed).0
        #expect(cleared.plan.origin.results.first?.name == "Place 24")
        // Plan Skatepark Nord → Place Sud: Place Sud becomes the most recent destination.
        _ = RouteFixture.press(a, [.escape, .char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter], from: m0)
        #expect(rider.recents().first?.name == "Place Sud" && rider.recents().count == SkateStore.recentLimit)
        // Enter edits the empty From; Enter again picks the highlighted recent.
        let picked = RouteFixture.press(a, [.enter, .enter], from: a.initialModel(size: size)).0
        #expect(picked.plan.origin.chosen?.name == "Place Sud")
    }

    @Test func storeBackedRiderDataReadsPlacesRecentsAndGoal() throws {
        let dir = TestData.temporaryDirectory("tui-rider")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SkateStore(dataDir: dir)
        try store.addPlace(name: "Work", category: .work, at: nodes["F"]!, now: RouteFixture.now)
        try store.setSetting(SkateStore.weeklyGoalKey, "20000")
        let rideStart = RouteFixture.now.timeIntervalSince1970 - 3600
        try store.indexRide(IndexedRide(record: RideRecord(rideId: "r1", path: "/x.ndjson", startEpoch: rideStart, map: "m", mode: "smoothest",
                                                           distance: 12_400, duration: 3000, movingTime: 2800, climb: 10, descent: 10,
                                                           crustyMetres: 0, maxSpeed: 6, complete: true), fileSize: 1, fileModified: 1))
        let rider = StoreRiderData(store: store, timeZone: TimeZone(identifier: "UTC")!)
        #expect(rider.savedPlaces() == [RiderPlace(name: "Work", category: "work", at: nodes["F"]!)])
        rider.recordDestination(ChosenPlace(name: "Place Sud", at: nodes["F"]!), now: RouteFixture.now)
        #expect(try store.recentDestinations().map(\.name) == ["Place Sud"])
        #expect(rider.weekProgress(now: RouteFixture.now) == WeekProgress(distance: 12_400, goal: 20_000))
        // The app on the store: the goal line on the plan screen, the saved place in the search.
        let a = app(rider, store: store)
        let m = a.initialModel(size: size)
        #expect(m.plan.origin.results.map(\.name) == ["Place Sud"])
        #expect(text(a, m).contains("Week   12.4 / 20 km"))
    }

    // MARK: Weekly goal

    @Test func weeklyGoalLineShowsDistanceAndBar() throws {
        let a = app(MemoryRiderData(goal: WeekProgress(distance: 12_400, goal: 20_000)))
        let lines = a.render(a.initialModel(size: size)).lines
        let line = try #require(lines.first { $0.contains("Week") })
        #expect(line.contains("12.4 / 20 km"))
        let full = line.filter { $0 == "█" }.count, empty = line.filter { $0 == "░" }.count
        // 12.4 of 20 km: 62 % of the bar, rounded down.
        #expect(full + empty == WeekGoalLine.maxBarWidth && full == Int(Double(WeekGoalLine.maxBarWidth) * 0.62))
        // No goal: no line.
        #expect(!text(app(MemoryRiderData()), a.initialModel(size: size)).contains("Week "))
        // A reached goal fills the bar.
        #expect(WeekGoalLine.filled(WeekProgress(distance: 25_000, goal: 20_000), width: 10) == 10)
        // 80×24 still has the line.
        let small = a.render(a.initialModel(size: Size(width: 80, height: 24))).lines
        #expect(small.contains { $0.contains("12.4 / 20 km") })
    }

    // MARK: Spots

    @Test func spotsLayerDrawsEverySpotOnThePlanMap() throws {
        let a = app(MemoryRiderData(places: [RiderPlace(name: "Ledge", category: "spot", at: nodes["B"]!)]))
        let m = RouteFixture.press(a, [.escape], from: a.initialModel(size: size)).0
        let buf = a.render(m)
        let vp = try #require(m.plan.map).viewport
        let area = PlanScreen.mapArea(size)
        // Skatepark Nord (A), Place Sud (F) and the rider's own Ledge (B) each draw a `*`.
        for name in ["A", "F", "B"] {
            let c = try #require(vp.cell(nodes[name]!))
            #expect(buf.lines[area.y + c.y].dropFirst(area.x + c.x).first == "*", "no spot mark at \(name)")
        }
        #expect(a.services.spotEntries.contains { $0.name == "Ledge" && $0.kind == "own" })
        #expect(a.services.planner.trickSpots().contains { $0.name == "Ledge" })
    }

    @Test func spotsListSortsByDistanceAndGoThereRecordsAndPlans() throws {
        let rider = MemoryRiderData()
        let a = app(rider)
        // From: Skatepark Nord; then leave the field and open the list.
        // (Enter on From picks it and goes on editing To; Esc leaves To empty.)
        var m = RouteFixture.press(a, [.char("/")] + RouteFixture.typing("skate") + [.enter, .escape], from: a.initialModel(size: size)).0
        #expect(m.keyContext == .plan)
        m = RouteFixture.press(a, [.char("g")], from: m).0
        let list = try #require(m.spotList)
        #expect(m.keyContext == .spotList)
        #expect(list.rows.map(\.name) == ["Skatepark Nord", "Place Sud"])
        let far = Geo.distance(nodes["A"]!, nodes["F"]!)
        #expect(list.rows[0].distance < 1 && abs(list.rows[1].distance - far) < 1)
        let screen = text(a, m)
        #expect(screen.contains("Spots from Skatepark Nord") && screen.contains("> Skatepark Nord") && screen.contains("square"))
        // `o` on a spot makes it From, by its name.
        let o = RouteFixture.press(a, [.down, .char("o")], from: m).0
        #expect(o.spotList == nil && o.plan.origin.chosen == ChosenPlace(name: "Place Sud", at: list.rows[1].at))
        #expect(screen.contains(Format.distance(far)) && screen.contains("go there"))
        // ↓ Enter: planned from the From to Place Sud, and Place Sud is recorded.
        m = RouteFixture.press(a, [.down, .enter], from: m).0
        #expect(m.spotList == nil && m.screen == .plan && !m.plan.routes.isEmpty)
        #expect(m.plan.origin.chosen?.name == "Skatepark Nord" && m.plan.destination.chosen?.name == "Place Sud")
        #expect(rider.recents().first?.name == "Place Sud")
        // Esc closes without planning.
        let closed = RouteFixture.press(a, [.char("g"), .escape], from: m).0
        #expect(closed.spotList == nil && closed.plan.routes == m.plan.routes)
    }

    @Test func trickSpotCrawlNamesItsSpotInThePreview() throws {
        let a = app(MemoryRiderData())
        var m = a.initialModel(size: size)
        m.plan.mode = .trickSpotCrawl
        m = RouteFixture.press(a, [.char("/")] + RouteFixture.typing("rue basse") + [.enter] + RouteFixture.typing("rue est") + [.enter, .enter], from: m).0
        #expect(m.screen == .preview)
        let spots = try #require(m.preview?.plan.plan.spots)
        #expect(!spots.isEmpty)
        // The summary's first row: the mode, then (with alternatives) "route 1 of N", then the spots.
        let row = text(a, m).split(separator: "\n").first { $0.contains("trick-spot crawl") }.map(String.init) ?? ""
        #expect(row.contains("spot: " + spots.joined(separator: ", ")), "\(row)")
    }

    // MARK: Alerts

    /// Plays a whole simulated ride Skatepark Nord → Place Sud; the banners seen and the bells asked for.
    func ride(_ a: TUIApp) -> (banners: [String], bells: Int) {
        var m = RouteFixture.press(a, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter, .enter, .char("r")],
                                   from: a.initialModel(size: size)).0
        var banners: [String] = [], bells = 0
        for _ in 0..<400 where m.ride?.frame.finished == false {
            let (n, cmds) = a.step(m, .tick(0.5))
            m = n
            bells += cmds.filter { $0 == .bell }.count
            if let b = m.banner?.text, banners.last != b { banners.append(b) }
        }
        return (banners, bells)
    }

    @Test func alertsShowAsBannersAndRingOnlyWhenEnabled() throws {
        let home = RiderPlace(name: "Home", category: "home", at: nodes["C"]!)
        let quiet = ride(app(MemoryRiderData(places: [home])))
        #expect(quiet.banners.contains { $0.hasPrefix("Saved place nearby: Home") })
        #expect(quiet.banners.contains { $0.hasPrefix("Spot nearby: Place Sud") })
        // Each alert once per ride.
        #expect(quiet.banners.filter { $0.hasPrefix("Spot nearby: Place Sud") }.count == 1)
        let loud = ride(app(MemoryRiderData(places: [home]), alertBell: true))
        let alerts = loud.banners.filter { $0.hasPrefix("Saved place nearby") || $0.hasPrefix("Spot nearby") }.count
        #expect(alerts >= 2 && loud.bells >= quiet.bells + 2)
    }

    @Test func alertBellReachesTheTerminal() throws {
        let home = RiderPlace(name: "Home", category: "home", at: nodes["C"]!)
        func bells(_ on: Bool) -> Int {
            let a = app(MemoryRiderData(places: [home]), alertBell: on)
            let keys: [TerminalInput?] = ([.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter, .enter, .char("r")])
                .map { .key($0) } + [.key(.char("]")), .key(.char("]")), .key(.char("]"))] + Array(repeating: nil, count: 300)
            let term = RecordingTerminal(size: size, script: keys)
            var t = 0.0
            AppLoop.run(app: a, terminal: term, tickInterval: 0.1, now: { t += 0.1; return t }, maxIterations: 2000)
            return term.bells
        }
        #expect(bells(true) >= bells(false) + 2)
    }

    // MARK: Save route

    @Test func saveRouteFromThePreviewRefusesDuplicatesAndCleansNames() throws {
        let rider = MemoryRiderData()
        let a = app(rider)
        var m = RouteFixture.press(a, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter, .enter],
                                   from: a.initialModel(size: size)).0
        #expect(m.screen == .preview)
        m = RouteFixture.press(a, [.char("w")], from: m).0
        #expect(m.keyContext == .routeName && m.routeName?.text == "Skatepark Nord to Place Sud")
        #expect(text(a, m).contains("Save route as") && text(a, m).contains("typing replaces"))
        // Letters are text in the prompt (q does not quit), and the first replaces the suggestion.
        m = RouteFixture.press(a, RouteFixture.typing("quiet line") + [.enter], from: m).0
        #expect(!m.quitting && m.routeName == nil && m.toast?.text == "saved route 'quiet line' (skateroute routes show)")
        let saved = try #require(rider.routes.first)
        #expect(saved.mapIdentity == a.services.mapIdentity && saved.planJSON == PlanFormats.json(m.preview!.plan.plan))
        #expect(saved.fromName == "Skatepark Nord" && saved.toName == "Place Sud")
        // The same name in other case: refused with one line, nothing added.
        m = RouteFixture.press(a, [.char("w"), .ctrl("u")] + RouteFixture.typing("QUIET Line") + [.enter], from: m).0
        #expect(m.toast?.kind == .error && m.toast?.text.contains("already exists") == true && rider.routes.count == 1)
        #expect(!(m.toast?.text.contains("\n") ?? true))
        // Escape sequences are removed from a name.
        m = RouteFixture.press(a, [.char("w"), .ctrl("u")] + RouteFixture.typing("\u{1B}[31mred") + [.enter], from: m).0
        #expect(rider.routes.count == 2 && rider.routes[1].name == "red")
        // 10,000 characters: refused, one line.
        var long = RouteFixture.press(a, [.char("w"), .ctrl("u")], from: m).0
        long.routeName?.text = String(repeating: "x", count: 10_000)
        long = RouteFixture.press(a, [.enter], from: long).0
        #expect(long.toast?.kind == .error && rider.routes.count == 2)
        // Esc cancels.
        let cancelled = RouteFixture.press(a, [.char("w"), .escape], from: m).0
        #expect(cancelled.routeName == nil && cancelled.toast?.text == "route not saved" && rider.routes.count == 2)
    }

    // MARK: Keys

    @Test func newKeysDoNotClashAndAppearInHelpAndBars() throws {
        let keys = KeyMap.standard
        #expect(keys.action(for: .char("g"), on: .plan) == .openSpots && keys.action(for: .char("g"), on: .preview) == .openSpots)
        #expect(keys.action(for: .char("w"), on: .preview) == .saveRoute)
        // Every context: no key bound twice (the second binding would be dead).
        for ctx in ScreenID.allCases {
            var seen: [Key: KeyAction] = [:]
            for b in keys.enabled(on: ctx) {
                for k in b.keys {
                    #expect(seen[k] == nil || seen[k] == b.action, "\(k) bound twice on \(ctx)")
                    seen[k] = seen[k] ?? b.action
                }
            }
        }
        let a = app(MemoryRiderData())
        var m = RouteFixture.press(a, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter, .enter],
                                   from: a.initialModel(size: Size(width: 120, height: 40))).0
        #expect(a.render(m).lines.last!.contains("w save") && a.render(m).lines.last!.contains("g spots"))
        m = RouteFixture.press(a, [.char("?")], from: m).0
        let help = text(a, m)
        #expect(help.contains("Save this route by name") && help.contains("Spots list"))
        // 80×24: the bar fits, keeping q and ? when it must drop keys.
        m = RouteFixture.press(a, [.char("?")], from: m).0
        m = a.step(m, .resize(Size(width: 80, height: 24))).0
        let bar = a.render(m).lines.last!
        #expect(DisplayWidth.of(bar) <= 80 && bar.contains("quit") && bar.contains("help"), "\(bar)")
    }
}
