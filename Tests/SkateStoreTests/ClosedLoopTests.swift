import Foundation
import SkateCore
import SkateRide
import SkateStore
import SkateTestSupport
import Testing

/// The closed loop: a ride measures a street rougher than its tags say, the store keeps it, and
/// the next plan goes around — through the real ride pipeline (matcher, roughness engine, sink).
@Suite struct ClosedLoopTests {

    /// Fixes at 1 Hz and 100 Hz motion of a rider going A → B at `speed` on a surface of ISO class `road`.
    func ride(on m: AsciiMap, road: ISO8608.RoadClass, speed: Double, start: Double) -> [RideInput] {
        let (fixes, duration) = StraightRide.fixes(m.nodes["A"]!, m.nodes["B"]!, speed: speed, start: start)
        var inputs = fixes
        var vib = VibrationSynthesizer(roadClass: road, seed: 7)
        for s in vib.samples(duration: duration, speed: speed, startTime: start) { inputs.append(.motion(s)) }
        return inputs.sorted { $0.time < $1.time }
    }

    func letters(_ m: AsciiMap, _ k: RoadKnowledge) throws -> String {
        m.letters(of: try Planner(map: m.map, knowledge: k).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest).path)
    }

    @Test func aRideThatFeltCrustyMovesTheNextPlan() throws {
        let m = SquareMap.make()
        let tmp = try TempStore()
        let start = t0.timeIntervalSince1970
        #expect(try letters(m, tmp.store.loadKnowledge(for: m.map, now: t0)) == "AB")

        let planner = Planner(map: m.map)
        let plan = try planner.plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        let sink = StoreObservationSink(store: tmp.store, map: m.map)
        let session = RideSession(plan: plan, planner: planner, knowledge: .empty, clock: VirtualClock(), sink: sink)
        session.run(ride(on: m, road: ISO8608.roadClass(for: .crusty), speed: 4, start: start))
        let summary = session.finish()
        #expect(sink.recorded >= 1, "nothing measured; failures: \(sink.failures)")
        #expect((summary.metresByClass["crusty"] ?? 0) > 100, "the engine should have felt crusty: \(summary.metresByClass)")

        let k = try tmp.store.loadKnowledge(for: m.map, now: t0 + hour)
        #expect(k.observations.values.contains { $0.source == .measured && RoughnessClass(rms: $0.rms) == .crusty })
        #expect(try letters(m, k) == "ACDB")
    }

    @Test func aSmoothRideKeepsThePlan() throws {
        let m = SquareMap.make()
        let tmp = try TempStore()
        let planner = Planner(map: m.map)
        let plan = try planner.plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        let sink = StoreObservationSink(store: tmp.store, map: m.map)
        let session = RideSession(plan: plan, planner: planner, knowledge: .empty, clock: VirtualClock(), sink: sink)
        session.run(ride(on: m, road: ISO8608.roadClass(for: .butter), speed: 4, start: t0.timeIntervalSince1970))
        _ = session.finish()
        #expect(sink.recorded >= 1)
        #expect(try letters(m, tmp.store.loadKnowledge(for: m.map, now: t0 + hour)) == "AB")
    }
}
