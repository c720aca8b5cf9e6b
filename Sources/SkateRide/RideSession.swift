import DequeModule
import Foundation
import SkateCore

/// The ride pipeline: fixes go to the matcher, the off-route monitor and the cue engine; motion
/// goes to the roughness and smoothness engines; every 100 ms of ride time the cue engine runs
/// on dead-reckoned progress and a sample is logged. Time comes only from the inputs' timestamps
/// (ride time = input time − first input time), so a replay is deterministic and as fast as the
/// CPU allows; a `VirtualClock`, if given, is advanced along.
///
/// Memory is flat: inputs are consumed one at a time; only a few seconds of fixes and the
/// roughness windows of the edge being ridden are kept.
public final class RideSession {
    /// Ride seconds between ticks (cue checks on dead-reckoned progress, log samples): 10 Hz.
    public static let tickInterval: Double = 0.1
    /// Seconds of fixes behind the speed and heading estimate: long enough to average out
    /// correlated GPS wander (σ ≈ 4 m), short enough to follow a stop.
    public static let speedBaseline: Double = 3
    /// Default for `maxFixSpeed`: 60 km/h (16.7 m/s). No skater rides that fast on the flat (a
    /// fast downhill is ~40 km/h); a 20–40 m GPS jump between 1 Hz fixes implies 70–140 km/h,
    /// and a 300 m start-up jump far more.
    public static let defaultMaxFixSpeed: Double = 60 / 3.6
    /// Fixes closer in time than this (s) to the last good one are repeats (a file whose points
    /// all carry one timestamp): dropped and counted, never turned into an infinite speed.
    public static let minFixInterval: Double = 0.05
    /// A relocation (a run of agreeing "outliers") within this many seconds of the first fix is a
    /// start-up jump: the receiver's first fixes were the wrong ones.
    public static let startupWindow: Double = 30
    /// Consecutive "outliers" that agree with each other are a real relocation, not noise.
    public static let outlierRunLimit = 3
    /// Dead reckoning runs at most this long after a fix (s): beyond it the rider may have stopped.
    public static let maxDeadReckoning: Double = 2
    /// An input gap longer than this (s) is reported, and ticks are not generated across it.
    public static let maxTickGap: Double = 30
    /// Motion samples buffered to estimate the sampling rate before the roughness engine starts
    /// (enough to see through timestamps printed coarser than the sample interval).
    public static let rateProbeSamples = 64
    /// Free rides: fixes snap to the nearest rideable edge within this many metres for roughness.
    public static let freeRideSnapRadius: Double = 15

    // Inputs and collaborators.
    public private(set) var plan: RoutePlan?
    private let planner: Planner?
    private let knowledge: RoadKnowledge
    private let clock: SimulationClock?
    private let sink: SegmentObservationSink?
    private let recorder: RideRecorder?
    private let destination: Coordinate?

    // Engines.
    private var matcher: RouteMatcher?
    private var cues: CueEngine?
    private var monitor = OffRouteMonitor()
    private var roughness: RoughnessEngine?
    private var smoothness = SmoothnessEngine()
    private var probe: [MotionSample] = []
    private var roughnessDisabled = false
    private var quality = MotionQuality()
    private var stuckWarned = false
    private var motionDegraded = false

    /// Fixes implying more than this speed (m/s) from the last good one are dropped (unless
    /// several agree: a relocation); set before feeding. Default `defaultMaxFixSpeed`.
    public var maxFixSpeed: Double = RideSession.defaultMaxFixSpeed

    /// Alerts near hazards, saved places and spots; set before feeding (nil: none).
    public var alertEngine: AlertEngine?
    /// Every alert raised so far, in order.
    public private(set) var alerts: [Alert] = []
    /// Pauses the recording (no sample lines) while the rider stands still; moving vs elapsed time.
    public private(set) var autoPause = AutoPause()
    private var autoPauses = 0

