import FoundationEssentials
import SkateCore

/// One spot to ride to: from the map (skateparks, squares, pedestrian plazas) or the rider's own
/// (a saved place of category `spot`). Shared by `skateroute spots` and the TUI's spots list.
public struct SpotEntry: Sendable, Equatable {
    public var name: String
    /// "skatepark", "square", "pedestrian_area" or "own".
    public var kind: String
    /// The map's "key=value" category, or "saved=spot".
    public var category: String
    public var at: Coordinate
    public var isPrivate: Bool
    /// Metres from a reference point (`--near`, the TUI's From), when given.
    public var distance: Double?

    public init(name: String, kind: String, category: String, at: Coordinate, isPrivate: Bool, distance: Double? = nil) {
        self.name = name; self.kind = kind; self.category = category; self.at = at; self.isPrivate = isPrivate; self.distance = distance
    }

    /// The map's spots (`PlaceKind.isTrickSpot`) in place order, then the rider's spots.
    public static func all(map: SkateMap, saved: [SavedPlace]) -> [SpotEntry] {
        var out: [SpotEntry] = []
        for i in 0..<map.placeCount {
            guard let k = PlaceKind(rawValue: map.placeKind[i]), k.isTrickSpot else { continue }
            out.append(SpotEntry(name: map.string(map.placeName[i]), kind: k.name, category: map.string(map.placeCategory[i]),
                                 at: Coordinate(lat: map.placeLat[i], lon: map.placeLon[i]), isPrivate: false))
        }
        for p in saved where p.category == .spot {
            out.append(SpotEntry(name: p.name, kind: "own", category: "saved=spot", at: p.at, isPrivate: p.isPrivate))
        }
        return out
    }

    /// The spots with their distance (metres) from `point`, nearest first (ties by name).
    public static func byDistance(_ spots: [SpotEntry], from point: Coordinate) -> [SpotEntry] {
        spots.map { var s = $0; s.distance = Geo.distance(point, s.at); return s }
            .sorted { ($0.distance!, $0.name) < ($1.distance!, $1.name) }
    }
}
