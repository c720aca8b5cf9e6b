import Foundation
import SkateCore
import Testing
@testable import SkateTUI

/// Issue 34 items 2 and 4, seen on the screen at 80×24, 120×40 and 60×20: the step list (full
/// instructions, wrapped rather than cut), the ride panel (narrow on small terminals, names
/// wrapped) and the help box (wrapped by words, scrollable).
@Suite struct ScreenSizeTests {
    static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 60, height: 20)]

    /// The text of `rect` in a rendered frame, as its own buffer for `expectLines`.
    static func crop(_ b: ScreenBuffer, _ r: Rect) -> ScreenBuffer {
        ScreenBuffer(lines: (r.y..<r.maxY).map { y in (r.x..<r.maxX).map { b[$0, y].glyph }.joined() })
    }

    static func preview(_ app: TUIApp, _ size: Size) -> AppModel {
        RouteFixture.press(app, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter, .enter],
                           from: app.initialModel(size: size)).0
    }

    /// Prints a region as Swift source (to refresh the expectations after a deliberate change).
    static func dump(_ name: String, _ b: ScreenBuffer) {
        guard ProcessInfo.processInfo.environment["SKATEROUTE_PRINT_SCREENS"] != nil else { return }
        print("// \(name)\n" + b.lines.map { "\"" + $0 + "\"," }.joined(separator: "\n"))
    }

    /// The step panel right of the map, from its "Steps" row down to the key bar.
    static func stepPanel(_ app: TUIApp, _ m: AppModel) -> ScreenBuffer {
        let size = m.size
        let area = PreviewScreen.mapArea(size, plan: m.preview!.plan.plan)
        let top = area.y + PreviewScreen.summaryRows
        return crop(app.render(m), Rect(x: area.maxX + 1, y: top, width: size.width - area.maxX - 1, height: 5))
    }

    @Test(arguments: sizes) func stepListShowsWholeInstructions(size: Size) throws {
        let app = RouteFixture.app()
        let m = Self.preview(app, size)
        try #require(m.screen == .preview)
        let panel = Self.stepPanel(app, m)
        Self.dump("steps \(size)", panel)
        expectLines(panel, Self.expectedSteps[size.width]!)
        #expect(!panel.lines.joined().contains("…"))
    }

    @Test(arguments: sizes) func ridePanelFitsTheTerminal(size: Size) throws {
        let app = RouteFixture.app()
        var m = RouteFixture.press(app, [.char("r")], from: Self.preview(app, size)).0
        for _ in 0..<4 { m = app.step(m, .tick(1)).0 }
        try #require(m.screen == .ride)
        let hud = RideScreen.hudArea(size)
        #expect(hud.width == (size.width < 80 ? 22 : (size.width >= 120 ? 36 : 28)))
        #expect(RideScreen.mapArea(size).width >= size.width - 37)
        let panel = Self.crop(app.render(m), Rect(x: hud.x, y: hud.y + 1, width: hud.width, height: 12))
        Self.dump("ride \(size)", panel)
        expectLines(panel, Self.expectedRide[size.width]!)
    }

    @Test(arguments: sizes) func helpWrapsByWordsAndSaysHowToScroll(size: Size) throws {
        let app = RouteFixture.app()
        let m = RouteFixture.press(app, [.char("?")], from: Self.preview(app, size)).0
        let l = HelpOverlayWidget.layout(keyMap: app.context.keyMap, screen: .preview, theme: app.context.theme, area: ScreenLayout.body(size))
        let box = Self.crop(app.render(m), Rect(x: l.box.x, y: l.box.y, width: l.box.width, height: min(l.box.height, 8)))
        Self.dump("help \(size)", box)
        expectLines(box, Self.expectedHelp[size.width]!)
        let all = app.render(m).lines.joined(separator: "\n")
        #expect(all.contains(l.lines.count > l.box.height - HelpOverlayWidget.chromeRows ? "scroll (1-" : "? or Esc closes"), "\(all)")
    }

    /// The step panel: at 80, 120 (where the map keeps 55 % of the width) and 60 long
    /// instructions wrap under themselves instead of ending in "…".
    static let expectedSteps: [Int: [String]] = [
        80: [
            " Steps                                   3 steps ",
            " ↑  250 m  -8.0 % okay   BRAKE too fast Depart   ",
            "                        east on Rue Haute        ",
            " →   50 m   0.0 % okay   Turn right onto Rue Est ",
            " ◎ Arrive at destination                         ",
        ],
        120: [
            " Steps                                       3 steps ",
            " ↑  250 m  -8.0 % okay   BRAKE too fast Depart east  ",
            "                          on Rue Haute               ",
            " →   50 m   0.0 % okay   Turn right onto Rue Est     ",
            " ◎ Arrive at destination                             ",
        ],
        60: [
            " Steps                     3 steps ",
            " ↑  250 m  -8.0 % okay   BRAKE     ",
            "                 Depart east on    ",
            "                 Rue Haute         ",
            " →   50 m   0.0 % okay   Turn      ",
        ],
    ]
    /// The ride panel: 28 columns at 80, 36 at 120, 22 at 60 (a shorter bar, no seconds beside NEXT);
    /// street names on their own rows.
    static let expectedRide: [Int: [String]] = [
        80: [
            " SPEED    11.1 km/h         ",
            " STABLE   ████████░░ 81%    ",
            " GRADE    -8.0 %            ",
            " SURFACE  ⠶⠶⠶ okay          ",
            " NEXT     → 230 m  1 min    ",
            "          Rue Est           ",
            " THEN     ◎ 50 m            ",
            "          Rue Est           ",
            " AHEAD    BRAKE now         ",
            " LEFT     280 m             ",
            " ETA      43 s              ",
            " CLOCK    0:04              ",
        ],
        120: [
            " SPEED    11.1 km/h                 ",
            " STABLE   ████████░░ 81%            ",
            " GRADE    -8.0 %                    ",
            " SURFACE  ⠶⠶⠶ okay                  ",
            " NEXT     → 230 m  1 min            ",
            "          Rue Est                   ",
            " THEN     ◎ 50 m                    ",
            "          Rue Est                   ",
            " AHEAD    BRAKE now                 ",
            " LEFT     280 m                     ",
            " ETA      43 s                      ",
            " CLOCK    0:04                      ",
        ],
        60: [
            " SPEED    11.1 km/h   ",
            " STABLE   ██████░ 81% ",
            " GRADE    -8.0 %      ",
            " SURFACE  ⠶⠶⠶ okay    ",
            " NEXT     → 230 m     ",
            "          Rue Est     ",
            " THEN     ◎ 50 m      ",
            "          Rue Est     ",
            " AHEAD    BRAKE now   ",
            " LEFT     280 m       ",
            " ETA      43 s        ",
            " CLOCK    0:04        ",
        ],
    ]
    /// The top of the help box: as wide as its texts (at most 90 columns), wrapped by words at 60.
    static let expectedHelp: [Int: [String]] = [
        80: [
            "┌─ Keys ───────────────────────────────────────────────────────────────────────┐",
            "│ q       Quit and restore the terminal (asks first during a ride)             │",
            "│ ?       Show or hide this help                                               │",
            "│ v       Skateability layer: every street in its surface class (bold measured │",
            "│         or rated, plain from tags, dim guessed), steep ones dashed           │",
            "│ ←       Pan west (moves the cursor)                                          │",
            "│ →       Pan east                                                             │",
            "│ ↑       Pan north                                                            │",
        ],
        120: [
            "┌─ Keys ─────────────────────────────────────────────────────────────────────────────────┐",
            "│ q       Quit and restore the terminal (asks first during a ride)                       │",
            "│ ?       Show or hide this help                                                         │",
            "│ v       Skateability layer: every street in its surface class (bold measured or rated, │",
            "│         plain from tags, dim guessed), steep ones dashed                               │",
            "│ ←       Pan west (moves the cursor)                                                    │",
            "│ →       Pan east                                                                       │",
            "│ ↑       Pan north                                                                      │",
        ],
        60: [
            "┌─ Keys ───────────────────────────────────────────────────┐",
            "│ q       Quit and restore the terminal (asks first during │",
            "│         a ride)                                          │",
            "│ ?       Show or hide this help                           │",
            "│ v       Skateability layer: every street in its surface  │",
            "│         class (bold measured or rated, plain from tags,  │",
            "│         dim guessed), steep ones dashed                  │",
            "│ ←       Pan west (moves the cursor)                      │",
        ],
    ]
}