    /// What the view renders.
    public private(set) var state = RideState()
    /// Called for every event as it happens.
    public var onEvent: ((RideEvent) -> Void)?

    // Time.
    private var origin: Double?
    private var lastInputTime = 0.0
    private var tickIndex = 0

    // Fixes.
    private var projection: LocalProjection?
    private struct FixPoint { var t: Double; var x: Double; var y: Double }
    private var recent = Deque<FixPoint>()
    private var lastGood: FixPoint?
    private var distanceAnchor: FixPoint?
    private var outlierRun = 0
    private var lastFixTime: Double?
    private var progressAtFix = 0.0

    // Edge roughness aggregation (one pass at a time).
    private var currentEdge: Int?
    private var edgeWindows: [RoughnessWindow] = []
    private var edgeEvents = 0
    private var edgePassTime = 0.0
    private var freeEdge: Int?
    private var edgeStats: [Int: EdgeRoughness] = [:]
    private var edgeOrder: [Int] = []

    // Summary accumulators.
    private var distance = 0.0
    private var maxSpeed = 0.0
    private var fixCount = 0
    private var matchedCount = 0
    private var motionCount = 0
    private var metresByClass: [RoughnessClass: Double] = [:]
    private var reroutes: [Reroute] = []
    private var cueLog: [Cue] = []
    private var warnings: [String] = []
    private var observations = 0
    private var finished = false
    private var droppedFixes = 0
    private var repeatedTimeFixes = 0
    private var gpsJumps = 0
    private var startupJumpFixes = 0
    private var acceptedFixes = 0
    private var firstFixTime: Double?
    private var roughEvents = 0


    /// - Parameters:
    ///   - plan: the route to follow, nil for a free ride.
    ///   - planner: plans reroutes (same mode) and snaps free rides; nil for a ride without a map.
    ///   - knowledge: hazards for hazard cues.
    ///   - clock: advanced to each input's ride time when it is a `VirtualClock`.
    ///   - sink: receives measured roughness per edge pass.
    ///   - recorder: the NDJSON log, already started.
    /// The HMM match of the same fixes, in feeding order (`TraceMatcher.match`): when set, measured
    /// roughness is attributed to the edges the whole trace really followed (imported rides rarely
    /// follow our plan), while cues and off-route still follow the plan.
    public var traceMatch: TraceMatchResult?
    /// Fixes fed so far (index into `traceMatch.fixes`).
    private var fixIndex = 0

    public init(plan: RoutePlan?, planner: Planner?, knowledge: RoadKnowledge = .empty, clock: SimulationClock? = nil,
                sink: SegmentObservationSink? = nil, recorder: RideRecorder? = nil) {
        self.plan = plan
        self.planner = planner
        self.knowledge = knowledge
        self.clock = clock
        self.sink = sink
        self.recorder = recorder
        destination = plan?.geometry.last
        if let p = plan { install(p) }
    }

    private func install(_ p: RoutePlan) {
        plan = p
        matcher = RouteMatcher(plan: p)
        cues = CueEngine(plan: p, hazards: RouteLine.hazardPositions(plan: p, knowledge: knowledge))
        progressAtFix = 0
    }

    private func emit(_ e: RideEvent) {
        if case .cue(let c) = e { cueLog.append(c); state.lastCue = c }
        if case .warning(_, let m) = e { warnings.append(m) }
        recorder?.event(e)
        onEvent?(e)
    }

    /// Adds a warning that came from reading the input (time jumps, repaired points).
    public func warn(_ message: String) { emit(.warning(t: state.t, message: message)) }

    // MARK: Input

