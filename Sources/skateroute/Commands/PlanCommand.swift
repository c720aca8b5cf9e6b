import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// `skateroute plan`: a skate route between two places.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plan a skate route between two places.",
        discussion: "Places are names (\"Stade Louis II\", \"casino\"), saved places (`places add`, tried first) or \"lat,lon\"."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, gpx, geojson }

    @Option(parsing: .unconditional, help: "Start: a place name or \"lat,lon\".") var from: String
    @Option(parsing: .unconditional, help: "Destination: a place name or \"lat,lon\".") var to: String?
    @Option(help: "Ride a round trip of this length from --from instead of to a destination (\"5km\", \"800m\").") var loop: String?
    @Option(help: "Seed of a loop's first heading: the same seed gives the same loop.") var seed: UInt64 = 0
    @Option(help: "Plan to descent N of `skateroute downhills` (near --near, else --from) and down it.") var toRun: Int?
    @Option(help: "With --to-run: the radius `downhills` searched (default 3km).") var radius: String?
    @Option(parsing: .unconditional, help: "Settle a name found in several towns by nearness to this place (a name or \"lat,lon\").") var near: String?
    @Option(help: "Ride mode: \(RideMode.allCases.map(\.rawValue).joined(separator: "|")). Default: the settings file's mode, else smoothest.") var mode: String?
    @Option(help: "How many alternatives to look for.") var alternatives: Int = 0
    @Option(help: "Output: text, json, gpx or geojson.") var format: Format?
    @Option(help: "Write the plan to this file instead of stdout ('-': stdout).") var out: String?
    @Flag(help: "Print the plan as a JSON document (the same as --format json, as --json is in every command).") var json = false
    @OptionGroup var mapOption: MapOption
    @Option(help: "Data folder of the hazard and surface store (default $XDG_DATA_HOME/skateroute).") var dataDir: String?
    @Flag(help: "Ignore the hazard and surface store (plan from map tags only).") var noStore = false
    @Option(help: "Plan as of this time (ISO 8601), for hazard expiry.") var now: String?

    /// The parsed options as plain values.
    var request: PlanRequest {
        PlanRequest(from: from, to: to ?? "", mode: mode, alternatives: alternatives, format: json ? .json : (format ?? .text),
                    map: mapOption.map, dataDir: dataDir, noStore: noStore, now: now, out: out, near: near)
    }

    func validate() throws {
        if json, let f = format, f != .json {
            throw ValidationError("--json asks for --format json; it cannot be combined with --format \(f.rawValue)")
        }
        let destinations = [to != nil, loop != nil, toRun != nil].filter { $0 }.count
        if destinations > 1 { throw ValidationError("give one of --to, --loop LENGTH (a round trip) or --to-run N (a descent)") }
        if destinations == 0 { throw ValidationError("Missing expected argument '--to <to>' (or --loop LENGTH for a round trip, --to-run N for a descent)") }
    }

    func run() throws {
        if let loop { try runLoop(request, length: loop, seed: seed) } else if let toRun { try runToRun(request, run: toRun, radius: radius) } else { try runPlan(request) }
    }
}

/// Plans and prints a route: the whole of `skateroute plan` once its options are parsed.
func runPlan(_ r: PlanRequest) throws {
    let rideMode = try planMode(r.mode)
    guard (0...5).contains(r.alternatives) else { throw usageError("--alternatives must be 0…5, got \(r.alternatives)") }
    for (text, option) in [(r.from, "--from"), (r.to, "--to")] {
        if let problem = outOfRangePosition(text, option: option) { throw usageError(problem) }
    }
    var timer = PhaseTimer()
    let map = try loadMap(r.map)
    timer.mark("load")
    // `--no-store` and a store never created read nothing (the fast path stays fast).
    let store = try openExistingStore(dataDir: r.dataDir, disabled: r.noStore, short: true)
    var knowledge = RoadKnowledge.empty
    var saved = SavedPlaceResolver.empty
    if let store {
        let date = try parseNow(r.now)
        do {
            knowledge = try store.loadKnowledge(for: map, now: date)
        } catch {
            throw fail("store \(store.dataDir.path): \(error)")
        }
        // Saved places are the rider's own; an unreadable table must not stop a plan.
        if let p = try? store.places(), !p.isEmpty { saved = SavedPlaceResolver(p, map: map) }
    }
    timer.mark("store")
    // Place search indexes every name; skip it when both ends are coordinates or saved places.
    var search: PlaceSearch?
    func place(_ text: String, _ role: String, near: Coordinate?, other: String?) throws -> PlaceMatch {
        if let c = Coordinate(parsing: text) {
            return PlaceMatch(candidate: PlaceCandidate(name: c.description, kind: .other, category: "coordinate", at: c), score: 1, match: .coordinate)
        }
        if let s = saved.resolve(text) { return PlaceMatch(candidate: s, score: 1, match: .saved) }
        if search == nil { search = PlaceSearch(map: map) }
        // An ambiguous end lists distances from --near, else from the other end when it resolves.
        let from = try near ?? other.flatMap { o in try? place(o, "", near: nil, other: nil).candidate.at }
        return try resolvePlaceMatch(text, search: search!, role: role, saved: saved, near: near, distancesFrom: from)
    }
    let nearPoint = try r.near.map { try place($0, "--near", near: nil, other: nil).candidate.at }
    let aMatch = try place(r.from, "start", near: nearPoint, other: r.to)
    let bMatch = try place(r.to, "destination", near: nearPoint, other: r.from)
    let (a, b) = (aMatch.candidate, bMatch.candidate)
    let ends = PlanEnds(from: PlanEnd(aMatch), to: PlanEnd(bMatch))
    timer.mark("places")
    var planner = Planner(map: map, knowledge: knowledge)
    planner.ownSpots = saved.places.filter { $0.category == .spot }.map { ($0.name, $0.at) }
    timer.mark("planner")
    let plan: RoutePlan
    do {
        plan = try planner.plan(from: a.at, to: b.at, mode: rideMode, alternatives: r.alternatives)
    } catch let e as RoutingError {
        throw fail(e.description)
    }
    timer.mark("plan")
    // The destination joins the recents (only when the store is in use; a failure to record
    // never fails the plan).
    if let store, let date = try? parseNow(r.now) {
        let name = b.name.hasSuffix(SavedPlaceResolver.mark) ? String(b.name.dropLast(SavedPlaceResolver.mark.count)) : b.name
        try? store.recordDestination(name: name, at: b.at, now: date)
    }
    defer { timer.mark("output"); timer.report() }
    // Every output names the map's attribution and when it was made: as of --now when given, else
    // $SOURCE_DATE_EPOCH or the clock (OutputStamp.currentTime).
    let stamp = OutputStamp(attribution: map.metadata.attribution,
                            created: r.now.flatMap { ISO8601Time.parse($0) } ?? OutputStamp.currentTime())
    let output = try OutputFile(r.out)
    switch r.format {
    case .text: print(TerminalSafe.cleanLines(PlanFormats.text(plan, from: a.name, to: b.name, stamp: stamp, ends: ends)), terminator: "")
    case .json: print(PlanFormats.json(plan, stamp: stamp, ends: ends))
    case .gpx: print(PlanFormats.gpx(plan, name: "\(a.name) → \(b.name)", stamp: stamp, ends: ends), terminator: "")
    case .geojson: print(PlanFormats.geojson(plan, stamp: stamp, ends: ends))
    }
    try output.commit()
}

