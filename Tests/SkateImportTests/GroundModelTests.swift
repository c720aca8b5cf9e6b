import SkateCore
@testable import SkateImport
import Testing

/// Ground, not roofs (issue 26 item 5): DEM posts under building outlines are re-interpolated
/// from the open posts around them, and only ever lowered.
@Suite struct GroundModelTests {
    /// 3″ posts, 30 × 30, north-up, from 43.70 N 7.40 E.
    static let step = 1.0 / 1200, side = 30
    static let geo = GridGeoreference(lon0: 7.40, lat0: 43.70 + Double(side - 1) * step, lonPerColumn: step, latPerRow: -step)

    /// An even hillside: +2 m per post eastwards, +1 m per post northwards (~2 % and ~1 %).
    static func plane(_ x: Int, _ y: Int) -> Float { Float(50 + 2 * x + (side - 1 - y)) }

    /// A rectangle of posts (x0…x1, y0…y1), their whole cells, as one building outline.
    static func block(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, height: Double = BuildingFootprints.defaultHeight) -> BuildingFootprints.Ring {
        let a = geo.location(x: Double(x0) - 0.49, y: Double(y0) - 0.49), b = geo.location(x: Double(x1) + 0.49, y: Double(y1) + 0.49)
        return .init(lats: [a.lat, a.lat, b.lat, b.lat, a.lat], lons: [a.lon, b.lon, b.lon, a.lon, a.lon], height: height)
    }

    func ground(_ values: [Float], _ rings: [BuildingFootprints.Ring]) -> (GeoGrid, CompositeDEM, GroundReport) {
        let grid = GeoGrid(path: "t.asc", width: Self.side, height: Self.side, georeference: Self.geo, values: values, nodata: nil)
        let dem = CompositeDEM(layers: [("t.asc", grid)])
        let (g, report) = GroundModel.apply(to: dem, footprints: BuildingFootprints(rings: rings), box: grid.bounds)
        return (grid, g, report)
    }

    func at(_ dem: CompositeDEM, _ x: Int, _ y: Int) -> Double {
        let p = Self.geo.location(x: Double(x), y: Double(y))
        return dem.elevation(lat: p.lat, lon: p.lon)!
    }

    @Test("a tower's roof on a hillside comes down to the slope; open posts and the hill keep their heights")
    func towerOnAHillside() {
        var v = (0..<Self.side * Self.side).map { Self.plane($0 % Self.side, $0 / Self.side) }
        // Two posts read a roof 15 m above the ground; a 3 × 3 patch of houses reads 6 m above it.
        for (x, y) in [(10, 12), (11, 12)] { v[y * Self.side + x] += 15 }
        for y in 20...22 { for x in 5...7 { v[y * Self.side + x] += 6 } }
        let (raw, g, report) = ground(v, [Self.block(10, 12, 11, 12, height: 45), Self.block(5, 20, 7, 22)])
        #expect(report.postsRoofed == 11 && report.postsLowered == 11, "\(report)")
        for (x, y) in [(10, 12), (11, 12), (6, 21), (5, 20), (7, 22)] {
            #expect(abs(at(g, x, y) - Double(Self.plane(x, y))) < 1.0, "post \(x),\(y): \(at(g, x, y)) vs ground \(Self.plane(x, y))")
        }
        // Every open post is untouched, exactly.
        for y in 0..<Self.side { for x in 0..<Self.side where !((x == 10 || x == 11) && y == 12) && !((5...7).contains(x) && (20...22).contains(y)) {
            #expect(abs(at(g, x, y) - Double(v[y * Self.side + x])) < 1e-6)
        } }
        // The naive reading (the raw DEM) has the roof.
        #expect(raw.elevation(lat: Self.geo.location(x: 10, y: 12).lat, lon: Self.geo.location(x: 10, y: 12).lon)! > Double(Self.plane(10, 12)) + 14)
        #expect(report.maxLoweredMetres > 14 && report.maxLoweredMetres < 16)
    }

