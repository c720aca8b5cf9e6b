import Foundation
import SkateCore
import SkateStore
import SkateTestSupport
import Testing

/// The store feeds the router: a severe fresh pothole, or a measured crusty surface, changes the
/// next plan when a reasonable alternative exists.
@Suite struct RoutingLearnsTests {

    func planLetters(_ m: AsciiMap, knowledge: RoadKnowledge) throws -> String {
        let plan = try Planner(map: m.map, knowledge: knowledge).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        return m.letters(of: plan.path)
    }

    @Test func severePotholeMovesTheRoute() throws {
        let m = SquareMap.make()
        let tmp = try TempStore()
        #expect(try planLetters(m, knowledge: tmp.store.loadKnowledge(for: m.map, now: t0)) == "AB")
        let mid = Coordinate(lat: (m.nodes["A"]!.lat + m.nodes["B"]!.lat) / 2, lon: (m.nodes["A"]!.lon + m.nodes["B"]!.lon) / 2)
        _ = try tmp.store.addHazard(HazardReport(kind: .pothole, position: mid, severity: 3, reporter: "r1"), zones: nil, now: t0)
        let k = try tmp.store.loadKnowledge(for: m.map, now: t0 + minute)
        #expect(!k.hazards.isEmpty)
        #expect(try planLetters(m, knowledge: k) == "ACDB")
        // A minor, old wet patch does not: it has expired after a day.
        let tmp2 = try TempStore()
        _ = try tmp2.store.addHazard(HazardReport(kind: .wet, position: mid, severity: 1, reporter: "r1"), zones: nil, now: t0)
        #expect(try planLetters(m, knowledge: tmp2.store.loadKnowledge(for: m.map, now: t0 + 2 * day)) == "AB")
    }

    @Test func measuredCrustyEdgeIsAvoidedNextTime() throws {
        let m = SquareMap.make()
        let tmp = try TempStore()
        let ab = try #require((0..<m.map.edgeCount).first { e in
            let a = m.node("A")!, b = m.node("B")!
            return Set([Int(m.map.edgeFrom[e]), Int(m.map.edgeTo[e])]) == Set([a, b])
        })
        // A ride measured 0.3 g on A–B several times: crusty.
        try tmp.store.recordMeasurements((0..<5).map { _ in (edge: EdgeKey(map: m.map, edge: ab), rms: 0.30) }, at: t0)
        let k = try tmp.store.loadKnowledge(for: m.map, now: t0 + hour)
        #expect(k.observations[ab]?.source == .measured)
        #expect(try planLetters(m, knowledge: k) == "ACDB")
        let plan = try Planner(map: m.map, knowledge: k).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        #expect(plan.steps.first?.context.roughnessSource == .osmSurface)
    }

    /// A store written before 706160a may hold a "measured" row learnt from walking the board up
    /// cobbles (0.007 g: the gait and sensor noise, no wheels). It is no evidence: the next plan
    /// keeps the tag's crusty (`SurfaceAging.minRollingRMS`); a rolled figure still wins.
    @Test func aWalkedMeasurementIsNoEvidence() throws {
        let m = AsciiMap("A--------B", ways: [("AB", ["highway": "residential", "surface": "cobblestone"])])
        let ab = try #require((0..<m.map.edgeCount).first { m.map.highway(ofEdge: $0) == .residential })
        let walked = 0.007
        #expect(walked < SurfaceAging.minRollingRMS)
        let tmp = try TempStore()
        try tmp.store.recordMeasurements((0..<5).map { _ in (edge: EdgeKey(map: m.map, edge: ab), rms: walked) }, at: t0)
        let k = try tmp.store.loadKnowledge(for: m.map, now: t0 + hour)
        #expect(k.observations[ab] == nil, "\(String(describing: k.observations[ab]))")
        let plan = try Planner(map: m.map, knowledge: k).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        #expect(plan.steps.first?.context.roughnessClass == .crusty, "\(plan.steps.map(\.context.roughnessClass))")
        #expect(plan.steps.first?.context.roughnessSource != .measured)
        // A figure rolled on the same cobbles (ISO class A reads ≥ 0.035 g) is still evidence.
        try tmp.store.recordMeasurements((0..<9).map { _ in (edge: EdgeKey(map: m.map, edge: ab), rms: 0.04) }, at: t0)
        #expect(try tmp.store.loadKnowledge(for: m.map, now: t0 + hour).observations[ab]?.source == .measured)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco), "Maps/monaco.srmap missing"))
    func monacoRoutesAroundASeverePothole() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let a = Coordinate(lat: 43.7485, lon: 7.4375), b = Coordinate(lat: 43.7380, lon: 7.4245)  // Larvotto → Condamine
        let before = try Planner(map: map).plan(from: a, to: b, mode: .smoothest)
        // Pothole in the middle of the longest rideable leg of the first plan.
        let leg = try #require(before.path.legs.filter { map.isRideable(edge: $0.edge) }.max { $0.length < $1.length })
        let spot = try #require(map.snapPoint(edge: leg.edge, offset: (leg.startOffset + leg.endOffset) / 2))
        let tmp = try TempStore()
        _ = try tmp.store.addHazard(HazardReport(kind: .pothole, position: spot, severity: 3, reporter: "r1"), zones: nil, now: t0)
        let k = try tmp.store.loadKnowledge(for: map, now: t0 + minute)
        let after = try Planner(map: map, knowledge: k).plan(from: a, to: b, mode: .smoothest)
        let hazardEdges = Set(k.hazards.keys)
        #expect(!hazardEdges.isEmpty)
        #expect(!after.path.legs.contains { hazardEdges.contains($0.edge) }, "the new plan still rides over the pothole")
        #expect(after.distance < before.distance * 1.5, "the detour should be reasonable: \(before.distance) → \(after.distance)")
    }
}
