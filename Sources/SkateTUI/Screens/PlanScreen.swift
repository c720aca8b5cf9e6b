import FoundationEssentials
import Glibc
import SkateCore

/// A place the rider picked for one end of the route.
public struct ChosenPlace: Hashable, Sendable {
    /// Display name (sanitised).
    public var name: String
    public var at: Coordinate
    /// The town it lies in ("Heidelberg"; "" when unknown or not a map place), shown beside the name.
    public var town: String
    public init(name: String, at: Coordinate, town: String = "") { self.name = name; self.at = at; self.town = town }
}

/// One search result shown under a field.
struct PlaceResult: Hashable, Sendable {
    public var name: String
    /// "skatepark", "street", "coordinate"…
    public var kind: String
    public var at: Coordinate
    /// A saved place (drawn with a star) or a recent destination; nil for map results.
    public var mark: Mark? = nil
    /// The town of a map place ("" for others).
    public var town: String = ""
    /// Metres from the other end (or the map cursor), for map places.
    public var distance: Double? = nil
    /// What tells it from a row of the same name, kind and town ("near Bahnhofstraße,
    /// 49.35700,8.77770"); "" for most rows.
    public var near: String = ""
    public enum Mark: Hashable, Sendable { case saved, recent }

    /// "street, Dossenheim, 4.2 km": kind, town and distance, as the CLI lists candidates.
    public var detail: String { details(withKind: true) }

    /// Kind (when asked), town and distance; a narrow panel drops the kind before cutting.
    func details(withKind: Bool) -> String {
        var parts = withKind || town.isEmpty ? [kind] : []
        if !town.isEmpty { parts.append(town) }
        if !near.isEmpty { parts.append(near) }
        if let d = distance { parts.append(PlaceListing.distanceText(d)) }
        return parts.joinedText(separator: ", ")
    }

    /// The place picked from this row.
    var chosen: ChosenPlace { ChosenPlace(name: name, at: at, town: town) }
}

/// An origin or destination field: the typed text, live results and the pick.
struct PlaceField: Hashable, Sendable {
    public var text: String = ""
    public var results: [PlaceResult] = []
    /// Highlighted result.
    public var selected: Int = 0
    public var chosen: ChosenPlace?
    /// Caret position in characters; nil keeps it at the end of the text (after a pick).
    public var caret: Int?
    /// The results are for an older text (a search is scheduled or running).
    public var stale = false
    public init() {}

    /// The caret as a character offset, clamped to the text.
    public var cursor: Int { min(max(0, caret ?? text.count), text.count) }

    /// A field holding a picked place.
    static func picked(_ p: ChosenPlace) -> PlaceField {
        var f = PlaceField()
        f.chosen = p
        f.text = p.name
        return f
    }
}

/// Where the plan screen's keys go.
enum PlanFocus: Hashable, Sendable {
    case origin, destination
    /// Map commands (pan, zoom, `o`/`d` at the cursor, `m` mode…).
    case map
    /// The route list.
    case routes
}

/// State of the plan screen.
struct PlanState: Hashable, Sendable {
    public var origin = PlaceField()
    public var destination = PlaceField()
    /// The highlighted part of the panel: From, To, the route list or the map.
    public var focus: PlanFocus = .origin
    /// True while the focused field is being edited (entered with Enter or `/`, left with
    /// Enter, Esc or Tab): only then do letters go into it (issue 34 item 1).
    public var editing = false
    /// The field as it was when editing began: Esc puts it back.
    public var editBackup: PlaceField?
    public var mode: RideMode = .smoothest
    /// The best route first, then the alternatives.
    public var routes: [PlanRef] = []
    public var selectedRoute = 0
    /// A one-line note (no route, nothing found…).
    public var message: String?
    public var messageIsError = false
    /// The map on the right.
    public var map: MapBrowseState?
    /// Next plan id.
    public var nextPlanID = 1
    /// The newest plan query and whether it is still unanswered (answers to older ones are dropped).
    public var query: PlanQuery?
    public var planning = false
    /// The query `update` has already sent as a command.
    public var sentQueryID = 0
    /// The newest place search of the edited field; answers to older ones are dropped.
    public var searchQuery: PlaceSearchQuery?
    /// Seconds until the newest search is sent (debounce); nil when it was sent or none waits.
    public var searchDue: Double?
    /// The search `update` has already sent as a command.
    public var sentSearchID = 0
    /// A cruise loop or descent asked with `t` or the descents list, and the To place it put in
    /// the field: it holds while To is still that place (a new To makes the trip ordinary again).
    public var explore: ExploreAsk?
    public var exploreTo: ChosenPlace?
    public init() {}

