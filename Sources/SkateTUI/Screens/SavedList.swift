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

/// State of the saved list (a box over the plan screen).
typealias SavedListState = PickerList<SavedRow>

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

    /// Enter: the highlighted place becomes To (planned when From is chosen, else From is
    /// highlighted); a route sets both ends and its mode and plans.
    public static func open(_ list: SavedListState, plan: PlanState, services: TUIServices) -> PlanState? {
        guard let row = list.chosen else { return nil }
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
        let width = max(50, (s.rows ?? []).map { DisplayWidth.of($0.name) + DisplayWidth.of($0.kind) + 8 }.max() ?? 0)
        PickerBox.render(title: "Saved places and routes", rows: s.rows?.map { PickerBox.Row(name: $0.name, detail: $0.kind) },
                         selected: s.selected, width: width,
                         emptyNote: "Nothing saved yet: w saves a previewed route, skateroute places add a place",
                         keys: "Enter go there  Esc close", theme: theme, into: &buffer, area: area)
    }
}
