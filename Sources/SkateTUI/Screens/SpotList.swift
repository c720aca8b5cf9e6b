import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// One spot as the spots list shows it.
struct SpotRow: Hashable, Sendable {
    /// Display name (sanitised).
    public var name: String
    /// "skatepark", "square", "pedestrian_area", or "your spot".
    public var kind: String
    public var at: Coordinate
    /// Metres from the list's reference point.
    public var distance: Double
}

/// State of the spots list (a box over the plan or preview screen).
struct SpotListState: Hashable, Sendable {
    /// Nearest first.
    public var rows: [SpotRow]
    public var selected = 0
    /// Where distances are measured from and where "go there" starts: the plan's From, else the
    /// map cursor.
    public var from: ChosenPlace
    public init(rows: [SpotRow], from: ChosenPlace) { self.rows = rows; self.from = from }
}

/// The spots list: map spots and the rider's own, nearest first, with "go there" (Enter) that
/// plans from the current From to the highlighted spot.
enum SpotList {
    /// The list measured from `from`.
    public static func make(services: TUIServices, from: ChosenPlace) -> SpotListState {
        let rows = SpotEntry.byDistance(services.spotEntries, from: from.at).map {
            SpotRow(name: TerminalSafe.clean($0.name), kind: $0.kind == "own" ? "your spot" : HumanText.kind(named: TerminalSafe.clean($0.kind)), at: $0.at,
                    distance: $0.distance ?? 0)
        }
        return SpotListState(rows: rows, from: from)
    }

    /// Where the list starts from on the plan screen: the chosen From, else the map cursor named
    /// by the street under it (issue 34: "near Rue Grimaldi", not a bare coordinate).
    static func origin(plan: PlanState, map: SkateMap) -> ChosenPlace? {
        if let o = plan.origin.chosen { return o }
        guard let c = plan.map?.viewport.center else { return nil }
        return ChosenPlace(name: HumanText.pointName(c, map: map), at: c)
    }

    public static func apply(_ action: KeyAction, to state: SpotListState) -> SpotListState {
        var s = state
        let n = s.rows.count
        switch action {
        case .selectUp where n > 0: s.selected = (s.selected - 1 + n) % n
        case .selectDown where n > 0: s.selected = (s.selected + 1) % n
        default: break
        }
        return s
    }

    /// "Go there": From is the list's start, To the highlighted spot, and the plan is made.
    public static func goThere(_ list: SpotListState, plan: PlanState, services: TUIServices) -> PlanState? {
        guard list.rows.indices.contains(list.selected) else { return nil }
        let spot = list.rows[list.selected]
        var s = plan
        if s.origin.chosen != list.from { s.origin = PlaceField(); s.origin.chosen = list.from; s.origin.text = list.from.name }
        s.destination = PlaceField()
        s.destination.chosen = ChosenPlace(name: spot.name, at: spot.at)
        s.destination.text = spot.name
        s.routes = []
        return PlanScreen.planNow(s, services: services)
    }

    public static func render(_ s: SpotListState, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let rows = max(1, s.rows.count)
        let w = min(area.width - 4, max(56, (s.rows.map { DisplayWidth.of($0.name) + DisplayWidth.of($0.kind) + 16 }.max() ?? 0)))
        let box = area.centered(width: w, height: min(area.height, rows + 4))
        guard box.width >= 20, box.height >= 5 else { return }
        buffer.fill(box)
        let title = "Spots from " + DisplayWidth.clip(s.from.name, maxColumns: max(8, w - 16), ellipsis: theme.glyphs.ellipsis)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: title)
        let inner = box.width - 4
        if s.rows.isEmpty {
            buffer.write("No skatepark, plaza or square on this map, and no saved spots", x: box.x + 2, y: box.y + 1,
                         style: theme.style(.textDim), maxWidth: inner)
        }
        // Keep the highlighted row in view.
        let visible = box.height - 3
        let first = max(0, min(s.selected - visible + 1, s.rows.count - visible))
        for (k, r) in s.rows.dropFirst(first).prefix(visible).enumerated() {
            let i = first + k, y = box.y + 1 + k
            let on = i == s.selected
            let style = on ? theme.style(.keyBarKey) : theme.style(.text)
            if on { buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), with: Cell(" ", style: style)) }
            let dist = Format.distance(r.distance)
            let right = r.kind + "  " + dist.leftPadded(to: 8)
            let rw = DisplayWidth.of(right)
            buffer.write((on ? "> " : "  ") + r.name, x: box.x + 2, y: y, style: style, maxWidth: max(0, inner - rw - 1))
            buffer.write(right, x: box.x + 2 + inner - rw, y: y, style: on ? style : theme.style(.textDim), maxWidth: rw)
        }
        buffer.write("Enter go there  Esc close", x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: inner)
    }
}