    @Test("a plateau covered by houses loses its roofs, not its height (lowered by at most the mean building height)")
    func plateauKeepsItsHeight() {
        var v = (0..<Self.side * Self.side).map { Self.plane($0 % Self.side, $0 / Self.side) }
        // A 7 × 7 old town on a rock 40 m above the slope around it, under 12 m houses.
        for y in 10...16 { for x in 10...16 { v[y * Self.side + x] += 40 + 12 } }
        let (_, g, report) = ground(v, [Self.block(10, 10, 16, 16, height: 12)])
        #expect(report.postsRoofed == 49)
        for y in 10...16 { for x in 10...16 {
            let drop = Double(v[y * Self.side + x]) - at(g, x, y)
            #expect(drop >= 0 && drop <= 12 + 1e-3, "post \(x),\(y) dropped \(drop) m")
        } }
        // The centre stands on the rock: the open-post fill alone would have cut it to the slope.
        #expect(abs(at(g, 13, 13) - Double(Self.plane(13, 13) + 40)) < 1e-3)
    }

    @Test("building heights: height, then building:levels × 3 m, else the default; bad values fall back")
    func heights() {
        #expect(BuildingFootprints.height(OSMTags([("building", "yes"), ("height", "45.5")])) == 45.5)
        #expect(BuildingFootprints.height(OSMTags([("building", "yes"), ("height", "12 m")])) == 12)
        #expect(BuildingFootprints.height(OSMTags([("building", "yes"), ("building:levels", "29")])) == 87)
        #expect(BuildingFootprints.height(OSMTags([("building", "yes"), ("height", "tall"), ("building:levels", "4")])) == 12)
        #expect(BuildingFootprints.height(OSMTags([("building", "yes")])) == BuildingFootprints.defaultHeight)
        #expect(BuildingFootprints.height(OSMTags([("building", "yes"), ("height", "4500")])) == BuildingFootprints.maxHeight)
    }

    @Test("a building in a hollow is not raised (a surface model only adds height)")
    func hollowNotRaised() {
        var v = (0..<Self.side * Self.side).map { Self.plane($0 % Self.side, $0 / Self.side) }
        v[15 * Self.side + 15] -= 8
        let (_, g, report) = ground(v, [Self.block(15, 15, 15, 15)])
        #expect(report.postsRoofed == 1 && report.postsLowered == 0)
        #expect(abs(at(g, 15, 15) - Double(v[15 * Self.side + 15])) < 1e-6)
    }

    @Test("a small building covering less than the roofed share of a cell changes nothing")
    func smallBuildingIgnored() {
        let v = (0..<Self.side * Self.side).map { Self.plane($0 % Self.side, $0 / Self.side) }
        // A shed a tenth of a cell wide.
        let a = Self.geo.location(x: 8, y: 8), b = Self.geo.location(x: 8.1, y: 8.1)
        let ring = BuildingFootprints.Ring(lats: [a.lat, a.lat, b.lat, b.lat, a.lat], lons: [a.lon, b.lon, b.lon, a.lon, a.lon])
        let (_, g, report) = ground(v, [ring])
        #expect(report.postsRoofed == 0)
        #expect(g.layers.first?.source is GeoGrid, "no roofed post: the layer is left as it was")
    }

    @Test("outlines are read from building=* ways and multipolygons, not from building=no")
    func outlinesFromTags() {
        #expect(BuildingFootprints.isBuilding(OSMTags([("building", "apartments")])))
        #expect(BuildingFootprints.isBuilding(OSMTags([("building", "yes")])))
        #expect(!BuildingFootprints.isBuilding(OSMTags([("building", "no")])))
        #expect(!BuildingFootprints.isBuilding(OSMTags([("highway", "footway")])))
        let ring = Self.block(3, 3, 4, 4)
        let inside = Self.geo.location(x: 3.5, y: 3.5), outside = Self.geo.location(x: 6, y: 3.5)
        #expect(ring.contains(lat: inside.lat, lon: inside.lon) && !ring.contains(lat: outside.lat, lon: outside.lon))
    }
}
