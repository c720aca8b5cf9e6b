import Foundation
import SkateCore
@testable import SkateRide
import SkateTestSupport
import Testing

@Suite struct AlertTests {
    static let start = Coordinate(lat: 43.73, lon: 7.42)
    /// A point `metres` due north of `start`.
    static func north(_ metres: Double) -> Coordinate { Coordinate(lat: start.lat + metres / 111_195, lon: start.lon) }

    @Test func firesOnceAtTheRadiusAheadOnly() {
        let hazard = AlertTarget(kind: .hazard, id: "hazard:1", name: "pothole", at: Self.north(500))
        let behind = AlertTarget(kind: .hazard, id: "hazard:2", name: "gravel", at: Self.north(-30))
        let place = AlertTarget(kind: .place, id: "place:1", name: "Home", at: Self.north(800))
        var e = AlertEngine(targets: [hazard, behind, place])
        var alerts: [Alert] = []
        // North at 5 m/s, 10 Hz, to 1 km, then back south over the hazard within the cooldown.
        var t = 0.0
        for k in 0...2000 {
            t = Double(k) * 0.1
            alerts += e.update(t: t, position: Self.north(Double(k) * 0.5), heading: 0)
        }
        for k in 0...1000 {
            alerts += e.update(t: t + Double(k) * 0.1, position: Self.north(1000 - Double(k) * 0.5), heading: 180)
        }
        #expect(alerts.map(\.target.id) == ["hazard:1", "place:1"], "once each; the hazard behind never rings: \(alerts.map(\.target.id))")
        let h = alerts[0]
        // Enters the 60 m circle at 440 m, i.e. t = 88 s.
        #expect(h.distance <= 60 && h.distance > 59.4, "\(h.distance)")
        #expect(abs(h.t - 88) <= 0.11, "\(h.t)")
        #expect(h.latency >= 0 && h.latency <= 0.3, "latency \(h.latency) s ≤ 300 ms")
        #expect(alerts[1].distance <= AlertKind.place.defaultRadius)
    }

    /// The update before the chord bound (every target measured every tick), kept to check the
    /// bound changes nothing.
    struct ReferenceEngine {
        var targets: [AlertTarget]
        var radius: [AlertKind: Double]
        var cooldown: Double
        var lastAlert: [String: Double] = [:]
        var armed: [String: Bool] = [:]
        var prevDistance: [String: Double] = [:]
        var prevT: Double?

        mutating func update(t: Double, position: Coordinate, heading: Double?) -> [Alert] {
            var out: [Alert] = []
            for target in targets {
                let r = radius[target.kind]!
                let d = Geo.distance(position, target.at)
                let key = target.id
                defer { prevDistance[key] = d }
                if d > r * AlertEngine.rearmFactor { armed[key] = true }
                guard d <= r, armed[key] ?? true else { continue }
                if let last = lastAlert[key], t - last < cooldown { continue }
                if target.kind == .hazard, d > 1 {
                    guard let h = heading else { continue }
                    let bearing = Geo.bearing(position, target.at)
                    var diff = abs(bearing - h).truncatingRemainder(dividingBy: 360)
                    if diff > 180 { diff = 360 - diff }
                    guard diff <= AlertEngine.aheadHalfAngle else { continue }
                }
                var crossed = t
                if let pd = prevDistance[key], let pt = prevT, pd > r, pd > d {
                    crossed = pt + (pd - r) / (pd - d) * (t - pt)
                }
                out.append(Alert(target: target, t: t, distance: d, latency: max(0, t - crossed)))
                lastAlert[key] = t
                armed[key] = false
            }
            prevT = t
            return out
        }
    }

