import Testing
@testable import SkateTUI

@Suite struct ScreenBufferTests {
    @Test func writeClipsToWidthAndBuffer() {
        var b = ScreenBuffer(width: 8, height: 2)
        #expect(b.write("hello world", x: 2, y: 0) == 6)
        #expect(b.write("abc", x: 0, y: 1, maxWidth: 2) == 2)
        #expect(b.write("zzz", x: 0, y: 5) == 0)  // row outside: ignored
        expectLines(b, ["  hello ", "ab      "])
    }

    @Test func wideGraphemesTakeTwoCellsAndNeverSplit() {
        var b = ScreenBuffer(width: 5, height: 2)
        b.write("中文x", x: 0, y: 0)
        #expect(b[0, 0].glyph == "中" && b[1, 0].isContinuation && b[2, 0].glyph == "文" && b[4, 0].glyph == "x")
        // A wide grapheme that does not fit at the right edge becomes a space.
        b.write("ab中", x: 2, y: 1)
        expectLines(b, ["中文x", "  ab "])
        // Overwriting the right half of a wide grapheme blanks its left half.
        b.set(x: 1, y: 0, Cell("y"))
        #expect(b[0, 0].glyph == " " && b[1, 0].glyph == "y")
        // Combining marks stay in their grapheme; zero-width controls are skipped.
        var c = ScreenBuffer(width: 4, height: 1)
        c.write("e\u{301}\u{200B}z", x: 0, y: 0)
        #expect(c[0, 0].glyph == "e\u{301}" && c[1, 0].glyph == "z")
    }

    @Test func linesRoundTripThroughInitLines() {
        let text = ["┌──┐ ⠉⡇", "│中│ ab", "└──┘   "]
        let b = ScreenBuffer(lines: text)
        #expect(b.width == 7 && b.height == 3)
        #expect(b.lines == text)
        #expect(b.mismatch(text) == nil)
    }

    @Test func mismatchNamesTheRowAndColumn() {
        let b = ScreenBuffer(lines: ["abc", "def"])
        let m = b.mismatch(["abc", "dXf"])
        #expect(m != nil)
        #expect(m!.contains("-  1 |dXf|") && m!.contains("+  1 |def|") && m!.contains("        ^ "))
    }

    @Test func identicalFramesDiffToNothing() {
        var a = ScreenBuffer(width: 30, height: 10)
        a.write("SkateRoute", x: 3, y: 4, style: CellStyle(fg: .indexed(214), attrs: .bold))
        #expect(ScreenBuffer.diff(a, a).isEmpty)
        var b = a
        b.set(x: 5, y: 4, Cell("X", fg: .indexed(214), attrs: .bold))
        #expect(ScreenBuffer.diff(a, b) == [CellChange(x: 5, y: 4, cell: Cell("X", fg: .indexed(214), attrs: .bold))])
        // A style-only change is a change too.
        var c = a
        c.setStyle(Rect(x: 3, y: 4, width: 1, height: 1), .plain)
        #expect(ScreenBuffer.diff(a, c).map(\.x) == [3])
    }

    @Test func diffSkipsContinuationsAndRedrawsAllOnResize() {
        let a = ScreenBuffer(lines: ["ab  "])
        let b = ScreenBuffer(lines: ["中  "])
        #expect(ScreenBuffer.diff(a, b).map(\.x) == [0])
        let big = ScreenBuffer(width: 5, height: 2)
        #expect(ScreenBuffer.diff(a, big).count == 10)
    }

    @Test func displayWidths() {
        #expect(DisplayWidth.of("a") == 1)
        #expect(DisplayWidth.of("⠿") == 1)
        #expect(DisplayWidth.of("中") == 2)
        #expect(DisplayWidth.of("🛹") == 2)
        #expect(DisplayWidth.of("\u{301}") == 0)
        #expect(DisplayWidth.of("Quai Antoine Ier") == 16)
    }

    @Test func colourLowering() {
        #expect(TermColor.rgb(255, 175, 0).nearest256 == 214)
        #expect(TermColor.rgb(128, 128, 128).nearest256 == 244)
        #expect(TermColor.rgb(0, 0, 0).nearest256 == 16)
        #expect(TermColor.rgb(250, 10, 10).nearest8 == 1)
        #expect(TermColor.indexed(77).nearest8 == 2)
        #expect(TermColor.default.nearest256 == -1)
    }
}