    /// Feeds one input; inputs must come in time order (later ones earlier than the last are skipped).
    public func feed(_ input: RideInput) {
        guard !finished else { return }
        let abs = input.time
        guard abs.isFinite else { return }
        if origin == nil { origin = abs }
        let t = abs - origin!
        if t < lastInputTime - 1e-9 { return }
        if t - lastInputTime > Self.maxTickGap {
            emit(.gap(t: lastInputTime, seconds: t - lastInputTime))
            tickIndex = Int((t / Self.tickInterval).rounded(.up))
        }
        while Double(tickIndex) * Self.tickInterval <= t + 1e-9 {
            tick(Double(tickIndex) * Self.tickInterval)
            tickIndex += 1
        }
        lastInputTime = t
        state.t = t
        if let c = clock as? VirtualClock { c.advance(to: t) }
        switch input {
        case .fix(let f): fix(f, t: t)
        case .motion(let m): motion(m, t: t)
        }
    }

    /// Feeds a whole sequence (e.g. a `StreamMerge`).
    public func run<S: Sequence>(_ inputs: S) where S.Element == RideInput {
        for i in inputs { feed(i) }
    }

    // MARK: Ticks

    private func tick(_ t: Double) {
        state.t = t
        if var c = cues, let last = lastFixTime, !monitor.isOffRoute, state.matched {
            let dt = min(Self.maxDeadReckoning, max(0, t - last))
            let s = progressAtFix + state.speed * dt
            for cue in c.update(progress: s, speed: state.speed, time: t) { emit(.cue(cue)) }
            cues = c
        }
        if let p = state.position {
            if let change = autoPause.update(t: t, speed: state.speed, rms: state.rms) {
                if case .paused = change { autoPauses += 1 }
                recorder?.motionChange(change)
            }
            if var a = alertEngine {
                for alert in a.update(t: t, position: p, heading: state.heading) {
                    alerts.append(alert)
                    recorder?.alert(alert)
                }
                alertEngine = a
            }
        }
        if !autoPause.paused { recorder?.sample(t: t, state: state) }
    }

    // MARK: Fixes

