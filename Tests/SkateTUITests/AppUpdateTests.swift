import SkateCore
import Testing
@testable import SkateTUI

@Suite struct AppUpdateTests {
    let app = TUIApp(map: TinyMap.make(), theme: Theme(colorMode: .none, glyphMode: .unicode))
    let size = Size(width: 80, height: 24)

    /// The map browser (the app itself starts on the plan screen).
    func browseModel(_ size: Size? = nil) -> AppModel {
        var m = app.initialModel(size: size ?? self.size)
        m.screen = .browse
        return m
    }

    func run(_ keys: [Key], from model: AppModel? = nil) -> (AppModel, [AppCommand]) {
        var m = model ?? browseModel()
        var all: [AppCommand] = []
        for k in keys {
            let (n, c) = app.update(m, .key(k))
            m = n; all += c
        }
        return (m, all)
    }

    @Test func startsOnThePlanScreenWithTheBrowserFitted() {
        let m = app.initialModel(size: size)
        #expect(m.screen == .plan && m.keyContext == .plan && !m.helpVisible && !m.quitting)
        let vp = m.browse.viewport
        #expect(vp.size == Size(width: 80, height: 22))
        for c in [TinyMap.at(-41, -1), TinyMap.at(41, -1), TinyMap.at(1, 19), TinyMap.at(1, -19)] { #expect(vp.cell(c) != nil) }
    }

    @Test func panWithArrowsAndHStartsAHazardReport() {
        let m0 = browseModel()
        let (right, _) = run([.right])
        #expect(right.browse.viewport.center.lon > m0.browse.viewport.center.lon)
        let (up, _) = run([.up])
        #expect(up.browse.viewport.center.lat > m0.browse.viewport.center.lat)
        let (back, _) = run([.left, .right, .up, .down])
        #expect(abs(Geo.distance(back.browse.viewport.center, m0.browse.viewport.center)) < 1e-6)
        let (h, _) = run([.char("h")])
        #expect(h.pending == .hazard)
        #expect(app.render(h).lines.last!.contains("1 pothole"))
    }

    @Test func zoomAndFit() {
        let m0 = browseModel()
        let (z, _) = run([.char("+"), .char("+")])
        #expect(abs(z.browse.viewport.metresPerDot - m0.browse.viewport.metresPerDot / 2.25) < 1e-9
                || z.browse.viewport.metresPerDot == MapViewport.minMetresPerDot)
        let (out, _) = run([.char("-"), .char("-"), .right, .right])
        #expect(out.browse.viewport.metresPerDot > m0.browse.viewport.metresPerDot)
        let (fit, _) = run([.char("f")], from: out)
        #expect(fit.browse.viewport == m0.browse.viewport)
    }

    @Test func helpOpensClosesAndSwallowsKeys() {
        let (h, _) = run([.char("?")])
        #expect(h.helpVisible)
        let (still, _) = run([.right, .char("+")], from: h)
        #expect(still == h)  // map keys do nothing under help
        let (closed, _) = run([.escape], from: h)
        #expect(!closed.helpVisible)
        let (closed2, _) = run([.char("?")], from: h)
        #expect(!closed2.helpVisible)
        let text = app.render(h).lines.joined(separator: "\n")
        #expect(text.contains("Zoom in") && text.contains("Keys"))
    }

    /// Quitting stops any ride through a command (`update` never touches the feed itself).
    @Test func quitFromAnywhere() {
        let (q, c) = run([.char("q")])
        #expect(q.quitting && c == [.stopRide, .quit])
        let (qh, ch) = run([.char("?"), .char("q")])
        #expect(qh.quitting && ch == [.stopRide, .quit])
        let small = app.update(browseModel(), .resize(Size(width: 40, height: 10))).0
        let (qs, cs) = run([.char("q")], from: small)
        #expect(qs.quitting && cs == [.stopRide, .quit])
    }

    @Test func garbageKeysChangeNothing() {
        let m0 = browseModel()
        let garbage: [Key] = [.char("x"), .char("Z"), .char("é"), .char("中"), .unknown(999), .function(7), .ctrl("a"),
                              .tab, .backTab, .enter, .pageUp, .delete, .char("\u{1B}"), .char("\u{0}")]
        let (m, c) = run(garbage)
        #expect(m == m0 && c.isEmpty)
    }

