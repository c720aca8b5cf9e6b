import Testing
@testable import SkateTUI
import SkateCore

@Suite struct SanitizerTests {
    @Test func stripsCSIAndOSCSequences() {
        #expect(TerminalSafe.clean("Rue \u{1B}[31mGrimaldi\u{1B}[0m") == "Rue Grimaldi")
        #expect(TerminalSafe.clean("\u{1B}]0;pwned\u{07}Quai Antoine") == "Quai Antoine")
        #expect(TerminalSafe.clean("a\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\b") == "alinkb")
        #expect(TerminalSafe.clean("x\u{1B}Py") == "x")  // unterminated DCS swallows the rest
        #expect(TerminalSafe.clean("x\u{1B}7y") == "xy")  // two-byte escape
        #expect(TerminalSafe.clean("x\u{9B}2Jy") == "xy")  // 8-bit CSI
        #expect(TerminalSafe.clean("x\u{9D}0;t\u{9C}y") == "xy")  // 8-bit OSC … ST
    }

    @Test func stripsControlsAndBidiOverrides() {
        #expect(TerminalSafe.clean("a\u{0}b\u{7}c\u{7F}d\u{85}e") == "abcde")
        #expect(TerminalSafe.clean("line\none\ttab") == "line one tab")
        #expect(TerminalSafe.clean("evil\u{202E}txt.exe\u{202C}") == "eviltxt.exe")
        #expect(TerminalSafe.clean("\u{2067}iso\u{2069}\u{200F}") == "iso")
    }

    @Test func keepsOrdinaryUnicode() {
        for s in ["Place du Casino", "Boulevard Princesse Charlotte", "Allée Lazare Sauvaigo", "中文", "Café 🛹", "e\u{301}"] {
            #expect(TerminalSafe.clean(s) == s)
        }
    }

    @Test func truncatesToColumnsWithEllipsis() {
        #expect(DisplayWidth.clip("Boulevard des Moulins", maxColumns: 10) == "Boulevard…")
        #expect(DisplayWidth.clip("\u{1B}[1mshort", maxColumns: 10) == "short")
        #expect(DisplayWidth.clip("中文中文", maxColumns: 5) == "中文…")
    }

    @Test func cleanedTextNeverCarriesEscapesIntoTheBuffer() {
        var b = ScreenBuffer(width: 30, height: 1)
        b.write(TerminalSafe.clean("\u{1B}]0;pwned\u{07}Rue\u{1B}[31m Basse"), x: 0, y: 0)
        #expect(b.lines == ["Rue Basse".rightPadded(to: 30)])
        #expect(!b.cells.contains { $0.glyph.unicodeScalars.contains { $0.value < 0x20 } })
    }
}
