import FoundationEssentials
import Glibc

/// What an unnamed way is, for a step's text: its type, from the highway class and flags.
enum WayKind: Equatable {
    case sidewalk, crossing, footway, path, cycleway, pedestrian, square, service, track, passage,
         platform, livingStreet, street, road, construction, steps, connector

    /// The kind of an edge with flags `f` and highway class `highway`. Not `init(map:edge:)`: an
    /// initializer takes its arguments owned, and passing it the map copied the whole map struct
    /// (its ~50 arrays retained and released) per call (callgrind, issue 30 tenth round).
    init(flags f: EdgeFlags, highway: HighwayClass) {
        if f.contains(.connector) { self = .connector; return }
        if f.contains(.steps) { self = .steps; return }
        if f.contains(.isCrossing) { self = .crossing; return }
        if f.contains(.isSidewalk) { self = .sidewalk; return }
        switch highway {
        case .footway, .bridleway: self = .footway
        case .path: self = .path
        case .cycleway: self = .cycleway
        case .pedestrian: self = f.contains(.plaza) ? .square : .pedestrian
        case .service: self = .service
        case .track: self = .track
        case .corridor: self = .passage
        case .platform: self = .platform
        case .livingStreet: self = .livingStreet
        case .primary, .secondary, .tertiary, .trunk, .motorway: self = .road
        case .construction: self = .construction
        case .steps: self = .steps
        case .elevator: self = .connector
        case .residential, .unclassified, .road, .other: self = f.contains(.plaza) ? .square : .street
        }
    }

    /// "the footway", "the sidewalk"…
    var noun: String {
        switch self {
        case .sidewalk: return "the sidewalk"
        case .crossing: return "the crossing"
        case .footway: return "the footway"
        case .path: return "the path"
        case .cycleway: return "the cycleway"
        case .pedestrian: return "the pedestrian street"
        case .square: return "the square"
        case .service: return "the service road"
        case .track: return "the track"
        case .passage: return "the passage"
        case .platform: return "the platform"
        case .livingStreet: return "the living street"
        case .street: return "the street"
        case .road: return "the road"
        case .construction: return "the way under construction"
        case .steps: return "the steps"
        case .connector: return "the lift"
        }
    }

    /// Ways a park's or square's name describes better than the way's type.
    var isOpenSpaceWay: Bool { [.footway, .path, .cycleway, .pedestrian, .square, .track].contains(self) }
}

/// How a step's text names its way: "onto Rue Grimaldi", "through Parc X", "across Place Y",
/// "onto the sidewalk along Boulevard Z", "onto the footway".
struct WayPhrase: Equatable {
    var preposition: String
    var object: String
}

/// The distances unnamed ways are described by (metres from the step's middle point).
enum WayDescriptionRules {
    /// A named square or pedestrian area this near a step on an open-space way: "across" it.
    static let squareRadius = 60.0
    /// A named park or garden this near: "through" it (parks are large; their point is a centroid).
    static let parkRadius = 150.0
    /// A sidewalk's street: the nearest named road within this distance ("along" it).
    static let sidewalkStreetRadius = 30.0
    /// Place categories read as parks.
    static let parkCategories: [String] = ["leisure=park", "leisure=garden", "leisure=playground", "leisure=nature_reserve", "leisure=common"]
}

extension PlanBuilder {
    /// The kind of edge `e`'s way (`WayKind`), read from the map's flags and highway class.
    func wayKind(ofEdge e: Int) -> WayKind { WayKind(flags: map.flags(ofEdge: e), highway: map.highway(ofEdge: e)) }

    /// `wayPhrase(legs:range:shapes:)` with the legs' points computed here.
    func wayPhrase(legs: [RouteLeg], range: Range<Int>) -> WayPhrase {
        wayPhrase(legs: legs, range: range, shapes: legShapes(legs))
    }

