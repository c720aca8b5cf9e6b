import SkateCore
import Testing
@testable import SkateTUI

/// ncurses keeps global state: these tests must not run in parallel.
@Suite(.serialized) struct NcursesBackendTests {
    @Test func headlessTerminalShowsWhatWasPresented() throws {
        let t = try NcursesTerminal.openHeadless()
        defer { t.close() }
        #expect(t.size.width > 0 && t.size.height > 0)
        var frame = ScreenBuffer(size: t.size)
        frame.write("Rue Grimaldi ⠉⡏ 中x", x: 2, y: 1, style: CellStyle(fg: .rgb(255, 175, 0), attrs: .bold))
        frame.write("okay", x: 0, y: 3, style: CellStyle(fg: .indexed(77), bg: .indexed(236)))
        t.present(frame.allChanges(), frame: frame, fullRedraw: true)
        #expect(t.glyph(x: 2, y: 1) == "R")
        #expect(t.glyph(x: 15, y: 1) == "⠉" && t.glyph(x: 16, y: 1) == "⡏")
        #expect(t.glyph(x: 18, y: 1) == "中" && t.glyph(x: 20, y: 1) == "x")
        #expect(t.pairsAllocated == 2)
        // A diff writes only the changed cell, and re-uses colour pairs.
        var next = frame
        next.write("o", x: 2, y: 1, style: CellStyle(fg: .rgb(255, 175, 0), attrs: .bold))
        let changes = ScreenBuffer.diff(frame, next)
        #expect(changes.count == 1)
        t.present(changes, frame: next, fullRedraw: false)
        #expect(t.glyph(x: 2, y: 1) == "o" && t.glyph(x: 3, y: 1) == "u")
        #expect(t.pairsAllocated == 2)
        t.close()
        t.close()  // idempotent
    }

    @Test func headlessRunOfTheWholeLoop() throws {
        let t = try NcursesTerminal.openHeadless()
        defer { t.close() }
        // /dev/null input: every read times out, so ticks arrive until the guard stops the loop.
        let app = TUIApp(map: TinyMap.make(), theme: Theme(colorMode: .ansi256, glyphMode: .unicode))
        let exit = AppLoop.run(app: app, terminal: t, tickInterval: 0.001, now: { 0 }, maxIterations: 3)
        #expect(exit == .interrupted(signal: 0))
        #expect(t.glyph(x: 1, y: 0) == "S")  // " SkateRoute · Tiny" title
    }

    @Test func unknownTerminalTypeIsAClearError() {
        #expect(throws: TUIError.terminalUnusable(term: "no-such-terminal-xyz")) {
            _ = try NcursesTerminal.openHeadless(term: "no-such-terminal-xyz")
        }
        #expect(TUIError.notATerminal.description.contains("not a terminal"))
    }

    @Test func keyDecoding() {
        #expect(NcursesTerminal.charKey(27) == .escape)
        #expect(NcursesTerminal.charKey(13) == .enter)
        #expect(NcursesTerminal.charKey(127) == .backspace)
        #expect(NcursesTerminal.charKey(3) == .ctrl("c"))
        #expect(NcursesTerminal.charKey(0x71) == .char("q"))
        #expect(NcursesTerminal.charKey(0xE9) == .char("é"))
        #expect(NcursesTerminal.charKey(0xD800) == .unknown(0xD800))
        #expect(NcursesTerminal.functionKey(0o403) == .up)
        #expect(NcursesTerminal.functionKey(0o410 + 5) == .function(5))
        #expect(NcursesTerminal.functionKey(0o777) == .unknown(0o777))
    }
}