    private func fix(_ f: GPXFix, t: Double) {
        defer { fixIndex += 1 }
        fixCount += 1
        let proj = projection ?? LocalProjection(origin: f.coordinate)
        projection = proj
        let p = proj.project(f.coordinate)
        let here = FixPoint(t: t, x: p.x, y: p.y)
        state.position = f.coordinate

        if firstFixTime == nil { firstFixTime = t }
        // Repeated times: a fix (nearly) at the same time as the last good one says nothing new.
        if let g = lastGood, t - g.t < Self.minFixInterval {
            droppedFixes += 1
            repeatedTimeFixes += 1
            lastFixTime = t
            return
        }
        // Outliers: an implausible jump from the last good fix, unless several agree.
        var outlier = false
        var relocated = false
        if let g = lastGood {
            let dt = t - g.t
            let d = hypot(here.x - g.x, here.y - g.y)
            if d / dt > maxFixSpeed {
                if outlierRun + 1 < Self.outlierRunLimit {
                    outlier = true
                    outlierRun += 1
                } else {
                    // Several fixes agree on the new place: a relocation. The jump itself is not
                    // ridden distance and no speed may be taken across it.
                    relocated = true
                    outlierRun = 0
                }
            } else {
                outlierRun = 0
            }
        }
        if outlier { droppedFixes += 1 }
        if relocated {
            gpsJumps += 1
            let jump = lastGood.map { hypot(here.x - $0.x, here.y - $0.y) } ?? 0
            let startup = t - (firstFixTime ?? t) <= Self.startupWindow
            if startup {
                // The first fixes were the wrong ones: forget what they added.
                startupJumpFixes += 1
                droppedFixes += acceptedFixes
                distance = 0
                metresByClass = [:]
                maxSpeed = 0
            }
            recent.removeAll()
            distanceAnchor = nil
            lastGood = nil
            state.speed = 0
            state.heading = nil
            emit(.warning(t: t, message: String(format: "GPS %@ of %.0f m at %.1f s: %d fixes agree on the new position; %d dropped, no distance or speed taken across it", startup ? "start-up jump" : "jump", jump, t, Self.outlierRunLimit, Self.outlierRunLimit - 1)))
        }
        if !outlier {
            acceptedFixes += 1
            // Distance over anchors ≥ speedBaseline apart: fix-to-fix sums would add the GPS wander.
            if let a = distanceAnchor {
                let d = hypot(here.x - a.x, here.y - a.y)
                if t - a.t >= Self.speedBaseline - 1e-9 { distance += d; addClassMetres(d); distanceAnchor = here }
            } else {
                distanceAnchor = here
            }
            lastGood = here
            recent.append(here)
            while let first = recent.first, t - first.t > Self.speedBaseline + 1e-9, recent.count > 2 { recent.removeFirst() }
            if let first = recent.first, t - first.t > 0.5 {
                let d = hypot(here.x - first.x, here.y - first.y)
                state.speed = d / (t - first.t)
                state.heading = d >= RouteMatcher.minHeadingMove ? Geo.bearing(proj.unproject(x: first.x, y: first.y), f.coordinate) : nil
                if t - first.t >= Self.speedBaseline - 0.5 { maxSpeed = max(maxSpeed, state.speed) }
            }
        }

        if matcher != nil {
            // An outlier would drag progress or count toward off route: it matches nothing.
            if outlier { state.matched = false } else { followPlan(f.coordinate, t: t) }
            // Roughness goes to the edges the whole trace followed, when the caller matched it.
            if let tm = traceMatch, fixIndex < tm.fixes.count, let pl = planner {
                let snap = tm.fixes[fixIndex].snap.flatMap { pl.map.isRideable(edge: $0.edge) ? $0 : nil }
                switchEdge(to: snap?.edge, t: t, offset: snap?.offset)
            }
        } else if let pl = planner {
            // Free ride: the whole-trace HMM match when the caller computed one (imported rides),
            // else the nearest rideable edge.
            let snap: EdgeSnap?
            if let tm = traceMatch, fixIndex < tm.fixes.count {
                snap = tm.fixes[fixIndex].snap.flatMap { pl.map.isRideable(edge: $0.edge) ? $0 : nil }
            } else {
                snap = pl.map.nearestEdge(to: f.coordinate, maxDistance: Self.freeRideSnapRadius) { pl.map.isRideable(edge: $0) }
            }
            switchEdge(to: outlier ? nil : snap?.edge, t: t, offset: snap?.offset)
        }
        lastFixTime = t
    }

    private func followPlan(_ c: Coordinate, t: Double) {
        guard var m = matcher else { return }
        var r = m.match(c, time: t, heading: state.heading)
        matcher = m
        switch monitor.update(distance: r.distanceToRoute, time: t, speed: state.speed) {
        case .wentOff:
            emit(.cue(Cue(t: t, kind: .offRoute, step: r.stepIndex ?? -1, distance: r.distanceToRoute,
                          text: String(format: "Off route (%.0f m away)", r.distanceToRoute))))
        case .backOn: emit(.backOnRoute(t: t))
        case .none: break
        }
        if monitor.mayReroute(at: t), let since = monitor.runStart {
            if let rr = reroute(from: c, t: t, since: since, offBy: r.distanceToRoute), var m2 = matcher {
                reroutes.append(rr)
                r = m2.match(c, time: t, heading: state.heading)
                matcher = m2
            }
        }
        if r.matched { matchedCount += 1 }
        state.matched = r.matched
        state.step = r.stepIndex
        state.distanceAlong = r.distanceAlong
        state.distanceToRoute = r.distanceToRoute
        state.offRoute = monitor.isOffRoute
        progressAtFix = r.distanceAlong
        if let p = plan, let line = matcher?.line {
            state.distanceLeft = max(0, p.distance - r.distanceAlong)
            state.eta = t + max(0, line.plannedSeconds(atDistance: p.distance) - line.plannedSeconds(atDistance: r.distanceAlong))
            state.grade = line.grade(atDistance: r.distanceAlong)
        }
        if traceMatch == nil {
            let on = r.matched && !monitor.isOffRoute
            let eo = on ? matcher?.line.edgeOffset(atDistance: r.distanceAlong) : nil
            switchEdge(to: on ? r.edge : nil, t: t, offset: eo?.edge == r.edge ? eo?.offset : nil)
        }
        if r.matched, !monitor.isOffRoute, var ce = cues {
            for cue in ce.update(progress: r.distanceAlong, speed: state.speed, time: t) { emit(.cue(cue)) }
            cues = ce
        }
    }

