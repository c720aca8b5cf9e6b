import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// `skateroute search`: what a place text resolves to, with every ranked candidate and its town.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Show the ranked places a name matches, with their towns.",
        discussion: """
        Names may carry a town ("Bismarckplatz, Heidelberg", "Mannheim Hauptbahnhof") and a house \
        number ("Bismarckstraße 1"). The last line says what `plan --from/--to` would use: one \
        place, or an ambiguity to settle with a town, --near or "lat,lon". See docs/place-search.md.
        """
    )

    /// Largest `--limit`: a screenful.
    static let maxLimit = 100

    @Argument(help: "The place text to look up.") var query: String
    @Option(parsing: .unconditional, help: "Rank places near this one (a name, saved place or \"lat,lon\") higher.") var near: String?
    @Option(help: "How many candidates to list (1…\(SearchCommand.maxLimit)).") var limit: Int = 10
    @Flag(help: "Print JSON (keys sorted).") var json = false
    @OptionGroup var mapOption: MapOption

    func run() throws {
        guard (1...Self.maxLimit).contains(limit) else { throw usageError("--limit must be 1…\(Self.maxLimit), got \(limit)") }
        let map = try mapOption.load()
        let search = PlaceSearch(map: map)
        let center = try near.map { try resolvePlace($0, search: search, role: "--near") }
        let hits = search.search(query, near: center?.at, limit: limit)
        let verdict = search.lookup(query, near: center?.at)
        if json {
            var obj: JSONObject = ["query": .string(query), "candidates": .array(hits.map { .object(Self.json($0)) })]
            switch verdict {
            case .found(let m): obj["resolution"] = .string("found"); obj["resolved"] = .object(Self.json(m))
            case .ambiguous(let l): obj["resolution"] = .string("ambiguous"); obj["places"] = .array(l.map { .object(Self.json($0)) })
            case .notFound: obj["resolution"] = .string("not_found")
            }
            if let center { obj["near"] = .object(["name": .string(center.name), "lat": .rounded(center.at.lat, 7), "lon": .rounded(center.at.lon, 7)]) }
            CLIParse.emit(DocumentSchema.document("search", obj).text(pretty: true))
            return
        }
        if hits.isEmpty { CLIParse.emit("no place matches '\(TerminalSafe.clean(query))'") }
        for (k, m) in hits.enumerated() {
            let c = m.candidate
            var line = "\(k + 1). \(TerminalSafe.clean(c.name))  [\(TerminalSafe.clean(c.kindWords))]"
            line += "  \(c.town.isEmpty ? "(no town)" : TerminalSafe.clean(c.town))  \(FixedDecimal.string(c.at.lat, decimals: 5)), \(FixedDecimal.string(c.at.lon, decimals: 5))"
            line += "  score \(FixedDecimal.string(m.score, decimals: 3))  \(m.match.rawValue)"
            if let d = m.distance { line += "  \(PlaceListing.distanceText(d))" }
            CLIParse.emit(line)
        }
        switch verdict {
        case .found(let m): CLIParse.emit("resolves to: \(PlaceListing.line(m))")
        case .ambiguous(let l): CLIParse.emit(Self.ambiguityAdvice(l, search: search))
        case .notFound(let suggestions):
            let s = suggestionText(suggestions, search: search, text: query)
            if !s.isEmpty { CLIParse.emit(String(s.dropFirst(2))) }
        }
    }

    /// The verdict line for an ambiguous text. Places a town cannot tell apart (same name, kind
    /// and town: Bammental's two Hauptstraßen) are named by a street near each and their position,
    /// and the advice is the one `plan` gives for them — "add a town" cannot separate them, and
    /// the rider may have given the town already.
    static func ambiguityAdvice(_ places: [PlaceMatch], search: PlaceSearch) -> String {
        let shown = Array(places.prefix(PlaceSearch.ambiguousListLimit))
        let told = zip(shown, search.distinguishing(shown)).compactMap { m, d in d.map { "\(TerminalSafe.clean(m.candidate.name)) \(TerminalSafe.clean($0))" } }
        guard !told.isEmpty else { return "ambiguous between \(places.count) places: add a town (\"NAME, TOWN\"), --near PLACE or \"lat,lon\"" }
        return "ambiguous between \(places.count) places; a town cannot tell apart " + told.joined(separator: "; ")
            + " — " + likeNamedPlacesAdvice
    }

    /// A match as JSON: name, kind (in words), category, town, lat, lon, score, match, distance.
    static func json(_ m: PlaceMatch) -> JSONObject {
        var o: JSONObject = ["name": .string(m.candidate.name), "kind": .string(m.candidate.kindWords), "category": .string(m.candidate.category),
                             "town": .string(m.candidate.town), "lat": .rounded(m.candidate.at.lat, 7), "lon": .rounded(m.candidate.at.lon, 7),
                             "score": .rounded(m.score, 4), "match": .string(m.match.rawValue)]
        if let d = m.distance { o["distance_m"] = .rounded(d, 0) }
        return o
    }
}
