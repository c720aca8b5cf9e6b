import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// One saved place or route as the saved list shows it.
public struct SavedRow: Hashable, Sendable {
    /// Display name (sanitised).
    public var name: String
    /// "home", "spot"… for places; "route" for routes.
    public var kind: String
    /// The place, or a route's start.
    public var at: Coordinate
    /// A route's end, mode and end names; nil for places.
    public var routeEnd: Coordinate?
    public var mode: RideMode?
    public var fromName: String?
    public var toName: String?
    public init(name: String, kind: String, at: Coordinate, routeEnd: Coordinate? = nil, mode: RideMode? = nil,
                fromName: String? = nil, toName: String? = nil) {
        self.name = name; self.kind = kind; self.at = at; self.routeEnd = routeEnd; self.mode = mode
        self.fromName = fromName; self.toName = toName
    }
}

/// State of the saved list (a box over the plan screen); `rows` is nil until read.
struct SavedListState: Hashable, Sendable {
    public var rows: [SavedRow]?
    public var selected = 0
    public init() {}
}

/// The rider's saved places and routes, opened from the TUI (issue 34 item 7): Enter on a place
/// makes it the destination (planning when From is set), Enter on a route plans it again
/// between its saved ends in its mode.
enum SavedList {
    /// Reads the rows (I/O: called by `TUIApp.perform`). Places first, then routes, by name.
    static func read(services: TUIServices) -> [SavedRow] {
        let places = services.rider.savedPlaces().map {
            SavedRow(name: TerminalSafe.clean($0.name), kind: TerminalSafe.clean($0.category ?? "place"), at: $0.at)
        }
        return places + services.rider.savedRoutes().map {
            SavedRow(name: TerminalSafe.clean($0.name), kind: "route", at: $0.from, routeEnd: $0.to, mode: RideMode(rawValue: $0.mode),
                     fromName: TerminalSafe.clean($0.fromName), toName: TerminalSafe.clean($0.toName))
        }
    }

    public static func apply(_ action: KeyAction, to state: SavedListState) -> SavedListState {
        var s = state
        let n = s.rows?.count ?? 0
        switch action {
        case .selectUp where n > 0: s.selected = (s.selected - 1 + n) % n
        case .selectDown where n > 0: s.selected = (s.selected + 1) % n
        default: break
        }
        return s
    }

    /// Enter: the highlighted place becomes To (planned when From is chosen, else From is
    /// highlighted); a route sets both ends and its mode and plans.
    public static func open(_ list: SavedListState, plan: PlanState, services: TUIServices) -> PlanState? {
        guard let rows = list.rows, rows.indices.contains(list.selected) else { return nil }
        let row = rows[list.selected]
        var s = plan
        s.editing = false
        s.routes = []
        if let end = row.routeEnd {
            s.origin = PlaceField.picked(ChosenPlace(name: row.fromName ?? "route start", at: row.at))
            s.destination = PlaceField.picked(ChosenPlace(name: row.toName ?? row.name, at: end))
            if let m = row.mode { s.mode = m }
            return PlanScreen.planNow(s, services: services)
        }
        s.destination = PlaceField.picked(ChosenPlace(name: row.name, at: row.at))
        if s.origin.chosen == nil {
            s.focus = .origin
            s.message = "Choose where to start: Enter on From"
            s.messageIsError = false
            return s
        }
        return PlanScreen.planNow(s, services: services)
    }

    public static func render(_ s: SavedListState, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let rows = s.rows ?? []
        let w = min(area.width - 4, max(50, (rows.map { DisplayWidth.of($0.name) + DisplayWidth.of($0.kind) + 8 }.max() ?? 0)))
        let box = area.centered(width: w, height: min(area.height, max(1, rows.count) + 4))
        guard box.width >= 20, box.height >= 5 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Saved places and routes")
        let inner = box.width - 4
        if rows.isEmpty {
            let note = s.rows == nil ? "Reading…" : "Nothing saved yet: w saves a previewed route, skateroute places add a place"
            buffer.write(note, x: box.x + 2, y: box.y + 1, style: theme.style(.textDim), maxWidth: inner)
        }
        let visible = box.height - 3
        let first = max(0, min(s.selected - visible + 1, rows.count - visible))
        for (k, r) in rows.dropFirst(first).prefix(visible).enumerated() {
            let i = first + k, y = box.y + 1 + k
            let on = i == s.selected
            let style = on ? theme.style(.keyBarKey) : theme.style(.text)
            if on { buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), with: Cell(" ", style: style)) }
            let kw = DisplayWidth.of(r.kind)
            buffer.write((on ? "> " : "  ") + r.name, x: box.x + 2, y: y, style: style, maxWidth: max(0, inner - kw - 1))
            buffer.write(r.kind, x: box.x + 2 + inner - kw, y: y, style: on ? style : theme.style(.textDim), maxWidth: kw)
        }
        buffer.write("Enter go there  Esc close", x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: inner)
    }
}
