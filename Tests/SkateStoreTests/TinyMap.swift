import Foundation
import SkateCore

/// Builds small maps in code for store tests, in metres east (x) / north (y) of an origin in Monaco.
struct TinyMap {
    static let origin = Coordinate(lat: 43.7300, lon: 7.4200)
    let proj = LocalProjection(origin: TinyMap.origin)
    var map = SkateMap(metadata: MapMetadata(name: "tiny", attribution: "test", sources: [], osmTimestamp: "",
                                             hasElevation: false, inclineTaggedWays: 0, waysKept: 0))

    init() {
        map.stringStart = [0, 0]  // index 0 = ""
    }

    func at(_ x: Double, _ y: Double) -> Coordinate { proj.unproject(x: x, y: y) }

    mutating func string(_ s: String) -> UInt32 {
        if s.isEmpty { return 0 }
        map.stringBytes.append(contentsOf: Array(s.utf8))
        map.stringStart.append(UInt32(map.stringBytes.count))
        return UInt32(map.stringStart.count - 2)
    }

    @discardableResult
    mutating func node(_ x: Double, _ y: Double, osm: Int64) -> Int {
        let c = at(x, y)
        map.nodeLat.append(c.lat); map.nodeLon.append(c.lon); map.nodeFlags.append(0); map.nodeOsmId.append(osm)
        return map.nodeCount - 1
    }

    /// A straight edge between two nodes.
    @discardableResult
    mutating func edge(_ a: Int, _ b: Int, way: Int64, name: String = "", highway: HighwayClass = .residential,
                       surface: Surface = .asphalt, smoothness: Smoothness = .unknown, flags: EdgeFlags = []) -> Int {
        let ca = map.coordinate(ofNode: a), cb = map.coordinate(ofNode: b)
        map.edgeFrom.append(UInt32(a)); map.edgeTo.append(UInt32(b))
        map.edgeLength.append(Float(Geo.distance(ca, cb)))
        map.edgeHighway.append(highway.rawValue); map.edgeSurface.append(surface.rawValue)
        map.edgeSmoothness.append(smoothness.rawValue); map.edgeFlags.append(flags.rawValue)
        map.edgeIncline.append(SkateMap.noIncline); map.edgeCrossings.append(0)
        map.edgeName.append(string(name)); map.edgeWayId.append(way)
        map.edgeViaStart.append(UInt32(map.viaLat.count))  // a straight edge: no via points
        map.edgeElevStart.append(UInt32(map.elevation.count))
        return map.edgeCount - 1
    }

    /// A no-report zone from a ring of (x, y) metres.
    mutating func zone(_ kind: ZoneKind, name: String, ring: [(Double, Double)]) {
        map.zoneKind.append(kind.rawValue); map.zoneName.append(string(name))
        for (x, y) in ring {
            let c = at(x, y)
            map.zoneLat.append(c.lat); map.zoneLon.append(c.lon)
        }
        map.zoneRingStart.append(UInt32(map.zoneLat.count))
    }

    func finished() -> SkateMap {
        var m = map
        m.rebuildIndexes()
        return m
    }

    /// The standard test map:
    /// ```
    ///            D (osm 4)
    ///            |  way 1002 "Escaliers" footway, sett
    ///  A ------- B ------- C        A–B, B–C: way 1001 "Rue Alpha", asphalt; 100 m each
    /// (osm 1)  (osm 2)   (osm 3)
    ///        [school]               a 40 × 40 m school "École Test" 30–70 m south of B
    /// ```
    /// Edges in order: 0 = A–B, 1 = B–C, 2 = B–D. `reversedOrder` lists them 2, 1, 0 (a "rebuild").
    static func standard(reversedOrder: Bool = false) -> SkateMap {
        var t = TinyMap()
        let a = t.node(0, 0, osm: 1), b = t.node(100, 0, osm: 2), c = t.node(200, 0, osm: 3), d = t.node(100, 100, osm: 4)
        let edges: [(Int, Int, Int64, String, HighwayClass, Surface)] = [
            (a, b, 1001, "Rue Alpha", .residential, .asphalt),
            (b, c, 1001, "Rue Alpha", .residential, .asphalt),
            (b, d, 1002, "Escaliers", .footway, .sett),
        ]
        for e in (reversedOrder ? edges.reversed() : edges) {
            t.edge(e.0, e.1, way: e.2, name: e.3, highway: e.4, surface: e.5)
        }
        t.zone(.school, name: "École Test", ring: [(80, -30), (120, -30), (120, -70), (80, -70)])
        return t.finished()
    }
}
