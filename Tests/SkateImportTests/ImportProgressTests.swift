import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Synchronization
import Testing

/// An import's progress line has a percentage in every long phase (issue 27): the build reports
/// its six stages and the write the landmark tables, each rising to 100 %.
struct ImportProgressTests {
    /// The fractions one phase reported, in order.
    static func fractions(_ seen: [(String, Double?)], phase: String) -> [Double] {
        seen.filter { $0.0 == phase }.compactMap(\.1)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func buildingTheMapCountsItsStagesUpToAll() throws {
        var seen: [(String, Double?)] = []
        let request = ImportRequest(osmPath: TestData.monacoPBF, demPaths: [], options: ImportOptions(name: "Monaco"))
        _ = try MapImporter.compile(request) { phase, fraction in seen.append((phase, fraction)) }
        let building = Self.fractions(seen, phase: "building the map")
        #expect(building.count >= 7, "\(building)")
        #expect(building == building.sorted(), "not rising: \(building)")
        #expect(building.first == 0 && building.last == 1, "\(building)")
        #expect(seen.contains { $0.0.hasPrefix("reading") && $0.1 == 1 }, "the read phase reaches 100 %")
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func writingReportsTheLandmarkTablesUpToAll() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        let seen = Mutex<[Double]>([])
        _ = try MapFormat.encode(map) { f in seen.withLock { $0.append(f) } }
        let fractions = seen.withLock { $0 }
        #expect(fractions.count >= 2 * Landmarks.count, "one call per landmark run at least: \(fractions.count)")
        #expect(fractions == fractions.sorted(), "not rising: \(fractions)")
        #expect((fractions.first ?? 1) == 0 && (fractions.last ?? 0) > 0.9 && (fractions.last ?? 2) < 1, "\(fractions.prefix(3)) … \(fractions.suffix(3))")
    }
}
