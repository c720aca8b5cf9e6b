import Foundation
import SkateCore
import SkateImport
import SkateRide
import SkateTestSupport
import Testing

/// The HUD's grade reads the conditioned profile: no ±30 % swings between neighbouring readings,
/// and far less wobble than the same reading taken on the raw DEM (the naive baseline).
@Suite struct HUDGradeTests {
    /// Readings this far apart (metres, about a second of riding) must not differ by
    /// `maxSwing` points or more.
    static let readingStep = 5.0, maxSwing = 30.0
    /// The conditioned grade's total variation must be at most this share of the raw DEM's.
    static let maxShareOfRawWobble = 0.6

    @Test("HUD grade along real Monaco routes: no ±30 % swings, and less wobble than the raw DEM")
    func gradeIsSteady() throws {
        guard TestData.available else { print(TestData.skipMessage); return }
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let dem = try DEM(paths: [TestData.path("dem/N43E007-monaco/N43E007.pyhgtmap.hgt")])
        let planner = Planner(map: map)
        let pairs: [(Coordinate, Coordinate)] = [
            (Coordinate(lat: 43.7341, lon: 7.4149), Coordinate(lat: 43.7260, lon: 7.4142)),
            (Coordinate(lat: 43.7396, lon: 7.4275), Coordinate(lat: 43.7310, lon: 7.4200)),
            (Coordinate(lat: 43.7485, lon: 7.4375), Coordinate(lat: 43.7380, lon: 7.4245)),
            (Coordinate(lat: 43.7440, lon: 7.4300), Coordinate(lat: 43.7280, lon: 7.4160)),
        ]
        var tvCond = 0.0, tvRaw = 0.0
        for (a, b) in pairs {
            let plan = try planner.plan(from: a, to: b, mode: .smoothest)
            let line = RouteLine(plan: plan)
            // Raw baseline: the DEM under the same geometry, read with the same ±15 m window.
            func rawGrade(_ s: Double) -> Double {
                let lo = max(0, s - RouteLine.gradeHalfWindow), hi = min(plan.distance, s + RouteLine.gradeHalfWindow)
                guard hi - lo > 1, let p = plan.geometry(from: lo, to: hi).first, let q = plan.geometry(from: lo, to: hi).last,
                      let ep = dem.elevation(lat: p.lat, lon: p.lon), let eq = dem.elevation(lat: q.lat, lon: q.lon) else { return 0 }
                return max(-30, min(30, (eq - ep) / (hi - lo) * 100))
            }
            // Stairs are walked and steep by nature, lifts are vertical: readings near them are left out.
            let stairs = plan.steps.filter { $0.context.walk || $0.context.connector != nil || $0.context.walkMetres > 0 }.map { ($0.startDistance - 2 * RouteLine.gradeHalfWindow, $0.startDistance + $0.context.distance + 2 * RouteLine.gradeHalfWindow) }
            var worst = 0.0, at = 0.0
            var prev: (Double, Double)?
            for s in stride(from: 0.0, through: plan.distance, by: Self.readingStep) {
                if stairs.contains(where: { s >= $0.0 && s <= $0.1 }) { prev = nil; continue }
                let g = line.grade(atDistance: s), r = rawGrade(s)
                if let (pg, pr) = prev {
                    if abs(g - pg) > worst { worst = abs(g - pg); at = s }
                    tvCond += abs(g - pg); tvRaw += abs(r - pr)
                }
                prev = (g, r)
            }
            print("HUD grade \(a)→\(b): largest change \(FixedDecimal.string(worst, decimals: 1)) points between readings \(Self.readingStep) m apart (at \(Int(at)) m)")
            #expect(worst < Self.maxSwing, "\(a)→\(b): grade swings \(worst) points in \(Self.readingStep) m at \(at) m")
        }
        print("HUD grade total variation: conditioned \(Int(tvCond)) points, raw DEM baseline \(Int(tvRaw)) points")
        #expect(tvCond <= Self.maxShareOfRawWobble * tvRaw)
    }
}