    @Test func resizeToTooSmallAndBack() {
        let m0 = browseModel()
        let (small, _) = app.update(m0, .resize(Size(width: 40, height: 10)))
        let frame = app.render(small)
        #expect(frame.size == Size(width: 40, height: 10))
        #expect(frame.lines.joined().contains("Terminal too small"))
        let (ignored, _) = run([.char("+"), .char("?"), .right], from: small)
        #expect(ignored == small)  // only q works while too small
        let (big, _) = app.update(small, .resize(Size(width: 100, height: 30)))
        #expect(big.browse.viewport.size == Size(width: 100, height: 28))
        #expect(big.browse.viewport.center == m0.browse.viewport.center)
        let again = app.render(big)
        #expect(!again.lines.joined().contains("too small") && again.lines[0].contains("SkateRoute · Tiny"))
    }

    @Test func ticksExpireToasts() {
        var m = browseModel()
        m.toast = Toast(text: "Saved", remaining: 1)
        m = app.update(m, .tick(0.6)).0
        #expect(m.toast?.remaining == 0.4)
        #expect(app.render(m).lines.joined().contains(" Saved "))
        m = app.update(m, .tick(0.6)).0
        #expect(m.toast == nil)
    }

    @Test func browseScreenLayout() {
        let m = browseModel(Size(width: 60, height: 20))
        let b = app.render(m)
        #expect(b.size == Size(width: 60, height: 20))
        #expect(b.lines[0].hasPrefix(" SkateRoute · Tiny"))
        #expect(b.lines[19].hasPrefix("←↑↓→ pan") && b.lines[19].hasSuffix("q quit ? help "), "\(b.lines[19])")
        #expect(b.lines[18].hasPrefix("© OpenStreetMap contributors"))
        #expect(b.lines.joined().contains("crusty"))  // legend
        #expect(b.lines.joined().unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })  // streets in Braille
        // Legend off.
        let (n, _) = run([.char("L")], from: m)
        #expect(!app.render(n).lines.joined().contains("crusty"))
    }

    @Test func mapNamesAreSanitised() {
        var map = TinyMap.make(name: "Evil\u{1B}]0;pwned\u{07}\u{1B}[31mTown")
        map.rebuildIndexes()
        let a = TUIApp(map: map, theme: Theme(colorMode: .none, glyphMode: .ascii))
        let b = a.render(a.initialModel(size: size))
        #expect(b.lines[0].hasPrefix(" SkateRoute - EvilTown"))
        #expect(b.lines.allSatisfy { $0.allSatisfy(\.isASCII) })  // ASCII mode draws ASCII only
    }
}

@Suite struct AppLoopTests {
    /// Starts on the map browser (an overlay given), where `q` quits at once.
    let app = TUIApp(map: TinyMap.make(), theme: Theme(colorMode: .ansi256, glyphMode: .unicode), initialOverlay: RouteOverlay())

    final class FakeClock: @unchecked Sendable {
        var t = 0.0
        func now() -> Double { t += 0.1; return t }
    }

    @Test func loopRendersDiffsAndQuits() {
        let term = RecordingTerminal(size: Size(width: 80, height: 24),
                                     script: [.key(.char("+")), nil, .key(.char("x")), .key(.right), .key(.char("q"))])
        let clock = FakeClock()
        let exit = AppLoop.run(app: app, terminal: term, now: clock.now)
        #expect(exit == .quit)
        // First frame full, then + and → redraw; the tick and garbage key change nothing.
        #expect(term.frames.count == 4)
        #expect(term.writes[0] == 80 * 24)
        #expect(term.writes[1] > 0 && term.writes[1] < 80 * 24)
        // The screen rebuilt from diffs alone equals the last frame.
        #expect(term.shadow == term.frames.last!)
    }

    @Test func resizeRepaintsAndSignalsStop() {
        let term = RecordingTerminal(size: Size(width: 80, height: 24),
                                     script: [.resize(Size(width: 40, height: 10)), .resize(Size(width: 90, height: 30)),
                                              .interrupted(signal: 15)])
        let exit = AppLoop.run(app: app, terminal: term, now: FakeClock().now)
        #expect(exit == .interrupted(signal: 15))
        #expect(term.frames.map(\.size) == [Size(width: 80, height: 24), Size(width: 40, height: 10), Size(width: 90, height: 30)])
        #expect(term.frames[1].lines.joined().contains("too small"))
        #expect(term.writes[2] == 90 * 30)
        #expect(term.shadow == term.frames.last!)
    }

    @Test func idleTicksDoNotRedraw() {
        let term = RecordingTerminal(size: Size(width: 80, height: 24), script: Array(repeating: nil, count: 50))
        let exit = AppLoop.run(app: app, terminal: term, now: FakeClock().now)
        #expect(exit == .interrupted(signal: 0))  // the script ran out
        #expect(term.frames.count == 1)
    }
}
