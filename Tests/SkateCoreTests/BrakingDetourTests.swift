@testable import SkateCore
import SkateTestSupport
import Testing

/// The steep choice's price of a braking metre in metres of detour (`SteepLineRule
/// .brakingDetourMetres`, 1/μ: a per-plan rule, not a budget across trips): a detour worth less
/// than the braking metres it saves is ridden, a longer one is not.
@Suite struct BrakingDetourTests {
    /// A–E–F–B: 10,000 m of asphalt, flat but for E–F, 100 m at −10 % (braking), in its middle;
    /// E, F, B and D sit east of their cells (`nudge`: E at 4,950 m, F at 5,050 m, B and D at
    /// 10,000 m). A–C–D–B: a detour `north` metres up, 10,000 m across and back down, losing the
    /// same 10 m evenly (gentler than −0.1 %): 2 × `north` metres longer. Long, so that the
    /// detours stay within smoothest's cap (1.8× the fast line, here A–E–F–B).
    static func detour(north h: Double) -> AsciiMap {
        let l = 10_000.0
        return AsciiMap("""
        C-----D
        |     |
        A-E-F-B
        """, ways: [("AEFB", ["highway": "residential", "surface": "asphalt"]), ("ACDB", ["highway": "residential", "surface": "asphalt"])],
                 elevation: { x, y in
                     // y is metres north of the art's top row: A–B is the bottom row (y = −50).
                     if y < -40 { return 100 - 10 * min(max((x - (l / 2 - 50)) / 100, 0), 1) }
                     let s = x < 10 ? (y + 50) : (x > l - 10 ? h + l + (h - 50 - y) : h + x)  // along A–C–D–B
                     return 100 - 10 * s / (2 * h + l)
                 }, nudge: ["E": (4900, 0), "F": (4950, 0), "B": (9850, 0), "C": (0, -(h - 50)), "D": (9850, -(h - 50))])
    }

    /// The rule with a braking metre worth `metres` of detour (nil: the table's shares), one ×4
    /// search and two rounds, guarded.
    static func rule(_ metres: Double?) -> SteepLineRule.Values {
        SteepLineRule.Values(searchFactors: [4], lineBrakingShare: SteepLineRule.lineBrakingShare, lineCautionShare: SteepLineRule.lineCautionShare,
                             penaltyRounds: 2, brakingDetourMetres: metres, surfaceGuard: true)
    }

    static func plan(_ m: AsciiMap, _ r: SteepLineRule.Values) throws -> RoutePlan {
        try SteepLineRule.$override.withValue(r) {
            try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        }
    }

    /// A 7.3 km longer gentle line (north 3,650 m; the cap allows 8 km more). E–F (~145
    /// whole-line braking and ~85 caution metres: its windows reach past its ends) costs the
    /// search alone more than ~5 km of detour, so its own line and the ×4 search's ride E–F; the
    /// choice adds (braking + 0.3 × caution) × the price. The detour costs ≈ 850 effort s more
    /// than A–E–F–B, a braking metre at d metres of detour d × 0.3 s: at 20 m (≈ 1,020 s) the
    /// detour is bought; at 15 m (≈ 770 s) and at the table's shares (≈ 13 m, ≈ 680 s) it is not.
    /// The price, not the search, makes the choice.
    @Test func aDetourWorthLessThanTheBrakingItSavesIsRiddenALongerOneIsNot() throws {
        let m = Self.detour(north: 3650)
        let bought = try Self.plan(m, Self.rule(20))
        #expect(m.letters(of: bought.path) == "ACDB", "at 20 m a braking metre the 7.3 km detour is worth it: \(bought.distance) m")
        let kept = try Self.plan(m, Self.rule(15))
        #expect(m.letters(of: kept.path) == "AEFB", "at 15 m a braking metre it is not: \(kept.distance) m")
        let table = try Self.plan(m, Self.rule(nil))
        #expect(m.letters(of: table.path) == "AEFB", "at the table's shares it is not: \(table.distance) m")
        // E–F really brakes (else the choice had nothing to weigh).
        #expect(table.brakingZones.contains { $0.level == .braking }, "\(table.brakingZones)")
    }
}
