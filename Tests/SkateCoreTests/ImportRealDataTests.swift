import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// The importer on the real extracts and DEM tiles in ../shared/data.
@Suite(.enabled(if: TestData.available, TestData.skip))
struct ImportRealDataTests {
    static let monaco = ImportOptions(name: "Monaco")

    @Test func pbfAndXMLGiveTheSameGraph() throws {
        let (a, sa) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [], options: Self.monaco)
        let (b, sb) = try MapImporter.compile(osmPath: TestData.monacoXMLBz2, demPaths: [], options: Self.monaco)
        #expect(sa.osmNodes == 41_530 && sb.osmNodes == 41_530)
        #expect(sa.osmWays == sb.osmWays && sa.highwayWays == 3_636 && sb.highwayWays == 3_636)
        #expect(a.nodeCount == b.nodeCount && a.edgeCount == b.edgeCount && a.placeCount == b.placeCount && a.zoneCount == b.zoneCount)
        #expect(a.edgeFrom == b.edgeFrom && a.edgeTo == b.edgeTo && a.edgeFlags == b.edgeFlags && a.edgeName == b.edgeName)
        #expect(a.nodeCount > 4_000 && a.edgeCount > 5_000)
    }

    @Test func elevationAtKnownPlaces() throws {
        let (m, _) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [TestData.monacoDEMFilled], options: Self.monaco)
        #expect(m.metadata.hasElevation)
        let dem = try DEM(paths: [TestData.monacoDEMFilled])
        // Jardin Exotique ≈ 115 m, Stade Louis II ≈ 8 m (±10 m), on the DEM and on the nearest map edge.
        for (c, expected) in [(Coordinate(lat: 43.7341, lon: 7.4149), 115.0), (Coordinate(lat: 43.7260, lon: 7.4142), 8.0)] {
            let z = try #require(dem.elevation(lat: c.lat, lon: c.lon))
            #expect(abs(z - expected) <= 10, "DEM at \(c): \(z) m, expected \(expected)")
            let snap = try #require(m.nearestEdge(to: c, maxDistance: 80))
            let prof = m.elevationProfile(ofEdge: snap.edge)
            let len = Double(m.edgeLength[snap.edge])
            let x = len > 0 ? snap.offset / len * Double(prof.count - 1) : 0
            let i = min(Int(x), prof.count - 2)
            let zEdge = Double(prof[prof.startIndex + i]) + (Double(prof[prof.startIndex + i + 1]) - Double(prof[prof.startIndex + i])) * (x - Double(i))
            #expect(abs(zEdge - expected) <= 25, "edge \(snap.edge) \(Int(snap.distance)) m away at \(zEdge) m, expected \(expected)")
        }
        // Profiles are dense enough for 30 m braking windows.
        for e in 0..<m.edgeCount where m.edgeLength[e] > 0 {
            let n = m.elevationProfile(ofEdge: e).count
            #expect(Double(m.edgeLength[e]) / Double(n - 1) <= 20.0001)
        }
    }

    @Test func voidedZipTileLeavesNoHoles() throws {
        let (m, stats) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [TestData.monacoDEMZip], options: Self.monaco)
        #expect(stats.edgesWithElevation == m.edgeCount)
        #expect(m.elevation.allSatisfy { $0.isFinite && $0 > -30 && $0 < 1200 })
        let (filled, _) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [TestData.monacoDEMFilled], options: Self.monaco)
        #expect(filled.elevation.count == m.elevation.count)
        let meanDiff = zip(filled.elevation, m.elevation).reduce(0.0) { $0 + Double(abs($1.0 - $1.1)) } / Double(max(1, m.elevation.count))
        #expect(meanDiff < 5, "mean |zip − filled| = \(meanDiff) m")
    }

    @Test func heidelbergWithoutDEM() throws {
        let (m, _) = try MapImporter.compile(osmPath: TestData.heidelbergPBF, demPaths: [], options: ImportOptions(name: "Heidelberg"))
        #expect(m.edgeCount > 50_000)
        #expect(!m.metadata.hasElevation && m.elevation.isEmpty)
        let s = MapSummary(map: m)
        #expect(s.elevation == nil)
        #expect((s.lengthMBySurface["asphalt"] ?? 0) > 100_000)
    }

    /// A map imported without a DEM has every grade 0: the plan's text, GPX and TUI must say the
    /// grades are unknown, not print "+0.0 %" and "no braking or caution zones" (a rider would read
    /// "flat"). The same trip on the map with its DEM prints grades, so the check can fail.
    @Test func planOnAMapWithoutElevationSaysGradesAreUnknown() throws {
        let (flat, _) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [], options: Self.monaco)
        let (hilly, _) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [TestData.monacoDEMZip], options: Self.monaco)
        let from = Coordinate(lat: 43.7341, lon: 7.4149), to = Coordinate(lat: 43.7260, lon: 7.4142)  // Jardin Exotique → Stade Louis II
        let unknown = try Planner(map: flat).plan(from: from, to: to, mode: .smoothest)
        let known = try Planner(map: hilly).plan(from: from, to: to, mode: .smoothest)
        #expect(!unknown.hasElevation && known.hasElevation)
        let stepLines = { (text: String) in text.split(separator: "\n").filter { $0.contains(" — ") && !$0.contains("wait and ride") } }
        let unknownText = PlanFormats.text(unknown, from: "A", to: "B"), knownText = PlanFormats.text(known, from: "A", to: "B")
        #expect(!stepLines(unknownText).isEmpty && stepLines(unknownText).allSatisfy { !$0.contains(" %") }, "\(unknownText)")
        #expect(stepLines(knownText).contains { $0.contains(" %") })
        #expect(PlanFormats.summaryLine(unknown).contains(PlanFormats.unknownTerrain))
        #expect(!PlanFormats.summaryLine(unknown).contains("zone") && !PlanFormats.summaryLine(unknown).contains("climb 0 m"))
        #expect(PlanFormats.summaryLine(known).contains("climb ") && !PlanFormats.summaryLine(known).contains(PlanFormats.unknownTerrain))
        let gpx = PlanFormats.gpx(unknown, name: "A to B")
        #expect(!gpx.contains(" %") && !gpx.contains("<ele>"), "\(gpx.prefix(600))")
    }

    @Test func badInputsAreOneLineErrorsAndLeaveNoOutput() throws {
        let dir = TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let truncated = dir.appendingPathComponent("cut.osm.pbf")
        let pbf = try Data(contentsOf: URL(fileURLWithPath: TestData.monacoPBF))
        try pbf.prefix(100_000).write(to: truncated)
        let wrongHgt = dir.appendingPathComponent("N43E007.hgt")
        try Data(repeating: 0, count: 1000).write(to: wrongHgt)
        let cases: [(String, [String])] = [
            (truncated.path, []),
            (dir.appendingPathComponent("missing.osm.pbf").path, []),
            (TestData.monacoPBF, [wrongHgt.path]),
            (TestData.monacoPBF, [dir.appendingPathComponent("N50E010.hgt").path]),
        ]
        for (osm, dem) in cases {
            do {
                _ = try MapImporter.compile(osmPath: osm, demPaths: dem, options: Self.monaco)
                Issue.record("expected an error for \(osm) \(dem)")
            } catch let e as ImportError {
                let msg = e.description
                #expect(!msg.contains("\n"))
                #expect(msg.contains(URL(fileURLWithPath: e.path).lastPathComponent))
            }
        }
    }

    @Test func demThatDoesNotCoverTheMapIsRefused() throws {
        // A tile far away (renamed so its SW corner is in the Alps' north): no edge gets elevation.
        let dir = TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let far = dir.appendingPathComponent("N50E010.hgt")
        try FileManager.default.copyItem(atPath: TestData.monacoDEMFilled, toPath: far.path)
        #expect(throws: ImportError.self) {
            _ = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [far.path], options: Self.monaco)
        }
    }
}
