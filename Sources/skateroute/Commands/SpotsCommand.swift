import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// `skateroute spots`: skateparks, plazas and squares on the map plus the rider's own spots.
struct SpotsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spots",
        abstract: "List skateparks, plazas and squares on the map and your own spots.",
        discussion: """
        Map spots are places tagged leisure=skatepark, sport=skateboard, skateboard=*, place=square \
        or highway=pedestrian areas. Your own spots are saved places of category spot \
        (`places add NAME --at "lat,lon" --category spot`), private by default.
        """
    )

    /// Default `--radius` with `--near` (metres): a 20-minute push at 12 km/h.
    static let defaultRadius = 4_000.0

    @Option(parsing: .unconditional, help: "Only spots near this place (a name, saved place or \"lat,lon\"), nearest first.") var near: String?
    @Option(help: "With --near: metres around the place.") var radius: Double = SpotsCommand.defaultRadius
    @Flag(help: "Print JSON (keys sorted).") var json = false
    @OptionGroup var mapOption: MapOption
    @Option(help: "Data folder of the store (default $XDG_DATA_HOME/skateroute).") var dataDir: String?
    @Flag(help: "Leave out your own spots (read no store).") var noStore = false

    func run() throws {
        guard radius.isFinite, radius > 0 else { throw fail("--radius must be a positive number of metres") }
        let map = try mapOption.load()
        let store = try openExistingStore(dataDir: dataDir, disabled: noStore)
        let saved = try store.map { s in try CLIParse.store { try s.places() } } ?? []
        var spots = SpotEntry.all(map: map, saved: saved)
        var center: PlaceCandidate?
        if let near {
            let c = try resolveAnyPlace(near, map: map, saved: SavedPlaceResolver(saved, map: map), role: "--near")
            center = c
            spots = SpotEntry.byDistance(spots, from: c.at).filter { $0.distance! <= radius }
        } else {
            spots.sort { ($0.kind == "own" ? 1 : 0, $0.name) < ($1.kind == "own" ? 1 : 0, $1.name) }
        }
        if json {
            var obj: JSONObject = ["spots": .array(spots.map { s in
                var o: JSONObject = ["name": .string(s.name), "kind": .string(s.kind), "category": .string(s.category),
                                             "lat": .rounded(s.at.lat, 7), "lon": .rounded(s.at.lon, 7), "private": .bool(s.isPrivate)]
                if let d = s.distance { o["distance_m"] = .rounded(d, 0) }
                return .object(o)
            })]
            if let center { obj["near"] = .object(["name": .string(center.name), "lat": .rounded(center.at.lat, 7), "lon": .rounded(center.at.lon, 7)]) }
            CLIParse.emit(DocumentSchema.document("spots", obj).text(pretty: true))
            return
        }
        if spots.isEmpty {
            CLIParse.emit(center == nil ? "no spots on this map and no saved spots"
                          : "no spots within \(Int(radius)) m of \(TerminalSafe.clean(center!.name))")
            return
        }
        for s in spots {
            let label = s.kind == "own" ? "your spot\(s.isPrivate ? ", private" : "")" : s.category
            let d = s.distance.map { "  " + UnitFormatter.length($0) } ?? ""
            CLIParse.emit("\(TerminalSafe.clean(s.name))  [\(TerminalSafe.clean(label))]  \(s.at)\(d)")
        }
    }
}