    /// The chord bound (targets out of reach skip their haversine) raises the very alerts the
    /// plain update raises, to the bit: random rides among targets near and far, with GPS jumps
    /// that cross a radius in one step (the latency then needs the skipped previous distance),
    /// targets just at 1.5 radii, a repeated id and a target list changed mid-ride.
    @Test func chordBoundChangesNoAlert() {
        var rng = SeededGenerator(seed: 28)
        func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(rng.next() % 1_000_000) / 1_000_000 }
        var raised = 0
        for ride in 0..<20 {
            var targets: [AlertTarget] = []
            for k in 0..<40 {
                let kind = AlertKind.allCases[k % 3]
                let at = Coordinate(lat: Self.start.lat + uniform(-0.01, 0.01), lon: Self.start.lon + uniform(-0.01, 0.01))
                targets.append(AlertTarget(kind: kind, id: "\(kind.rawValue):\(k % 37)", name: "t\(k)", at: at))
            }
            // One exactly on the re-arm circle of the start, one far away.
            targets.append(AlertTarget(kind: .spot, id: "spot:edge", name: "edge", at: Self.north(AlertKind.spot.defaultRadius * AlertEngine.rearmFactor)))
            targets.append(AlertTarget(kind: .place, id: "place:far", name: "far", at: Coordinate(lat: -33.9, lon: 151.2)))
            var engine = AlertEngine(targets: targets, cooldown: 60)
            var reference = ReferenceEngine(targets: targets, radius: engine.radius, cooldown: 60)
            var p = Self.start
            var got: [Alert] = [], want: [Alert] = []
            for tick in 0..<3000 {
                let t = Double(tick) * 0.1
                if tick % 10 == 0 {
                    let jump = rng.next() % 50 == 0 ? 0.004 : 0.00005
                    p = Coordinate(lat: p.lat + uniform(-jump, jump), lon: p.lon + uniform(-jump, jump))
                }
                if ride % 4 == 1 && tick == 1500 {
                    engine.targets = Array(targets.reversed().dropFirst(5))
                    reference.targets = engine.targets
                }
                let heading: Double? = tick % 7 == 0 ? nil : uniform(0, 360)
                got += engine.update(t: t, position: p, heading: heading)
                want += reference.update(t: t, position: p, heading: heading)
            }
            #expect(got.count == want.count, "ride \(ride)")
            func key(_ a: Alert) -> String { "\(a.target.id) \(a.t.bitPattern) \(a.distance.bitPattern) \(a.latency.bitPattern)" }
            #expect(got.map(key) == want.map(key), "ride \(ride)")
            raised += want.count
        }
        #expect(raised >= 20, "\(raised) alerts in 20 rides: too few for the test to prove anything")
    }

    @Test func cooldownAndRearm() {
        let spot = AlertTarget(kind: .spot, id: "spot:A", name: "Bowl", at: Self.north(0))
        var e = AlertEngine(targets: [spot], cooldown: 100)
        var n = 0
        // In (0 m), out to 300 m, back in at t = 60 s (cooldown not over), out, back in at t = 200 s.
        for (t, d) in [(0.0, 0.0), (20, 300), (60, 10), (80, 300), (200, 10), (201, 5)] {
            n += e.update(t: t, position: Self.north(d), heading: nil).count
        }
        #expect(n == 2)
    }

    @Test func sessionReplayWithAStopPausesAndAlerts() throws {
        let dir = TestData.temporaryDirectory("alert-session")
        defer { try? FileManager.default.removeItem(at: dir) }
        let logPath = dir.appendingPathComponent("r.ndjson").path
        let rec = try RideRecorder(path: logPath, header: RideLogHeader(rideId: "stop", map: "", mode: "free", startEpoch: 0))
        let session = RideSession(plan: nil, planner: nil, clock: VirtualClock(), recorder: rec)
        session.alertEngine = AlertEngine(targets: [AlertTarget(kind: .hazard, id: "hazard:9", name: "rail", at: Self.north(800))])
        // 1 Hz fixes: 120 s at 5 m/s (600 m), a 60 s stop, 120 s on.
        var along = 0.0
        for s in 0...300 {
            let t = Double(s)
            if s > 0 && !(s > 120 && s <= 180) { along += 5 }
            session.feed(.fix(GPXFix(time: t, coordinate: Self.north(along))))
        }
        let summary = session.finish()
        let moving = try #require(summary.movingTime)
        #expect(summary.autoPauses == 1)
        #expect(abs(summary.duration - moving - 60) < 6, "moving \(moving) s of \(summary.duration) s elapsed")
        #expect(summary.text().contains("moving:"))
        #expect(session.alerts.count == 1)
        let a = try #require(session.alerts.first)
        #expect(a.distance <= 60 && a.distance > 54, "\(a.distance)")
        #expect(a.latency <= 0.3)
        let log = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(log.contains("\"event\":\"pause\"") && log.contains("\"event\":\"resume\"") && log.contains("\"event\":\"alert\""))
        // No sample lines while paused.
        let sampleTimes = log.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("{\"class\""), let r = line.range(of: "\"t\":") else { return nil }
            return Double(line[r.upperBound...].prefix { $0 != "," && $0 != "}" })
        }
        #expect(!sampleTimes.contains { $0 > 135 && $0 < 175 }, "the recording paused during the stop")
    }
}
