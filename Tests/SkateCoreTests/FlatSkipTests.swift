import Foundation
@testable import SkateCore
import Testing

/// The plan builder's steep-ground scans skip flat ground (issue 30, fifth round): `zones` skips
/// clean pieces with no segment steep enough for the level (`PlanBuilder.isSteepSegment`), and
/// `BrakingGrade.pieceLevels` skips samples with no sample `lineSkipDropMetres` below them within
/// the window. Both must give exactly what scanning everything gives.
@Suite struct FlatSkipTests {
    /// A random line: flat stretches with DEM-like noise, climbs, descents near and past the
    /// caution and braking rules (drops close to the skip's 1.62 m and the rules' 1.8 m and 4 m),
    /// the odd walked gap (stairs) and equal distances (a 0 m lift).
    static func profile(_ g: inout SplitMix64) -> (s: [Double], e: [Double], walked: [Bool]) {
        func u() -> Double { Double(g.next() % 1_000_000) / 1_000_000 }
        let n = 2 + Int(g.next() % 400)
        var s: [Double] = [0], e: [Double] = [120], walked: [Bool] = []
        var grade = 0.0, noise = 0.5
        for _ in 1..<n {
            if u() < 0.05 {
                let r = u()
                grade = r < 0.4 ? (u() - 0.5) * 2 : r < 0.6 ? -5.5 - u() * 1.5 : r < 0.8 ? -7 - u() * 6 : u() * 8
                noise = u() < 0.5 ? 0.2 : 1.5
            }
            let ds = u() < 0.01 ? 0 : 1 + u() * 9
            s.append(s.last! + ds)
            e.append(e.last! + (grade + (u() - 0.5) * noise * 4) / 100 * ds)
            walked.append(u() < 0.01)
        }
        return (s, e, walked)
    }

    @Test("property: zones and line levels with the flat skip equal a scan of everything (seed printed)")
    func skipEqualsFullScan() {
        let seed = UInt64(ProcessInfo.processInfo.environment["SKATEROUTE_SEED"] ?? "") ?? 20_261_127
        print("skipEqualsFullScan seed \(seed) (set SKATEROUTE_SEED to replay)")
        var g = SplitMix64(seed: seed)
        var zonesSeen = 0, steepGaps = 0
        for _ in 0..<400 {
            let (s, e, walked) = Self.profile(&g)
            let fast = PlanBuilder.brakingZones(distance: s, elevation: e, walked: walked)
            let full = PlanBuilder.brakingZones(distance: s, elevation: e, walked: walked, skipFlat: false)
            #expect(fast.map { [$0.start, $0.end, $0.gradePct, $0.minGradePct, Double($0.level.rawValue)] }
                    == full.map { [$0.start, $0.end, $0.gradePct, $0.minGradePct, Double($0.level.rawValue)] }, "seed \(seed)")
            zonesSeen += full.count
            let levels = BrakingGrade.lineLevels(distance: s, elevation: e, walked: walked)
            let all = BrakingGrade.lineLevels(distance: s, elevation: e, walked: walked, skipFlat: false)
            #expect(levels == all, "seed \(seed)")
            steepGaps += all.filter { $0 != .none }.count
        }
        // The lines hold both flat ground and steep ground (the comparison is not vacuous).
        #expect(zonesSeen > 100 && steepGaps > 1000, "seed \(seed): \(zonesSeen) zones, \(steepGaps) steep gaps")
    }

    @Test("a flat line's pieces are skipped, a steep bit at its end is still found")
    func steepBitAfterFlat() {
        var s: [Double] = [], e: [Double] = []
        for k in 0..<200 { s.append(Double(k) * 5); e.append(100 + (k % 2 == 0 ? 0.1 : -0.1)) }
        for k in 1...20 { s.append(995 + Double(k) * 5); e.append(e.last! - 0.5) }  // −10 % over 100 m
        let fast = PlanBuilder.brakingZones(distance: s, elevation: e)
        #expect(fast.count == 1 && fast.first?.level == .braking)
        #expect(fast.map(\.start) == PlanBuilder.brakingZones(distance: s, elevation: e, skipFlat: false).map(\.start))
        #expect(BrakingGrade.lineLevels(distance: s, elevation: e) == BrakingGrade.lineLevels(distance: s, elevation: e, skipFlat: false))
    }
}