/// Resolves a place text or exits 1 with suggestions.
func resolvePlace(_ text: String, search: PlaceSearch, role: String, saved: SavedPlaceResolver = .empty) throws -> PlaceCandidate {
    try resolvePlaceMatch(text, search: search, role: role, saved: saved).candidate
}

/// "; closest: Hauptstraße (street, Gaiberg, 4.2 km from Leimen), …": the suggestions with kind and
/// town, with the distance from the town the text names when it names one; "" when there are none.
func suggestionText(_ suggestions: [PlaceMatch], search: PlaceSearch, text: String) -> String {
    var lines: [String] = []
    let town = search.namedTowns(text).first
    for m in suggestions.prefix(PlaceSearch.suggestionListLimit) {
        // A distance is shown only when it is measured from the town the text named.
        let shown = town == nil ? PlaceMatch(candidate: m.candidate, score: m.score, match: m.match) : m
        lines.append(PlaceListing.line(shown, distanceFrom: town))
    }
    return lines.isEmpty ? "" : "; closest: " + lines.joined(separator: ", ")
}

/// The advice for places a town cannot tell apart (same name, kind and town), each listed with a
/// street near it and its position: `plan` and `search` give the same words.
let likeNamedPlacesAdvice = "give the \"lat,lon\" shown, or --near \"STREET, TOWN\" with a street shown"

/// Resolves a place text (ties settled by nearness to `near`) or exits 1: an ambiguous text lists
/// its places with kind, town and distance (from `distancesFrom` when given, else `near`); an
/// unknown one its closest names.
func resolvePlaceMatch(_ text: String, search: PlaceSearch, role: String, saved: SavedPlaceResolver = .empty,
                       near: Coordinate? = nil, distancesFrom: Coordinate? = nil) throws -> PlaceMatch {
    switch search.lookup(text, near: near) {
    case .found(let m): return m
    case .ambiguous(let hits):
        let shown = Array((saved.suggestions(text) + hits).prefix(PlaceSearch.ambiguousListLimit))
        let details = search.distinguishing(shown)
        let list = zip(shown, details).map { PlaceListing.line($0, from: distancesFrom ?? near, detail: $1) }.joined(separator: "; ")
        let name = TerminalSafe.clean(text)
        // Places a town cannot tell apart (same name, kind and town) are told by a street near
        // each and their position, which --from/--to take as they are.
        let advice = details.contains { $0 != nil }
            ? likeNamedPlacesAdvice
            : "add the town (\"\(name), TOWN\"), --near PLACE or \"lat,lon\""
        throw fail("\(role) '\(name)' is ambiguous: \(list) — \(advice) (see `skateroute search`)")
    case .notFound(let mapSuggestions):
        let sugg = saved.suggestions(text) + mapSuggestions
        let s = suggestionText(sugg, search: search, text: text)
        throw fail("no place matches '\(TerminalSafe.clean(text))'\(s)")
    }
}

/// Everything `skateroute plan` needs, as plain values: filled by ArgumentParser (`PlanCommand`)
/// or, for the common well-formed command line, by `PlanFastPath`.
struct PlanRequest: Equatable {
    var from: String
    var to: String
    /// A `RideMode` raw value (checked when the plan runs, so both parsers report it the same way);
    /// nil: the settings file's mode, else smoothest.
    var mode: String?
    var alternatives: Int = 0
    var format: PlanCommand.Format = .text
    /// Compiled map path; nil means the bundled default.
    var map: String?
    var dataDir: String?
    var noStore = false
    var now: String?
    /// Output file; nil or "-": stdout.
    var out: String?
    /// `--near`: a place text that settles names found in several towns.
    var near: String?
}
