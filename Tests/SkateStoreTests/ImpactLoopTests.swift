import Foundation
import SkateCore
import SkateRide
@testable import SkateStore
import SkateTestSupport
import Testing

/// Issue 28: a pothole felt on a ride becomes a warning on the next plan. Shipped rides with
/// impacts injected into their motion, replayed as `ride --learn` does, against a real store.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco), "Maps/monaco.srmap is absent"))
struct ImpactLoopTests {
    static let ride = "seafront-larvotto"
    /// Injected 300 m into the ride.
    static let along = 300.0

    func injected(hit: Double, rate: Double = 100) throws -> (InjectedRide, Double) {
        var r = try InjectedRide(Self.ride, rate: rate)
        let t = r.time(atDistance: Self.along)
        r.pothole(at: t, hit: hit)
        return (r, t)
    }

    /// The impact felt within 0.3 s of `t` (ride time = absolute − first input).
    func impact(near t: Double, in events: [RideEvent], ride r: InjectedRide) -> RoughnessImpact? {
        let origin = min(r.fixes.first!.time!, r.motion.first!.t)
        return events.compactMap(\.impact).first { abs($0.t - (t - origin)) <= 0.3 }
    }

    @Test func aFourGPotholeIsALiveEventStoredWhereItHappenedAndAHazardTheNextPlanReports() throws {
        let map = try #require(InjectedRide.monaco)
        let (r, t) = try injected(hit: 4)
        let truth = r.position(at: t)
        let tmp = try TempStore()
        let sink = StoreObservationSink(store: tmp.store, map: map)
        let (summary, events) = try r.replay(map: map, sink: sink, rideId: "pass-1")

        // Seen: a live impact event with a place, an edge and a kind.
        let i = try #require(impact(near: t, in: events, ride: r), "no live impact near the injected pothole: \(events.compactMap(\.impact))")
        #expect(i.peak >= 2.5, "a 4 g strike should read ≥ 2.5 g in the event band: \(i.peak)")
        #expect(i.kind == .pothole)
        #expect(i.edge != nil)
        #expect(Geo.distance(try #require(i.position), truth) <= 10)

        // Remembered: stored within 10 m of where it happened, with its ride.
        #expect(summary.impacts?.learned ?? 0 >= 1, "\(String(describing: summary.impacts))")
        let stored = try tmp.store.allImpacts()
        let near = stored.filter { Geo.distance($0.position, truth) <= 10 }
        #expect(near.count == 1, "stored impacts: \(stored.map { ($0.position, Geo.distance($0.position, truth)) })")
        #expect(near.first?.rideId == "pass-1")

        // One hit ≥ 2.5 g: a detected hazard, lightly weighted, on the edge under the truth.
        let hazards = try tmp.store.hazards(now: Date(timeIntervalSince1970: r.fixes.last!.time! + 60))
        let h = try #require(hazards.first { $0.hazard.source == .detected }, "no detected hazard: \(hazards)")
        #expect(h.hazard.kind == .pothole)
        #expect(Geo.distance(h.hazard.position, truth) <= 10)
        let now = Date(timeIntervalSince1970: r.fixes.last!.time! + 60)
        let k = try tmp.store.loadKnowledge(for: map, now: now)
        let onEdge = k.hazards.first { $0.value.contains { $0.id == h.hazard.id } }
        let edge = try #require(onEdge, "the detected hazard snapped to no edge")
        #expect(map.nearestEdge(to: truth, maxDistance: 10) { $0 == edge.key } != nil, "the hazard's edge passes far from the pothole")
        let eh = try #require(edge.value.first { $0.id == h.hazard.id })
        #expect(eh.source == "detected")
        #expect(eh.confidence < h.confidence, "an unconfirmed detected hazard weighs less than its raw confidence")

        #expect(near.first?.edge == EdgeKey(map: map, edge: edge.key), "the hazard snapped to another edge than the impact's")

        // The next plan along that street, through the spot, reports it.
        let len = Double(map.edgeLength[edge.key])
        let f0 = max(0, (eh.offset - 25) / len), f1 = min(1, (eh.offset + 25) / len)
        let plan = try Planner(map: map, knowledge: k).plan(from: MonacoKnowledgeTests.point(along: edge.key, fraction: f0, in: map),
                                                             to: MonacoKnowledgeTests.point(along: edge.key, fraction: f1, in: map), mode: .smoothest)
        let onPath = plan.path.legs.contains { $0.edge == edge.key }
        #expect(plan.steps.contains { $0.context.hazardScore > 0 },
                "the next plan does not report the detected hazard (its edge \(edge.key) on the path: \(onPath))")

