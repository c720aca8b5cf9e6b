import SkateCore
@testable import SkateImport
import Testing

/// A flight of steps is untied in the conditioner (meant to be steep), so its ends take the heights
/// of the ways beside it; one whose `incline` tag gives a direction gets a one-sided sign tie, so a
/// walked flight never reads "walk down the steps" with a climbing grade (issue 30; Monaco way
/// 742495235 read "walk up the steps — 6 m, −30.0 %").
@Suite struct StepsInclineSignTests {
    /// One 3″ SRTM cell in metres and its noise (what the import uses for such a tile).
    static let cell = 92.6, noise = 5.0
    /// The DEM climbs this much (metres) from the lower street to the upper one.
    static let rise = 6.0

    /// Lower street 0–1 (100 m), a 6 m flight 1→2 drawn uphill on the DEM, upper street 2–3 (100 m):
    ///
    ///     0 ————————— 1 ≡≡ 2 ————————— 3      heights 10 m | 16 m
    static func conditioner(stepFlags: EdgeFlags, incline: Double?) -> ElevationConditioner {
        let low = [Double](repeating: 10, count: 11), high = [Double](repeating: 10 + rise, count: 11)
        return ElevationConditioner(raw: [low, [10, 10 + rise], high], length: [100, 6, 100], from: [0, 1, 2], to: [1, 2, 3],
                                    flags: [EdgeFlags(), EdgeFlags.steps.union(stepFlags), EdgeFlags()], incline: [nil, incline, nil],
                                    street: [0, 0, 0], nodeCount: 4, noise: noise, cellSize: cell)
    }

    /// Metres the flight climbs from its first node to its last after conditioning.
    static func flightRise(_ c: ElevationConditioner) -> Double {
        let p = c.run().0[1]
        return p.last! - p.first!
    }

    @Test("an untagged flight keeps the rise the ways beside it give")
    func untaggedKeepsRise() {
        #expect(Self.flightRise(Self.conditioner(stepFlags: [], incline: nil)) > Self.rise / 2)
    }

    @Test("a flight tagged against its DEM rise goes the tagged way (incline=down, incline=-30%)",
          arguments: [(EdgeFlags.inclineDown, nil), (EdgeFlags(), -30.0)] as [(EdgeFlags, Double?)])
    func taggedAgainstRiseFollowsTag(flags: EdgeFlags, incline: Double?) {
        let r = Self.flightRise(Self.conditioner(stepFlags: flags, incline: incline))
        #expect(r < 0, "rise \(r) m on a flight tagged down")
    }

    @Test("a flight tagged the way the DEM already climbs is left untied (one-sided)",
          arguments: [(EdgeFlags.inclineUp, nil), (EdgeFlags(), 30.0)] as [(EdgeFlags, Double?)])
    func taggedWithRiseUnchanged(flags: EdgeFlags, incline: Double?) {
        let tagged = Self.flightRise(Self.conditioner(stepFlags: flags, incline: incline))
        let untagged = Self.flightRise(Self.conditioner(stepFlags: [], incline: nil))
        #expect(tagged == untagged)
    }
}
