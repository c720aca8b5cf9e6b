import DequeModule
import FoundationEssentials
import Glibc
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
    /// The planner's map, held once: `planner?.map` copied the whole planner (a retain per array)
    /// on every read.
    private let map: SkateMap?
    private let knowledge: RoadKnowledge
    private let clock: SimulationClock?
    /// `clock` when it is a `VirtualClock`, cast once (not on every input).
    private let virtualClock: VirtualClock?
    private let sink: SegmentObservationSink?
    private let recorder: RideRecorder?
    private let destination: Coordinate?

    // Engines.
    private var matcher: RouteMatcher?
    private var cues: CueEngine?
    private var monitor = OffRouteMonitor()
    private var smoothness = SmoothnessEngine()
    /// The per-sample motion state: quality, rate probe, roughness engine and bumpiness meter
    /// (bumpiness while rolling, not pushing or carving, issue 28), counts and gaps.
    private var motionPath = RideMotionPath()
    /// The ride's robust roughness: the median of its clean windows.
    private var robust = RideRoughnessMedian()
    private var stuckWarned = false

    /// Fixes implying more than this speed (m/s) from the last good one are dropped (unless
    /// several agree: a relocation); set before feeding. Default `FixFilter.defaultMaxFixSpeed`.
    public var maxFixSpeed: Double {
        get { fixes.maxFixSpeed }
        set { fixes.maxFixSpeed = newValue }
    }

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

    /// Where the ride's time stands, in one value: `feed` reads and writes it once per input.
    private struct Timeline {
        /// Input time (s) of the first input: ride time 0.
        var origin: Double?
        /// Ride time (s) of the last input fed.
        var lastInputTime = 0.0
        /// Index of the next tick (ride time `tickIndex × tickInterval`).
        var tickIndex = 0
        var finished = false
    }
    private var timeline = Timeline()
    private var origin: Double? { timeline.origin }
    private var lastInputTime: Double { timeline.lastInputTime }
    private var finished: Bool { timeline.finished }

    // Fixes, edges and what the summary adds up.
    private var fixes = FixFilter()
    private var lastFixTime: Double?
    private var progressAtFix = 0.0
    private var edges = EdgeRoughnessTally()
    private var observations = 0
    private var fixCount = 0
    private var matchedCount = 0
    private var motionCount: Int { motionPath.count }
    private var roughEvents = 0
    private var metresByClass: [RoughnessClass: Double] = [:]
    private var reroutes: [Reroute] = []
    private var cueLog: [Cue] = []
    private var warnings: [String] = []

    // Impacts: every event is shown and logged at once; the learnable ones wait for the onset
    // and isolation checks (`ImpactLearning`), then go to the learning sink at the end.
    /// The ride's id for what it teaches the store (the log's `ride_id`).
    public var rideId = ""
    /// A simulated rider: the session hands nothing to the sink (no edge figures, no impacts).
    public var isSimulated = false
    private var pendingImpacts: [RoughnessImpact] = []
    private var learnable: [RoughnessImpact] = []
    private var lastImpactT = -Double.infinity
    private var recentWindows = Deque<(t: Double, rms: Double)>()
    private var learning = ImpactLearningReport()
    // Dead reckoning along the matched edge: offset (m) at the last fix, its time and the rate (m/s).
    private var edgeFixOffset = 0.0, edgeFixT = 0.0, edgeRate = 0.0
    /// The last edge a fix matched: an outlier fix matches nothing, but the rider is still on it.
    private var lastEdge: MatchedEdge?

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
        map = planner?.map
        self.knowledge = knowledge
        self.clock = clock
        virtualClock = clock as? VirtualClock
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
        var tl = timeline
        guard !tl.finished else { return }
        let abs = input.time
        guard abs.isFinite else { return }
        if tl.origin == nil { tl.origin = abs; timeline.origin = abs }
        let t = abs - tl.origin!
        if t < tl.lastInputTime - 1e-9 { return }
        if t - tl.lastInputTime > Self.maxTickGap {
            emit(.gap(t: tl.lastInputTime, seconds: t - tl.lastInputTime))
            tl.tickIndex = Int((t / Self.tickInterval).rounded(.up))
            timeline.tickIndex = tl.tickIndex
        }
        while Double(tl.tickIndex) * Self.tickInterval <= t + 1e-9 {
            tick(Double(tl.tickIndex) * Self.tickInterval)
            tl.tickIndex += 1
            timeline.tickIndex = tl.tickIndex
        }
        timeline.lastInputTime = t
        state.t = t
        virtualClock?.advance(to: t)
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
        // The engines are updated in place (`cues!`, `alertEngine!`): a mutated local copy made
        // their arrays copy on write at every tick.
        if cues != nil, let last = lastFixTime, !monitor.isOffRoute, state.matched {
            let dt = min(Self.maxDeadReckoning, max(0, t - last))
            let s = progressAtFix + state.speed * dt
            let speed = state.speed
            for cue in cues!.update(progress: s, speed: speed, time: t) { emit(.cue(cue)) }
        }
        if let p = state.position {
            if let change = autoPause.update(t: t, speed: state.speed, rms: state.rms) {
                if case .paused = change { autoPauses += 1 }
                recorder?.motionChange(change)
            }
            if alertEngine != nil {
                let heading = state.heading
                for alert in alertEngine!.update(t: t, position: p, heading: heading) {
                    alerts.append(alert)
                    recorder?.alert(alert)
                }
            }
        }
        if !autoPause.paused { recorder?.sample(t: t, state: state) }
    }

    // MARK: Fixes

    private func fix(_ f: GPXFix, t: Double) {
        defer { fixIndex += 1 }
        fixCount += 1
        state.position = f.coordinate
        var outlier = false
        switch fixes.push(f.coordinate, t: t) {
        case .repeated:
            lastFixTime = t
            return
        case .outlier:
            outlier = true
        case .accepted(let added, let relocation):
            if let r = relocation {
                // The first fixes were the wrong ones: their class metres go with their distance.
                if r.startup { metresByClass = [:] }
                emit(.warning(t: t, message: String(printf: "GPS %@ of %.0f m at %.1f s: %d fixes agree on the new position; %d dropped, no distance or speed taken across it", r.startup ? "start-up jump" : "jump", r.jump, t, FixFilter.outlierRunLimit, FixFilter.outlierRunLimit - 1)))
            }
            if added > 0 { addClassMetres(added) }
        }
        state.speed = fixes.speed
        state.heading = fixes.heading

        if matcher != nil {
            // An outlier would drag progress or count toward off route: it matches nothing.
            if outlier { state.matched = false } else { followPlan(f.coordinate, t: t) }
            // Roughness goes to the edges the whole trace followed, when the caller matched it.
            if let tm = traceMatch, fixIndex < tm.fixes.count, let map {
                let snap = tm.fixes[fixIndex].snap.flatMap { map.isRideable(edge: $0.edge) ? $0 : nil }
                switchEdge(to: snap?.edge, t: t, offset: snap?.offset)
            }
        } else if let map {
            // Free ride: the whole-trace HMM match when the caller computed one (imported rides),
            // else the nearest rideable edge.
            let snap: EdgeSnap?
            if let tm = traceMatch, fixIndex < tm.fixes.count {
                snap = tm.fixes[fixIndex].snap.flatMap { map.isRideable(edge: $0.edge) ? $0 : nil }
            } else {
                snap = map.nearestEdge(to: f.coordinate, maxDistance: Self.freeRideSnapRadius) { map.isRideable(edge: $0) }
            }
            switchEdge(to: outlier ? nil : snap?.edge, t: t, offset: snap?.offset)
        }
        lastFixTime = t
    }

    private func followPlan(_ c: Coordinate, t: Double) {
        guard matcher != nil else { return }
        let heading = state.heading
        var r = matcher!.match(c, time: t, heading: heading)
        switch monitor.update(distance: r.distanceToRoute, time: t, speed: state.speed) {
        case .wentOff:
            emit(.cue(Cue(t: t, kind: .offRoute, step: r.stepIndex ?? -1, distance: r.distanceToRoute,
                          text: String(printf: "Off route (%.0f m away)", r.distanceToRoute))))
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
        if r.matched, !monitor.isOffRoute, cues != nil {
            let speed = state.speed
            for cue in cues!.update(progress: r.distanceAlong, speed: speed, time: t) { emit(.cue(cue)) }
        }
    }

    private func reroute(from c: Coordinate, t: Double, since: Double, offBy: Double) -> Reroute? {
        guard let pl = planner, let dest = destination, let mode = plan?.mode else { return nil }
        do {
            let newPlan = try pl.reroute(from: c, heading: state.heading, to: dest, mode: mode)
            monitor.didReroute(at: t)
            install(newPlan)
            let rr = Reroute(t: t, since: since, latency: t - since, from: c, distance: newPlan.distance, offRouteDistance: offBy)
            emit(.reroute(rr))
            let first = newPlan.steps.first { $0.index > 0 && $0.maneuver.isTurn }?.instruction ?? newPlan.steps.first?.instruction ?? ""
            emit(.cue(Cue(t: t, kind: .reroute, step: 0, distance: 0,
                          text: String(printf: "New route: %.0f m", newPlan.distance) + (first.isEmpty ? "" : ", first: \(first)"))))
            return rr
        } catch {
            monitor.didReroute(at: t)  // cool down before trying again
            emit(.warning(t: t, message: "reroute failed: \(error)"))
            return nil
        }
    }

    // MARK: Motion

    private func motion(_ m: MotionSample, t: Double) {
        // Bumpiness is counted only while the motion state (speed and vibration,
        // `MotionStateMachine`) reads rolling.
        let rolling = autoPause.motion.state == .rolling
        let step = motionPath.push(m, rolling: rolling)
        if let degraded = step.degradedNow {
            if degraded && !stuckWarned {
                stuckWarned = true
                emit(.warning(t: t, message: "motion: low_effective_rate: the stream repeats its values (stuck or sample-and-hold) and cannot carry the roughness band; its roughness is not trusted and not recorded"))
            }
            if degraded { state.rms = nil; state.roughnessClass = nil }
        }
        if let e = step.engineError { emit(.warning(t: t, message: "motion: \(e)")) }
        if let windows = step.flushed { for w in windows { take(w) } }
        if let w = step.window { take(w) }
    }

    private func take(_ raw: RoughnessWindow) {
        // Degraded stretches (stuck stream) are no evidence: neither smooth nor rough.
        guard !motionPath.degraded else { return }
        let w = raw.normalised(speed: state.speed)
        let wt = w.t - (origin ?? 0)
        recentWindows.append((wt, w.rms))
        while let f = recentWindows.first, f.t < wt - ImpactLearning.historySeconds { recentWindows.removeFirst() }
        decideImpacts(now: wt)
        // Only what the wheels feel is evidence about the surface. Walking (the board carried up
        // cobbles or stairs: gait at 1–3 Hz, nothing in the roughness band) and standing read as
        // butter, so a window felt then is neither shown as the surface, nor counted in the ride's
        // roughness, nor learned for the edge; nor is a jolt then an impact of the road.
        let rolling = autoPause.motion.state == .rolling
        if let e = w.event, rolling {
            roughEvents += 1
            edges.addEvent()
            impact(e)
        }
        smoothness.push(w)
        state.stability = smoothness.stability
        if !w.isImpact {
            // The live RMS stays: the motion state reads it (a slow push that shakes the deck is rolling).
            state.rms = w.rms
            state.roughnessClass = rolling ? w.roughnessClass : nil
            if rolling { robust.add(w.rms) }
        }
        // The window's middle, dead-reckoned along the edge: where its vibration was felt.
        if rolling {
            edges.add(w, offset: state.matchedEdge.map { reckonedOffset(at: wt - RoughnessEngine.windowSeconds / 2, on: $0.edge) })
        }
    }

    // MARK: Impacts

    /// Places an event on the map, shows and logs it, and queues it for the learning checks.
    private func impact(_ e: RoughnessEvent) {
        let t = e.t - (origin ?? 0)
        var edge = state.matchedEdge ?? (abs(t - edgeFixT) <= Self.maxDeadReckoning ? lastEdge : nil)
        var position = state.position
        if var m = edge, let map {
            m.offset = reckonedOffset(at: t, on: m.edge)
            edge = m
            position = Self.point(on: map.geometry(ofEdge: m.edge), at: m.offset) ?? position
        }
        let i = RoughnessImpact(t: t, peak: e.peak, ratio: e.ratio, kind: e.kind, position: position, edge: edge)
        state.lastImpact = i
        state.impacts += 1
        // A train: this one and the one before it (if still pending) are not hazards.
        if t - lastImpactT < ImpactLearning.isolationSeconds {
            learning.inTrain += 1
            if let k = pendingImpacts.lastIndex(where: { t - $0.t < ImpactLearning.isolationSeconds }) {
                pendingImpacts.remove(at: k)
                learning.inTrain += 1
            }
        } else {
            pendingImpacts.append(i)
        }
        lastImpactT = t
        emit(.impact(i))
    }

    /// Decides the pending impacts whose onset window has passed by ride time `now` (s);
    /// `force` decides every one with what is known (end of the ride).
    private func decideImpacts(now: Double, force: Bool = false) {
        while let i = pendingImpacts.first, force || now >= i.t + ImpactLearning.onsetAfter.upperBound {
            pendingImpacts.removeFirst()
            if now - i.t < ImpactLearning.isolationSeconds && !force { continue }  // unreachable: onset window is later
            let before = Self.median(recentWindows.filter { i.t - $0.t >= ImpactLearning.onsetBefore.lowerBound && i.t - $0.t <= ImpactLearning.onsetBefore.upperBound }.map(\.rms))
            let after = Self.median(recentWindows.filter { $0.t - i.t >= ImpactLearning.onsetAfter.lowerBound && $0.t - i.t <= ImpactLearning.onsetAfter.upperBound }.map(\.rms))
            if let b = before, let a = after, a >= ImpactLearning.onsetRatio * b {
                learning.onsets += 1
            } else if i.edge == nil {
                learning.offEdge += 1
            } else if learnable.count >= ImpactLearning.maxLearnedPerRide {
                learning.capped += 1
            } else {
                learnable.append(i)
            }
        }
    }

    /// The offset (m) along the matched edge at ride time `t`, dead-reckoned from the last fix.
    private func reckonedOffset(at t: Double, on edge: Int) -> Double {
        // The edge's length read in place: `map.map { … }` copied the whole map (a retain per
        // array) for every window.
        var length = Double.infinity
        if let l = map?.edgeLength[edge] { length = Double(l) }
        let dt = max(-Self.maxDeadReckoning, min(Self.maxDeadReckoning, t - edgeFixT))
        return min(length, max(0, edgeFixOffset + edgeRate * dt))
    }

    /// The point `offset` metres along a polyline (its end beyond it), nil for an empty one.
    static func point(on line: [Coordinate], at offset: Double) -> Coordinate? {
        guard var prev = line.first else { return nil }
        var left = max(0, offset)
        for c in line.dropFirst() {
            let d = Geo.distance(prev, c)
            if d >= left, d > 0 {
                let f = left / d
                return Coordinate(lat: prev.lat + f * (c.lat - prev.lat), lon: prev.lon + f * (c.lon - prev.lon))
            }
            left -= d
            prev = c
        }
        return prev
    }

    static func median(_ v: [Double]) -> Double? {
        guard !v.isEmpty else { return nil }
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// More events per minute than a street gives (`ImpactLearning.floodPerMinute`).
    private var impactFlood: Bool {
        let minutes = lastInputTime / 60
        return motionCount > 0 && minutes > 0 && Double(roughEvents) / minutes > ImpactLearning.floodPerMinute
    }

    /// What degrades the motion stream for impacts and bumpiness ("stuck stream", or the quality
    /// codes of `ImpactLearning.degradingCodes`, gaps first), or nil for a healthy one.
    private func motionDegradation() -> String? {
        if stuckWarned { return "stuck stream" }
        var codes = motionCount > 0 ? motionPath.quality.warnings(rate: motionPath.quality.spanRate).map(\.code).filter { ImpactLearning.degradingCodes.contains($0) } : []
        if motionPath.gaps > 0 && !codes.contains("gaps") { codes.insert("gaps", at: 0) }
        // Each code once: two stuck axes are one reason ("stuck_axis", not "stuck_axis, stuck_axis").
        var seen = Set<String>()
        codes = codes.filter { seen.insert($0).inserted }
        return codes.isEmpty ? nil : codes.joined(separator: ", ")
    }

    /// The summary's bumpiness: the meter's figure, or why there is none (nil without motion).
    private func rideBumpiness() -> RideBumpiness? {
        guard motionCount > 0 else { return nil }
        let bumpiness = motionPath.bumpiness
        let why = motionDegradation() ?? (bumpiness == nil ? "no roughness engine (rate unknown or under \(Int(RoughnessEngine.minimumSampleRate)) Hz)" : nil)
        return RideBumpiness(rms: why == nil ? bumpiness?.rms : nil, countedSeconds: bumpiness?.countedSeconds ?? 0,
                             bodyMotionSeconds: bumpiness?.bodyMotionSeconds ?? 0, degraded: why)
    }

    /// Why this ride's impacts may not teach the store, or nil when they may.
    private func impactWithholding() -> String? {
        if isSimulated { return "simulated ride" }
        if let d = motionDegradation() { return "degraded motion (\(d))" }
        let minutes = lastInputTime / 60
        if impactFlood {
            return String(printf: "flood of events (%d, %.0f per min, over %.0f): a loose sensor?", roughEvents, Double(roughEvents) / minutes, ImpactLearning.floodPerMinute)
        }
        return nil
    }

    // MARK: Edges and classes

    private func switchEdge(to e: Int?, t: Double, offset: Double? = nil) {
        if let e, let o = offset, let map {
            if lastEdge?.edge == e, t > edgeFixT {
                // Noisy fixes: half the new rate, half the old, never faster than the rider.
                let cap = state.speed + 1
                edgeRate = min(cap, max(-cap, 0.5 * edgeRate + 0.5 * (o - edgeFixOffset) / (t - edgeFixT)))
            } else if lastEdge?.edge != e {
                // Entering: assume the rider moves away from the nearer end at the current speed.
                edgeRate = o < Double(map.edgeLength[e]) / 2 ? state.speed : -state.speed
            }
            edgeFixOffset = o; edgeFixT = t
        }
        if let e, let map {
            state.matchedEdge = MatchedEdge(map: map, edge: e, offset: offset ?? state.matchedEdge.flatMap { $0.edge == e ? $0.offset : nil } ?? 0)
            lastEdge = state.matchedEdge
        } else {
            state.matchedEdge = nil
        }
        record(edges.switchTo(e, t: t, map: map), t: t)
    }

    /// Logs a finished edge pass and hands its roughness to the sink.
    private func record(_ pass: EdgeRoughnessTally.Pass?, t: Double) {
        guard let pass else { return }
        recorder?.edgePass(pass.totals, rms: pass.rms, windows: pass.windows, events: pass.events, t: t, since: pass.since)
        guard let rms = pass.rms, !isSimulated else { return }
        observations += 1
        let at = Date(timeIntervalSince1970: (origin ?? 0) + pass.since)
        sink?.record(edge: pass.totals.edge, rms: rms, samples: pass.windows, at: at)
        if !pass.stretches.isEmpty, let l = sink as? RideLearningSink {
            l.recordStretches(edge: pass.totals.edge, stretches: pass.stretches, at: at)
        }
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
            timeline.finished = true
            if motionPath.roughness != nil { for w in motionPath.roughness!.finish() { take(w) } }
            motionPath.bumpiness?.finish()
            let tail = fixes.finish()
            if tail > 0 { addClassMetres(tail) }
            record(edges.finish(map: map), t: lastInputTime)
            decideImpacts(now: lastInputTime, force: true)
            let learns = sink is RideLearningSink && !isSimulated
            if let why = impactWithholding() {
                learning.withheld = why
                if roughEvents > 0, learns { emit(.warning(t: lastInputTime, message: "impacts not learned: \(why)")) }
            } else if !learnable.isEmpty, let l = sink as? RideLearningSink {
                learning.learned = learnable.count
                l.recordImpacts(learnable, rideId: rideId, start: origin ?? 0)
            }
            if learning.capped > 0 {
                emit(.warning(t: lastInputTime, message: "impacts capped: \(learning.capped) over the \(ImpactLearning.maxLearnedPerRide) one ride may file"))
            }
            if fixes.repeatedTime > 0 {
                emit(.warning(t: lastInputTime, message: "\(fixes.repeatedTime) fix(es) repeat the previous fix's time: dropped (no speed can be taken from them)"))
            }
            if motionCount > 0 {
                let rate = motionPath.quality.spanRate
                for w in motionPath.quality.warnings(rate: rate) where w.code != "low_effective_rate" || !stuckWarned {
                    emit(.warning(t: lastInputTime, message: "motion: \(w.code): \(w.message)"))
                }
            }
        }
        let distance = fixes.distance
        let average = lastInputTime > 0 ? distance / lastInputTime : 0
        // A ride shorter than the max-speed window has no windowed maximum: the mean is the best figure.
        let maxS = lastInputTime < FixFilter.maxSpeedWindow ? max(fixes.maxSpeed, average) : fixes.maxSpeed
        var s = RideSummary(
            duration: lastInputTime, distance: distance, averageSpeed: average,
            maxSpeed: maxS, matchedFraction: fixCount > 0 && (plan != nil) ? Double(matchedCount) / Double(fixCount) : 0,
            reroutes: reroutes.count, rerouteLatencies: reroutes.map(\.latency), cues: cueLog,
            metresByClass: Dictionary(uniqueKeysWithValues: RoughnessClass.allCases.map { ($0.name, metresByClass[$0] ?? 0) }),
            fixes: fixCount, motionSamples: motionCount, edgeObservations: observations, warnings: warnings,
            logPath: recorder?.path)
        s.droppedFixes = fixes.dropped
        s.gpsJumps = fixes.gpsJumps
        s.maxFixSpeed = maxFixSpeed
        s.events = roughEvents
        let motionSeconds = motionCount > 0 ? lastInputTime : 0
        s.eventsPerMinute = motionSeconds > 0 ? Double(roughEvents) / motionSeconds * 60 : nil
        s.eventsPer100m = distance > 0 && motionCount > 0 ? Double(roughEvents) / distance * 100 : nil
        s.edges = edges.edges
        s.motionDegraded = stuckWarned
        if motionCount > 0 { s.robustRMS = robust.median }
        s.bumpiness = rideBumpiness()
        if (sink is RideLearningSink && !isSimulated) || learning.capped > 0 || impactFlood { s.impacts = learning }
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