    /// The explore ask still in force (To unchanged since it was made).
    public var activeExplore: ExploreAsk? { destination.chosen != nil && destination.chosen == exploreTo ? explore : nil }

    public var selectedPlan: PlanRef? { routes.indices.contains(selectedRoute) ? routes[selectedRoute] : nil }
}

/// The start screen: where from, where to, how; then the routes to choose from.
///
/// Typing goes into the focused field and the results under it follow every key; `Esc` leaves the
/// field so letters become commands again (`o`/`d` set an end at the map cursor, `m` cycles the
/// mode); `Enter` picks, plans, then opens the preview of the highlighted route.
enum PlanScreen {
    /// Results listed under a field.
    public static let resultLimit = 6
    /// Alternatives asked of the planner besides the best route.
    public static let alternatives = 2
    /// Share (%) of a result row the place name keeps before kind, town and distance are cut.
    static let listNameShare = 55
    /// Width of the left panel: wide enough for a route row, at most this share of the screen.
    static let panelMinWidth = 40
    static let panelMaxWidth = 50

    // MARK: Layout

    static func body(_ size: Size) -> Rect { ScreenLayout.body(size) }

    static func panelWidth(_ size: Size) -> Int { ScreenLayout.panelWidth(size, minWidth: panelMinWidth, maxWidth: panelMaxWidth) }

    /// The map part of the screen.
    public static func mapArea(_ size: Size) -> Rect {
        let b = body(size)
        let w = panelWidth(size)
        return Rect(x: b.x + w, y: b.y, width: b.width - w, height: b.height)
    }

    /// The map state for a screen of `size`, fitted to the map on first use.
    static func mapState(_ s: PlanState, context: TUIContext, size: Size) -> MapBrowseState {
        let area = mapArea(size)
        if var m = s.map {
            m.viewport.size = Size(width: area.width, height: area.height)
            return m
        }
        let box = context.map.bbox
        let origin = box.isEmpty ? Coordinate(lat: 0, lon: 0) : box.center
        var vp = MapViewport(origin: origin, metresPerDot: MapBrowseScreen.defaultMetresPerDot, size: Size(width: area.width, height: area.height))
        vp.fit(box)
        return MapBrowseState(viewport: vp, overlay: nil, showLegend: false)
    }

    // MARK: Update

