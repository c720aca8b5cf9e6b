import SkateCore

/// A place search asked for a From/To field. `update` never searches: typing schedules a query
/// (debounced), the app sends it as `AppCommand.searchPlaces`, and the answer comes back as
/// `AppEvent.searched`; an answer to an older query than the field's latest is dropped, as plan
/// answers are (issue 29 row 2).
public struct PlaceSearchQuery: Hashable, Sendable {
    /// Increases with every query of a session.
    public var id: Int
    /// The field the results are for.
    var field: PlanFocus
    /// The text searched (trimmed, at most `PlanScreen.fieldMaxLength` characters).
    public var text: String
    /// Distances in the list are measured from here (the other end, else the map cursor).
    public var distanceFrom: Coordinate?
}

/// The map's results for a `PlaceSearchQuery` (the rider's saved places join them when the
/// answer is taken, on the UI thread that owns the store).
public struct PlaceSearchAnswer: Hashable, Sendable {
    public var query: PlaceSearchQuery
    var mapResults: [PlaceResult]
}

/// Field limits, the debounce and the search itself (run by a command, off the UI thread in the
/// live app).
extension PlanScreen {
    /// Characters a From/To field holds: longer than any place name on the bundled or Heidelberg
    /// maps (the longest is 71), and far below where a search gets slow (issue 29 row 2: 4,000
    /// pasted characters froze the screen). Further characters are dropped.
    public static let fieldMaxLength = 100

    /// Seconds of quiet typing before the live app searches (a search per key is wasted work
    /// while a word is still being typed; 0.12 s is below what a rider notices).
    public static let liveSearchDebounce: Double = 0.12

    /// Ranked results for a query: recents for an empty text, a typed "lat,lon", the rider's saved
    /// places, then the map's places with kind, town and distance (the CLI's candidate list).
    static func results(for q: PlaceSearchQuery, services: TUIServices) -> [PlaceResult] {
        combined(q, mapResults: { mapResults(q, search: services.search) }, services: services)
    }

    /// A typed "lat,lon", else the rider's places then `mapResults`.
    static func combined(_ q: PlaceSearchQuery, mapResults: () -> [PlaceResult], services: TUIServices) -> [PlaceResult] {
        let t = q.text.trimmingWhitespace()
        if let c = Coordinate(parsing: t) { return [PlaceResult(name: c.description, kind: "coordinate", at: c)] }
        return RiderSearch.results(for: t, rider: services.rider, limit: resultLimit, mapResults: mapResults)
    }

    /// The map's places for a query: the part of a search that may run off the UI thread.
    /// What `plan` would take comes first (the place a bare "Bismarckplatz" means, or each place
    /// of an ambiguous name), then the other matches; one row per place (the same place found by
    /// both is listed once). Places of one name, kind and town are told apart by a street near
    /// each and their position (`PlaceSearch.distinguishing`): rows alike were dropped before, so
    /// the second of Bammental's two Hauptstraßen could not be picked at all.
    static func mapResults(_ q: PlaceSearchQuery, search: PlaceSearch) -> [PlaceResult] {
        let text = q.text.trimmingWhitespace()
        var first: [PlaceMatch] = []
        switch search.lookup(text) {
        case .found(let m): first = [m]
        case .ambiguous(let ms): first = ms
        case .notFound: break
        }
        var seen = Set<String>()
        var kept: [PlaceMatch] = []
        for m in first + search.search(text, limit: resultLimit) where kept.count < resultLimit {
            let c = m.candidate
            if seen.insert(c.name + "\u{1F}" + c.kindWords + "\u{1F}" + c.town + "\u{1F}\(c.at.lat),\(c.at.lon)").inserted { kept.append(m) }
        }
        return zip(kept, search.distinguishing(kept)).map { m, near in
            var r = result(m, from: q.distanceFrom)
            r.near = near.map(TerminalSafe.clean) ?? ""
            return r
        }
    }

    /// A map match as a list row.
    static func result(_ m: PlaceMatch, from: Coordinate?) -> PlaceResult {
        PlaceResult(name: TerminalSafe.clean(m.candidate.name), kind: m.candidate.kindWords, at: m.candidate.at,
                    town: TerminalSafe.clean(m.candidate.town), distance: from.map { Geo.distance($0, m.candidate.at) } ?? m.distance)
    }

    /// The answer to a query (the command's work; touches only the immutable search index).
    public static func answer(_ q: PlaceSearchQuery, search: PlaceSearch) -> PlaceSearchAnswer {
        PlaceSearchAnswer(query: q, mapResults: mapResults(q, search: search))
    }

    /// Where a field's list measures distances from: the other end when picked, else the map cursor.
    static func distanceReference(_ s: PlanState, for field: PlanFocus) -> Coordinate? {
        let other = field == .origin ? s.destination.chosen : s.origin.chosen
        return other?.at ?? s.map?.viewport.center
    }

    /// Schedules a search of the focused field's text: the app sends it once `searchDue` runs out
    /// (at once when `debounce` is 0). Empty text and a typed "lat,lon" are answered at once
    /// (no search needed).
    static func scheduleSearch(_ s: inout PlanState, debounce: Double, services: TUIServices) {
        let focus = s.focus
        let id = (s.searchQuery?.id ?? 0) + 1
        let q = PlaceSearchQuery(id: id, field: focus, text: field(s, focus).text.trimmingWhitespace(),
                                 distanceFrom: distanceReference(s, for: focus))
        s.searchQuery = q
        if q.text.isEmpty || Coordinate(parsing: q.text) != nil {
            editField(&s) { f in f.results = results(for: q, services: services); f.selected = 0; f.stale = false }
            s.searchDue = nil
            s.sentSearchID = id
            return
        }
        editField(&s) { $0.stale = true }
        s.searchDue = debounce
    }

    /// Takes a search answer into its field, unless a newer query superseded it or the field is
    /// no longer edited.
    static func take(_ a: PlaceSearchAnswer, into state: PlanState, services: TUIServices) -> PlanState {
        var s = state
        guard a.query == s.searchQuery, s.editing, s.focus == a.query.field else { return s }
        let results = combined(a.query, mapResults: { a.mapResults }, services: services)
        editField(&s) { f in
            guard f.chosen == nil, f.text.trimmingWhitespace() == a.query.text else { return }
            f.results = results
            f.selected = 0
            f.stale = false
        }
        return s
    }

    /// The focused field's results as they are for its current text: stale ones (typed since the
    /// last answer) are replaced by a search now (Enter and Tab must not pick for older text).
    static func refreshIfStale(_ s: inout PlanState, services: TUIServices) {
        guard field(s, s.focus).stale else { return }
        let q = PlaceSearchQuery(id: (s.searchQuery?.id ?? 0) + 1, field: s.focus, text: field(s, s.focus).text.trimmingWhitespace(),
                                 distanceFrom: distanceReference(s, for: s.focus))
        s.searchQuery = q
        s.sentSearchID = q.id
        s.searchDue = nil
        let r = q.text.isEmpty ? [] : results(for: q, services: services)
        editField(&s) { f in f.results = r; f.selected = 0; f.stale = false }
    }
}
