import SkateCore
import Testing
@testable import SkateTUI

/// Issue 34 item 1: keys never type into the wrong place. A field is edited only after Enter or
/// `/` on it; outside editing every key is a command; a confirmed From/To changes only through
/// an edit of its field (or a deliberate pick from the spots or saved list, or the swap key).
@Suite struct InputModeTests {
    let size = Size(width: 100, height: 30)

    /// Both ends confirmed by typing, the routes listed.
    func planned(_ app: TUIApp) -> AppModel {
        RouteFixture.press(app, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter],
                           from: app.initialModel(size: size)).0
    }

    @Test func firstLaunchIsCommandModeAndHelpAndQuitWork() {
        let app = RouteFixture.app()
        let m = app.initialModel(size: size)
        #expect(m.keyContext == .plan && m.plan.focus == .origin && !m.plan.editing)
        #expect(RouteFixture.press(app, [.char("?")], from: m).0.helpVisible)
        #expect(RouteFixture.press(app, [.char("q")], from: m).0.quitting)
        let bar = app.render(m).lines.last!
        #expect(bar.contains("quit") && bar.contains("help"), "\(bar)")
        // Enter on the highlighted field edits it; the bar says so.
        let e = RouteFixture.press(app, [.enter], from: m).0
        #expect(e.keyContext == .planInput && e.plan.focus == .origin)
        #expect(app.render(e).lines.last!.hasPrefix(" typing — Esc to leave"))
        let typed = RouteFixture.press(app, RouteFixture.typing("?q"), from: e).0
        #expect(typed.plan.origin.text == "?q" && !typed.helpVisible && !typed.quitting)
    }

    @Test func modeKeysAfterBothEndsAreCommandsNotText() throws {
        let app = RouteFixture.app()
        let m = planned(app)
        let from = try #require(m.plan.origin.chosen), to = try #require(m.plan.destination.chosen)
        #expect(!m.plan.editing && m.plan.focus == .routes)
        // The issue's sequence: Tab (back to a field) then m m, Enter.
        let after = RouteFixture.press(app, [.tab, .char("m"), .char("m"), .enter], from: m).0
        #expect(after.plan.origin.chosen == from && after.plan.destination.chosen == to)
        #expect(after.plan.mode == RideMode.allCases[2])
        #expect(after.plan.origin.text == from.name)
        // Esc after editing puts the field back as it was.
        let edited = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("xyz"), from: m).0
        #expect(edited.plan.editing && edited.plan.origin.chosen == nil)
        let restored = RouteFixture.press(app, [.escape], from: edited).0
        #expect(!restored.plan.editing && restored.plan.origin.chosen == from && restored.plan.origin.text == from.name)
    }

    @Test func tabThatConfirmsTheLastEndPlansAsEnterDoes() throws {
        // From, Tab, To, Tab: both ends ticked. Before, no route was planned and Enter went back
        // to editing From (seen on Heidelberg: Marsiliusplatz, Tab, Bismarckplatz, Tab).
        let app = RouteFixture.app()
        let byEnter = planned(app)
        let byTab = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("skate") + [.tab] + RouteFixture.typing("place s") + [.tab],
                                       from: app.initialModel(size: size)).0
        #expect(byTab.plan.origin.chosen == byEnter.plan.origin.chosen && byTab.plan.destination.chosen == byEnter.plan.destination.chosen)
        #expect(!byTab.plan.editing && !byTab.plan.routes.isEmpty, "\(byTab.plan.message ?? "")")
        #expect(byTab.plan.routes.map(\.plan.distance) == byEnter.plan.routes.map(\.plan.distance))
    }

    @Test func theCursorKeyOffersThePointAsAnEditOfAPickedEnd() throws {
        let app = RouteFixture.app()
        let m = planned(app)
        let from = try #require(m.plan.origin.chosen)
        let o = RouteFixture.press(app, [.char("o")], from: m).0
        #expect(o.keyContext == .planInput && o.plan.focus == .origin && o.plan.origin.results.first?.kind == "map point")
        #expect(RouteFixture.press(app, [.escape], from: o).0.plan.origin.chosen == from)
        let taken = RouteFixture.press(app, [.enter], from: o).0
        #expect(taken.plan.origin.chosen != from && taken.plan.origin.chosen?.name.hasPrefix("near ") == true)
    }

    /// Keys a rider might press: every letter and sign bound anywhere, editing keys, arrows.
    static let alphabet: [Key] = {
        var keys: [Key] = "abcdefghijklmnopqrstuvwxyzLC?/+-=_[]. 0123456789".map { Key.char($0) }
        keys += [.enter, .escape, .tab, .backTab, .up, .down, .left, .right, .backspace, .delete, .home, .end, .pageUp, .pageDown,
                 .ctrl("u"), .ctrl("w"), .ctrl("t")]
        return keys
    }()

    @Test func randomKeysChangeAConfirmedEndOnlyByEditingIt() {
        let app = RouteFixture.app()
        let start = planned(app)
        var rng = SplitMix(seed: 34)
        var edits = 0
        for _ in 0..<120 {
            var m = start
            // The field whose edit the rider opened on purpose (Enter, `/`, `i`, `o`, `d` on it, or
            // an empty field opened next): only its end may change while it is open.
            var open: PlanFocus?
            for _ in 0..<30 {
                let key = Self.alphabet[Int(rng.next() % UInt64(Self.alphabet.count))]
                // q quits: the run ends there.
                if key == .char("q"), m.keyContext != .planInput, m.keyContext != .routeName { break }
                let before = m, wasOpen = open
                m = app.step(m, .key(key)).0
                if m.quitting { break }
                if m.keyContext == .planInput {
                    if before.keyContext != .planInput || before.plan.focus != m.plan.focus {
                        let explicit = before.keyContext == .plan && [.enter, .char("/"), .char("i"), .char("o"), .char("d")].contains(key)
                        let empty = PlanScreen.field(before.plan, m.plan.focus).chosen == nil
                        open = explicit || empty ? m.plan.focus : nil
                    }
                } else { open = nil }
                for (end, old, new) in [(PlanFocus.origin, before.plan.origin.chosen, m.plan.origin.chosen),
                                        (.destination, before.plan.destination.chosen, m.plan.destination.chosen)] {
                    guard let o = old, new != o else { continue }
                    let editing = open == end || wasOpen == end
                    // Lists pick places explicitly; `t` (cruise) sets To to the loop on purpose.
                    let picked = before.keyContext == .spotList || before.keyContext == .savedList || before.keyContext == .downhillList
                        || (key == .char("t") && before.keyContext == .plan && end == .destination)
                    let swapped = key == .char("x") && before.keyContext == .plan &&
                        Set([before.plan.origin.chosen, before.plan.destination.chosen]) == Set([m.plan.origin.chosen, m.plan.destination.chosen])
                    #expect(editing || picked || swapped, "\(end) changed from \(o.name) to \(new?.name ?? "nothing") by \(key) in \(before.keyContext)")
                    if editing { edits += 1 }
                }
            }
        }
        // The sequences did reach field edits (the property is not vacuous).
        #expect(edits > 0)
    }
}

/// A small seeded generator (SplitMix64) for repeatable key sequences.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
