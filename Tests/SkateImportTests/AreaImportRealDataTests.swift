import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// `import --bbox` on the real Heidelberg extract: the Altstadt cut out while streaming plans the
/// same routes inside it as the whole extract does.
@Suite(.enabled(if: TestData.available, TestData.skip))
struct AreaImportRealDataTests {
    /// The Altstadt and Bismarckplatz with a margin (S,W,N,E), so routes between the pairs below
    /// have no reason to leave it.
    static let altstadt = BoundingBox(minLon: 8.680, minLat: 49.400, maxLon: 8.722, maxLat: 49.420)
    /// Ends well inside the box: Bismarckplatz, Universitätsplatz, Marktplatz, Karlstor, Kornmarkt, Uniplatz.
    static let pairs: [(Coordinate, Coordinate)] = [
        (Coordinate(lat: 49.4093, lon: 8.6933), Coordinate(lat: 49.4120, lon: 8.7100)),
        (Coordinate(lat: 49.4106, lon: 8.7063), Coordinate(lat: 49.4128, lon: 8.7147)),
        (Coordinate(lat: 49.4117, lon: 8.7110), Coordinate(lat: 49.4086, lon: 8.6960)),
    ]

    @Test func bboxImportPlansTheSameRoutesInsideAsTheFullImport() throws {
        let options = ImportOptions(name: "Heidelberg")
        let (full, _) = try MapImporter.compile(ImportRequest(osmPath: TestData.heidelbergPBF, options: options))
        let (cut, report) = try MapImporter.compile(ImportRequest(osmPath: TestData.heidelbergPBF, area: .box(Self.altstadt), options: options))
        #expect(cut.edgeCount > 1_000 && cut.edgeCount * 10 < full.edgeCount, "cut \(cut.edgeCount) of \(full.edgeCount) edges")
        #expect(report.nodesKept * 10 < report.nodesRead)
        for i in 0..<cut.nodeCount { #expect(Self.altstadt.contains(cut.coordinate(ofNode: i))) }
        for mode in [RideMode.smoothest, .chillFewCrossings] {
            for (a, b) in Self.pairs {
                let pf = try Planner(map: full).plan(from: a, to: b, mode: mode)
                let pc = try Planner(map: cut).plan(from: a, to: b, mode: mode)
                #expect(abs(pf.distance - pc.distance) < 0.5, "\(mode) \(a)→\(b): full \(pf.distance) m, cut \(pc.distance) m")
                #expect(pf.geometry.count == pc.geometry.count && zip(pf.geometry, pc.geometry).allSatisfy { Geo.distance($0, $1) < 0.1 },
                        "\(mode) \(a)→\(b): the geometries differ")
            }
        }
    }

    @Test func polygonImportKeepsOnlyItsArea() throws {
        let b = Self.altstadt
        let poly = try OsmosisPolygon.parse("altstadt\n1\n \(b.minLon) \(b.minLat)\n \(b.maxLon) \(b.minLat)\n \(b.maxLon) \(b.maxLat)\n \(b.minLon) \(b.maxLat)\nEND\nEND\n", path: "a.poly")
        let (byPoly, _) = try MapImporter.compile(ImportRequest(osmPath: TestData.heidelbergPBF, area: .polygon(poly), options: ImportOptions(name: "H")))
        let (byBox, _) = try MapImporter.compile(ImportRequest(osmPath: TestData.heidelbergPBF, area: .box(b), options: ImportOptions(name: "H")))
        #expect(byPoly.edgeCount == byBox.edgeCount && byPoly.nodeCount == byBox.nodeCount)
    }
}
