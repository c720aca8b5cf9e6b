import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// The name prompt of "save this route" (preview): the text typed so far and the route.
struct RouteNameState: Hashable, Sendable {
    public var text: String
    public var plan: PlanRef
    /// Names of the ends (sanitised), saved with the route.
    public var from: String
    public var to: String
    /// The text is still the suggestion: the first letter typed replaces it (issue 34 item 7).
    public var suggested = false
    public init(text: String, plan: PlanRef, from: String, to: String) { self.text = text; self.plan = plan; self.from = from; self.to = to }
}

/// Saving the previewed route under a name, as `skateroute routes save` does: the name follows
/// the store's rules (sanitised, 1–60 characters, unique); a refusal is one toast line.
enum RouteNamePrompt {
    /// The prompt with a suggested name ("From to To", cut to the longest name kept).
    public static func make(plan: PlanRef, from: String, to: String) -> RouteNameState {
        let suggestion = String(RiderName.clean(from + " to " + to).prefix(RiderName.maxLength))
        var s = RouteNameState(text: suggestion, plan: plan, from: from, to: to)
        s.suggested = true
        return s
    }

    /// An editing key: printable characters add, Backspace removes, Ctrl-U clears. Other keys
    /// change nothing. Text beyond 10× the longest name is not taken (the store refuses it anyway).
    /// While the suggestion stands, a letter replaces it and Backspace clears it; → keeps it.
    public static func type(_ key: Key, into s: RouteNameState) -> RouteNameState {
        var t = s
        if t.suggested {
            t.suggested = false
            switch key {
            case .char, .backspace: t.text = ""
            default: break
            }
            if key == .backspace { return t }
        }
        switch key {
        case .char(let c) where t.text.count < 10 * RiderName.maxLength: t.text.append(c)
        case .backspace: if !t.text.isEmpty { t.text.removeLast() }
        case .ctrl("u"): t.text = ""
        default: break
        }
        return t
    }

    /// The route to store: the plan as `plan --format json` prints it, its ends and the map identity.
    public static func route(_ s: RouteNameState, mapIdentity: String, now: Date) -> SavedRoute {
        let p = s.plan.plan
        return SavedRoute(name: s.text, mode: p.mode.rawValue, fromName: s.from, toName: s.to,
                          from: p.geometry.first ?? Coordinate(lat: 0, lon: 0), to: p.geometry.last ?? Coordinate(lat: 0, lon: 0),
                          mapIdentity: mapIdentity, planJSON: PlanFormats.json(p), createdAt: now)
    }

    /// Saves through the rider data; the toast text (one line) and whether it failed.
    public static func save(_ s: RouteNameState, services: TUIServices) -> ReportResult {
        do {
            let r = try services.rider.saveRoute(route(s, mapIdentity: services.mapIdentity, now: services.now()))
            return ReportResult(text: "saved route '\(TerminalSafe.clean(r.name))' (skateroute routes show)")
        } catch let e as StoreError {
            return ReportResult(text: "route not saved: " + TerminalSafe.clean(e.description), isError: true)
        } catch {
            return ReportResult(text: "route not saved: " + TerminalSafe.clean("\(error)"), isError: true)
        }
    }

    public static func render(_ s: RouteNameState, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let box = area.centered(width: min(area.width - 4, 70), height: 5)
        guard box.width >= 20, box.height >= 5 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Save route as")
        let inner = box.width - 4
        let caret = theme.glyphs == .unicode ? "▏" : "_"
        var shown = TerminalSafe.clean(s.text) + caret
        while DisplayWidth.of(shown) > inner, !shown.isEmpty { shown.removeFirst() }
        buffer.fill(Rect(x: box.x + 2, y: box.y + 1, width: inner, height: 1), with: Cell(" ", style: theme.style(.keyBarKey)))
        // The suggestion is shown selected: typing replaces it.
        buffer.write(shown, x: box.x + 2, y: box.y + 1, style: s.suggested ? theme.style(.bannerInfo) : theme.style(.keyBarKey), maxWidth: inner)
        let hint = s.suggested ? "Enter save  typing replaces the name  Esc cancel" : "Enter save  Esc cancel  (1-\(RiderName.maxLength) characters, unique)"
        buffer.write(hint, x: box.x + 2, y: box.y + 3, style: theme.style(.textDim), maxWidth: inner)
    }
}