        // A rider dismisses it: gone, off the next plan.
        try tmp.store.voteGone(id: h.hazard.id, reporter: "rider", now: now)
        let k2 = try tmp.store.loadKnowledge(for: map, now: now.addingTimeInterval(60))
        #expect(!k2.hazards.values.joined().contains { $0.id == h.hazard.id })
    }

    @Test func aSoftHitNeedsASecondPassAndAReplayTeachesNothingTwice() throws {
        let map = try #require(InjectedRide.monaco)
        // 1.6 g: on the re-made seafront ride the road under the spot adds ~0.7 g, so 1.8 g read 2.50 g.
        let (r, t) = try injected(hit: 1.6)
        let truth = r.position(at: t)
        let tmp = try TempStore()
        let sink = StoreObservationSink(store: tmp.store, map: map)
        let first = try r.replay(map: map, sink: sink, rideId: "pass-1")
        let i = try #require(impact(near: t, in: first.events, ride: r))
        #expect(i.peak < 2.5, "a 1.6 g strike should read under the hard-hit line: \(i.peak)")
        #expect(try tmp.store.allImpacts().contains { Geo.distance($0.position, truth) <= 10 })
        #expect(try tmp.store.hazards(now: Date(timeIntervalSince1970: r.fixes.last!.time! + 60)).isEmpty, "one soft hit filed a hazard")

        // The same recording again: already known, nothing added.
        _ = try r.replay(map: map, sink: StoreObservationSink(store: tmp.store, map: map), rideId: "pass-1")
        #expect(try tmp.store.allImpacts().count == first.summary.impacts?.learned)

        // A second pass a day later at the same spot: a detected hazard.
        let sink2 = StoreObservationSink(store: tmp.store, map: map)
        _ = try r.replay(map: map, sink: sink2, rideId: "pass-2", timeShift: 86_400)
        let hz = try tmp.store.hazards(now: Date(timeIntervalSince1970: r.fixes.last!.time! + 86_400 + 60))
        let h = try #require(hz.first { $0.hazard.source == .detected }, "two passes filed no hazard: \(String(describing: sink2.impactOutcome))")
        #expect(Geo.distance(h.hazard.position, truth) <= 10)
        #expect(h.hazard.severity == ImpactRules.detectedSeverity)
    }

    @Test func aSimulatedRideCreatesNothing() throws {
        let map = try #require(InjectedRide.monaco)
        let (r, t) = try injected(hit: 4)
        let tmp = try TempStore()
        let (summary, events) = try r.replay(map: map, sink: StoreObservationSink(store: tmp.store, map: map), rideId: "sim", simulated: true)
        #expect(impact(near: t, in: events, ride: r) != nil, "the simulated ride still shows the event live")
        #expect(summary.impacts == nil)
        #expect(try tmp.store.allImpacts().isEmpty)
        #expect(try tmp.store.hazards(now: Date(timeIntervalSince1970: r.fixes.last!.time! + 60), includeExpired: true).isEmpty)
        #expect(try tmp.store.allSurfaces(now: Date(timeIntervalSince1970: r.fixes.last!.time! + 60)).isEmpty)
    }

    // MARK: Bad input

    /// Motion damaged in three ways, each with the 4 g pothole: degraded, nothing stored.
    @Test(arguments: ["gaps", "stuck", "no_gravity"])
    func degradedMotionNeverCreatesHazards(_ damage: String) throws {
        let map = try #require(InjectedRide.monaco)
        var (r, _) = try injected(hit: 4)
        switch damage {
        case "gaps":
            // 1.5 s holes every 20 s.
            let start = r.motion[0].t
            r.motion.removeAll { ($0.t - start).truncatingRemainder(dividingBy: 20) > 18.5 }
        case "stuck":
            for k in r.motion.indices { r.motion[k].ax = 0.002; r.motion[k].ay = -0.003 }
        default:
            for k in r.motion.indices { r.motion[k].az -= 1 }
        }
        let tmp = try TempStore()
        let (summary, _) = try r.replay(map: map, sink: StoreObservationSink(store: tmp.store, map: map), rideId: "bad")
        let withheld = try #require(summary.impacts?.withheld, "\(damage): impacts were not withheld: \(String(describing: summary.impacts))")
        #expect(withheld.contains("degraded"))
        #expect(summary.text().contains("degraded"))
        #expect(try tmp.store.allImpacts().isEmpty)
        #expect(try tmp.store.hazards(now: Date(timeIntervalSince1970: r.fixes.last!.time! + 60), includeExpired: true).isEmpty)
    }

    @Test func aRattlingSensorIsNamedAndFilesNothing() throws {
        let map = try #require(InjectedRide.monaco)
        var r = try InjectedRide(Self.ride)
        let start = r.motion[0].t, end = r.motion.last!.t
        var t = start + 5
        while t < end - 1 { r.crack(at: t, peak: 3); t += 1 }
        let tmp = try TempStore()
        let (summary, _) = try r.replay(map: map, sink: StoreObservationSink(store: tmp.store, map: map), rideId: "rattle")
        #expect(summary.events > 100)
        #expect(summary.impacts?.withheld?.contains("flood") == true, "\(String(describing: summary.impacts))")
        #expect(summary.text().contains("flood"))
        #expect(try tmp.store.allImpacts().isEmpty)
        #expect(try tmp.store.hazards(now: Date(timeIntervalSince1970: end + 60), includeExpired: true).isEmpty)
    }

    @Test func manyIsolatedHitsAreCappedAndNamed() throws {
        let map = try #require(InjectedRide.monaco)
        var r = try InjectedRide(Self.ride)
        let start = r.motion[0].t, end = r.motion.last!.t
        var t = start + 10
        while t < end - 5 { r.pothole(at: t, hit: 3); t += 4 }
        let tmp = try TempStore()
        let (summary, _) = try r.replay(map: map, sink: StoreObservationSink(store: tmp.store, map: map), rideId: "many")
        let rep = try #require(summary.impacts)
        #expect(rep.withheld == nil, "\(rep)")
        #expect(rep.learned == ImpactLearning.maxLearnedPerRide)
        #expect(rep.capped > 0)
        #expect(summary.text().contains("over the cap"))
        #expect(try tmp.store.allImpacts().count == ImpactLearning.maxLearnedPerRide)
    }
}
