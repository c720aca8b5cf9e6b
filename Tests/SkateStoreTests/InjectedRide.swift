import Foundation
import SkateCore
import SkateRide
@testable import SkateStore
import SkateTestSupport

/// A shipped ride (Rides/…) with impacts written into its motion stream in code: the issue-28
/// harness. Pulses are generated as a sensor with an anti-alias filter would see them: each
/// sample holds the pulse's mean over its sampling interval, so a 50 Hz and a 100 Hz stream
/// carry the same area.
struct InjectedRide {
    let folder: String
    var fixes: [GPXFix]
    /// The fixes without GPS outliers: where the rider really was (up to the ~3 m GPS noise).
    var truthFixes: [GPXFix] = []
    /// Motion in absolute time (the fixes' time base), g.
    var motion: [MotionSample]
    let source: RideSource
    var rate: Double

    static let monaco: SkateMap? = try? MapFormat.load(path: TestData.bundledMonaco)

    /// Reads `Rides/<name>` (100 Hz), optionally averaged down to 50 Hz (pairs: the mean is the
    /// anti-alias filter a 50 Hz sensor would apply).
    init(_ name: String, rate: Double = 100) throws {
        folder = TestData.projectRoot.appendingPathComponent("Rides/\(name)").path
        source = try RideSource.open(folder)
        fixes = source.fixes
        // The truth leaves out the synthetic GPS outliers (20–40 m jumps): a fix more than 8 m/s
        // from the last kept one.
        var kept: [GPXFix] = []
        for f in fixes {
            if let p = kept.last, Geo.distance(p.coordinate, f.coordinate) > 8 * max(1, f.time! - p.time!) { continue }
            kept.append(f)
        }
        truthFixes = kept
        let t0 = fixes.first?.time ?? 0
        var m: [MotionSample] = []
        _ = try MotionReader(defaultUnits: source.motionUnits).forEachSample(path: source.motionPath!) { s in
            var x = s
            x.t += t0
            m.append(x)
        }
        if rate == 50 {
            m = stride(from: 0, to: m.count - 1, by: 2).map { i in
                MotionSample(t: m[i + 1].t, ax: (m[i].ax + m[i + 1].ax) / 2, ay: (m[i].ay + m[i + 1].ay) / 2, az: (m[i].az + m[i + 1].az) / 2)
            }
        }
        motion = m
        self.rate = rate
    }

    /// Absolute time (s) at which the rider has covered `metres` along the fixes.
    func time(atDistance metres: Double) -> Double {
        let fx = truthFixes
        var acc = 0.0
        for i in 1..<fx.count {
            let d = Geo.distance(fx[i - 1].coordinate, fx[i].coordinate)
            if acc + d >= metres, d > 0 {
                let f = (metres - acc) / d
                return fx[i - 1].time! + f * (fx[i].time! - fx[i - 1].time!)
            }
            acc += d
        }
        return fx.last!.time!
    }

    /// Where the rider was at absolute time `t`: the fixes within ±2 s averaged (takes out most
    /// of the synthetic GPS noise), interpolated in time.
    func position(at t: Double) -> Coordinate {
        let near = truthFixes.filter { abs($0.time! - t) <= 2.5 }
        guard !near.isEmpty else { return truthFixes.min { abs($0.time! - t) < abs($1.time! - t) }!.coordinate }
        return Coordinate(lat: near.map(\.coordinate.lat).reduce(0, +) / Double(near.count),
                          lon: near.map(\.coordinate.lon).reduce(0, +) / Double(near.count))
    }

    /// Adds a half-sine pulse of `amplitude` g (vertical, positive up) lasting `width` seconds from
    /// `start`, each sample holding the pulse's mean over its interval.
    mutating func pulse(at start: Double, amplitude: Double, width: Double) {
        let dt = 1 / rate
        guard let first = motion.firstIndex(where: { $0.t >= start }) else { return }
        var i = first
        while i < motion.count, motion[i].t - dt <= start + width {
            let a = max(start, motion[i].t - dt), b = min(start + width, motion[i].t)
            if b > a {
                // ∫ sin(π (x − start) / w) dx over [a, b], divided by dt.
                let k = Double.pi / width
                let area = (cos(k * (a - start)) - cos(k * (b - start))) / k
                motion[i].az += amplitude * area / dt
            }
            i += 1
        }
    }

    /// A pothole: the wheel drops (−`drop` g over 60 ms), then strikes the far edge (+`hit` g, 15 ms).
    mutating func pothole(at t: Double, hit: Double, drop: Double = 0.8) {
        pulse(at: t - 0.06, amplitude: -drop, width: 0.06)
        pulse(at: t, amplitude: hit, width: 0.015)
    }

    /// A crack or joint: one short jolt of `peak` g (10 ms), no drop.
    mutating func crack(at t: Double, peak: Double) { pulse(at: t, amplitude: peak, width: 0.01) }

    /// The ride's plan (its plan.json) on `planner`.
    func plan(_ planner: Planner) throws -> RoutePlan {
        let pf = try PlanFile.load(path: source.plannedRoutePath!)
        return try planner.plan(from: pf.from, to: pf.to, mode: pf.mode ?? .smoothest)
    }

    /// Replays the ride as `ride --learn` does (trace-matched edges, a store sink when given).
    /// - Returns: the summary and the session's events.
    func replay(map: SkateMap, knowledge: RoadKnowledge = .empty, sink: SegmentObservationSink? = nil, rideId: String = "injected",
                simulated: Bool = false, timeShift: Double = 0) throws -> (summary: RideSummary, events: [RideEvent]) {
        let planner = Planner(map: map, knowledge: knowledge)
        let plan = try plan(planner)
        let fx = fixes.map { f -> GPXFix in var g = f; g.time = f.time.map { $0 + timeShift }; return g }
        let session = RideSession(plan: plan, planner: planner, knowledge: knowledge, clock: VirtualClock(), sink: sink)
        session.rideId = rideId
        session.isSimulated = simulated
        session.traceMatch = TraceMatcher(map: map).match(fx)
        var events: [RideEvent] = []
        session.onEvent = { events.append($0) }
        let mo = timeShift == 0 ? motion : motion.map { var m = $0; m.t += timeShift; return m }
        session.run(StreamMerge.ride(fixes: fx, motion: mo))
        return (session.finish(), events)
    }
}

extension RideEvent {
    /// The impact this event carries, if it is one.
    var impact: RoughnessImpact? { if case .impact(let i) = self { return i } else { return nil } }
}