    /// Applies a bound action. Outside editing every key is a command; a field changes only
    /// while it is edited (`startEditing`), so a confirmed end never moves by accident.
    public static func apply(_ action: KeyAction, to state: PlanState, context: TUIContext, services: TUIServices, size: Size) -> PlanState {
        var s = state
        s.map = mapState(s, context: context, size: size)
        let typing = s.editing
        switch action {
        case .nextField, .previousField:
            // Tab takes the highlighted match and leaves the field (From → Tab → To); an empty
            // next field is edited straight away, a picked one only after Enter on it.
            if typing {
                let had = field(s, s.focus).chosen != nil
                if action == .nextField { acceptHighlighted(&s, services: services) }
                stopEditing(&s)
                // Tab that confirms the last open end plans, as Enter does: From, Tab, To, Tab
                // left both ends ticked and no route, with Enter back to editing From.
                if action == .nextField, !had, field(s, s.focus).chosen != nil, s.origin.chosen != nil, s.destination.chosen != nil {
                    s = planNow(s, services: services)
                    break
                }
            }
            let order: [PlanFocus] = [.origin, .destination] + (s.routes.isEmpty ? [] : [.routes])
            let i = order.firstIndex(of: s.focus) ?? (action == .nextField ? -1 : 0)
            s.focus = order[(i + (action == .nextField ? 1 : order.count - 1)) % order.count]
            if typing, s.focus == .origin || s.focus == .destination, field(s, s.focus).chosen == nil { startEditing(&s) }
        case .editField:
            if s.focus != .origin && s.focus != .destination {
                s.focus = s.origin.chosen == nil || s.destination.chosen != nil ? .origin : .destination
            }
            startEditing(&s)
        case .clearField:
            editField(&s) { $0 = PlaceField() }
            // A search still out for the old text is dropped with it.
            s.searchQuery = nil; s.searchDue = nil
            s.message = nil
        case .closeOverlay:
            if typing {
                // Esc: the field goes back to what it held before editing.
                if let b = s.editBackup { editField(&s) { $0 = b } }
                stopEditing(&s)
                if var m = s.map { m.overlay = s.routes.isEmpty ? endsOverlay(s) : m.overlay; s.map = m }
            } else {
                s.focus = s.routes.isEmpty ? .map : .routes
            }
        case .selectUp, .selectDown:
            let d = action == .selectUp ? -1 : 1
            if typing {
                editField(&s) { f in
                    guard !f.results.isEmpty else { return }
                    f.selected = (f.selected + d + f.results.count) % f.results.count
                }
            } else if !s.routes.isEmpty {
                s.focus = .routes
                s.selectedRoute = min(s.routes.count - 1, max(0, s.selectedRoute + d))
                s = showSelected(s, services: services, fit: false)
            } else if var m = s.map {
                m.viewport.pan(dx: 0, dy: d < 0 ? MapViewport.panFraction : -MapViewport.panFraction)
                s.map = m
            }
        case .confirm:
            if typing { s = pick(s, services: services, context: context) }
            else if s.focus == .origin || s.focus == .destination { startEditing(&s) }
            // (Enter on the route list opens the preview: the app handles that.)
            else if s.routes.isEmpty { s = planNow(s, services: services) }
        case .cycleMode:
            let all = RideMode.allCases
            s.mode = all[((all.firstIndex(of: s.mode) ?? 0) + 1) % all.count]
            if s.origin.chosen != nil, s.destination.chosen != nil { s = planNow(s, services: services) }
        case .setOriginAtCursor, .setDestinationAtCursor:
            guard let c = s.map?.viewport.center else { break }
            let place = ChosenPlace(name: HumanText.pointName(c, map: context.map), at: c)
            let end: PlanFocus = action == .setOriginAtCursor ? .origin : .destination
            if field(s, end).chosen != nil {
                // A picked end changes only through an edit of its field: the cursor point is
                // offered as its match, Enter takes it, Esc keeps the old place.
                s.focus = end
                startEditing(&s)
                editField(&s) { f in
                    f.text = place.name
                    f.caret = nil
                    f.chosen = nil
                    f.results = [PlaceResult(name: place.name, kind: "map point", at: c)]
                    f.selected = 0
                }
                break
            }
            if end == .origin { s.origin = .picked(place) } else { s.destination = .picked(place) }
            s.routes = []
            if s.origin.chosen != nil, s.destination.chosen != nil { s = planNow(s, services: services) }
            else if var m = s.map { m.overlay = endsOverlay(s); s.map = m }
        case .swapEnds:
            swap(&s.origin, &s.destination)
            s.routes = []
            if s.origin.chosen != nil, s.destination.chosen != nil { s = planNow(s, services: services) }
        case .panLeft, .panRight, .zoomIn, .zoomOut, .fit, .toggleLegend:
            if var m = s.map {
                if action == .fit, let p = s.selectedPlan {
                    m.viewport.fit(PlanOverlay.make(p.plan).boundingBox)
                } else {
                    m = MapBrowseScreen.apply(action, to: m, context: context)
                }
                s.map = m
            }
        default: break
        }
        if s.editing { RiderSearch.fillRecents(&s, services: services) }
        return s
    }

    /// The field behind a focus (an empty one for the route list and the map).
    static func field(_ s: PlanState, _ f: PlanFocus) -> PlaceField {
        switch f {
        case .origin: return s.origin
        case .destination: return s.destination
        default: return PlaceField()
        }
    }

    /// Starts editing the focused field (remembering it for Esc), caret at the end.
    static func startEditing(_ s: inout PlanState) {
        guard s.focus == .origin || s.focus == .destination else { return }
        s.editing = true
        s.editBackup = field(s, s.focus)
        editField(&s) { $0.caret = nil }
    }