    /// The text for an unnamed ride step: the way's type (`WayKind`, by the most metres), and the
    /// nearest named square, pedestrian area or park around it, or the street a sidewalk runs along.
    /// `shapes` holds the legs' points (`legShapes(legs)`).
    func wayPhrase(legs: [RouteLeg], range: Range<Int>, shapes: LegShapes) -> WayPhrase {
        // The kind with the most metres, and the step's middle point.
        var kinds: [WayKind] = [], metres: [Double] = []
        for li in range {
            let k = wayKind(ofEdge: legs[li].edge)
            if let i = kinds.firstIndex(of: k) { metres[i] += legs[li].length } else { kinds.append(k); metres.append(legs[li].length) }
        }
        var kind = kinds.first ?? .street, best = -1.0
        for (i, k) in kinds.enumerated() where metres[i] > best { kind = k; best = metres[i] }
        guard let c = midpoint(range: range, shapes: shapes) else { return WayPhrase(preposition: "onto", object: kind.noun) }
        if kind.isOpenSpaceWay {
            if let sq = nearestPlace(to: c, radius: WayDescriptionRules.squareRadius, kinds: [.square, .pedestrianArea], where: { _, _ in true }) {
                return WayPhrase(preposition: Self.acrossPreposition, object: sq)
            }
            if let park = nearestPlace(to: c, radius: WayDescriptionRules.parkRadius, kinds: [.leisure], where: { _, cat in WayDescriptionRules.parkCategories.contains(cat) }) {
                return WayPhrase(preposition: "through", object: park)
            }
        }
        if kind == .sidewalk || kind == .crossing,
           let s = map.nearestEdge(to: c, maxDistance: WayDescriptionRules.sidewalkStreetRadius, where: {
               !map.name(ofEdge: $0).isEmpty && !map.flags(ofEdge: $0).contains(.isSidewalk) }) {
            return WayPhrase(preposition: "onto", object: kind.noun + (kind == .crossing ? " over " : " along ") + map.name(ofEdge: s.edge))
        }
        return WayPhrase(preposition: "onto", object: kind.noun)
    }

    /// The point half way along legs `range` (by the polyline's own metres; `shapes` holds the
    /// legs' points, each leg's points in full, a join's point twice).
    func midpoint(range: Range<Int>, shapes: LegShapes) -> Coordinate? {
        var pts: [Coordinate] = []
        for li in range { pts += shapes.points[li] }
        guard let first = pts.first else { return nil }
        // Each segment's length once (the second pass read them again: two haversines per segment).
        var segment = [Double](repeating: 0, count: pts.count)
        var total = 0.0
        for i in pts.indices.dropFirst() {
            segment[i] = Geo.distance(pts[i - 1], pts[i])
            total += segment[i]
        }
        var acc = 0.0
        for i in pts.indices.dropFirst() {
            let d = segment[i]
            if acc + d >= total / 2, d > 0 {
                let t = (total / 2 - acc) / d
                return Coordinate(lat: pts[i - 1].lat + t * (pts[i].lat - pts[i - 1].lat), lon: pts[i - 1].lon + t * (pts[i].lon - pts[i - 1].lon))
            }
            acc += d
        }
        return first
    }

    /// The name of the nearest named place within `radius` metres of `c` whose kind and
    /// category pass `filter` (a box test before each distance; nil when none).
    func nearestPlace(to c: Coordinate, radius: Double, kinds: [PlaceKind], where filter: (PlaceKind, String) -> Bool) -> String? {
        let dLat = radius / 111_000, dLon = radius / (111_000 * max(0.1, cos(c.lat * .pi / 180)))
        var best: String?, bestD = radius
        for kind in kinds {
            let places = placesByKind.places(of: kind, in: map)
            for k in places.index.indices {
                let lat = places.lat[k], lon = places.lon[k]
                guard abs(lat - c.lat) <= dLat, abs(lon - c.lon) <= dLon else { continue }
                let i = places.index[k]
                let name = map.string(map.placeName[i])
                guard !name.isEmpty, filter(kind, map.string(map.placeCategory[i])) else { continue }
                let d = Geo.distance(c, Coordinate(lat: lat, lon: lon))
                if d < bestD || (d == bestD && name < (best ?? name)) { best = name; bestD = d }
            }
        }
        return best
    }
}
