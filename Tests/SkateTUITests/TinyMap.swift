import SkateCore
@testable import SkateTUI

/// A hand-made map: one east–west street and one north–south street crossing near the origin,
/// placed on half-dot positions at 2 m/dot so floor() never sits on a boundary.
enum TinyMap {
    static let origin = Coordinate(lat: 43.7, lon: 7.4)
    static let projection = LocalProjection(origin: origin)

    /// A coordinate `x` metres east and `y` metres north of the origin.
    static func at(_ x: Double, _ y: Double) -> Coordinate { projection.unproject(x: x, y: y) }

    static func make(name: String = "Tiny") -> SkateMap {
        var m = SkateMap(metadata: MapMetadata(name: name, attribution: "test", sources: [], osmTimestamp: "",
                                               hasElevation: false, inclineTaggedWays: 0, waysKept: 2))
        func node(_ c: Coordinate) { m.nodeLat.append(c.lat); m.nodeLon.append(c.lon); m.nodeFlags.append(0); m.nodeOsmId.append(Int64(m.nodeLat.count)) }
        func edge(_ a: Int, _ b: Int, _ pts: [Coordinate]) {
            m.edgeFrom.append(UInt32(a)); m.edgeTo.append(UInt32(b))
            m.edgeLength.append(Float(Geo.distance(pts.first!, pts.last!)))
            m.edgeHighway.append(HighwayClass.residential.rawValue); m.edgeSurface.append(0); m.edgeSmoothness.append(0)
            m.edgeFlags.append(0); m.edgeIncline.append(SkateMap.noIncline); m.edgeCrossings.append(0)
            m.edgeName.append(0); m.edgeWayId.append(Int64(m.edgeFrom.count))
            for p in pts.dropFirst().dropLast() { m.viaLat.append(p.lat); m.viaLon.append(p.lon) }
            m.edgeViaStart.append(UInt32(m.viaLat.count))
            m.edgeElevStart.append(0)
        }
        node(at(-41, -1)); node(at(41, -1)); node(at(1, 19)); node(at(1, -19))
        edge(0, 1, [at(-41, -1), at(41, -1)])
        edge(2, 3, [at(1, 19), at(1, -19)])
        m.rebuildIndexes()
        return m
    }

    /// 20×6 cells at 2 m/dot centred on the origin: 40×24 dots, 80 m × 48 m.
    static func viewport() -> MapViewport {
        MapViewport(origin: origin, metresPerDot: 2, size: Size(width: 20, height: 6))
    }
}

/// Records a readable failure when a buffer's text differs from `expected`.
func expectLines(_ buffer: ScreenBuffer, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    if let m = buffer.mismatch(expected) {
        Issue.record(Comment(rawValue: m), sourceLocation: sourceLocation)
    }
}

import Testing
