import Foundation
import Testing
@testable import SkateRide
import SkateCore
import SkateTestSupport

@Suite("Ride session, replay and recorder")
struct RideSessionTests {
    @Test("every shipped ride replays deterministically (same log bytes twice)",
          .enabled(if: RideFixtures.mapAvailable && RideFixtures.shippedRides.count >= 4),
          arguments: RideFixtures.shippedRides)
    func deterministic(folder: String) throws {
        let dir = TestData.temporaryDirectory("replay")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try RideFixtures.replay(folder, logDir: dir)
        let b = try RideFixtures.replay(folder, logDir: dir)
        #expect(a.log == b.log)
        #expect(a.log.count > 1000)
        #expect(a.summary.matchedFraction > 0.9)
        #expect(a.summary.distance > 200)
        if !folder.hasSuffix("detour-fontvieille") { #expect(a.summary.reroutes == 0, "\(folder) rerouted without a detour") }
    }

    @Test("the detour ride reroutes within 2 s of the first fix beyond 25 m, never within 20 m",
          .enabled(if: RideFixtures.mapAvailable && RideFixtures.shippedRides.contains { $0.hasSuffix("detour-fontvieille") }))
    func detourReroutes() throws {
        let dir = TestData.temporaryDirectory("detour")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try RideFixtures.replay(try #require(RideFixtures.shippedRides.first { $0.hasSuffix("detour-fontvieille") }), logDir: dir)
        let reroutes = r.events.compactMap { if case .reroute(let x) = $0 { return x } else { return nil } }
        let first = try #require(reroutes.first)
        #expect(first.latency <= 2.0 + 1e-9)
        #expect(first.latency >= OffRouteMonitor.confirmSeconds - 1e-9)
        for x in reroutes { #expect(x.offRouteDistance > OffRouteMonitor.backDistance, "reroute at \(x.offRouteDistance) m") }
        #expect(reroutes.count <= 2, "no reroute storm")
        // Cues continue on the new route at once.
        #expect(r.summary.cues.contains { $0.kind == .reroute })
        #expect(r.summary.cues.contains { $0.kind == .arrive })
    }

    @Test("the sacalobra GPX replays as a free ride and reports its time jump", .enabled(if: TestData.available, TestData.skip))
    func sacalobra() throws {
        let path = TestData.path("gpx/sacalobra-strava/sa_calobra_strava_2018-10-16.gpx")
        let source = try RideSource.open(path)
        #expect(source.warnings.contains { $0.contains("5395") })
        let session = RideSession(plan: nil, planner: nil)
        for w in source.warnings { session.warn(w) }
        try source.forEachInput { session.feed($0) }
        let s = session.finish()
        #expect(s.fixes == 4662)
        #expect(s.warnings.contains { $0.contains("time goes back 5395 s") || $0.contains("5395") })
        // 09:26:33 → 10:56:28 once the halves are in time order.
        #expect(abs(s.duration - 5395) < 1)
        #expect(s.distance > 15_000 && s.distance < 40_000)
        #expect(s.cues.isEmpty)
    }

    @Test("recorder: header first, sorted keys, flushed every second of ride time")
    func recorder() throws {
        let dir = TestData.temporaryDirectory("rec")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.ndjson").path
        let rec = try RideRecorder(path: path, header: RideLogHeader(rideId: "r1", map: "Monaco", mode: "smoothest", startEpoch: 1_777_629_600))
        var text = try String(contentsOfFile: path, encoding: .utf8)
        // Keys sorted: the event lines' fields, then the sample fields, map, mode…
        #expect(text.hasPrefix("{\"event_fields\":{\"alert\":["))
        #expect(text.contains("},\"fields\":[\"class\",\"edge\",\"from_node\",\"lat\",\"lon\",\"matched\",\"off\",\"offset_m\",\"rms\",\"speed\",\"stab\",\"step\",\"t\",\"to_node\",\"way\"],\"map\":\"Monaco\",\"mode\":\"smoothest\",\"ride_id\":\"r1\",\"schema\":2,\"start\":\"2026-05-01T10:00:00Z\",\"start_epoch\":1777629600,\"units\":{"))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let units = try #require(header["units"] as? [String: String])
        #expect(units["speed"] == "m/s" && units["rms"] == "g" && units["offset_m"] == "m" && units["t"] == "s")
        #expect(text.split(separator: "\n").count == 1)
        var st = RideState()
        st.position = Coordinate(lat: 43.7384, lon: 7.4246)
        st.speed = 5.2; st.rms = 0.08; st.roughnessClass = .okay; st.step = 12; st.matched = true
        st.matchedEdge = MatchedEdge(edge: 7, wayId: 4_097_656_123, fromNode: 11, toNode: 12, offset: 4.25)
        for k in 1...15 { rec.sample(t: Double(k) / 10, state: st) }
        // 1.5 s of ride time: everything up to the 1 s flush is on disk before stop.
        text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 11)
        #expect(lines[1] == "{\"class\":\"okay\",\"edge\":7,\"from_node\":11,\"lat\":43.738400,\"lon\":7.424600,\"matched\":true,\"off\":false,\"offset_m\":4.3,\"rms\":0.080,\"speed\":5.20,\"stab\":100,\"step\":12,\"t\":0.1,\"to_node\":12,\"way\":4097656123}")
        for l in lines.dropFirst() { _ = try JSONSerialization.jsonObject(with: Data(l.utf8)) }
        rec.event(.cue(Cue(t: 1.5, kind: .turn, step: 3, distance: 40, text: "Turn left in 40 m")))
        rec.stop()
        text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 17)
        #expect(text.contains("{\"distance_m\":40,\"event\":\"cue\",\"kind\":\"turn\",\"step\":3,\"t\":1.5,\"text\":\"Turn left in 40 m\"}"))
    }

    @Test("measured roughness per edge reaches the sink", .enabled(if: RideFixtures.mapAvailable && RideFixtures.shippedRides.contains { $0.hasSuffix("old-town-rocher") }))
    func sink() throws {
        let folder = try #require(RideFixtures.shippedRides.first { $0.hasSuffix("old-town-rocher") })
        let source = try RideSource.open(folder)
        let planner = try #require(RideFixtures.planner)
        let pf = try PlanFile.load(path: try #require(source.plannedRoutePath))
        let plan = try planner.plan(from: pf.from, to: pf.to, mode: pf.mode ?? .smoothest)
        let sink = CollectingObservationSink()
        let session = RideSession(plan: plan, planner: planner, sink: sink)
        try source.forEachInput { session.feed($0) }
        let s = session.finish()
        #expect(sink.observations.count >= 2)
        #expect(s.edgeObservations == sink.observations.count)
        let routeEdges = Set(plan.path.legs.map(\.edge))
        for o in sink.observations {
            #expect(routeEdges.contains(o.edge))
            #expect(o.rms.isFinite && o.rms > 0 && o.rms < 1)
            #expect(o.samples >= RoughnessEngine.robustMinimumWindows)
            #expect(o.at.timeIntervalSince1970 >= 1_777_629_600)
        }
        // The state a view renders.
        #expect(session.state.distanceLeft != nil)
        #expect(session.state.stability >= 0 && session.state.stability <= 100)
    }
}
