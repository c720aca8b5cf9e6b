@testable import SkateCore
import Glibc
import Testing

/// The box filter before street pieces are measured node by node (`PlaceSearch.PieceBox`): it may
/// let a far pair through, but must never turn away a pair within `streetPieceJoin`, or one street
/// place would split in two and the place index (and every map file) would change.
@Suite struct StreetPieceBoxTests {
    /// Seeded pairs of points at every latitude band a map can have, a few metres to a kilometre
    /// apart in every direction: each pair within the join distance passes the filter, and pairs
    /// far apart mostly do not (the filter does filter).
    @Test func neverTurnsAwayAPairWithinTheJoinDistance() {
        var rng = SplitMix64(seed: 0x51EE7)
        func unit() -> Double { Double(rng.next() % 1_000_000) / 1_000_000 }
        var within = 0, farTurnedAway = 0, far = 0
        for lat0 in [0.0, 23.5, 43.7, 49.4, 60.0, 70.0, 80.0, 88.0, -35.0, -66.0] {
            for _ in 0..<2_000 {
                let a = Coordinate(lat: lat0 + (unit() - 0.5) * 0.2, lon: (unit() - 0.5) * 340)
                // A point up to 1 km away in any direction, placed on the sphere's local scale.
                let d = unit() * 1_000, bearing = unit() * 2 * Double.pi
                let b = Coordinate(lat: a.lat + d * cos(bearing) / 111_195,
                                   lon: a.lon + d * sin(bearing) / (111_195 * max(cos(a.lat * Double.pi / 180), 1e-6)))
                guard abs(b.lat) < 90 else { continue }
                let close = Geo.distance(a, b) <= PlaceSearch.streetPieceJoin
                let passes = PlaceSearch.PieceBox([a]).mayJoin(PlaceSearch.PieceBox([b]))
                if close {
                    within += 1
                    #expect(passes, "\(a) and \(b) are \(Geo.distance(a, b)) m apart but the box filter turned them away")
                } else if Geo.distance(a, b) > 3 * PlaceSearch.streetPieceJoin {
                    far += 1
                    if !passes { farTurnedAway += 1 }
                }
            }
        }
        #expect(within > 1_000)
        // Most far pairs are turned away without measuring (the point of the filter).
        #expect(Double(farTurnedAway) > 0.9 * Double(far), "\(farTurnedAway) of \(far) far pairs turned away")
    }

    /// Two pieces on one latitude, 1 km apart east–west at Heidelberg's latitude: turned away by
    /// longitude (the latitude test alone let them through). Pieces 250 m apart pass.
    @Test func piecesOnOneLatitudeAreTestedByLongitude() {
        let west = PlaceSearch.PieceBox([Coordinate(lat: 49.41, lon: 8.69), Coordinate(lat: 49.411, lon: 8.692)])
        let eastFar = PlaceSearch.PieceBox([Coordinate(lat: 49.41, lon: 8.692 + 1_000 / 72_400), Coordinate(lat: 49.411, lon: 8.70)])
        let eastNear = PlaceSearch.PieceBox([Coordinate(lat: 49.41, lon: 8.692 + 250 / 72_400)])
        #expect(!west.mayJoin(eastFar))
        #expect(!eastFar.mayJoin(west))
        #expect(west.mayJoin(eastNear))
    }
}
