import SkateCore
import Testing
@testable import SkateTUI

@Suite struct WidgetTests {
    let mono = Theme(colorMode: .none, glyphMode: .unicode)

    @Test func hudShowsEveryField() {
        let d = HUDData(speedKmh: 18.44, stability: 0.82, gradePercent: -6.5, surface: .okay, braking: .caution,
                        next: ManeuverInfo(arrow: .left, distanceMetres: 120, street: "Rue \u{1B}[31mGrimaldi"),
                        distanceLeftMetres: 2430, etaSeconds: 500, rideClockSeconds: 754, simSpeed: 4, recording: true)
        var b = ScreenBuffer(width: 28, height: 11)
        HUDWidget.render(d, theme: mono, into: &b, area: b.area)
        expectLines(b, [
            " SPEED    18.4 km/h         ",
            " STABLE   ████████░░ 82%    ",
            " GRADE    -6.5 %            ",
            " SURFACE  ⠶⠶⠶ okay          ",
            " NEXT     ← 120 m           ",
            "          Rue Grimaldi      ",
            " LEFT     2.4 km            ",
            " ETA      8 min             ",
            " CLOCK    12:34             ",
            " SIM      ×4                ",
            "          ● REC             ",
        ])
    }

    @Test func hudWithNothingKnownShowsDashes() {
        var b = ScreenBuffer(width: 24, height: 10)
        HUDWidget.render(HUDData(simSpeed: 0.25, paused: true), theme: Theme(colorMode: .none, glyphMode: .ascii), into: &b, area: b.area)
        #expect(b.lines[0] == " SPEED    - km/h".rightPadded(to: 24))
        #expect(b.lines[8] == " SIM      x0.25  || paus")
        #expect(b.lines.allSatisfy { $0.allSatisfy(\.isASCII) })
    }

    @Test func formats() {
        #expect(Format.distance(42.4) == "42 m")
        #expect(Format.distance(846) == "850 m")
        #expect(Format.distance(2430) == "2.4 km")
        #expect(Format.clock(3725) == "1:02:05")
        #expect(Format.duration(30) == "30 s")
        #expect(Format.duration(3900) == "1 h 05")
        #expect(Format.simSpeed(0.25) == "×0.25")
        #expect(Format.simSpeed(60) == "×60")
    }

    @Test func legendListsClassesAndBraking() {
        let size = LegendWidget.size(mono)
        var b = ScreenBuffer(width: size.width, height: size.height)
        LegendWidget.render(theme: mono, into: &b, area: b.area)
        expectLines(b, [
            "┌─────────────┐",
            "│ ⠒⠒⠒ butter  │",
            "│ ⠶⠶⠶ okay    │",
            "│ ~~~ meh     │",
            "│ ### crusty  │",
            "│ ⠶ ⠶ caution │",
            "│ ⠶ ⠶ braking │",
            "│ * spot      │",
            "│ ! hazard    │",
            "└─────────────┘",
        ])
        #expect(b[2, 6].attrs.contains(.reverse))  // braking sample in reverse video
    }

    @Test func cueBannerAndToast() {
        var b = ScreenBuffer(width: 30, height: 4)
        CueBannerWidget.render(CueBanner(text: "Braking zone 120 m", kind: .braking), theme: mono, into: &b, area: b.area)
        ToastWidget.render(Toast(text: "Pothole reported"), theme: mono, into: &b, area: b.area)
        expectLines(b, [
            "     ! Braking zone 120 m     ",
            "                              ",
            "                              ",
            "       Pothole reported       ",
        ])
        #expect(b[0, 0].attrs.contains(.reverse) && b[29, 0].attrs.contains(.reverse))
        #expect(b[6, 3].attrs.contains(.reverse) && !b[5, 3].attrs.contains(.reverse))
    }

    @Test func sparklineMarksBrakingZones() {
        let p = ElevationProfile(elevations: [10, 10, 20, 30, 40, 30, 20, 10], braking: [.none, .none, .none, .none, .none, .braking, .braking, .caution])
        var b = ScreenBuffer(width: 8, height: 3)
        ElevationSparklineWidget.render(p, theme: Theme(colorMode: .ansi256, glyphMode: .unicode), into: &b, area: b.area)
        // Two bar rows (16 eighths): 10 m → 1/8, 20 m → 6/8, 30 m → 11/8, 40 m → 16/8; the
        // highest point sits over the first columns of the top row, the lowest of the bottom one.
        expectLines(b, [
            "40 m█▃  ",
            "10 m██▆▁",
            "     ━━┄",
        ])
        #expect(b.lines[2] == "     ━━┄")
        #expect(b[5, 1].fg == .indexed(199) && b[7, 1].fg == .indexed(45) && b[4, 1].fg == .default)
        // Heights grow with elevation.
        #expect(b[4, 0].glyph == "█" && b[0, 0].glyph != "█")
    }

    @Test func keyBarAndHelpComeFromTheTable() {
        let theme = Theme(colorMode: .none, glyphMode: .unicode)
        var b = ScreenBuffer(width: 80, height: 1)
        KeyBarWidget.render(keyMap: .standard, screen: .browse, theme: theme, into: &b, area: b.area)
        // Too many for 80 columns with roomy spacing: the tight form keeps every key.
        #expect(b.lines[0].hasPrefix("q quit ? help ←↑↓→ pan +/- zoom f fit Esc back h hazard s rate u undo"), "\(b.lines[0])")
        var narrow = ScreenBuffer(width: 50, height: 1)
        KeyBarWidget.render(keyMap: .standard, screen: .browse, theme: theme, into: &narrow, area: narrow.area)
        // Too many for 50: q and ? stay, pinned at the right end (issue 34).
        #expect(narrow.lines[0].hasPrefix("←↑↓→ pan") && narrow.lines[0].hasSuffix("q quit ? help "), "\(narrow.lines[0])")
        var wide = ScreenBuffer(width: 160, height: 1)
        KeyBarWidget.render(keyMap: .standard, screen: .browse, theme: theme, into: &wide, area: wide.area)
        #expect(wide.lines[0].hasPrefix(" q  quit  ?  help  ←↑↓→  pan  +/-  zoom  f  fit  Esc  back  h 1-8  hazard"))
        var h = ScreenBuffer(width: 70, height: 30)
        HelpOverlayWidget.render(keyMap: .standard, screen: .browse, theme: theme, into: &h, area: h.area)
        let text = h.lines.joined(separator: "\n")
        // (Long texts wrap by words: each starts on its key's row.)
        for binding in KeyMap.standard.enabled(on: .browse) { #expect(text.contains(binding.help.prefix(12)), "\(binding.help)") }
        #expect(text.contains("← ") && text.contains("? or Esc closes"))
        // ASCII key names without Unicode arrows.
        var a = ScreenBuffer(width: 80, height: 1)
        KeyBarWidget.render(keyMap: .standard, screen: .browse, theme: Theme(colorMode: .none, glyphMode: .ascii), into: &a, area: a.area)
        #expect(a.lines[0].contains(" arrows ") && a.lines[0].allSatisfy(\.isASCII))
    }

    @Test func tooSmallScreenFitsAnySize() {
        let b = TooSmallScreen.render(size: Size(width: 40, height: 10), theme: mono)
        #expect(b.lines[3].contains("Terminal too small") && b.lines[4].contains("40x10, need 60x20"))
        for s in [Size(width: 1, height: 1), Size(width: 0, height: 0), Size(width: 10, height: 2)] {
            #expect(TooSmallScreen.render(size: s, theme: mono).size == s)
        }
    }
}
