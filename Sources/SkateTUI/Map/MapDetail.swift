import SkateCore

/// The map's level of detail (issue 31): which streets a zoom draws, and the short lists of
/// important roads the widest zooms walk instead of every edge of a region.
///
/// | scale (m per dot) | drawn |
/// |---|---|
/// | < 4 | every street, path and footway |
/// | 4 – 40 | no footways, paths, service ways or tracks; major roads brighter |
/// | 40 – 150 | major and arterial roads (primary … tertiary) and the map's outline |
/// | ≥ 150 | major roads (motorway, trunk, primary) and the outline |
public final class MapDetail: Sendable {
    /// How important a street is on a wide map, most important first.
    public enum Rank: Int, Sendable, Comparable, CaseIterable {
        case major = 0, arterial, minor, footway
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// From this scale footways, paths, service ways and tracks are hidden: a dot is 4 m, so a
    /// pavement beside its street lands on the same dots.
    public static let hideFootwaysMetresPerDot: Double = 4
    /// From this scale residential and other minor streets are hidden: at 40 m a dot a 100 m
    /// block is under three dots and the web fills every cell (a whole town like Monaco, 25 m a
    /// dot fitted on the plan screen, still shows its streets).
    public static let hideMinorMetresPerDot: Double = 40
    /// From this scale only motorway, trunk and primary roads remain: a 120-column map then
    /// spans ~36 km, and the secondary roads of every village fill it again.
    public static let hideArterialMetresPerDot: Double = 150

    /// Dash pattern of the map's outline in dots: even and sparse, so it never reads as a road.
    public static let outlineDash = (on: 2, off: 2)

    /// The rank of a highway class.
    @inline(__always)
    public static func rank(_ h: HighwayClass) -> Rank {
        switch h {
        case .motorway, .trunk, .primary: return .major
        case .secondary, .tertiary: return .arterial
        case .footway, .path, .steps, .corridor, .platform, .service, .track, .bridleway, .cycleway, .elevator, .construction: return .footway
        default: return .minor
        }
    }

    /// The least important rank still drawn at `metresPerDot`.
    public static func shownRank(metresPerDot m: Double) -> Rank {
        if m >= hideArterialMetresPerDot { return .major }
        if m >= hideMinorMetresPerDot { return .arterial }
        if m >= hideFootwaysMetresPerDot { return .minor }
        return .footway
    }

    /// Major roads, then the arterial ones, with their boxes: built on the first wide zoom.
    struct Roads: Sendable {
        /// Major roads, then the arterial ones (edge indices).
        var majorCount = 0
        var arterialEdges: [Int] = []
        /// Each listed edge's box (min lat, min lon, max lat, max lon) by edge index into `boxes`
        /// (4 floats an edge of `arterialEdges`, same order): a region's view holds a fraction of
        /// its major roads, and a box test rejects the others without walking their shapes.
        var boxes: [Float] = []
    }
    /// The wide-zoom road lists, one pass over every edge the first time a wide zoom is drawn
    /// (a region opens at a city's zoom, which finds its streets through the spatial grid).
    private let roads: ComputedOnce<Roads>
    /// The map's extent, drawn as a frame at wide zooms (nil for an empty map).
    public let outline: BoundingBox?
    /// Towns by importance (`MapTownLabels.ranked`), ranked the first time labels are placed.
    private let rankedTowns: ComputedOnce<[RankedTown]>
    typealias RankedTown = (town: Int, municipality: Bool)

    /// Keeps the map; the road lists and the town ranking are built on first use.
    public init(map: SkateMap) {
        roads = ComputedOnce { Self.roads(map) }
        rankedTowns = ComputedOnce { MapTownLabels.ranked(map: map) }
        outline = map.bbox.isEmpty ? nil : map.bbox
    }

    /// Towns by importance, most important first.
    var towns: [RankedTown] { rankedTowns.value }

    /// Whether the first frames have needed the map-wide passes yet (tests of the start-up).
    var builtRoads: Bool { roads.isComputed }
    var rankedTheTowns: Bool { rankedTowns.isComputed }

    /// Sorts the map's edges by rank (one pass over the edges).
    static func roads(_ map: SkateMap) -> Roads {
        var major: [Int] = [], arterial: [Int] = []
        for e in 0..<map.edgeCount {
            switch Self.rank(map.highway(ofEdge: e)) {
            case .major: major.append(e)
            case .arterial: arterial.append(e)
            default: break
            }
        }
        var r = Roads(majorCount: major.count, arterialEdges: major + arterial)
        var b = [Float](); b.reserveCapacity(r.arterialEdges.count * 4)
        for e in r.arterialEdges {
            var lo = map.shapePoint(ofEdge: e, 0), hi = lo
            for i in 1..<map.shapePointCount(ofEdge: e) {
                let p = map.shapePoint(ofEdge: e, i)
                lo = Coordinate(lat: min(lo.lat, p.lat), lon: min(lo.lon, p.lon)); hi = Coordinate(lat: max(hi.lat, p.lat), lon: max(hi.lon, p.lon))
            }
            b += [Float(lo.lat), Float(lo.lon), Float(hi.lat), Float(hi.lon)]
        }
        r.boxes = b
        return r
    }

    /// The edges of rank `shown` and more important whose box meets `box`, or nil when the
    /// zoom draws minor streets (the spatial grid finds those).
    public func edges(upTo shown: Rank, in box: BoundingBox) -> [Int]? {
        guard shown < .minor else { return nil }
        let r = roads.value
        let n = shown == .major ? r.majorCount : r.arterialEdges.count
        // Float boxes: widen the view by a float's rounding at these latitudes (~1e-5°).
        let pad = 1e-4
        let s = Float(box.minLat - pad), w = Float(box.minLon - pad), nn = Float(box.maxLat + pad), ee = Float(box.maxLon + pad)
        var out: [Int] = []
        r.boxes.withUnsafeBufferPointer { b in
            for i in 0..<n where b[4 * i] <= nn && b[4 * i + 2] >= s && b[4 * i + 1] <= ee && b[4 * i + 3] >= w {
                out.append(r.arterialEdges[i])
            }
        }
        return out
    }

    /// Number of edges drawn at each wide rank (for the benchmark's report).
    public var counts: (major: Int, arterial: Int) { let r = roads.value; return (r.majorCount, r.arterialEdges.count) }
}
