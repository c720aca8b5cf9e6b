import Glibc
import Testing
import SkateCore
@testable import SkateImport

/// The town vote's near scale (`TownAssigner.nearRatio`, `minNearVote`): a village's own few
/// addresses decide its streets before a big neighbour's many addresses a kilometre or two away.
@Suite("Town vote")
struct TownVoteTests {
    /// Metres to degrees of latitude / longitude at 49.4° N.
    static let degLat = 1 / 110_574.0, degLon = 1 / (111_320.0 * 0.6511)

    /// A city's `cityCount` addresses spread over a 1 km square centred 1.7 km east of a village
    /// whose four addresses lie within 100 m of the origin (Eppelheim beside Heidelberg).
    static func assigner(cityCount: Int) -> (TownAssigner, village: Int, city: Int) {
        var a = TownAssigner()
        let village = a.addTown("Eppelheim"), city = a.addTown("Heidelberg")
        let origin = Coordinate(lat: 49.40, lon: 8.62)
        for k in 0..<4 {
            let d = Double(k) * 30
            a.addEvidence(.init(town: village, at: Coordinate(lat: origin.lat + d * degLat, lon: origin.lon + d * degLon), weight: TownAssigner.addressWeight))
        }
        var rng = SplitMix64(seed: 7)
        for _ in 0..<cityCount {
            let east = 1700 + Double.random(in: -500..<500, using: &rng), north = Double.random(in: -500..<500, using: &rng)
            a.addEvidence(.init(town: city, at: Coordinate(lat: origin.lat + north * degLat, lon: origin.lon + east * degLon), weight: TownAssigner.addressWeight))
        }
        return (a, village, city)
    }

    @Test func aVillagesOwnAddressesDecideItsStreets() {
        let (a, village, city) = Self.assigner(cityCount: 200)
        // 150 m from the village's addresses: the village, though the wide vote alone (σ 1.5 km)
        // gives the city ~200 × e^(−0.6) ≈ 110 against the village's ~4.
        let street = Coordinate(lat: 49.40 + 150 * Self.degLat, lon: 8.62)
        #expect(a.voted(at: street) == village)
        // Among the city's addresses the city still wins.
        #expect(a.voted(at: Coordinate(lat: 49.40, lon: 8.62 + 1700 * Self.degLon)) == city)
        // Half-way, 850 m from both, with no near evidence strong enough: the wide vote (the city).
        #expect(a.voted(at: Coordinate(lat: 49.40, lon: 8.62 + 850 * Self.degLon)) == city)
    }

    @Test func theNearGaussianIsTheWideOneToTheNinth() {
        // σ / nearRatio = 500 m: at 590 m the near weight is ≈ 0.5 (`minNearVote`'s stated distance).
        let d = 590.0, s = TownAssigner.sigma
        let g = exp(-d * d / (2 * s * s))
        let near = TownAssigner.nearPower(g)
        let direct = exp(-d * d / (2 * (s / Double(TownAssigner.nearRatio)) * (s / Double(TownAssigner.nearRatio))))
        #expect(abs(near - direct) < 1e-12)
        #expect(abs(near - TownAssigner.minNearVote) < 0.01)
    }
}