    /// Leaves editing; what the field holds stays.
    static func stopEditing(_ s: inout PlanState) {
        editField(&s) { $0.results = [] }
        s.editing = false
        s.editBackup = nil
    }

    /// Keys that edit inside a field (never leave it): printable characters, Backspace, Delete,
    /// Home, End, ←/→, Ctrl-W (word before the caret) and Ctrl-U (text before the caret).
    public static func isEditingKey(_ key: Key) -> Bool {
        switch key {
        case .char, .backspace, .delete, .home, .end, .left, .right, .ctrl("w"), .ctrl("u"): return true
        default: return false
        }
    }

    /// An editing key in the focused field: the results follow at once when the text changed.
    public static func type(_ key: Key, into state: PlanState, services: TUIServices) -> PlanState {
        var s = state
        var changed = false, cut = false
        editField(&s) { f in
            var chars = Array(f.text)
            var c = f.cursor
            switch key {
            case .char(let ch):
                // A full field drops further characters (a paste is cut, issue 29 row 2).
                guard chars.count < fieldMaxLength else { cut = true; return }
                chars.insert(ch, at: c); c += 1
            case .backspace: if c > 0 { chars.remove(at: c - 1); c -= 1 }
            case .delete: if c < chars.count { chars.remove(at: c) }
            case .home: c = 0
            case .end: c = chars.count
            case .left: c = max(0, c - 1)
            case .right: c = min(chars.count, c + 1)
            case .ctrl("u"): chars.removeFirst(c); c = 0
            case .ctrl("w"):
                var i = c
                while i > 0, chars[i - 1] == " " { i -= 1 }
                while i > 0, chars[i - 1] != " " { i -= 1 }
                chars.removeSubrange(i..<c); c = i
            default: return
            }
            let text = String(chars)
            f.caret = c
            guard text != f.text else { return }
            changed = true
            f.text = text
            f.chosen = nil
        }
        if cut, s.message == nil || !s.messageIsError {
            s.message = "Text cut to \(fieldMaxLength) characters"
            s.messageIsError = true
        }
        guard changed else { return s }
        scheduleSearch(&s, debounce: services.searchDebounce, services: services)
        s.message = nil
        s.routes = []
        s.selectedRoute = 0
        if var m = s.map { m.overlay = endsOverlay(s); s.map = m }
        return s
    }

    static func editField(_ s: inout PlanState, _ body: (inout PlaceField) -> Void) {
        switch s.focus {
        case .origin: body(&s.origin)
        case .destination: body(&s.destination)
        default: break
        }
    }

    /// Takes the focused field's highlighted result, if it has one and nothing is chosen yet.
    static func acceptHighlighted(_ s: inout PlanState, services: TUIServices) {
        refreshIfStale(&s, services: services)
        editField(&s) { f in
            // An empty field lists recents; Tab passes it by without picking one (Enter picks).
            guard f.chosen == nil, !f.text.isEmpty, f.results.indices.contains(f.selected) else { return }
            let r = f.results[f.selected]
            f.chosen = r.chosen
            f.text = r.name
            f.caret = nil
            f.results = []
        }
        if var m = s.map { m.overlay = endsOverlay(s); s.map = m }
    }

    /// Enter in a field: take the highlighted result (or resolve the text), then move on.
    static func pick(_ state: PlanState, services: TUIServices, context: TUIContext) -> PlanState {
        var s = state
        var failed = false, ambiguous = false
        let from = distanceReference(s, for: s.focus)
        // Results for older text are not picked from: the text itself is looked up.
        if field(s, s.focus).stale { editField(&s) { $0.results = []; $0.stale = false }; s.searchDue = nil; s.searchQuery = nil }
        editField(&s) { f in
            if f.chosen != nil { return }
            if f.results.indices.contains(f.selected) {
                let r = f.results[f.selected]
                f.chosen = r.chosen
                f.text = r.name
                f.caret = nil
                f.results = []
                return
            }
            guard !f.text.isEmpty else { failed = true; return }
            switch services.search.lookup(f.text) {
            case .found(let m):
                f.chosen = result(m, from: nil).chosen
                f.text = f.chosen!.name
                f.caret = nil
            case .ambiguous(let ms):
                // One row per distinct place, with its town and distance (as the CLI lists them).
                f.results = ms.prefix(resultLimit).map { result($0, from: from) }
                f.selected = 0
                failed = true; ambiguous = true
            case .notFound(let sug):
                f.results = sug.prefix(resultLimit).map { result($0, from: from) }
                f.selected = 0
                failed = true
            }
        }
        if failed {
            let t = TerminalSafe.clean(field(s, s.focus).text)
            s.message = t.isEmpty ? "Type a place name or lat,lon"
                : (ambiguous ? "'\(t)' is in several places: pick one with ↑↓ Enter (or type \"\(t), TOWN\")"
                   : "No single place matches '\(t)': pick one below")
            s.messageIsError = true
            return s
        }
        s.message = nil
        stopEditing(&s)
        if var m = s.map { m.overlay = endsOverlay(s); s.map = m }
        // The other end still empty: edit it next (From → Enter → To → Enter plans).
        if s.origin.chosen == nil { s.focus = .origin; startEditing(&s); return s }
        if s.destination.chosen == nil { s.focus = .destination; startEditing(&s); return s }
        return planNow(s, services: services)
    }

