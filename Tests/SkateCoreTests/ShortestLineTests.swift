import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// `ShortestLine.path` searches from both ends (`bidirectional`) on city maps; the one-way A*
/// it replaced (`oneWay`) is the reference: on seeded pairs of the bundled Monaco map and the
/// Heidelberg extract, over every way and over the ways legal to walk, both must find a line or
/// neither, of the same length, and the bidirectional line must be one line: each leg starts
/// where the one before ends, and its metres add up to the length it reports.
@Suite(.serialized) struct ShortestLineTests {
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func monacoBothWaysEqualOneWay() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        try compare(map: m, seed: 31, pairs: 150)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func heidelbergBothWaysEqualOneWay() throws {
        let m = try #require(CrustyRuleProofTests.heidelberg)
        try compare(map: m, seed: 32, pairs: 40)
    }

    /// The bounds hold on a city map, so `path` searches from both ends there.
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func cityMapsSearchFromBothEnds() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        let a = try #require(m.nearestEdge(to: m.coordinate(ofNode: 0), maxDistance: 50, where: { _ in true }))
        #expect(ShortestLine.bothEndsHold(map: m, from: a, to: a))
    }

    /// A region (a map spanning more than `flatBoundLatitudeSpan` of latitude) is searched from
    /// both ends too, with the east–west scale of its most poleward latitude (issue 31). Monaco and
    /// Heidelberg with their boxes stretched 3° north stand for one: `path` must leave the city
    /// rule and still agree with the one-way A*, line for line in length and in finding one.
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func monacoAsRegionBothWaysEqualOneWay() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        try compare(map: Self.stretchedNorth(m), seed: 33, pairs: 150, region: true)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func heidelbergAsRegionBothWaysEqualOneWay() throws {
        let m = try #require(CrustyRuleProofTests.heidelberg)
        try compare(map: Self.stretchedNorth(m), seed: 34, pairs: 40, region: true)
    }

    /// The region's scale latitude lies poleward of every node, by the margin.
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func regionScaleLatitudeIsPolewardOfTheBox() throws {
        var m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        #expect(ShortestLine.regionScaleLatitude(m) == m.bbox.maxLat + ShortestLine.regionScaleMarginDegrees)
        m.grid.bbox.minLat = -51.5
        #expect(ShortestLine.regionScaleLatitude(m) == 51.5 + ShortestLine.regionScaleMarginDegrees)
        m.grid.bbox.maxLat = 89.5
        #expect(ShortestLine.regionScaleLatitude(m) == nil)
    }

    /// The map with its box reaching `degrees` further north (no node moves: the box only says
    /// where nodes may lie).
    static func stretchedNorth(_ m: SkateMap, degrees: Double = 3) -> SkateMap {
        var r = m
        r.grid.bbox.maxLat += degrees
        return r
    }

    func compare(map m: SkateMap, seed: UInt64, pairs: Int, region: Bool = false) throws {
        var rng = SplitMix64(seed: seed)
        func legal(_ e: Int) -> Bool { AccessModel.decision(of: m.flags(ofEdge: e)).accessClass != .forbidden }
        func snap() -> EdgeSnap? {
            let e = Int(rng.next() % UInt64(m.edgeCount))
            let p = m.coordinate(ofNode: Int(m.edgeFrom[e])), q = m.coordinate(ofNode: Int(m.edgeTo[e]))
            let c = Coordinate(lat: p.lat + (q.lat - p.lat) / 3, lon: p.lon + (q.lon - p.lon) / 3)
            return m.nearestEdge(to: c, maxDistance: 50, where: { _ in true })
        }
        var compared = 0, found = 0
        for _ in 0..<pairs {
            guard let a = snap(), let b = snap() else { continue }
            #expect(ShortestLine.bothEndsHold(map: m, from: a, to: b) != region)
            for filter in [{ (_: Int) in true }, legal] {
                let one = ShortestLine.oneWay(map: m, from: a, to: b, allowed: filter)
                // `path` is what plans call; on a city map it is `bidirectional` with each end's scale.
                let both = region ? ShortestLine.path(map: m, from: a, to: b, allowed: filter)
                    : ShortestLine.bidirectional(map: m, from: a, to: b, allowed: filter)
                compared += 1
                #expect((one == nil) == (both == nil), "edges \(a.edge) → \(b.edge): one way \(one?.length ?? -1), both ends \(both?.length ?? -1)")
                guard let one, let both else { continue }
                found += 1
                #expect(abs(one.length - both.length) <= 1e-6 * max(1, one.length), "edges \(a.edge) → \(b.edge): \(one.length) against \(both.length) m")
                #expect(abs(both.cost - both.length) <= 1e-6 * max(1, both.length), "reported \(both.cost), legs add up to \(both.length) m")
                for (x, y) in zip(both.legs, both.legs.dropFirst()) {
                    let end = x.reversed ? Int(m.edgeFrom[x.edge]) : Int(m.edgeTo[x.edge])
                    let start = y.reversed ? Int(m.edgeTo[y.edge]) : Int(m.edgeFrom[y.edge])
                    #expect(end == start, "legs \(x.edge) and \(y.edge) do not meet")
                }
                #expect(both.legs.first?.edge == a.edge && both.legs.last?.edge == b.edge)
            }
        }
        #expect(found >= compared / 2 && compared >= pairs, "\(found) lines of \(compared) searches")
    }
}
