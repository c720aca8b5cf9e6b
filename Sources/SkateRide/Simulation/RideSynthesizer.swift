import FoundationEssentials
import Glibc
import SkateCore

/// What to synthesise.
public struct SynthOptions: Sendable {
    public var from: Coordinate
    public var to: Coordinate
    public var mode: RideMode
    /// Seed of every random choice (detour, speed, GPS noise, road texture): same seed, same ride.
    public var seed: UInt64
    /// Leave the route at a junction for 150–300 m, then continue to the destination.
    public var detour: Bool
    /// Ride start, seconds since 1970 (default 2026-05-01T10:00:00Z).
    public var startEpoch: Double = 1_777_629_600
    public var gps = GPSNoiseModel()
    /// Motion sampling rate in Hz.
    public var motionRate: Double = 100
    /// Seconds standing still at the destination (GPS keeps wandering: no reroute may follow).
    public var endPause: Double = 5

    public init(from: Coordinate, to: Coordinate, mode: RideMode, seed: UInt64, detour: Bool = false) {
        self.from = from; self.to = to; self.mode = mode; self.seed = seed; self.detour = detour
    }
}

/// A synthesised ride.
public struct SynthRide: Sendable {
    /// The plan the rider was given.
    public var plan: RoutePlan
    /// What the rider actually rode (the plan itself unless there is a detour).
    public var riderPlan: RoutePlan
    /// Rider-path distances (m) where the detour leaves and rejoins a planned line, if any.
    public var detour: ClosedRange<Double>?
    /// 1 Hz fixes with times (s since 1970).
    public var fixes: [GPXFix]
    /// Fixes that are deliberate outliers.
    public var outliers: Int
    /// Motion samples produced.
    public var motionSamples: Int
    /// Ride duration in seconds.
    public var duration: Double
}

/// Why a ride could not be synthesised.
public struct SynthError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Synthesises a rider following a planned route: speed from the plan's speed profile (the
/// skate speed model), pushes, 1 Hz GPS with `GPSNoiseModel` errors, and 100 Hz motion in g.
///
/// Motion: az = 1 g + board vibration from `VibrationSynthesizer` (ISO 8608 profile, board
/// filter and transmissibility documented there) whose level Gd(n0) per edge is chosen so the
/// edge's expected roughness (the router's RMS for the edge, calibrated at 4 m/s) is read back at
/// 4 m/s; the actual speed then scales it physically (RMS ∝ √v). Pushes: every 2.2–3.0 s on the
/// flat and uphill (not in braking zones or walking), a 0.35 s half-sine of 0.20 g forward (ax)
/// and 0.12 g vertical (az) — at 1–3 Hz, below the roughness band. Walking (steps, steep
/// climbs): no rolling vibration, a 1.8 Hz gait bump. Sensor noise 2 mg per axis.
public enum RideSynthesizer {
    /// Push cadence range, seconds between pushes.
    public static let pushPeriod: ClosedRange<Double> = 2.2...3.0
    /// Push impulse duration (s) and amplitudes (g).
    public static let pushDuration: Double = 0.35
    public static let pushForwardG: Double = 0.20
    public static let pushVerticalG: Double = 0.12
    /// No pushing below this grade (percent): the rider rolls downhill.
    public static let pushMinGradePct: Double = -3
    /// Accelerometer noise per axis, g.
    public static let sensorNoiseG: Double = 0.002
    /// Walking gait frequency (Hz) and vertical amplitude (g).
    public static let gaitHz: Double = 1.8
    public static let gaitG: Double = 0.15
    /// Rider's own pace relative to the speed model, drawn once per ride.
    public static let paceRange: ClosedRange<Double> = 0.92...1.08
    /// Slow speed wander: standard deviation (fraction) and correlation time (s).
    public static let wanderSigma: Double = 0.04
    public static let wanderTime: Double = 8
    /// Detour length range in metres.
    public static let detourLength: ClosedRange<Double> = 150...300
    /// Detour junction: at least this far from the start and this far before the end (m).
    public static let detourStartMin: Double = 200
    public static let detourEndMin: Double = 300
    /// A detour must take the rider at least this far from the planned route (m): beyond the
    /// off-route distance with room for GPS noise.
    public static let detourMinOffset: Double = 45

