import Foundation
import SkateCore
import SkateRide
import Testing

@Suite struct PrivacyTrimTests {
    static func north(_ m: Double) -> Coordinate { Coordinate(lat: 43.73 + m / 111_195, lon: 7.42) }

    @Test func trimsEndsZonesAndThins() {
        // A 2 km straight ride sampled every 5 m.
        let pts = (0...400).map { Self.north(Double($0) * 5) }
        let ends = PrivacyTrim().keep(pts).map { pts[$0] }
        #expect(Geo.distance(pts[0], ends.first!) >= 200 - 1e-6 && Geo.distance(pts[0], ends.first!) < 206)
        #expect(Geo.distance(pts.last!, ends.last!) >= 200 - 1e-6)
        let home = Self.north(1_000)
        let zoned = PrivacyTrim(trimStart: 0, trimEnd: 0, zones: [(home, 150)]).keep(pts).map { pts[$0] }
        #expect(zoned.allSatisfy { Geo.distance($0, home) > 150 })
        #expect((59...61).contains(pts.count - zoned.count), "about 300 m hidden: 59–61 points at 5 m (the circle edge falls on a point)")
        let thin = PrivacyTrim(trimStart: 0, trimEnd: 0, minSpacing: 50).keep(pts)
        #expect(thin.count == 41)
        #expect(PrivacyTrim().keep([pts[0]]).isEmpty)
        // A ride shorter than both trims exports nothing rather than the rider's doorstep.
        #expect(PrivacyTrim().keep(Array(pts.prefix(60))).isEmpty)
    }
}