    private func reroute(from c: Coordinate, t: Double, since: Double, offBy: Double) -> Reroute? {
        guard let pl = planner, let dest = destination, let mode = plan?.mode else { return nil }
        do {
            var newPlan = try pl.plan(from: c, to: dest, mode: mode)
            if let h = state.heading, Self.startsBackwards(newPlan, heading: h),
               let forward = forwardPlan(from: c, heading: h, to: dest, mode: mode, planner: pl),
               forward.distance <= newPlan.distance + Self.forwardRerouteSlack {
                newPlan = forward
            }
            monitor.didReroute(at: t)
            install(newPlan)
            let rr = Reroute(t: t, since: since, latency: t - since, from: c, distance: newPlan.distance, offRouteDistance: offBy)
            emit(.reroute(rr))
            let first = newPlan.steps.first { $0.index > 0 && $0.maneuver.isTurn }?.instruction ?? newPlan.steps.first?.instruction ?? ""
            emit(.cue(Cue(t: t, kind: .reroute, step: 0, distance: 0,
                          text: String(format: "New route: %.0f m", newPlan.distance) + (first.isEmpty ? "" : ", first: \(first)"))))
            return rr
        } catch {
            monitor.didReroute(at: t)  // cool down before trying again
            emit(.warning(t: t, message: "reroute failed: \(error)"))
            return nil
        }
    }

    /// A reroute may ride on in the direction of travel for up to this many extra metres rather
    /// than ask for a U-turn (riders turning around mid-street is the worse cue).
    public static let forwardRerouteSlack: Double = 600
    /// A new plan whose first metres bear more than this (degrees) from the rider's heading turns them round.
    public static let backwardsAngle: Double = 120
    /// Cost multiplier on the edge being ridden when looking for a route that carries on forward.
    static let backtrackPenalty: Double = 50
    /// Metres of a new plan used to judge its starting direction.
    static let startDirectionLength: Double = 15

    static func startsBackwards(_ plan: RoutePlan, heading: Double) -> Bool {
        guard let a = plan.geometry.first else { return false }
        guard let b = plan.geometry.first(where: { Geo.distance(a, $0) >= startDirectionLength }) ?? plan.geometry.last,
              Geo.distance(a, b) > 1 else { return false }
        return abs(Geo.turnAngle(from: heading, to: Geo.bearing(a, b))) > backwardsAngle
    }

