import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Legal lines on the bundled, real Monaco map: pairs whose routes ran through Avenue d'Ostende
/// (foot=no), the Fontvieille road tunnels or Larvotto's foot=no Avenue Princesse Grace under the
/// rules before the access model now ride legal ways only; the public lift at Place des Moulins
/// is usable.
@Suite struct MonacoLegalTests {
    static let map: SkateMap? = try? MapFormat.load(path: TestData.bundledMonaco)

    /// (from, to, what the old rules rode through on the map before the terrain conditioning;
    /// with conditioned grades the old rules pick other forbidden ways on some pairs).
    static let pairs: [(Coordinate, Coordinate, String)] = [
        (Coordinate(lat: 43.72853, lon: 7.41599), Coordinate(lat: 43.73969, lon: 7.42503), "Avenue d'Ostende"),
        (Coordinate(lat: 43.72892, lon: 7.41436), Coordinate(lat: 43.74744, lon: 7.43107), "Avenue d'Ostende"),
        (Coordinate(lat: 43.73267, lon: 7.41827), Coordinate(lat: 43.74429, lon: 7.42900), "Avenue d'Ostende"),
        (Coordinate(lat: 43.73969, lon: 7.42523), Coordinate(lat: 43.72592, lon: 7.41898), "Tunnel Pont Cadre"),
        (Coordinate(lat: 43.75317, lon: 7.43955), Coordinate(lat: 43.72829, lon: 7.41206), "Tunnel du Millenium"),
        (Coordinate(lat: 43.75156, lon: 7.44183), Coordinate(lat: 43.73718, lon: 7.41725), "Avenue Princesse Grace"),  // Larvotto
    ]

    func forbiddenNames(_ p: RoutePlan, map: SkateMap) -> (metres: Double, names: Set<String>) {
        var m = 0.0, names: Set<String> = []
        for leg in p.path.legs where AccessModel.decision(of: map.flags(ofEdge: leg.edge)).accessClass == .forbidden {
            m += leg.length; names.insert(map.name(ofEdge: leg.edge))
        }
        return (m, names)
    }

    @Test func pairsThatRodeForbiddenWaysNowRideLegalOnes() throws {
        let map = try #require(Self.map, "Maps/monaco.srmap missing")
        let now = Planner(map: map)
        let before = Planner(map: map, knowledge: .empty, table: now.table, rules: .beforeAccessModel)
        // The premise: under the old rules these pairs rode forbidden ways (which ones depends on
        // the terrain's costs too, so the premise is checked over the whole set, not per pair).
        var oldCases = 0, oldNamed = 0, cases = 0
        for (a, b, through) in Self.pairs {
            for mode in [RideMode.smoothest, .fastMildRoughness] {
                let old = try before.plan(from: a, to: b, mode: mode)
                let was = forbiddenNames(old, map: map)
                cases += 1
                if was.metres > 0 { oldCases += 1 }
                if was.names.contains(through) { oldNamed += 1 }
                print("old rules \(mode) \(a)→\(b): \(Int(was.metres)) m forbidden through \(was.names.sorted())")
                let p = try now.plan(from: a, to: b, mode: mode)
                #expect(forbiddenNames(p, map: map).metres == 0, "\(mode) \(a)→\(b) still rides \(forbiddenNames(p, map: map))")
                #expect(p.legal && p.forbidden.isEmpty)
                #expect(p.distance <= old.distance * 1.5, "\(mode) \(a)→\(b): \(p.distance) m against \(old.distance) m before")
            }
        }
        #expect(oldCases * 2 >= cases, "old rules rode forbidden ways in \(oldCases) of \(cases) cases, the named one in \(oldNamed)")
    }

    @Test func thePlaceDesMoulinsLiftIsUsable() throws {
        let map = try #require(Self.map, "Maps/monaco.srmap missing")
        let lifts = (0..<map.edgeCount).filter { map.flags(ofEdge: $0).contains(.connector) && map.name(ofEdge: $0) == "Place des Moulins" }
        #expect(lifts.count == 1)
        // From the foot of the lift's underground passage up to Boulevard des Moulins.
        let p = try Planner(map: map).plan(from: Coordinate(lat: 43.74435, lon: 7.43029), to: Coordinate(lat: 43.74500, lon: 7.42926), mode: .smoothest)
        #expect(p.liftsUsed == 1)
        // The connector step names where it goes (issue 30): "Take the lift (Place des Moulins) up to …".
        #expect(p.steps.contains { $0.instruction.hasPrefix("Take the lift (Place des Moulins)") }, "\(p.steps.map(\.instruction))")
        #expect(PlanFormats.text(p, from: "a", to: "b").contains("Take the lift (Place des Moulins)"))
    }

    @Test func mapInfoReportsLengthsPerAccessClass() throws {
        let map = try #require(Self.map, "Maps/monaco.srmap missing")
        let s = MapSummary(map: map)
        #expect((s.lengthMByAccess["forbidden"] ?? 0) > 1000)
        #expect((s.lengthMByAccess["ok"] ?? 0) > (s.lengthMByAccess["penalised"] ?? 0))
        #expect((s.lengthMByAccessReason[AccessReason.footNo.explanation] ?? 0) > 0)
        #expect(s.lifts > 10 && s.escalators > 10)
        #expect(s.text().contains("by access (skater):"))
    }
}
