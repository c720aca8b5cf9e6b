import Foundation
import SkateCore
@testable import SkateStore
import Testing

@Suite struct SurfaceTests {
    let map = TinyMap.standard()
    var alpha: EdgeKey { EdgeKey(map: map, edge: 0) }  // A–B, Rue Alpha, asphalt

    @Test func weightedMedianBasics() {
        #expect(SurfaceAging.weightedMedian([]) == nil)
        #expect(SurfaceAging.weightedMedian([(0.1, 1)]) == 0.1)
        #expect(SurfaceAging.weightedMedian([(0.1, 1), (0.3, 1), (0.2, 1)]) == 0.2)
        #expect(SurfaceAging.weightedMedian([(0.1, 1), (0.3, 1)]) == 0.2)  // exactly half: midpoint
        #expect(SurfaceAging.weightedMedian([(0.1, 3), (0.3, 1), (0.5, 1)]) == 0.1)
        #expect(abs(SurfaceAging.weight(age: 14 * day) - 0.5) < 1e-12)
        #expect(abs(SurfaceAging.weight(age: 28 * day) - 0.25) < 1e-12)
    }

    @Test func oldCrustyRatingIsOutweighedByFreshButterMeasurements() throws {
        let t = try TempStore(), s = t.store
        try s.rate(alpha, rating: .crusty, reporter: "grump", now: t0 - 40 * day)
        for i in 0..<3 { try s.recordMeasurement(alpha, rms: 0.030 + 0.005 * Double(i), at: t0 - Double(i) * day) }
        let k = try s.loadKnowledge(for: map, now: t0)
        let o = try #require(k.observations[0])
        #expect(o.source == .measured)
        #expect(RoughnessClass(rms: o.rms) == .butter)
        #expect(o.count == 3)
        #expect(o.freshness == 1)
    }

    @Test func freshMeasurementsOutvoteOldOnesAfterResurfacing() throws {
        let t = try TempStore(), s = t.store
        // Five crusty passes two months ago, then two butter passes this week.
        for i in 0..<5 { try s.recordMeasurement(alpha, rms: 0.24 + 0.01 * Double(i), at: t0 - 60 * day - Double(i) * hour) }
        try s.recordMeasurement(alpha, rms: 0.035, at: t0 - 3 * day)
        try s.recordMeasurement(alpha, rms: 0.040, at: t0 - 1 * day)
        let (m, _) = try s.surface(of: alpha, now: t0)
        #expect(RoughnessClass(rms: try #require(m).rms) == .butter)
        #expect(m!.count == 7)
        #expect(abs(m!.freshness - pow(0.5, 1.0 / 14)) < 1e-9)
        // Back then, the figure was crusty.
        let (then, _) = try s.surface(of: alpha, now: t0 - 59 * day)
        #expect(RoughnessClass(rms: try #require(then).rms) == .crusty)
        // A single trick landing (one huge window) among butter passes does not paint it crusty.
        try s.recordMeasurement(alpha, rms: 0.9, at: t0)
        #expect(RoughnessClass(rms: try s.surface(of: alpha, now: t0).measured!.rms) == .butter)
    }

    @Test func ratingsAgeAndARidersNewRatingReplacesTheirOld() throws {
        let t = try TempStore(), s = t.store
        try s.rate(alpha, rating: .crusty, reporter: "a", now: t0 - 40 * day)
        try s.rate(alpha, rating: .butter, reporter: "b", now: t0 - 1 * day)
        #expect(try s.surface(of: alpha, now: t0).rating!.rms == SurfaceRating.butterRMS)
        #expect(try s.surface(of: alpha, now: t0).rating!.count == 2)
        try s.rate(alpha, rating: .okay, reporter: "b", now: t0)
        let r = try #require(try s.surface(of: alpha, now: t0).rating)
        #expect(r.count == 2)
        #expect(r.rms == SurfaceRating.okayRMS)
        #expect(r.source == .rating)
    }

    @Test func measuredPreferredUnlessStaleAndOlderThanTheRating() {
        let fresh = EdgeObservation(rms: 0.04, source: .measured, freshness: 0.7, count: 3)
        let stale = EdgeObservation(rms: 0.04, source: .measured, freshness: 0.05, count: 3)
        let rating = EdgeObservation(rms: 0.25, source: .rating, freshness: 1, count: 1)
        let oldRating = EdgeObservation(rms: 0.25, source: .rating, freshness: 0.01, count: 1)
        #expect(SurfaceAging.preferred(measured: fresh, rating: rating) == fresh)
        #expect(SurfaceAging.preferred(measured: stale, rating: rating) == rating)
        #expect(SurfaceAging.preferred(measured: stale, rating: oldRating) == stale)
        #expect(SurfaceAging.preferred(measured: nil, rating: rating) == rating)
    }

    @Test func observationsBeyondTheWindowOrInTheFutureDoNotCount() throws {
        let t = try TempStore(), s = t.store
        try s.recordMeasurement(alpha, rms: 0.3, at: t0 - 200 * day)
        try s.recordMeasurement(alpha, rms: 0.3, at: t0 + day)
        #expect(try s.surface(of: alpha, now: t0).measured == nil)
        #expect(throws: StoreError.self) { try s.recordMeasurement(alpha, rms: -1, at: t0) }
        #expect(throws: StoreError.self) { try s.recordMeasurement(alpha, rms: .nan, at: t0) }
    }

    @Test func disagreementsFlagMeasurementsThatContradictTags() throws {
        let t = try TempStore(), s = t.store
        let stairs = EdgeKey(map: map, edge: 2)   // sett → implies crusty
        let beta = EdgeKey(map: map, edge: 1)     // asphalt → implies okay
        try s.recordMeasurements([(stairs, 0.03), (beta, 0.045), (alpha, 0.26)], at: t0 - day)
        let d = try s.disagreements(for: map, now: t0)
        // sett measured butter (3 classes apart) and asphalt measured crusty (2 apart); asphalt
        // measured butter is a neighbouring class: no claim.
        #expect(d.map(\.edge) == [0, 2])
        #expect(d[0].implied == .okay && d[0].measuredClass == .crusty)
        #expect(d[1].implied == .crusty && d[1].measuredClass == .butter && d[1].surface == .sett)
        let json = StoreExports.disagreementsGeoJSON(d, map: map).text()
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let features = parsed["features"] as! [[String: Any]]
        #expect(features.count == 2)
        let props = features[1]["properties"] as! [String: Any]
        #expect(props["osm_way"] as? Int == 1002)
        #expect(props["implied_class"] as? String == "crusty")
        #expect(props["measured_class"] as? String == "butter")
        let coords = (features[1]["geometry"] as! [String: Any])["coordinates"] as! [[Double]]
        #expect(coords.count == 2 && abs(coords[0][0] - map.nodeLon[1]) < 1e-6)
    }

    @Test func impliedClassTable() {
        #expect(TagImpliedRoughness.implied(surface: .asphalt, smoothness: .excellent) == .butter)
        // Issue 26: the surface family is a ceiling smoothness cannot lift (sett stops small wheels).
        #expect(TagImpliedRoughness.implied(surface: .sett, smoothness: .good) == .crusty)
        #expect(TagImpliedRoughness.implied(surface: .asphalt, smoothness: .intermediate) == .meh)  // smoothness refines
        #expect(TagImpliedRoughness.implied(surface: .pavingStones, smoothness: .unknown) == .meh)
        #expect(TagImpliedRoughness.implied(surface: .cobblestone, smoothness: .unknown) == .crusty)
        #expect(TagImpliedRoughness.implied(surface: .unknown, smoothness: .unknown) == nil)
    }
}