    /// A plan that starts along the rider's heading: on along the nearest edge to its end ahead, then
    /// the best route from there.
    private func forwardPlan(from c: Coordinate, heading: Double, to dest: Coordinate, mode: RideMode, planner pl: Planner) -> RoutePlan? {
        let router = pl.router(for: mode)
        guard let snap = try? router.snap(c) else { return nil }
        let map = pl.map, e = snap.edge
        let len = Double(map.edgeLength[e])
        let fwdBearing = pl.table.headingOut(e, reversed: false)
        let reversed = abs(Geo.turnAngle(from: heading, to: fwdBearing)) > 90
        guard router.costing.allowed(edge: e, reversed: reversed) else { return nil }
        let node = Int(reversed ? map.edgeFrom[e] : map.edgeTo[e])
        guard let target = try? router.snap(dest) else { return nil }
        // Leave the node by any other edge (the one ridden is penalised so the route does not come back on it).
        var best: RoutePath?
        for nb in map.neighbours(of: node) {
            let e2 = Int(nb >> 1), r2 = nb & 1 == 1
            guard e2 != e, router.costing.allowed(edge: e2, reversed: r2),
                  let start = map.snap(map.coordinate(ofNode: node), toEdge: e2),
                  let p = router.bestRoute(from: start, to: target, penalty: [e: Self.backtrackPenalty]) else { continue }
            if best == nil || p.cost < best!.cost { best = p }
        }
        guard var path = best else { return nil }
        let lead = RouteLeg(edge: e, reversed: reversed, startOffset: snap.offset, endOffset: reversed ? 0 : len)
        path.legs = (lead.length > 0.5 ? [lead] : []) + path.legs
        let built = PlanBuilder(map: map, costing: router.costing, knowledge: knowledge).build(path: path, mode: mode)
        return Self.startsBackwards(built, heading: heading) ? nil : built
    }

    // MARK: Motion

    private func motion(_ m: MotionSample, t: Double) {
        motionCount += 1
        quality.push(m)
        if quality.isStuckNow != motionDegraded {
            motionDegraded = quality.isStuckNow
            if motionDegraded && !stuckWarned {
                stuckWarned = true
                emit(.warning(t: t, message: "motion: low_effective_rate: the stream repeats its values (stuck or sample-and-hold) and cannot carry the roughness band; its roughness is not trusted and not recorded"))
            }
            if motionDegraded { state.rms = nil; state.roughnessClass = nil }
        }
        guard !roughnessDisabled else { return }
        if roughness == nil {
            probe.append(m)
            guard probe.count >= Self.rateProbeSamples else { return }
            do {
                roughness = try RoughnessEngine(sampleRate: RoughnessEngine.estimateRate(probe))
            } catch {
                roughnessDisabled = true
                emit(.warning(t: t, message: "motion: \(error)"))
                probe = []
                return
            }
            let buffered = probe
            probe = []
            for s in buffered { push(s) }
            return
        }
        push(m)
    }

    @inline(__always) private func push(_ m: MotionSample) {
        guard let w = roughness!.push(m) else { return }
        take(w)
    }

    private func take(_ raw: RoughnessWindow) {
        // Degraded stretches (stuck stream) are no evidence: neither smooth nor rough.
        guard !motionDegraded else { return }
        let w = raw.normalised(speed: state.speed)
        if let e = w.event {
            roughEvents += 1
            if currentEdge != nil { edgeEvents += 1 }
            recorder?.roughnessEvent(e, t: e.t - (origin ?? 0), position: state.position, edge: state.matchedEdge)
        }
        smoothness.push(w)
        state.stability = smoothness.stability
        if !w.isImpact {
            state.rms = w.rms
            state.roughnessClass = w.roughnessClass
        }
        if currentEdge != nil { edgeWindows.append(w) }
    }

    // MARK: Edges and classes

    private func switchEdge(to e: Int?, t: Double, offset: Double? = nil) {
        if let e, let map = planner?.map {
            state.matchedEdge = MatchedEdge(map: map, edge: e, offset: offset ?? state.matchedEdge.flatMap { $0.edge == e ? $0.offset : nil } ?? 0)
        } else {
            state.matchedEdge = nil
        }
        guard e != currentEdge else { return }
        flushEdge(t: t)
        currentEdge = e
        edgePassTime = t
    }

