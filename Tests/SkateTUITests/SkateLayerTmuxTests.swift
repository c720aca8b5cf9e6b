import Foundation
import SkateTestSupport
import Testing

/// The built binary under tmux on the bundled map: `v` turns the skateability layer on, the
/// legend lists what it draws, `L` hides and shows it, `C` changes the palette with the layer
/// on, `v` turns it off; without colours the classes show as textures (issue 32 must-have 1).
@Suite(.serialized, .enabled(if: TmuxSession.available, "tmux is not installed: skateability layer tmux test skipped"),
       .enabled(if: BuiltCLI.available, BuiltCLI.skip),
       .enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco), "Maps/monaco.srmap is absent"))
struct SkateLayerTmuxTests {
    /// Map rows of the screen (right of the plan panel, between title and key bar).
    static func mapText(_ s: String, panel: Int = 48) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().dropLast(2)
            .map { String($0.dropFirst(panel)) }.joined(separator: "\n")
    }

    @Test func layerKeyTogglesLayerAndLegend() throws {
        let dir = try TmuxSession.scratchDirectory("tui-layer")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = TmuxSession()
        try #require(t.startShell(TmuxSession.tuiLine(in: dir, "--no-store"), width: 120, height: 40))
        var s = t.wait { $0.contains("Plan a route") }
        try #require(s.contains("Plan a route"), Comment(rawValue: s))
        #expect(!s.contains("guessed") && s.contains("surface"), Comment(rawValue: "the key bar offers the layer:\n" + s))
        t.keys("v")
        s = t.wait(15) { $0.contains("guessed") && $0.contains("measured/rated") }
        for word in ["butter", "okay", "meh", "crusty", "measured/rated", "from tags", "guessed", "steep, braking"] {
            #expect(s.contains(word), Comment(rawValue: "\(word) missing from the layer's legend:\n" + s))
        }
        t.keys("L")
        s = t.wait(10) { !$0.contains("guessed") && !$0.contains("measured/rated") }
        #expect(!s.contains("measured/rated"), Comment(rawValue: "L hides the legend:\n" + s))
        t.keys("L")
        s = t.wait(10) { $0.contains("guessed") }
        t.keys("C")
        s = t.wait(10) { $0.contains("colour-blind") }
        #expect(s.contains("guessed") && s.contains("colour-blind"), Comment(rawValue: "the legend stays with the palette key:\n" + s))
        t.keys("v")
        s = t.wait(10) { !$0.contains("guessed") && $0.contains("surface layer off") && $0.contains("caution") }
        #expect(!s.contains("guessed") && s.contains("caution"), Comment(rawValue: "the legend is back to the route's:\n" + s))
        t.keys("q")
    }

    @Test func withoutColourTheLayerDrawsTextures() throws {
        let dir = try TmuxSession.scratchDirectory("tui-layer-nocolor")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = TmuxSession()
        try #require(t.startShell("export NO_COLOR=1; " + TmuxSession.tuiLine(in: dir, "--no-store"), width: 120, height: 40))
        var s = t.wait { $0.contains("Plan a route") }
        let before = Self.mapText(s)
        #expect(!before.contains("~") && !before.contains("#"), Comment(rawValue: before))
        t.keys("v")
        s = t.wait(15) { $0.contains("guessed") }
        // Meh streets are `~` on the map itself (not only in the legend); crusty is `#` in the
        // legend (Monaco's crusty ways are footways and steps, hidden at the opening zoom;
        // SkateLayerTests checks `#` on a crusty street).
        let map = Self.mapText(s).split(separator: "\n").filter { !$0.contains("meh") && !$0.contains("crusty") }.joined(separator: "\n")
        #expect(map.contains("~"), Comment(rawValue: map))
        #expect(s.split(separator: "\n").contains { $0.contains("### crusty") }, Comment(rawValue: s))
        t.keys("q")
    }
}