    /// Plans the route, builds the rider's path and produces fixes; motion samples go to `motion`
    /// one by one (times in seconds from the ride start).
    /// - Throws: `RoutingError` when the places cannot be routed, `SynthError` when no detour fits.
    public static func synthesize(planner: Planner, options o: SynthOptions, motion: (MotionSample) throws -> Void) throws -> SynthRide {
        var rng = SeededGenerator(seed: o.seed)
        let plan = try planner.plan(from: o.from, to: o.to, mode: o.mode)
        var riderPlan = plan
        var detour: ClosedRange<Double>?
        if o.detour {
            guard let d = detourPath(plan: plan, planner: planner, rng: &rng) else {
                throw SynthError(message: "no side street on this route allows a \(Int(detourLength.lowerBound))–\(Int(detourLength.upperBound)) m detour; choose a longer route")
            }
            let builder = PlanBuilder(map: planner.map, costing: planner.router(for: o.mode).costing, knowledge: planner.knowledge)
            // RoutePath has no public initialiser: reuse the plan's and replace its legs.
            var path = plan.path
            path.legs = d.legs
            riderPlan = builder.build(path: path, mode: o.mode)
            detour = d.start...d.end
        }
        let line = RouteLine(plan: riderPlan)
        let profile = riderPlan.profile
        let total = riderPlan.distance
        let rate = o.motionRate
        let dt = 1 / rate
        let pace = paceRange.lowerBound + (paceRange.upperBound - paceRange.lowerBound) * rng.nextUnit()
        var vib = VibrationSynthesizer(gd0: 0, seed: o.seed &+ 0x9E37_79B9, sampleRate: rate)
        let classARef = ISO8608.predictedRMS(gd0: ISO8608.RoadClass.A.gd0, speed: ISO8608.referenceSpeed, sampleRate: rate)
        var gd0Cache: [Int: Double] = [:]
        var gps = o.gps
        var gpsRng = SeededGenerator(seed: o.seed &+ 0x5151)
        var fixes: [GPXFix] = []
        var outliers = 0
        var s = 0.0, wander = 0.0
        var pi = 0  // profile pointer
        var nextPush = 0.5, pushStart = -10.0
        var i = 0
        var stoppedAt: Double?
        let walkLimit = SkatePhysics.walkSpeed + 0.05
        let wanderPhi = exp(-dt / wanderTime)
        let wanderK = wanderSigma * (1 - wanderPhi * wanderPhi).squareRoot()
        while true {
            let t = Double(i) * dt
            if let st = stoppedAt, t > st + o.endPause { break }
            // Speed from the profile at s.
            while pi + 1 < profile.count && profile[pi + 1].distance <= s { pi += 1 }
            var planned = profile.isEmpty ? SkatePhysics.pushSpeed : profile[pi].speed
            if pi + 1 < profile.count {
                let a = profile[pi], b = profile[pi + 1]
                let f = b.distance > a.distance ? (s - a.distance) / (b.distance - a.distance) : 0
                planned = a.speed + (b.speed - a.speed) * min(1, max(0, f))
            }
            let braking = pi < profile.count && profile[pi].braking
            let walking = planned <= walkLimit
            wander = wanderPhi * wander + wanderK * rng.nextGaussian()
            var v = stoppedAt == nil ? max(0.3, planned * (walking ? 1 : pace * (1 + wander))) : 0
            if !braking && !walking { v = min(v, SkatePhysics.speedCap) }
            // Fix at each whole second.
            if i % Int(rate.rounded()) == 0 {
                let here = line.coordinate(atDistance: s)
                let p = line.projection.project(here)
                let e = gps.next(dt: 1, rng: &gpsRng)
                if e.outlier { outliers += 1 }
                let c = line.projection.unproject(x: p.x + e.dx, y: p.y + e.dy)
                let elev = line.elevation(atDistance: s) + e.dz
                fixes.append(GPXFix(time: o.startEpoch + t, coordinate: c, elevation: elev))
            }
            // Motion.
            var ax = sensorNoiseG * rng.nextGaussian()
            let ay = sensorNoiseG * rng.nextGaussian()
            var az = 1 + sensorNoiseG * rng.nextGaussian()
            if v > 0 {
                if walking {
                    az += gaitG * sin(2 * Double.pi * gaitHz * t)
                } else {
                    if let e = line.edge(atDistance: s) {
                        let g: Double
                        if let c = gd0Cache[e] { g = c } else {
                            let target = Double(planner.table.rms[e])
                            g = classARef > 0 ? ISO8608.RoadClass.A.gd0 * (target / classARef) * (target / classARef) : 0
                            gd0Cache[e] = g
                        }
                        vib.gd0 = g
                    }
                    az += vib.next(speed: v)
                    let grade = line.grade(atDistance: s)
                    if t >= nextPush && !braking && grade >= pushMinGradePct {
                        pushStart = t
                        nextPush = t + pushPeriod.lowerBound + (pushPeriod.upperBound - pushPeriod.lowerBound) * rng.nextUnit()
                    }
                    let ph = t - pushStart
                    if ph >= 0 && ph < pushDuration {
                        let w = sin(Double.pi * ph / pushDuration)
                        ax += pushForwardG * w
                        az += pushVerticalG * w
                    }
                }
            }
            try motion(MotionSample(t: t, ax: ax, ay: ay, az: az))
            s += v * dt
            if s >= total && stoppedAt == nil { s = total; stoppedAt = t }
            i += 1
        }
        return SynthRide(plan: plan, riderPlan: riderPlan, detour: detour, fixes: fixes, outliers: outliers,
                         motionSamples: i, duration: Double(i) * dt)
    }