    private func flushEdge(t: Double) {
        defer { edgeWindows.removeAll(keepingCapacity: true); edgeEvents = 0 }
        guard let e = currentEdge else { return }
        let rms = RoughnessEngine.robustRMS(for: edgeWindows)
        let clean = edgeWindows.reduce(0) { $0 + ($1.isImpact ? 0 : 1) }
        if rms != nil || edgeEvents > 0 {
            if edgeStats[e] == nil { edgeOrder.append(e) }
            var st = edgeStats[e] ?? EdgeRoughness(edge: e)
            if let map = planner?.map {
                let ref = MatchedEdge(map: map, edge: e, offset: 0)
                st.wayId = ref.wayId; st.fromNode = ref.fromNode; st.toNode = ref.toNode
            }
            st.passes += 1
            st.events += edgeEvents
            st.windows += clean
            if let r = rms { st.passRMS.append(r) }
            edgeStats[e] = st
            recorder?.edgePass(st, rms: rms, windows: clean, events: edgeEvents, t: t, since: edgePassTime)
        }
        guard let rms else { return }
        observations += 1
        sink?.record(edge: e, rms: rms, samples: clean, at: Date(timeIntervalSince1970: (origin ?? 0) + edgePassTime))
    }

    private func addClassMetres(_ d: Double) {
        if let c = state.roughnessClass {
            metresByClass[c, default: 0] += d
        } else if motionCount == 0, let step = state.step, let p = plan, p.steps.indices.contains(step) {
            metresByClass[p.steps[step].context.roughnessClass, default: 0] += d
        }
    }

    // MARK: End

    /// Ends the ride: flushes the last edge, writes the summary line and closes the log.
    public func finish() -> RideSummary {
        if !finished {
            finished = true
            if roughness != nil, let w = roughness!.finish() { take(w) }
            if let a = distanceAnchor, let g = lastGood, g.t > a.t {
                let d = hypot(g.x - a.x, g.y - a.y)
                distance += d; addClassMetres(d)
            }
            flushEdge(t: lastInputTime)
            currentEdge = nil
            if repeatedTimeFixes > 0 {
                emit(.warning(t: lastInputTime, message: "\(repeatedTimeFixes) fix(es) repeat the previous fix's time: dropped (no speed can be taken from them)"))
            }
            if motionCount > 0 {
                let rate = quality.spanRate
                for w in quality.warnings(rate: rate) where w.code != "low_effective_rate" || !stuckWarned {
                    emit(.warning(t: lastInputTime, message: "motion: \(w.code): \(w.message)"))
                }
            }
        }
        let average = lastInputTime > 0 ? distance / lastInputTime : 0
        // A ride shorter than the speed baseline has no windowed maximum: the mean is the best figure.
        let maxS = lastInputTime < Self.speedBaseline ? max(maxSpeed, average) : maxSpeed
        var s = RideSummary(
            duration: lastInputTime, distance: distance, averageSpeed: average,
            maxSpeed: maxS, matchedFraction: fixCount > 0 && (plan != nil) ? Double(matchedCount) / Double(fixCount) : 0,
            reroutes: reroutes.count, rerouteLatencies: reroutes.map(\.latency), cues: cueLog,
            metresByClass: Dictionary(uniqueKeysWithValues: RoughnessClass.allCases.map { ($0.name, metresByClass[$0] ?? 0) }),
            fixes: fixCount, motionSamples: motionCount, edgeObservations: observations, warnings: warnings,
            logPath: recorder?.path)
        s.droppedFixes = droppedFixes
        s.gpsJumps = gpsJumps
        s.maxFixSpeed = maxFixSpeed
        s.events = roughEvents
        let motionSeconds = motionCount > 0 ? lastInputTime : 0
        s.eventsPerMinute = motionSeconds > 0 ? Double(roughEvents) / motionSeconds * 60 : nil
        s.eventsPer100m = distance > 0 && motionCount > 0 ? Double(roughEvents) / distance * 100 : nil
        s.edges = edgeOrder.compactMap { edgeStats[$0] }
        s.motionDegraded = stuckWarned
        if autoPause.elapsed > 0 {
            s.movingTime = autoPause.movingTime
            s.autoPauses = autoPauses
        }
        if let r = recorder { s.logPath = r.stop(summary: s) }
        return s
    }

    /// All reroutes so far.
    public var rerouteHistory: [Reroute] { reroutes }
}
