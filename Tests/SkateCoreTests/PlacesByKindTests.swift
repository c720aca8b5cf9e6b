import Glibc
@testable import SkateCore
import SkateTestSupport
import Testing

/// `PlanBuilder.nearestPlace` reads only the asked kinds' places (`PlacesByKind`); it must name
/// the place a scan of every place names.
struct PlacesByKindTests {
    /// The scan `nearestPlace` made before: every place, a box test, then the distance.
    static func scan(_ map: SkateMap, to c: Coordinate, radius: Double, where filter: (PlaceKind, String) -> Bool) -> String? {
        let dLat = radius / 111_000, dLon = radius / (111_000 * max(0.1, cos(c.lat * .pi / 180)))
        var best: String?, bestD = radius
        for i in 0..<map.placeCount {
            let lat = map.placeLat[i], lon = map.placeLon[i]
            guard abs(lat - c.lat) <= dLat, abs(lon - c.lon) <= dLon else { continue }
            let name = map.string(map.placeName[i])
            guard !name.isEmpty, let kind = PlaceKind(rawValue: map.placeKind[i]), filter(kind, map.string(map.placeCategory[i])) else { continue }
            let d = Geo.distance(c, Coordinate(lat: lat, lon: lon))
            if d < bestD || (d == bestD && name < (best ?? name)) { best = name; bestD = d }
        }
        return best
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func monacoNamesWhatAScanOfEveryPlaceNames() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        let planner = Planner(map: m)
        let builder = PlanBuilder(map: m, costing: planner.router(for: .smoothest).costing, knowledge: .empty)
        var rng = SplitMix64(seed: 0x91ACE)
        var named = 0, tried = 0
        // Points near places (most within the radii) and anywhere in the map's box.
        for _ in 0..<4_000 {
            let c: Coordinate
            if rng.next() % 2 == 0, m.placeCount > 0 {
                let i = Int(rng.next() % UInt64(m.placeCount))
                let jitter = { (Double(rng.next() % 2001) - 1000) / 1000 * 0.0015 }
                c = Coordinate(lat: m.placeLat[i] + jitter(), lon: m.placeLon[i] + jitter())
            } else {
                let box = m.bbox, u = Double(rng.next() % 10_001) / 10_000, v = Double(rng.next() % 10_001) / 10_000
                c = Coordinate(lat: box.minLat + u * (box.maxLat - box.minLat), lon: box.minLon + v * (box.maxLon - box.minLon))
            }
            let square: (PlaceKind, String) -> Bool = { k, _ in k == .square || k == .pedestrianArea }
            let park: (PlaceKind, String) -> Bool = { _, cat in WayDescriptionRules.parkCategories.contains(cat) }
            for (radius, kinds, filter) in [(WayDescriptionRules.squareRadius, [PlaceKind.square, .pedestrianArea], square),
                                            (WayDescriptionRules.parkRadius, [PlaceKind.leisure], park)] {
                let want = Self.scan(m, to: c, radius: radius, where: filter)
                let got = builder.nearestPlace(to: c, radius: radius, kinds: kinds, where: kinds == [.leisure] ? park : { _, _ in true })
                #expect(got == want, "\(c.lat),\(c.lon) r \(radius): \(got ?? "-") vs \(want ?? "-")")
                tried += 1
                if want != nil { named += 1 }
            }
        }
        #expect(named > 200, "named \(named) of \(tried)")
    }
}
