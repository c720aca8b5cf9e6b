import Foundation
import SkateTestSupport
import SkateCore
import Testing
@testable import SkateTUI

/// Issue 34 item 2: one key table from which the key bar and the help are generated; one meaning
/// per key; `q` and `?` always on the bar; a help that wraps by words and scrolls.
@Suite struct KeyMapTests {
    let theme = Theme(colorMode: .none, glyphMode: .unicode)

    @Test func everyKeyIsBoundOncePerScreen() {
        for screen in ScreenID.allCases {
            var seen: [Key: KeyAction] = [:]
            for b in KeyMap.standard.enabled(on: screen) {
                for k in b.keys {
                    #expect(seen[k] == nil, "\(k) is bound twice on \(screen): \(seen[k].map { "\($0)" } ?? "") and \(b.action)")
                    seen[k] = b.action
                }
            }
        }
    }

    @Test func aLetterMeansTheSameOnEveryScreen() {
        var meaning: [Character: (KeyAction, ScreenID)] = [:]
        for screen in ScreenID.allCases {
            for b in KeyMap.standard.enabled(on: screen) {
                for case .char(let c) in b.keys {
                    if let (a, other) = meaning[c] {
                        #expect(a == b.action, "'\(c)' is \(a) on \(other) but \(b.action) on \(screen)")
                    } else { meaning[c] = (b.action, screen) }
                }
            }
        }
        // The collisions the issue found are gone: r rides, m is the mode, b the bell.
        #expect(meaning["r"]?.0 == .startRide && meaning["m"]?.0 == .cycleMode && meaning["b"]?.0 == .toggleBell)
    }

    @Test func quitAndHelpAreOnEveryCommandBarAtEveryWidth() {
        for screen in KeyMap.commandScreens {
            for width in [60, 80, 120] {
                let bar = KeyBarWidget.text(keyMap: .standard, screen: screen, theme: theme, width: width)
                #expect(bar.contains("q quit") || bar.contains("q  quit"), "\(screen) at \(width): \(bar)")
                #expect(bar.contains("? help") || bar.contains("?  help"), "\(screen) at \(width): \(bar)")
            }
        }
    }

    @Test func typingBarsSaySoAndListNoLetters() {
        for screen in ScreenID.allCases where screen.isTyping {
            let bar = KeyBarWidget.text(keyMap: .standard, screen: screen, theme: theme, width: 80)
            #expect(bar.hasPrefix(" typing — Esc to leave"), "\(bar)")
            for b in KeyMap.standard.enabled(on: screen) {
                for case .char(let c) in b.keys { Issue.record("'\(c)' is a command while typing on \(screen)") }
            }
        }
    }

    @Test func ratingNeedsAStore() {
        let without = KeyMap.standard.available(storeOpen: false)
        #expect(without.action(for: .char("s"), on: .preview) == nil)
        #expect(KeyMap.standard.available(storeOpen: true).action(for: .char("s"), on: .preview) == .ratePrefix)
        // No rating key during a ride: TUI rides are simulated or replayed and cannot store one.
        #expect(!KeyMap.standard.bindings.contains { $0.action == .ratePrefix && $0.isEnabled(on: .ride) })
    }

    @Test func helpListsEveryBindingWrappedByWords() {
        let area = Rect(x: 0, y: 1, width: 80, height: 22)
        for screen in ScreenID.allCases {
            let bindings = KeyMap.standard.enabled(on: screen)
            let l = HelpOverlayWidget.layout(keyMap: .standard, screen: screen, theme: theme, area: area)
            // Each binding's text comes back whole when its wrapped lines are joined.
            var texts: [String] = []
            for (key, line) in l.lines {
                if key.isEmpty, !texts.isEmpty { texts[texts.count - 1] += " " + line } else { texts.append(line) }
                #expect(DisplayWidth.of(line) <= l.box.width - l.keyW - 7, "\(line)")
            }
            #expect(texts == bindings.map(\.help), "\(screen)")
        }
    }

    @Test func helpScrollsToItsLastLine() {
        let app = RouteFixture.app()
        let size = Size(width: 60, height: 20)
        var m = RouteFixture.press(app, [.escape, .char("?")], from: app.initialModel(size: size)).0
        #expect(m.keyContext == .help)
        let first = app.render(m).lines
        let last = HelpOverlayWidget.layout(keyMap: app.context.keyMap, screen: .plan, theme: app.context.theme, area: ScreenLayout.body(size)).lines.last!.1
        #expect(!first.joined().contains(last))
        m = RouteFixture.press(app, Array(repeating: Key.pageDown, count: 10), from: m).0
        let end = app.render(m).lines.joined(separator: "\n")
        #expect(end.contains(last), "\(end)")
        // Scrolling stops at the last page; ↑ goes back a line; ? closes.
        let more = RouteFixture.press(app, [.down], from: m).0
        #expect(more.helpScroll == m.helpScroll)
        #expect(RouteFixture.press(app, [.up], from: m).0.helpScroll == m.helpScroll - 1)
        #expect(!RouteFixture.press(app, [.char("?")], from: m).0.helpVisible)
    }
}

/// docs/tui.md lists the key map generated from `KeyMap.standard`
/// (`SKATEROUTE_UPDATE_DOCS=1 swift test --filter KeyMapDocTests` rewrites it).
@Suite struct KeyMapDocTests {
    @Test func docsListTheKeyMapAsGenerated() throws {
        let url = TestData.projectRoot.appendingPathComponent("docs/tui.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let begin = "<!-- keys:begin -->\n", end = "<!-- keys:end -->"
        let a = try #require(text.range(of: begin)), b = try #require(text.range(of: end))
        let generated = KeyMapDoc.markdown()
        if ProcessInfo.processInfo.environment["SKATEROUTE_UPDATE_DOCS"] != nil {
            try (String(text[..<a.upperBound]) + generated + "\n" + String(text[b.lowerBound...])).write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(String(text[a.upperBound..<b.lowerBound]) == generated + "\n", "docs/tui.md is stale: SKATEROUTE_UPDATE_DOCS=1 swift test --filter KeyMapDocTests")
        for b in KeyMap.standard.bindings { #expect(generated.contains(b.help)) }
    }
}