    /// Asks for a plan between the chosen ends with the mode (the app sends the query as a
    /// command; `answer` lists the best route and its alternatives when it comes back).
    public static func planNow(_ state: PlanState, services: TUIServices) -> PlanState {
        var s = state
        guard let a = s.origin.chosen, let b = s.destination.chosen else {
            s.message = "Choose an origin and a destination first"
            s.messageIsError = true
            return s
        }
        let id = (s.query?.id ?? 0) + 1
        s.query = PlanQuery(id: id, from: a.at, to: b.at, mode: s.mode, firstPlanID: s.nextPlanID, explore: s.activeExplore)
        s.nextPlanID += alternatives + 1
        s.planning = true
        s.routes = []
        s.message = "Planning…"
        s.messageIsError = false
        return s
    }

    /// The planner's work for a query (run by a command, off the UI thread in the live app).
    public static func answer(_ q: PlanQuery, planner: Planner) -> PlanAnswer {
        do {
            if let plans = try ExploreEntries.answer(q, planner: planner) {
                return PlanAnswer(query: q, plans: plans.enumerated().map { PlanRef(id: q.firstPlanID + $0.offset, plan: $0.element) }, error: nil)
            }
            let best = try planner.plan(from: q.from, to: q.to, mode: q.mode, alternatives: alternatives)
            let refs = ([best] + best.alternatives).enumerated().map { PlanRef(id: q.firstPlanID + $0.offset, plan: $0.element) }
            return PlanAnswer(query: q, plans: refs, error: nil)
        } catch {
            return PlanAnswer(query: q, plans: [], error: TerminalSafe.clean("\(error)"))
        }
    }

    /// Takes an answer: the routes listed and the best one shown, unless a newer query superseded it.
    public static func take(_ answer: PlanAnswer, into state: PlanState, services: TUIServices) -> PlanState {
        var s = state
        guard answer.query == s.query else { return s }  // superseded: the rider asked again meanwhile
        s.planning = false
        if let e = answer.error {
            s.routes = []
            s.message = e
            s.messageIsError = true
            s.focus = .map
            return s
        }
        // Ranked by the mode's cost, so "best" is the cheapest line for this mode.
        s.routes = answer.plans.enumerated().sorted { ($0.element.plan.path.cost, $0.offset) < ($1.element.plan.path.cost, $1.offset) }.map(\.element)
        s.selectedRoute = 0
        s.focus = .routes
        s.message = answer.plans.first?.plan.notes.first.map(TerminalSafe.clean)
        s.messageIsError = false
        return showSelected(s, services: services, fit: true)
    }

    /// Puts the selected route on the map (fitted when asked).
    static func showSelected(_ state: PlanState, services: TUIServices, fit: Bool) -> PlanState {
        var s = state
        guard var m = s.map else { return s }
        if let p = s.selectedPlan {
            var o = PlanOverlay.make(p.plan, hazards: PlanOverlay.near(p.plan, services.knownHazards),
                                     spots: PlanOverlay.near(p.plan, services.spots))
            o.start = s.origin.chosen?.at ?? o.start
            o.end = s.destination.chosen?.at ?? o.end
            m.overlay = o
            if fit { m.viewport.fit(o.boundingBox) }
        } else {
            m.overlay = endsOverlay(s)
        }
        s.map = m
        return s
    }

