import Foundation
import SkateTestSupport
import Testing

/// Issue 29 row 2: 4,000 characters pasted into From froze the TUI (> 60 s of CPU per key).
/// Now the field keeps its first `PlanScreen.fieldMaxLength` characters, a paste is drawn in a
/// few frames, the search runs debounced off the key path, and the screen answers the next key
/// as fast as before the paste; a plan can still be made after it. Both times are printed (the
/// issue's target is 100 ms); the bound checked is relative, for loaded CI machines and debug builds.
@Suite(.serialized, .enabled(if: TmuxSession.available, "tmux is not installed: paste test skipped"),
       .enabled(if: BuiltCLI.available, BuiltCLI.skip),
       .enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco), "Maps/monaco.srmap is absent"))
struct PastedInputTmuxTests {
    /// Seconds a key may take to show after the paste when three times the time before it is
    /// less (a debug build under load); before the fix it took over 60 s.
    static let answerBound = 1.0

    @Test func pasteOf4000CharactersLeavesTheScreenAnsweringAndPlanning() throws {
        let dir = try TmuxSession.scratchDirectory("tui-paste")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = TmuxSession()
        try #require(t.startShell(TmuxSession.tuiLine(in: dir, "--no-store"), width: 120, height: 40))
        var s = t.wait { $0.contains("Plan a route") }
        t.keys("/")
        s = t.wait(10) { $0.contains("typing") }
        // The time a key takes to show, median of a few: before the paste is the reference.
        func answerTime(_ keys: [[String]]) -> Double {
            var times: [Double] = []
            for k in keys {
                let before = t.screen()
                let start = Date()
                t.tmux(["send-keys", "-t", t.name] + k)
                while t.screen() == before, Date().timeIntervalSince(start) < 30 { Thread.sleep(forTimeInterval: 0.003) }
                times.append(Date().timeIntervalSince(start))
                Thread.sleep(forTimeInterval: 0.3)
            }
            return times.sorted()[times.count / 2]
        }
        let reference = answerTime([["-l", "x"], ["BSpace"], ["-l", "x"], ["BSpace"], ["-l", "x"]])
        // A real paste: tmux's paste buffer, 4,000 characters.
        t.tmux(["set-buffer", String(repeating: "Boulevard Princesse Charlotte ", count: 134).prefix(4_000).description])
        let pasted = Date()
        t.tmux(["paste-buffer", "-t", t.name])
        s = t.wait(60) { $0.contains("cut to 100 characters") }
        try #require(s.contains("cut to 100 characters"), Comment(rawValue: s))
        let shown = Date().timeIntervalSince(pasted)
        // Keys after it answer as fast as before it (caret moves redraw the field).
        let after = answerTime([["Left"], ["Left"], ["Right"], ["Left"], ["Right"]])
        print("PastedInputTmuxTests: a key showed in \(Int((reference * 1000).rounded())) ms (median) before the paste and \(Int((after * 1000).rounded())) ms after it; the 4,000-character paste showed, cut, after \(Int((shown * 1000).rounded())) ms (capture-pane polling included)")
        #expect(after < max(Self.answerBound, 3 * reference), Comment(rawValue: "after \(after) s, before \(reference) s"))
        // Ctrl-U clears the field (the note goes with the text).
        t.keys("C-u")
        s = t.wait(30) { !$0.contains("cut to 100 characters") }
        #expect(!s.contains("cut to 100 characters"), Comment(rawValue: s))
        // And a plan can be made.
        t.type("casino")
        s = t.wait { $0.split(separator: "\n").contains { $0.contains("> ") && $0.contains("Casino") } }
        t.keys("Tab")
        t.type("stade louis")
        s = t.wait { $0.contains("> Stade Louis") }
        t.keys("Enter")
        s = t.wait(60) { $0.contains("Routes") && $0.contains("> best") }
        #expect(s.contains("> best") && s.contains("Casino"), Comment(rawValue: s))
        t.keys("q")
    }
}