    // MARK: Detour

    /// The rider's legs with a detour: the plan up to a junction, 150–300 m of side streets away
    /// from the route, then a fresh plan to the destination that does not come back the same way.
    static func detourPath(plan: RoutePlan, planner: Planner, rng: inout SeededGenerator) -> (legs: [RouteLeg], start: Double, end: Double)? {
        let map = planner.map
        let costing = planner.router(for: plan.mode).costing
        let legs = plan.path.legs
        let routeEdges = Set(legs.map(\.edge))
        let line = RouteLine(plan: plan)
        guard let dest = plan.geometry.last, legs.count > 2 else { return nil }
        var cum: [Double] = []
        var acc = 0.0
        for l in legs { acc += l.length; cum.append(acc) }
        var candidates: [Int] = []
        for k in 0..<(legs.count - 1) {
            let l = legs[k], len = Double(map.edgeLength[l.edge])
            let atNode = l.reversed ? l.endOffset < 0.01 : l.endOffset > len - 0.01
            if atNode && cum[k] >= detourStartMin && plan.distance - cum[k] >= detourEndMin { candidates.append(k) }
        }
        // Seeded shuffle.
        for a in stride(from: candidates.count - 1, to: 0, by: -1) {
            let b = Int(rng.next() % UInt64(a + 1))
            candidates.swapAt(a, b)
        }
        func endNode(_ e: Int, _ rev: Bool) -> Int { Int(rev ? map.edgeFrom[e] : map.edgeTo[e]) }
        func heading(_ e: Int, _ rev: Bool, out: Bool) -> Double {
            out ? planner.table.headingOut(e, reversed: rev) : planner.table.headingIn(e, reversed: rev)
        }
        for k in candidates {
            let j = endNode(legs[k].edge, legs[k].reversed)
            let target = detourLength.lowerBound + (detourLength.upperBound - detourLength.lowerBound) * rng.nextUnit()
            for first in map.neighbours(of: j) {
                let e0 = Int(first >> 1), r0 = first & 1 == 1
                guard !routeEdges.contains(e0), map.isRideable(edge: e0), costing.allowed(edge: e0, reversed: r0) else { continue }
                var walk: [(Int, Bool)] = [(e0, r0)]
                var visited: Set<Int> = [e0]
                var length = Double(map.edgeLength[e0])
                var node = endNode(e0, r0)
                var ok = true
                while length < target {
                    let inH = heading(walk.last!.0, walk.last!.1, out: false)
                    var best: (Int, Bool, Double)?
                    for nb in map.neighbours(of: node) {
                        let e = Int(nb >> 1), r = nb & 1 == 1
                        guard !visited.contains(e), !routeEdges.contains(e), map.isRideable(edge: e), costing.allowed(edge: e, reversed: r) else { continue }
                        let turn = abs(Geo.turnAngle(from: inH, to: heading(e, r, out: true)))
                        if best == nil || turn < best!.2 { best = (e, r, turn) }
                    }
                    guard let b = best else { ok = false; break }
                    walk.append((b.0, b.1)); visited.insert(b.0)
                    length += Double(map.edgeLength[b.0])
                    node = endNode(b.0, b.1)
                }
                guard ok, length <= detourLength.upperBound * 1.6 else { continue }
                // Far enough from the route?
                let far = walk.contains { (e, _) in
                    let g = map.geometry(ofEdge: e)
                    return g.contains { c in Self.distance(from: c, to: line) >= detourMinOffset }
                }
                guard far else { continue }
                guard let cont = try? planner.plan(from: map.coordinate(ofNode: node), to: dest, mode: plan.mode),
                      !cont.path.legs.contains(where: { visited.contains($0.edge) }) else { continue }
                let detourLegs = walk.map { (e, r) -> RouteLeg in
                    let len = Double(map.edgeLength[e])
                    return RouteLeg(edge: e, reversed: r, startOffset: r ? len : 0, endOffset: r ? 0 : len)
                }
                return (Array(legs[0...k]) + detourLegs + cont.path.legs, cum[k], cum[k] + length)
            }
        }
        return nil
    }

    /// Distance in metres from `c` to the nearest segment of `line`.
    static func distance(from c: Coordinate, to line: RouteLine) -> Double {
        let p = line.projection.project(c)
        var best = Double.infinity
        for i in 0..<line.segmentCount {
            let d = LocalProjection.projectPoint(px: p.x, py: p.y, ax: line.ax[i], ay: line.ay[i], bx: line.bx[i], by: line.by[i]).distance
            best = min(best, d)
        }
        return best
    }
}