    /// Markers for the chosen ends without a route.
    static func endsOverlay(_ s: PlanState) -> RouteOverlay? {
        let a = s.origin.chosen?.at, b = s.destination.chosen?.at
        if a == nil && b == nil { return nil }
        return RouteOverlay(start: a, end: b)
    }

    // MARK: Render

    public static func render(_ s: PlanState, context: TUIContext, services: TUIServices?, extraHazards: [Coordinate],
                              into buffer: inout ScreenBuffer, keyContext: ScreenID) {
        let theme = context.theme
        let size = buffer.size
        TitleBar.render("Plan a route", context: context, right: HumanText.mode(s.mode), into: &buffer)
        // Map on the right, cursor at its centre.
        let area = mapArea(size)
        let map = mapState(s, context: context, size: size)
        var overlay = map.overlay ?? RouteOverlay()
        overlay.hazards += extraHazards
        overlay.cursor = map.viewport.center
        // The spots layer: every spot on the map, not only those near the route.
        if let sv = services { overlay.spots += sv.spots.filter { !overlay.spots.contains($0) } }
        MapRenderer.render(map: context.map, overlay: overlay, viewport: map.viewport, theme: theme, into: &buffer, area: area,
                           layer: context.layer, detail: context.detail)
        ScaleBar.render(map.viewport, theme: theme, into: &buffer, x: area.x + 1, y: area.maxY - 1, maxWidth: area.width / 2)
        // The legend (`L`, and on with the skateability layer) bottom right, beside the scale bar.
        if map.showLegend, let l = LegendWidget.layout(theme, mapHeight: area.height, maxWidth: area.width - ScaleBar.maxCells - 10,
                                                       skateLayer: context.showSkateLayer) {
            let r = Rect(x: area.maxX - l.size.width, y: area.maxY - l.size.height, width: l.size.width, height: l.size.height)
            LegendWidget.render(theme: theme, into: &buffer, area: r, columns: l.columns, boxed: l.boxed, skateLayer: context.showSkateLayer)
        }
        // Left panel.
        let w = panelWidth(size)
        let panel = Rect(x: 0, y: 1, width: w, height: body(size).height)
        buffer.fill(panel)
        let dim = theme.style(.textDim), text = theme.style(.text), label = theme.style(.hudLabel), value = theme.style(.hudValue)
        let sel = theme.style(.keyBarKey)
        var y = panel.y + 1
        let x0 = 1, inner = w - 2
        func field(_ name: String, _ f: PlaceField, focused: Bool) {
            // The highlighted field shows its name in reverse; only an edited one has a caret.
            let editing = focused && s.editing
            buffer.write(focused ? (theme.glyphs == .unicode ? "▸" : ">") + name : " " + name, x: x0 - 1, y: y,
                         style: focused && !editing ? sel : label)
            let fx = x0 + 6, fw = inner - 6
            let style = editing ? theme.style(.keyBarKey) : (f.chosen != nil ? value : text)
            buffer.fill(Rect(x: fx, y: y, width: fw, height: 1), with: Cell(" ", style: style))
            let room = fw - 2
            if editing {
                // The caret sits where the next letter goes; long text scrolls so the caret shows.
                let chars = Array(f.text), c = f.cursor
                let before = TerminalSafe.clean(String(chars[..<c])), after = TerminalSafe.clean(String(chars[c...]))
                let caret = theme.glyphs == .unicode ? "▏" : "_"
                var head = before + caret
                while DisplayWidth.of(head) > room, !head.isEmpty { head.removeFirst() }
                let n = buffer.write(head, x: fx + 1, y: y, style: style, maxWidth: room)
                buffer.write(after, x: fx + 1 + n, y: y, style: style, maxWidth: max(0, room - n))
            } else {
                var shown = TerminalSafe.clean(f.text)
                if shown.isEmpty { shown = focused ? "Enter to type" : theme.glyphs.unknown }
                // A picked map place shows its town after the name ("Bismarckplatz, Heidelberg").
                let town = f.chosen.map { $0.town.isEmpty || $0.town == $0.name ? "" : ", " + $0.town } ?? ""
                let townW = min(DisplayWidth.of(town), max(0, room - min(room, DisplayWidth.of(shown)) ))
                if DisplayWidth.of(shown) > room - townW { shown = DisplayWidth.clip(shown, maxColumns: room - townW, ellipsis: theme.glyphs.ellipsis) }
                let n = buffer.write(shown, x: fx + 1, y: y, style: f.text.isEmpty ? dim : style, maxWidth: room)
                if townW > 0 { buffer.write(town, x: fx + 1 + n, y: y, style: dim, maxWidth: room - n) }
            }
            if f.chosen != nil, !editing { buffer.write(theme.glyphs == .unicode ? "✓" : "*", x: fx + fw - 1, y: y, style: theme.style(.okay)) }
            y += 1
        }
        field("From", s.origin, focused: s.focus == .origin)
        field("To", s.destination, focused: s.focus == .destination)
        buffer.write("Mode", x: x0, y: y, style: label)
        buffer.write(HumanText.mode(s.mode), x: x0 + 6, y: y, style: value, maxWidth: inner - 6)
        y += 1
        // The mode's summary wraps onto a second row rather than being cut.
        for line in wrap(s.mode.summary, width: inner - 6).prefix(2) {
            buffer.write(line, x: x0 + 6, y: y, style: dim, maxWidth: inner - 6)
            y += 1
        }
        if let w = services?.weekProgress { WeekGoalLine.render(w, theme: theme, into: &buffer, x: x0, y: y, width: inner); y += 1 }
        y += 1
        // Results of the field being edited.
        let typing: PlaceField? = !s.editing ? nil : (s.focus == .origin ? s.origin : (s.focus == .destination ? s.destination : nil))
        if let f = typing, !f.results.isEmpty {
            buffer.write(f.text.isEmpty ? "Recent destinations" : (f.stale ? "Places (searching…)" : "Places"), x: x0, y: y, style: label)
            y += 1
            for (i, r) in f.results.enumerated() where y < panel.maxY - 2 {
                let on = i == f.selected
                let st = on ? sel : text
                if on { buffer.fill(Rect(x: x0, y: y, width: inner, height: 1), with: Cell(" ", style: sel)) }
                let star = r.mark == .saved ? (theme.glyphs == .unicode ? "★ " : "* ") : ""
                let name = (on ? "> " : "  ") + star + r.name
                // Kind, town and distance on the right; the name keeps at least `listNameShare` of the row.
                let room = max(min(12, DisplayWidth.of(r.kind)), inner - 1 - min(DisplayWidth.of(name), inner * listNameShare / 100))
                // Town and distance matter more than the kind on a narrow panel.
                let detail = DisplayWidth.of(r.detail) > room ? r.details(withKind: false) : r.detail
                let detailW = min(DisplayWidth.of(detail), room)
                let shownDetail = DisplayWidth.of(detail) > detailW ? DisplayWidth.clip(detail, maxColumns: detailW, ellipsis: theme.glyphs.ellipsis) : detail
                let nameRoom = inner - DisplayWidth.of(shownDetail) - 1
                let shownName = DisplayWidth.of(name) > nameRoom ? DisplayWidth.clip(name, maxColumns: nameRoom, ellipsis: theme.glyphs.ellipsis) : name
                buffer.write(shownName, x: x0, y: y, style: st, maxWidth: nameRoom)
                buffer.write(shownDetail, x: x0 + inner - DisplayWidth.of(shownDetail), y: y, style: on ? sel : dim, maxWidth: detailW)
                y += 1
            }
            y += 1
        } else if let f = typing, !f.text.isEmpty, f.chosen == nil {
            buffer.write("no place matches yet", x: x0, y: y, style: dim, maxWidth: inner)
            y += 2
        }
        // Routes: the rider's own criteria, ranked by the mode's cost (the planner's order).
        if !s.routes.isEmpty, y < panel.maxY - 2 {
            buffer.write("Routes", x: x0, y: y, style: label)
            let header = routeHeader
            buffer.write(header, x: x0 + inner - DisplayWidth.of(header), y: y, style: dim)
            y += 1
            for (i, r) in s.routes.enumerated() where y < panel.maxY - 2 {
                let on = i == s.selectedRoute
                let st = on && s.focus == .routes ? sel : (on ? value : text)
                if on && s.focus == .routes { buffer.fill(Rect(x: x0, y: y, width: inner, height: 1), with: Cell(" ", style: sel)) }
                let name = (on ? "> " : "  ") + (i == 0 ? "best" : "alt \(i)")
                buffer.write(name, x: x0, y: y, style: st)
                let row = routeRow(r.plan)
                buffer.write(row, x: x0 + inner - row.count, y: y, style: st)
                y += 1
            }
            buffer.write("ranked by " + HumanText.mode(s.mode) + " cost", x: x0, y: y, style: dim, maxWidth: inner)
            y += 2
        }
        if let m = s.message, y < panel.maxY {
            let style = s.messageIsError ? theme.style(.toastError) : dim
            for line in wrap(m, width: inner).prefix(max(0, panel.maxY - y)) {
                buffer.write(line, x: x0, y: y, style: style, maxWidth: inner)
                y += 1
            }
        }
        // Separator between panel and map.
        let v = theme.glyphs.box.vertical
        for yy in panel.y..<panel.maxY { buffer.set(x: w - 1, y: yy, Cell(v, style: theme.style(.border))) }
        KeyBarWidget.render(keyMap: context.keyMap, screen: keyContext, theme: theme, into: &buffer, area: Rect(size: size).splitBottom(1).bottom)
    }

