import Foundation
import SkateCore
import SkateRide
@testable import SkateStore
import SkateTestSupport
import Testing

/// Issue 28: cobbles over part of an edge count as the stretch they cover, not as one median.
@Suite struct StretchLoopTests {
    /// Two routes of the same length from A to D: A–B–D and A–C–D, all asphalt.
    static let art = """
    A--------B
    |        |
    C--------D
    """
    static let street: [String: String] = ["highway": "residential", "surface": "asphalt"]
    static func make() -> AsciiMap { AsciiMap(art, ways: [("AB", street), ("BD", street), ("AC", street), ("CD", street)]) }

    /// 1 Hz fixes and 100 Hz motion riding from `a` to `b` at `speed`, the motion of ISO class
    /// `rough` between `cobbles` (fractions of the way) and of `smooth` elsewhere.
    func ride(_ a: Coordinate, _ b: Coordinate, speed: Double, start: Double, cobbles: ClosedRange<Double>,
              smooth: ISO8608.RoadClass, rough: ISO8608.RoadClass) -> [RideInput] {
        let (fixes, duration) = StraightRide.fixes(a, b, speed: speed, start: start)
        var inputs = fixes
        var vs = VibrationSynthesizer(roadClass: smooth, seed: 7), vr = VibrationSynthesizer(roadClass: rough, seed: 8)
        let s = vs.samples(duration: duration, speed: speed, startTime: start)
        let r = vr.samples(duration: duration, speed: speed, startTime: start)
        for (x, y) in zip(s, r) {
            let f = (x.t - start) / duration
            inputs.append(.motion(cobbles.contains(f) ? y : x))
        }
        return inputs.sorted { $0.time < $1.time }
    }

    @Test func cobblesOver44PercentOfAnEdgeReadCrustyThereAndMoveTheNextPlan() throws {
        let m = Self.make()
        let tmp = try TempStore()
        let a = m.nodes["A"]!, b = m.nodes["B"]!, c = m.nodes["C"]!, d = m.nodes["D"]!
        let planner = Planner(map: m.map)
        let before = try planner.plan(from: a, to: d, mode: .smoothest)
        let firstLetters = m.letters(of: before.path)
        // Ride the first edge of whichever way the planner took, cobbled over 44 % of it.
        let mid = firstLetters.dropFirst().first == "B" ? b : c
        let other = firstLetters.dropFirst().first == "B" ? "ACD" : "ABD"
        let legPlan = try planner.plan(from: a, to: mid, mode: .smoothest)
        let sink = StoreObservationSink(store: tmp.store, map: m.map)
        let session = RideSession(plan: legPlan, planner: planner, knowledge: .empty, clock: VirtualClock(), sink: sink)
        session.rideId = "cobbles"
        session.run(ride(a, mid, speed: 4, start: t0.timeIntervalSince1970, cobbles: 0.28...0.72,
                         smooth: ISO8608.roadClass(for: .okay), rough: ISO8608.roadClass(for: .crusty)))
        _ = session.finish()
        #expect(sink.failures.isEmpty, "\(sink.failures)")

        // The edge ridden, as the store keys it.
        let e = try #require(m.map.nearestEdge(to: Coordinate(lat: (a.lat + mid.lat) / 2, lon: (a.lon + mid.lon) / 2), maxDistance: 5) { _ in true }).edge
        let key = EdgeKey(map: m.map, edge: e)
        let length = Double(m.map.edgeLength[e])
        let figs = try tmp.store.stretches(of: key, now: t0 + hour)
        #expect(figs.count >= 7, "stretches: \(figs.map { ($0.from, $0.to, $0.observation.rms) })")
        // Offsets run from the edge's fromNode: A or the other end.
        let fromA = Geo.distance(m.map.coordinate(ofNode: Int(m.map.edgeFrom[e])), a) < 1
        for f in figs {
            let lo = fromA ? f.from / length : 1 - f.to / length, hi = fromA ? f.to / length : 1 - f.from / length
            let cls = RoughnessClass(rms: f.observation.rms)
            if lo >= 0.28 + 0.02 && hi <= 0.72 - 0.02 {
                #expect(cls == .crusty, "cobbled stretch \(f.from)–\(f.to) m reads \(cls) (\(f.observation.rms) g)")
            } else if hi <= 0.28 - 0.02 || lo >= 0.72 + 0.02 {
                #expect(cls == .okay, "smooth stretch \(f.from)–\(f.to) m reads \(cls) (\(f.observation.rms) g)")
            }
        }
        // The edge's one median alone would read okay (most of it is); the stretches make it cost its cobbles.
        let whole = try tmp.store.surface(of: key, now: t0 + hour).measured
        #expect(RoughnessClass(rms: try #require(whole).rms) != .crusty)
        let k = try tmp.store.loadKnowledge(for: m.map, now: t0 + hour)
        let eff = try #require(k.observations[e]).rms
        #expect(eff > whole!.rms * 1.5, "stretch-weighted figure \(eff) g vs median \(whole!.rms) g")
        let after = try Planner(map: m.map, knowledge: k).plan(from: a, to: d, mode: .smoothest)
        #expect(m.letters(of: after.path) == other, "the same-length smooth way should win: \(m.letters(of: after.path))")
    }

    @Test func stretchFigureCostsWhatItsStretchesCost() {
        func fig(_ a: Double, _ b: Double, _ rms: Double) -> StretchFigure {
            StretchFigure(from: a, to: b, observation: EdgeObservation(rms: rms, source: .measured, freshness: 1, count: 1))
        }
        let floor = CostingConstants.roughnessFloor
        // 20 m of 0.33 g cobbles in a 120 m edge of 0.05 g: the excess over the floor, length-weighted.
        let eff = SkateStore.stretchRMS([fig(0, 20, 0.33)], length: 120, rest: 0.05)!
        #expect(abs((eff - floor) * 120 - ((0.33 - floor) * 20 + (0.05 - floor) * 100)) < 1e-9)
        // Without the rest, the covered length alone.
        #expect(abs(SkateStore.stretchRMS([fig(0, 20, 0.33), fig(20, 40, 0.05)], length: 120, rest: nil)! - (floor + ((0.33 - floor) + (0.05 - floor)) / 2)) < 1e-9)
        #expect(SkateStore.stretchRMS([], length: 120, rest: 0.1) == nil)
    }
}
