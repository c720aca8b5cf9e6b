import Foundation
import SkateCore
import SkateRide
import SkateStore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// Issue 28 in the TUI: an impact felt on a replayed ride is marked on the ridden line, flashed in
/// the HUD and rings the bell; the arrival panel asks about the ride's bumps and the answer goes to
/// the store. The shipped seafront ride with a pothole written into its motion (a copy in a
/// temporary folder: the shipped files are never changed).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco), "Maps/monaco.srmap is absent"), .serialized)
struct RideImpactTests {
    static let ride = "seafront-larvotto"
    /// Metres into the ride where the pothole is (as `ImpactLoopTests`).
    static let along = 300.0
    static let size = Size(width: 120, height: 40)

    /// A copy of the shipped ride with a pothole (−0.8 g for 60 ms, then a `hit` g strike for
    /// 15 ms) `along` metres in. Returns the folder and the pothole's time from the ride start.
    static func injectedRide(hit: Double, into dir: URL) throws -> (folder: String, t: Double) {
        let src = TestData.projectRoot.appendingPathComponent("Rides/\(ride)")
        let dst = dir.appendingPathComponent(ride)
        try FileManager.default.createDirectory(at: dst, withIntermediateDirectories: true)
        for f in ["ride.gpx", "plan.json", "ride.json"] {
            try FileManager.default.copyItem(at: src.appendingPathComponent(f), to: dst.appendingPathComponent(f))
        }
        // Time at `along` metres over the fixes, leaving out the synthetic GPS outliers (> 8 m/s).
        let fixes = try RideSource.open(src.path).fixes
        var kept: [GPXFix] = [], acc = 0.0, tAt = 0.0
        for f in fixes {
            if let p = kept.last {
                let d = Geo.distance(p.coordinate, f.coordinate)
                if d > 8 * max(1, f.time! - p.time!) { continue }
                acc += d
                if acc >= along, tAt == 0 { tAt = f.time! - fixes[0].time! }
            }
            kept.append(f)
        }
        let text = try String(contentsOf: src.appendingPathComponent("motion.csv"), encoding: .utf8)
        let rate = 100.0, dt = 1 / rate
        var out: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let cols = line.split(separator: ",")
            guard cols.count == 4, let t = Double(cols[0]), var az = Double(cols[3]) else { out.append(String(line)); continue }
            az += Self.pulse(t: t, dt: dt, start: tAt - 0.06, width: 0.06, amplitude: -0.8)
            az += Self.pulse(t: t, dt: dt, start: tAt, width: 0.015, amplitude: hit)
            out.append("\(cols[0]),\(cols[1]),\(cols[2])," + String(format: "%.4f", az))
        }
        try out.joined(separator: "\n").write(to: dst.appendingPathComponent("motion.csv"), atomically: true, encoding: .utf8)
        return (dst.path, tAt)
    }

    /// A half-sine pulse's mean over the sample interval (t − dt, t]: what a sensor with an
    /// anti-alias filter reads (as the store tests' `InjectedRide`).
    static func pulse(t: Double, dt: Double, start: Double, width: Double, amplitude: Double) -> Double {
        let a = max(start, t - dt), b = min(start + width, t)
        guard b > a else { return 0 }
        let k = Double.pi / width
        return amplitude * (cos(k * (a - start)) - cos(k * (b - start))) / k / dt
    }

    struct Played {
        var app: TUIApp
        var model: AppModel
        var store: SkateStore
        var dir: URL
        /// The screen text right after the impact's frame, and a few ticks later.
        var atImpact: String
        var later: String
        /// Loop commands returned with the impact's frame.
        var commandsAtImpact: [AppCommand]
        var impactAt: Coordinate?
    }

    /// Replays the injected ride in the TUI at ×10 (0.1 s ticks) to its end, with a store.
    func play(hit: Double, label: String) throws -> Played {
        let dir = TestData.temporaryDirectory(label)
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let (folder, tImpact) = try Self.injectedRide(hit: hit, into: dir)
        let store = try SkateStore(dataDir: dir.appendingPathComponent("data"))
        let services = TUIServices(map: map, store: store, ridesDirectory: dir.path, zones: NoReportZones(map: map),
                                   now: { Date(timeIntervalSince1970: 1_777_640_000) })
        let app = TUIApp(map: map, theme: Theme(colorMode: .none, glyphMode: .unicode), services: services, rideSpeed: 10)
        var m = app.initialModel(size: Self.size)
        let started = app.perform(.startRide(.replay(path: folder, plan: nil)))
        m = app.step(m, try #require(started.first)).0
        #expect(m.screen == .ride, "\(started)")
        var atImpact = "", later = "", cmdsAt: [AppCommand] = [], ticksAfter = -1, pos: Coordinate?
        var n = 0
        while m.ride?.frame.finished != true, n < 20_000 {
            let (next, cmds) = app.step(m, .tick(0.1))
            m = next
            n += 1
            if ticksAfter < 0, let r = m.ride, r.frame.t >= tImpact, !r.impactMarks.isEmpty {
                atImpact = app.render(m).lines.joined(separator: "\n")
                cmdsAt = cmds
                pos = r.frame.impact?.position
                ticksAfter = 0
            } else if ticksAfter >= 0 {
                ticksAfter += 1
                if ticksAfter == 3 { later = app.render(m).lines.joined(separator: "\n") }
            }
        }
        return Played(app: app, model: m, store: store, dir: dir, atImpact: atImpact, later: later, commandsAtImpact: cmdsAt, impactAt: pos)
    }

    @Test func anImpactIsMarkedOnTheRiddenLineFlashedAndRingsThenTheArrivalAsks() throws {
        let p = try play(hit: 4, label: "tui-impact-yes")
        defer { try? FileManager.default.removeItem(at: p.dir) }
        // Seen at once: the HUD flash names the kind and the peak, the bell rings.
        #expect(p.atImpact.contains("× pothole "), "no flash:\n\(p.atImpact)")
        #expect(p.commandsAtImpact.contains(.bell))
        // The mark stays on the map where the impact was felt (the rider moved on), the flash goes.
        let r = try #require(p.model.ride)
        let at = try #require(p.impactAt)
        #expect(r.impactMarks.contains(at))
        let lines = p.later.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let mapArea = RideScreen.mapArea(Self.size)
        let marked = lines.enumerated().contains { y, l in
            y >= mapArea.y && y < mapArea.maxY && Array(l).prefix(mapArea.maxX).dropFirst(mapArea.x).contains("×")
        }
        #expect(marked, "no × on the ride map 3 ticks after the impact:\n\(p.later)")

        // Arrival: what it learned, and the question.
        let arrival = p.app.render(p.model).lines.joined(separator: "\n")
        #expect(arrival.contains("Learned"), "\(arrival)")
        // Bumpiness beside the road's robust roughness, the figures of the ride's own summary.
        let b = try #require(r.frame.bumpiness, "the finished frame carries no bumpiness")
        #expect(arrival.contains("Bumpiness") && arrival.contains(ArrivalPanel.bumpinessText(b, robust: r.frame.robustRMS)), "\(arrival)")
        #expect(b.rms != nil && r.frame.robustRMS != nil)
        let count = try #require(r.impactPrompt?.count)
        #expect(count >= 1 && count == r.frame.learning?.impacts)
        #expect(arrival.contains("\(count) bump\(count == 1 ? "" : "s") detected — mark as pothole?"), "\(arrival)")
        #expect(arrival.contains("y: yes, potholes"))
        let before = try p.store.hazards(now: Date(timeIntervalSince1970: 1_777_640_000))
        let detected = try #require(before.first { $0.hazard.source == .detected }, "the 4 g hit filed no detected hazard: \(before)")

        // `y`: the rider confirms it, as `hazards confirm` would.
        let (answered, _) = RouteFixture.press(p.app, [.char("y")], from: p.model)
        #expect(answered.ride?.impactPrompt?.answer == true)
        #expect(answered.toast?.text.contains("confirmed #\(detected.hazard.id)") == true, "\(answered.toast?.text ?? "no toast")")
        let after = try p.store.hazards(now: Date(timeIntervalSince1970: 1_777_640_000))
        let h = try #require(after.first { $0.hazard.id == detected.hazard.id })
        #expect(h.confidence > detected.confidence, "confirming did not raise the confidence: \(detected.confidence) → \(h.confidence)")
        #expect(p.app.render(answered).lines.joined(separator: "\n").contains("\(count) bump\(count == 1 ? "" : "s") marked as pothole"))
        // Answered once: a second key files nothing more.
        let (again, cmds) = RouteFixture.press(p.app, [.char("c")], from: answered)
        #expect(again.ride?.impactPrompt?.answer == true && cmds.isEmpty)
    }

    @Test func dismissingVotesTheDetectedHazardGone() throws {
        let p = try play(hit: 4, label: "tui-impact-no")
        defer { try? FileManager.default.removeItem(at: p.dir) }
        let now = Date(timeIntervalSince1970: 1_777_640_000)
        let detected = try #require(try p.store.hazards(now: now).first { $0.hazard.source == .detected })
        let (answered, _) = RouteFixture.press(p.app, [.char("c")], from: p.model)
        #expect(answered.ride?.impactPrompt?.answer == false)
        #expect(answered.toast?.text.contains("voted gone #\(detected.hazard.id)") == true, "\(answered.toast?.text ?? "no toast")")
        let k = try p.store.loadKnowledge(for: p.app.context.map, now: now.addingTimeInterval(60))
        #expect(!k.hazards.values.joined().contains { $0.id == detected.hazard.id }, "a dismissed detected hazard is still routed on")
        // The impact itself stays in the ride's record.
        #expect(try !p.store.allImpacts().isEmpty)
    }

    @Test func aSimulatedRideNeverAsksNorFiles() throws {
        let dir = TestData.temporaryDirectory("tui-impact-sim")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try SkateStore(dataDir: dir)
        let app = RouteFixture.app(store: store)
        var m = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter],
                                   from: app.initialModel(size: Self.size)).0
        m = RouteFixture.press(app, [.enter, .char("r")], from: m).0
        var n = 0
        while m.ride?.frame.finished != true, n < 2000 { m = app.step(m, .tick(1)).0; n += 1 }
        let r = try #require(m.ride)
        #expect(r.frame.learning?.notLearning == "simulated rider")
        #expect(r.impactPrompt == nil)
        let text = app.render(m).lines.joined(separator: "\n")
        #expect(text.contains("nothing (simulated rider)") && !text.contains("mark as pothole"), "\(text)")
        let (after, cmds) = RouteFixture.press(app, [.char("y"), .char("c")], from: m)
        #expect(cmds.isEmpty && after.ride?.impactPrompt == nil)
        #expect(try store.hazards(now: RouteFixture.now).isEmpty && store.allImpacts().isEmpty)
    }
}
