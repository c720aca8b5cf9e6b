import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// The rider's saved places as plan ends: tried before the map's names, marked "(saved)".
struct SavedPlaceResolver {
    /// Suffix on a saved place's name wherever the CLI shows it as a plan end or suggestion.
    static let mark = " (saved)"
    /// Lowest fuzzy score at which a saved place wins outright over the map ("hom" → "Home"): a
    /// prefix or one-typo match of every word (`PlaceSearch.prefixScore` 0.85, typo 0.7 → 0.7).
    static let winScore = 0.7

    /// The places on the current map (all of them when no map was given).
    let places: [SavedPlace]
    /// Places outside the current map: named only to say which map holds them.
    let elsewhere: [SavedPlace]
    let search: PlaceSearch

    /// The resolver for `all` the rider's places; with a `map`, only those its area holds
    /// (`PlacesByMap`) resolve, and naming another one says which installed map covers it.
    init(_ all: [SavedPlace], map: SkateMap? = nil) {
        let (places, elsewhere) = map.map { PlacesByMap.split(all, map: $0) } ?? (all, [])
        self.places = places
        self.elsewhere = elsewhere
        search = PlaceSearch(candidates: places.map {
            PlaceCandidate(name: $0.name, kind: $0.category == .spot ? .skatepark : .other, category: "saved=\($0.category.rawValue)", at: $0.at)
        })
    }

    static let empty = SavedPlaceResolver([])

    /// The saved place for `text`: an exact (folded) name first, else one clearly best fuzzy hit.
    /// A place of another map named exactly ends the command with one line naming the installed
    /// map that covers it (exit 1), instead of "no rideable street within 400 m".
    func resolve(_ text: String) -> PlaceCandidate? {
        guard !places.isEmpty || !elsewhere.isEmpty else { return nil }
        let key = RiderName.folded(RiderName.clean(text))
        if let p = places.first(where: { RiderName.folded($0.name) == key }) { return candidate(p) }
        if let p = elsewhere.first(where: { RiderName.folded($0.name) == key }) { PlacesByMap.exitOutsideMap(p) }
        guard !places.isEmpty else { return nil }
        let hits = search.search(text, limit: 2)
        guard let top = hits.first, top.score >= Self.winScore else { return nil }
        if hits.count > 1, hits[1].score >= top.score - 0.02 { return nil }
        return marked(top.candidate)
    }

    /// Saved places close to `text`, marked, for suggestion lists (they come first).
    func suggestions(_ text: String) -> [PlaceMatch] {
        search.search(text, limit: 3).map { var m = $0; m.candidate = marked(m.candidate); return m }
    }

    func candidate(_ p: SavedPlace) -> PlaceCandidate {
        PlaceCandidate(name: p.name + Self.mark, kind: .other, category: "saved=\(p.category.rawValue)", at: p.at)
    }

    func marked(_ c: PlaceCandidate) -> PlaceCandidate {
        var m = c
        m.name += Self.mark
        return m
    }
}

/// The store as a plan reads it: nil when off (`--no-store`) or never created (planning never
/// creates a database). `short`: one plain connection for a one-shot command (`SkateStore(openingExisting:)`).
func openExistingStore(dataDir: String?, disabled: Bool, short: Bool = false) throws -> SkateStore? {
    if disabled { return nil }
    let dir = dataDir.map { URL(fileURLWithPath: $0) } ?? StorePaths.defaultDataDir()
    guard FileManager.default.fileExists(atPath: StorePaths.databaseURL(in: dir).path) else { return nil }
    do { return try short ? SkateStore(openingExisting: dir) : SkateStore(dataDir: dir) } catch { throw fail("store \(dir.path): \(error)") }
}

/// Resolves a place text for a command other than `plan`: "lat,lon", a saved place, then the map.
func resolveAnyPlace(_ text: String, map: SkateMap, saved: SavedPlaceResolver, role: String) throws -> PlaceCandidate {
    if let c = Coordinate(parsing: text) { return PlaceCandidate(name: c.description, kind: .other, category: "coordinate", at: c) }
    if let s = saved.resolve(text) { return s }
    return try resolvePlace(text, search: PlaceSearch(map: map), role: role, saved: saved)
}

/// Saved places (and recents) belong to the map whose area holds them.
enum PlacesByMap {
    /// Whether the map's area holds `c` (`SkateMap.areaHolds`).
    static func holds(_ map: SkateMap, _ c: Coordinate) -> Bool { map.areaHolds(c) }

    /// The places on `map` and the others.
    static func split(_ places: [SavedPlace], map: SkateMap) -> (here: [SavedPlace], elsewhere: [SavedPlace]) {
        var here: [SavedPlace] = [], elsewhere: [SavedPlace] = []
        for p in places { if holds(map, p.at) { here.append(p) } else { elsewhere.append(p) } }
        return (here, elsewhere)
    }

    /// "on the installed map heidelberg (--map heidelberg)" or "on none of the installed maps".
    static func whereIs(_ c: Coordinate) -> String {
        guard let m = InstalledMap.covering(c, in: MapLibrary.standard()).first else {
            return "none of the installed maps covers it (skateroute maps; import one with skateroute import)"
        }
        return "it is on the installed map \(m.name): add --map \(m.name)"
    }

    /// Prints why a saved place of another map cannot be used here and exits 1.
    static func exitOutsideMap(_ p: SavedPlace) -> Never {
        printError("skateroute: saved place '\(TerminalSafe.clean(p.name))' (\(p.at)) is outside this map; \(whereIs(p.at))")
        Glibc.exit(1)
    }
}
