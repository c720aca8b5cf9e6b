import SkateCore
import Testing
@testable import SkateTUI

@Suite struct StyleTests {
    @Test func colourModeDetection() {
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"]) == .truecolor)
        #expect(ColorMode.detect(environment: ["TERM": "xterm", "COLORTERM": "24bit"]) == .truecolor)
        #expect(ColorMode.detect(environment: ["TERM": "screen-256color"]) == .ansi256)
        #expect(ColorMode.detect(environment: ["TERM": "xterm"]) == .ansi8)
        #expect(ColorMode.detect(environment: ["TERM": "dumb"]) == .none)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]) == .none)
        #expect(ColorMode.detect(environment: ["TERM": "xterm-256color", "NO_COLOR": ""]) == .ansi256)  // empty NO_COLOR is unset
    }

    @Test func glyphModeDetectionFollowsLocalePrecedence() {
        #expect(GlyphMode.detect(environment: ["LANG": "en_US.UTF-8"]) == .unicode)
        #expect(GlyphMode.detect(environment: ["LANG": "C.utf8"]) == .unicode)
        #expect(GlyphMode.detect(environment: ["LANG": "en_US.UTF-8", "LC_ALL": "C"]) == .ascii)
        #expect(GlyphMode.detect(environment: ["LC_CTYPE": "fr_FR.UTF-8", "LANG": "C"]) == .unicode)
        #expect(GlyphMode.detect(environment: ["LC_ALL": "", "LANG": "de_DE.UTF-8"]) == .unicode)
        #expect(GlyphMode.detect(environment: [:]) == .ascii)
        #expect(GlyphMode.detect(environment: ["LANG": "en_US.ISO-8859-1"]) == .ascii)
    }

    @Test func paletteColoursPerMode() {
        #expect(Palette(mode: .truecolor).style(.meh).fg == .rgb(255, 175, 0))
        #expect(Palette(mode: .ansi256).style(.meh).fg == .indexed(214))
        #expect(Palette(mode: .ansi8).style(.meh).fg == .yellow)
        for role in PaletteRole.allCases {
            let s = Palette(mode: .none).style(role)
            #expect(s.fg == .default && s.bg == .default, "role \(role) has colour under NO_COLOR")
        }
        // The 256 indices are the nearest entries to the truecolour values.
        for role in [PaletteRole.butter, .okay, .meh, .crusty, .braking, .context] {
            #expect(Palette(mode: .truecolor).style(role).fg.nearest256 == Palette(mode: .ansi256).style(role).fg.nearest256, "\(role)")
        }
    }

    /// What a viewer without colour sees of a pen: its glyph, width and attributes.
    func shape(_ ink: Ink) -> String { "\(ink.glyph)|\(ink.thickness)|\(ink.style.attrs.rawValue)" }

    @Test(arguments: [ColorMode.none, .ansi8], GlyphMode.allCases)
    func roughnessClassesDifferWithoutColour(mode: ColorMode, glyphs: GlyphMode) {
        let theme = Theme(colorMode: mode, glyphMode: glyphs)
        let shapes = RoughnessClass.allCases.map { shape(theme.routeInk($0)) }
        #expect(Set(shapes).count == 4, "\(shapes)")
        // The legend samples differ as text too.
        let samples = RoughnessClass.allCases.map { theme.sample(theme.routeInk($0)) + "\(theme.routeInk($0).style.attrs.rawValue)" }
        #expect(Set(samples).count == 4, "\(samples)")
        // Braking stands out from every class without colour (reverse video).
        let brake = theme.brakingInk(.braking)!.ink
        #expect(brake.style.attrs.contains(.reverse))
        #expect(RoughnessClass.allCases.allSatisfy { !theme.routeInk($0).style.attrs.contains(.reverse) })
    }

    @Test func roughnessClassesDifferByColourInColourModes() {
        for mode in [ColorMode.ansi256, .truecolor] {
            let theme = Theme(colorMode: mode, glyphMode: .unicode)
            #expect(Set(RoughnessClass.allCases.map { theme.routeInk($0).style.fg }).count == 4)
        }
    }

    @Test func arrows() {
        #expect(GlyphMode.unicode.arrow(headingDegrees: 0) == "↑")
        #expect(GlyphMode.unicode.arrow(headingDegrees: 93) == "→")
        #expect(GlyphMode.unicode.arrow(headingDegrees: -45) == "↖")
        #expect(GlyphMode.ascii.arrow(headingDegrees: 190) == "v")
        #expect(GlyphMode.ascii.arrow(headingDegrees: 359) == "^")
    }
}
