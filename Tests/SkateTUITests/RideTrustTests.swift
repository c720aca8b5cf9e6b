import Foundation
import SkateCore
import SkateRide
import SkateStore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// Issue 14, "a ride you can trust on screen": each defect replayed with the key sequence that
/// used to fail, checked on the model and the screen buffer.
@Suite struct RideTrustTests {
    let size = Size(width: 100, height: 30)

    func planned(_ app: TUIApp) -> AppModel {
        RouteFixture.press(app, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter],
                           from: app.initialModel(size: size)).0
    }

    // MARK: 1. Editing keys stay in the field

    @Test func homeAndOtherEditingKeysStayInTheField() {
        let app = RouteFixture.app()
        var m = app.initialModel(size: size)
        // The failing sequence: "ab", Home, then letters that are also commands (p, r) and Enter.
        m = RouteFixture.press(app, [.enter] + RouteFixture.typing("ab") + [.home], from: m).0
        #expect(m.keyContext == .planInput && m.plan.origin.cursor == 0)
        let (typed, cmds) = RouteFixture.press(app, [.char("p"), .char("r")], from: m)
        #expect(typed.plan.origin.text == "prab" && typed.picker == nil && cmds.isEmpty)
        #expect(typed.keyContext == .planInput)
        // End, ←, →, Backspace, Delete, Ctrl-W, Ctrl-U: all edit, none leaves.
        var e = RouteFixture.press(app, [.end, .left, .backspace], from: typed).0
        #expect(e.plan.origin.text == "prb" && e.plan.origin.cursor == 2 && e.keyContext == .planInput)
        e = RouteFixture.press(app, [.home, .delete, .right], from: e).0
        #expect(e.plan.origin.text == "rb" && e.plan.origin.cursor == 1)
        e = RouteFixture.press(app, [.end] + RouteFixture.typing(" place sud") + [.ctrl("w")], from: e).0
        #expect(e.plan.origin.text == "rb place " && e.keyContext == .planInput)
        e = RouteFixture.press(app, [.ctrl("u")], from: e).0
        #expect(e.plan.origin.text.isEmpty && e.keyContext == .planInput)
        // The caret is drawn where the next letter goes.
        let t = RouteFixture.press(app, RouteFixture.typing("abc") + [.left], from: e).0
        #expect(app.render(t).lines.joined(separator: "\n").contains("ab▏c"))
        // Only Esc leaves.
        #expect(RouteFixture.press(app, [.escape], from: t).0.keyContext == .plan)
    }

    @Test func terminalEscapeSequencesForHomeAndEndAreKeys() {
        func bytes(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
        #expect(EscapeSequence.key(after: bytes("[1~")) == .home)
        #expect(EscapeSequence.key(after: bytes("OH")) == .home)
        #expect(EscapeSequence.key(after: bytes("[4~")) == .end)
        #expect(EscapeSequence.key(after: bytes("[3~")) == .delete)
        #expect(EscapeSequence.key(after: []) == .escape)
        #expect(EscapeSequence.key(after: bytes("[9;9~")) == .unknown(27))
        #expect(!EscapeSequence.isComplete(bytes("[1")) && EscapeSequence.isComplete(bytes("[1~")))
    }

    @Test func tabAcceptsTheMatchAndEnterPlans() {
        let app = RouteFixture.app()
        var m = app.initialModel(size: size)
        m = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("skate") + [.tab], from: m).0
        // Tab took the match and, To being empty, went on editing it.
        #expect(m.plan.origin.chosen?.name == "Skatepark Nord" && m.plan.focus == .destination && m.keyContext == .planInput)
        m = RouteFixture.press(app, RouteFixture.typing("place s") + [.enter], from: m).0
        #expect(m.plan.destination.chosen?.name == "Place Sud" && !m.plan.routes.isEmpty && m.plan.focus == .routes)
    }

    // MARK: 2. Banners agree with NEXT

    @Test func bannerCountsDownAndClearsWhenPassedOrSuperseded() throws {
        let app = RouteFixture.app()
        let m = RouteFixture.press(app, [.enter, .char("r")], from: planned(app)).0
        let r = try #require(m.ride)
        let plan = try #require(r.plan?.plan)
        let turn = try #require(plan.steps.first { $0.index > 0 && $0.maneuver.isTurn })
        let text = "\(turn.maneuver.phrase) in 40 m"
        var frame = r.frame
        frame.step = turn.index - 1
        frame.distanceAlong = turn.startDistance - 40
        let cue = RideCue(text: text, kind: .info, urgent: false, step: turn.index, at: turn.startDistance, phrase: "in 40 m")
        var a = app.update(m, .rideAdvanced(RideUpdate(frame: frame, cues: [cue]))).0
        #expect(a.banner?.text == text)
        // 25 m later the banner says 15 m, like NEXT.
        frame.distanceAlong = turn.startDistance - 15
        a = app.update(a, .rideAdvanced(RideUpdate(frame: frame))).0
        #expect(a.banner?.text == "\(turn.maneuver.phrase) in 15 m")
        let screen = app.render(a).lines.joined(separator: "\n")
        #expect(screen.contains("in 15 m") && screen.contains("15 m"))
        // Passed: the rider is on the turn's step, NEXT moved on; the banner is gone.
        frame.step = turn.index
        frame.distanceAlong = turn.startDistance + 20
        a = app.update(a, .rideAdvanced(RideUpdate(frame: frame))).0
        #expect(a.banner == nil)
        // A banner about another maneuver than NEXT never shows.
        frame.step = turn.index - 1
        frame.distanceAlong = turn.startDistance - 30
        let stale = RideCue(text: "Turn sharp right in 20 m", kind: .info, urgent: false, step: turn.index + 5, at: turn.startDistance + 10, phrase: "in 20 m")
        #expect(app.update(m, .rideAdvanced(RideUpdate(frame: frame, cues: [stale]))).0.banner == nil)
    }

    // MARK: 3. Colours

    @Test func brakingAndSurfaceColoursAreSeparable() {
        for mode in [ColorMode.ansi8, .ansi256, .truecolor] {
            let t = Theme(colorMode: mode, glyphMode: .unicode)
            let braking = t.style(.braking)
            for c in RoughnessClass.allCases {
                let s = t.style(c.role)
                #expect(s.fg != braking.fg || s.attrs != braking.attrs, "\(mode) \(c)")
            }
            // Not the same hue family as meh/crusty in 256/true colour.
            if mode != .ansi8 { #expect(braking.fg != t.style(.meh).fg && braking.fg != t.style(.crusty).fg) }
        }
        // The dash leaves most of the line in the class colour.
        #expect(Theme.brakingDash.off > Theme.brakingDash.on)
        let legend = LegendWidget.entries(Theme(colorMode: .none, glyphMode: .unicode)).map(\.label)
        #expect(legend.contains("spot") && legend.contains("braking"))
    }

    @Test func stepListShowsBrakeTooFastAndWalk() throws {
        let p = try PlanRenderTests.plan()
        let braked = try #require(p.steps.first { $0.context.braking == .braking })
        var b = ScreenBuffer(width: 60, height: 1)
        PreviewScreen.renderStep(braked, theme: Theme(colorMode: .none, glyphMode: .unicode), into: &b, x: 0, y: 0, width: 60)
        #expect(b.lines[0].contains("BRAKE"))
        var c = braked.context
        c.tooFast = true; c.walk = true
        #expect(PreviewScreen.stepFlags(c).map(\.0) == ["BRAKE", "too fast", "walk"])
    }

    // MARK: 4. Arrival

    @Test func arrivalScreenThenEnterReturnsToPlan() throws {
        let app = RouteFixture.app()
        var m = RouteFixture.press(app, [.enter, .char("r")], from: planned(app)).0
        var guardN = 0
        while m.ride?.frame.finished != true, guardN < 2000 { m = app.step(m, .tick(1)).0; guardN += 1 }
        let r = try #require(m.ride)
        #expect(r.frame.finished && m.keyContext == .arrival)
        let text = app.render(m).lines.joined(separator: "\n")
        for word in ["Arrived", "Ride time", "Distance", "avg", "max", "Climb", "Braking", "Crusty", "Hazards", "Surface", "Log", "Enter"] {
            #expect(text.contains(word), "\(word)\n\(text)")
        }
        #expect(!text.contains("pause"))
        #expect(r.stats.maxSpeed > 0 && r.stats.metresByClass.values.reduce(0, +) > 100)
        let (back, cmds) = RouteFixture.press(app, [.enter], from: m)
        #expect(back.screen == .plan && back.ride == nil && !back.plan.routes.isEmpty && cmds.isEmpty)
    }

    // MARK: 5. Simulated reports

    @Test func reportDuringASimulationIsStoredAsSimulatedAndNotRouted() throws {
        let dir = TestData.temporaryDirectory("tui-sim-report")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SkateStore(dataDir: dir)
        let app = RouteFixture.app(store: store)
        var m = RouteFixture.press(app, [.enter, .char("r")], from: planned(app)).0
        m = app.step(m, .tick(2)).0
        m = RouteFixture.press(app, [.char("h"), .char("1")], from: m).0
        #expect(m.toast?.text.contains("simulated") == true, "\(m.toast?.text ?? "")")
        let stored = try store.hazards(now: RouteFixture.now)
        #expect(stored.count == 1 && stored[0].hazard.source == .simulated && stored[0].hazard.reporter == "tui-sim")
        // Not fed to routing until confirmed.
        #expect(try store.loadKnowledge(for: RouteFixture.map, now: RouteFixture.now).hazards.isEmpty)
        _ = try store.confirmHazard(id: stored[0].hazard.id, reporter: "someone", now: RouteFixture.now)
        #expect(try !store.loadKnowledge(for: RouteFixture.map, now: RouteFixture.now).hazards.isEmpty)
        // A report from the plan screen (no ride) is a real keyboard report.
        var real = RouteFixture.press(app, [.escape, .char("y"), .escape], from: m).0
        real.plan.focus = .routes
        #expect(QuickReports.command(for: .char("2"), pending: .hazard, at: stored[0].hazard.position) ==
                .fileHazard(kind: .crack, at: stored[0].hazard.position, simulated: false))
    }

    // MARK: 6. Terminals

    @Test func dumbTerminalIsRefusedInOneLine() {
        #expect(throws: TUIError.dumbTerminal) { try TUIError.check(environment: ["TERM": "dumb"]) }
        #expect(throws: TUIError.dumbTerminal) { try TUIError.check(environment: [:]) }
        #expect(throws: Never.self) { try TUIError.check(environment: ["TERM": "xterm"]) }
        let line = TUIError.dumbTerminal.description
        #expect(!line.contains("\n") && line.contains("skateroute plan"))
    }

    @Test func riderStandsOutWithoutColourAndAsciiTurnsDiffer() {
        let theme = Theme(colorMode: .none, glyphMode: .unicode)
        let r = theme.style(.rider)
        for role in [PaletteRole.start, .end, .hazard, .spot] { #expect(theme.style(role) != r) }
        let overlay = RouteOverlay(rider: RiderMark(position: TinyMap.at(0, 0), headingDegrees: 0))
        var b = ScreenBuffer(width: 20, height: 6)
        MapRenderer.render(map: TinyMap.make(), overlay: overlay, viewport: TinyMap.viewport(), theme: theme, into: &b, area: b.area)
        #expect(b.lines.joined().contains("(↑)"), Comment(rawValue: b.lines.joined(separator: "\n")))
        #expect(ManeuverArrow.sharpRight.glyph(.ascii) != ManeuverArrow.slightRight.glyph(.ascii))
        #expect(ManeuverArrow.sharpLeft.glyph(.ascii) != ManeuverArrow.slightLeft.glyph(.ascii))
    }

    // MARK: 7. Ctrl-T and speeds

    @Test func ctrlTCyclesModeOnTheRouteListAndIsInHelp() {
        let app = RouteFixture.app()
        let m = planned(app)
        #expect(m.keyContext == .plan)
        let t = RouteFixture.press(app, [.ctrl("t")], from: m).0
        #expect(t.plan.mode == RideMode.allCases[1] && !t.plan.routes.isEmpty)
        let help = HelpOverlayWidget.rows(keyMap: .standard, screen: .plan, glyphs: .unicode).map(\.0).joined(separator: " ")
        #expect(help.contains("^T"))
        #expect(RideScreen.defaultSimSpeed == 1)
    }

    // MARK: 8. 80×24

    @Test func footersAndPromptsFitAt80x24() {
        let theme = Theme(colorMode: .none, glyphMode: .unicode)
        for screen in KeyMap.commandScreens {
            let bar = KeyBarWidget.text(keyMap: .standard, screen: screen, theme: theme, width: 80)
            let labels = KeyMap.standard.enabled(on: screen).filter { !$0.barLabel.isEmpty }
            let missing = labels.filter { !bar.contains($0.barLabel) }
            // Every key is either on the bar or in the help, which `?` opens from every command screen.
            #expect(missing.isEmpty || bar.contains("help"), "\(screen): \(bar)")
        }
        let ride = KeyBarWidget.text(keyMap: .standard, screen: .ride, theme: theme, width: 80)
        #expect(ride.contains("undo") && ride.contains("hazard") && ride.contains("back"), "\(ride)")
        #expect(QuickReports.prompt(.hazard, width: 78).contains("8 other"))
        // The legend covers at most a third of a 16-row map.
        if let l = LegendWidget.layout(theme, mapHeight: 16, maxWidth: 28) { #expect(Double(l.size.height) <= 16 * LegendWidget.maxShare) }
        // Numbers keep their unit at a line end.
        for w in 8...30 {
            for line in PlanScreen.wrap("Distance 12.4 km in 1 h 05 with 320 m climb", width: w) {
                #expect(!line.hasSuffix("12.4") && !line.hasPrefix("km") && !line.hasPrefix("m ") && !line.hasPrefix("05"), "\(w): \(line)")
            }
        }
    }

    // MARK: Must-adds: HUD and palettes

    @Test func hudCountsDownTheNextTurnAndShowsWhatFollows() throws {
        let app = RouteFixture.app()
        var m = RouteFixture.press(app, [.enter, .char("r")], from: planned(app)).0
        m = app.step(m, .tick(3)).0
        let r = try #require(m.ride)
        let h = RideScreen.hud(r)
        let next = try #require(h.next)
        let secs = try #require(next.seconds)
        // Seconds agree with metres at the rider's speed (or the plan's pace).
        #expect(secs > 0 && secs < next.distanceMetres * 10)
        // The fixture descends eastward: a braking zone is ahead or under the rider.
        #expect(h.ahead?.what == "BRAKE" || h.ahead?.what == "caution")
        // The ETA is ride time; at ×1 no real-time figure is added (issue 34: no clock-like time).
        #expect(h.realSecondsLeft == nil && h.etaSeconds != nil)
        let text = app.render(m).lines.joined(separator: "\n")
        #expect(text.contains("AHEAD") && text.contains("ETA") && !text.contains("real "), Comment(rawValue: text))
        let fast = RouteFixture.press(app, [.char("]"), .char("]")], from: m).0
        let hf = RideScreen.hud(try #require(fast.ride))
        #expect(hf.realSecondsLeft.map { abs($0 - hf.etaSeconds! / 5) < 1e-9 } == true)
        #expect(app.render(fast).lines.joined().contains("real "))
        #expect(Format.elapsed(811) == "13 min 31 s" && Format.elapsed(45) == "45 s" && Format.elapsed(3900) == "1 h 05 min")
        #expect(HUDWidget.clockTime(Date(timeIntervalSince1970: 18 * 3600 + 32 * 60), timeZone: TimeZone(identifier: "UTC")!) == "18:32")
    }

    @Test func paletteKeyCyclesSchemesAndTheLegendFollows() {
        let app = RouteFixture.app(theme: Theme(colorMode: .truecolor, glyphMode: .unicode))
        let m = planned(app)
        let before = app.render(m)
        let c1 = RouteFixture.press(app, [.char("C")], from: m).0
        #expect(c1.scheme == .colorBlind && c1.toast?.text.contains("Okabe") == true)
        let after = app.render(c1)
        // Some route cell changes colour, none changes glyph.
        var recoloured = 0
        for y in 0..<before.size.height { for x in 0..<before.size.width where before[x, y].glyph == after[x, y].glyph && before[x, y].fg != after[x, y].fg { recoloured += 1 } }
        #expect(recoloured > 0)
        let cb = Theme(colorMode: .truecolor, glyphMode: .unicode, scheme: .colorBlind)
        #expect(cb.style(.okay).fg == .rgb(0, 158, 115) && cb.style(.crusty).fg == .rgb(213, 94, 0))
        #expect(LegendWidget.entries(cb).first { $0.label == "okay" }?.style.fg == .rgb(0, 158, 115))
        let c3 = RouteFixture.press(app, [.char("C"), .char("C")], from: c1).0
        #expect(c3.scheme == .standard)
        let hc = Theme(colorMode: .ansi256, glyphMode: .unicode, scheme: .highContrast)
        // In every scheme the four classes and braking are five different colours.
        for scheme in PaletteScheme.allCases {
            let t = Theme(colorMode: .ansi256, glyphMode: .unicode, scheme: scheme)
            let fgs = Set(([PaletteRole.butter, .okay, .meh, .crusty, .braking]).map { "\(t.style($0).fg)" })
            #expect(fgs.count == 5, "\(scheme)")
        }
        #expect(hc.style(.okay).attrs.contains(.bold))
    }

    @Test func rerouteShowsAToast() throws {
        let app = RouteFixture.app()
        let m = RouteFixture.press(app, [.enter, .char("r")], from: planned(app)).0
        let r = try #require(m.ride)
        let plan = try #require(r.plan)
        let a = app.update(m, .rideAdvanced(RideUpdate(frame: r.frame, reroute: PlanRef(id: -99, plan: plan.plan)))).0
        #expect(a.toast?.text.hasPrefix("Rerouted: ") == true && a.ride?.plan?.id == -99)
    }
}
