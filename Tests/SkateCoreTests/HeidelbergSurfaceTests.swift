import Foundation
@testable import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Issue 26 on real Heidelberg (OSM extract + the three SRTM tiles that cover it): cobblestones
/// read crusty whatever their smoothness tag, and smoothest keeps off compacted and gravel tracks
/// when a paved line at most 1.5× as long exists.
@Suite(.serialized, .enabled(if: TestData.available, TestData.skip)) struct HeidelbergSurfaceTests {
    /// Heidelberg compiled with its DEM, once for the suite.
    static let heidelberg: SkateMap? = {
        let dem = ["N49E007", "N49E008", "N49E009"].map { TestData.path("dem/srtm3-south-west-germany/\($0).hgt.zip") }
        return try? MapImporter.compile(osmPath: TestData.heidelbergPBF, demPaths: dem, options: ImportOptions(name: "Heidelberg")).0
    }()

    /// How much longer than the planned line a paved line may be for the plan to have to take it.
    static let pavedLineRatio = 1.5

    @Test func burgwegAndNeueSchlossstrasseCobblestonesReadCrusty() throws {
        let m = try #require(Self.heidelberg)
        for street in ["Burgweg", "Neue Schlossstraße"] {
            let cobbles = (0..<m.edgeCount).filter {
                m.name(ofEdge: $0) == street && [.cobblestone, .sett].contains(m.surface(ofEdge: $0))
            }
            #expect(!cobbles.isEmpty, "no cobblestone edge named \(street)")
            for e in cobbles {
                let est = m.surfaceEstimate(ofEdge: e)
                #expect(est.roughnessClass == .crusty, "\(street) edge \(e) (\(m.surface(ofEdge: e).name), smoothness \(m.smoothness(ofEdge: e).name)) reads \(est.roughnessClass.name)")
            }
        }
    }

    /// Bismarckplatz → the castle: the long Neue Schlossstraße step reads "okay" as a whole, and
    /// names the cobblestones near its top that the path details class crusty (44 m on the
    /// extract; checked against the plan's own `roughness_class` details, read apart).
    @Test func neueSchlossstrasseStepNamesItsCobblestones() throws {
        let m = try #require(Self.heidelberg)
        let plan = try Planner(map: m).plan(from: Coordinate(lat: 49.40937, lon: 8.69317), to: Coordinate(lat: 49.41056, lon: 8.71511), mode: .smoothest)
        // Every crusty metre of the details inside a step that is not itself crusty is named by
        // that step's spans (within the 10 m the spans skip).
        let classes = plan.details["roughness_class"]
        var along = [0.0]
        for i in plan.geometry.indices.dropFirst() { along.append(along[i - 1] + Geo.distance(plan.geometry[i - 1], plan.geometry[i])) }
        var named = 0.0, detailCrusty = 0.0
        for st in plan.steps where st.maneuver != .arrive && st.context.roughnessClass != .crusty {
            let a = st.startDistance, b = a + st.context.distance
            for iv in classes where iv.value == .text("crusty") {
                detailCrusty += max(0, min(b, along[iv.to]) - max(a, along[iv.from]))
            }
            named += st.context.roughSpans.reduce(0) { $0 + $1.lengthM }
        }
        #expect(detailCrusty > 30, "the line no longer crosses the cobblestones: \(detailCrusty) m")
        #expect(abs(named - detailCrusty) < 10 * Double(max(1, plan.steps.count)) && named > 0.8 * detailCrusty, "named \(named) m of \(detailCrusty) m")
        let schloss = plan.steps.first { $0.street == "Neue Schlossstraße" }
        #expect(schloss?.context.roughSpans.contains { $0.surface == "cobblestone" && $0.lengthM >= 30 } == true,
                "\(schloss.map { "\($0.context.roughnessClass.name) \($0.context.roughSpans)" } ?? "no Neue Schlossstraße step")")
    }

    /// Tracks whose surface stops small wheels.
    static func isLooseTrack(_ m: SkateMap, _ e: Int) -> Bool {
        m.highway(ofEdge: e) == .track && [.compacted, .gravel, .fineGravel, .unpaved, .ground, .dirt].contains(m.surface(ofEdge: e))
    }

    @Test(arguments: [
        ("Kornmarkt → Schloss", Coordinate(lat: 49.4105, lon: 8.7104), Coordinate(lat: 49.4106, lon: 8.7153)),
        ("Königstuhl → Bismarckplatz", Coordinate(lat: 49.3976, lon: 8.7226), Coordinate(lat: 49.4094, lon: 8.6929)),
    ])
    func smoothestRidesNoLooseTrackWhenAPavedLineExists(label: String, from a: Coordinate, to b: Coordinate) throws {
        let m = try #require(Self.heidelberg)
        let planner = Planner(map: m)
        let plan = try planner.plan(from: a, to: b, mode: .smoothest)
        let loose = plan.path.legs.filter { Self.isLooseTrack(m, $0.edge) }.reduce(0.0) { $0 + $1.length }
        if loose == 0 { return }
        // It rode some: then no paved line (no crusty metre, nothing forbidden) may be within the ratio.
        let router = planner.router(for: .smoothest)
        var penalty: [Int: Double] = [:]
        for e in 0..<m.edgeCount where router.costing.isCrusty(edge: e) { penalty[e] = 1000 }
        let avoid = router.route(from: try router.snap(a), to: try router.snap(b), penalty: penalty, hardRule: false)
        // The snapped end edges are ridden by every line: they do not count.
        func crusty(_ p: RoutePath) -> Double { p.legs.dropFirst().dropLast().filter { router.costing.isCrusty(edge: $0.edge) }.reduce(0.0) { $0 + $1.length } }
        let paved = avoid.map { crusty($0) == 0 } ?? false
        let avoidLength = avoid?.length ?? .infinity
        print("\(label): smoothest \(Int(plan.distance)) m with \(Int(loose)) m of loose track; the line avoiding crusty edges \(Int(avoidLength)) m with \(Int(avoid.map(crusty) ?? -1)) m crusty")
        #expect(!(paved && avoidLength <= Self.pavedLineRatio * plan.distance),
                "\(label): smoothest rides \(Int(loose)) m of compacted/gravel track over \(Int(plan.distance)) m although a \(Int(avoidLength)) m paved line exists")
    }
}