    /// Column titles over `routeRow`: the rider's criteria, no unexplained score (issue 34 item 5).
    static let routeHeader = "  dist   time crusty brk climb"

    /// "2.4 km 14 min  120 m   2  48 m": distance, time, crusty metres, braking zones (not
    /// caution: those are counted apart, issue 26), climb.
    public static func routeRow(_ p: RoutePlan) -> String {
        let dist = Format.distance(p.distance).leftPadded(to: 7)
        let eta = Format.duration(p.duration).leftPadded(to: 7)
        let crusty = Format.metres(p.metresByClass[.crusty]).leftPadded(to: 7)
        // Without elevation the zones are unknown, not none.
        let brk = (p.hasElevation ? String(p.brakingZoneCount) : "–").leftPadded(to: 4)
        let climb = (p.hasElevation ? UnitFormatter.length(p.gradeSummary.climbM) : "–").leftPadded(to: 6)
        return dist + eta + crusty + brk + climb
    }

    /// Words wrapped to lines of at most `width` columns.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = [], cur = ""
        // A number and its unit ("2.4 km", "1 h 05") never part at a line end.
        var words: [String] = []
        for word in text.split(separator: " ").map(String.init) {
            if let last = words.last, let f = last.last, (f.isNumber && Self.isUnit(word)) || (word.first?.isNumber == true && last.hasSuffix("\u{00A0}h")) {
                words[words.count - 1] = last + "\u{00A0}" + word
            } else { words.append(word) }
        }
        for word in words {
            let w = String(word)
            if cur.isEmpty { cur = w } else if DisplayWidth.of(cur) + 1 + DisplayWidth.of(w) <= width { cur += " " + w } else {
                lines.append(cur); cur = w
            }
        }
        if !cur.isEmpty { lines.append(cur) }
        return lines.map { $0.replacing("\u{00A0}", with: " ") }
    }

    /// Units that stay with the number before them.
    static func isUnit(_ w: String) -> Bool {
        let t = w.trimming(charactersIn: ",.;:)")
        return ["m", "km", "min", "s", "h", "%", "km/h", "m/s", "°", "ft", "mi", "mph"].contains(t)
    }
}

/// The top row every screen shares: app, map name, screen name, and a right-hand note.
enum TitleBar {
    public static func render(_ screen: String, context: TUIContext, right: String = "", into buffer: inout ScreenBuffer) {
        let theme = context.theme
        let size = buffer.size
        buffer.fill(Rect(x: 0, y: 0, width: size.width, height: 1), with: Cell(" ", style: theme.style(.title)))
        let dot = theme.glyphs == .unicode ? " · " : " - "
        let n = buffer.write(" SkateRoute" + dot + context.mapName + dot + screen, x: 0, y: 0, style: theme.style(.title), maxWidth: size.width)
        let r = TerminalSafe.clean(right) + " "
        if n + DisplayWidth.of(r) + 2 <= size.width {
            buffer.write(r, x: size.width - DisplayWidth.of(r), y: 0, style: theme.style(.textDim))
        }
    }
}
