import SkateCore
import SkateRide
import SkateStore

/// A `RideFeed` over the ride engines' `RideSession`: inputs (fixes and motion, in time order)
/// are fed as ride time passes; the session's state becomes the frame, its cue events banners.
final class SessionRideFeed: RideFeed {
    private let session: RideSession
    private let inputs: [RideInput]
    private var next = 0
    /// Time of the first input (the session's ride time 0), seconds.
    private let origin: Double
    public let duration: Double
    public let isRecording: Bool
    private let hasMotion: Bool
    private var cues: [RideCue] = []
    private var rerouted: RoutePlan?
    private var stopped = false
    private var lastHeading: Double?
    private var lastImpact: RoughnessImpact?
    /// Impacts felt since the last frame was taken.
    private var pendingImpacts: [RoughnessImpact] = []
    /// The store sink of a learning ride (its counts for the arrival panel).
    private let storeSink: StoreObservationSink?
    private let rideId: String
    /// Why this ride teaches the store nothing, nil when it does.
    private let notLearning: String?
    /// The ride's summary once it ended (what it learned: `edgeObservations`, `impacts`), for the arrival screen.
    public private(set) var summary: RideSummary?

    /// - Parameters:
    ///   - plan: the route to follow (nil: a free ride).
    ///   - planner: reroutes and free-ride snapping.
    ///   - knowledge: hazards for hazard cues.
    ///   - inputs: fixes and motion in time order.
    ///   - recorder: the ride log, already started, or nil.
    ///   - sink: where a recorded ride's measured roughness and impacts go at its end (issue 28:
    ///     `ride --learn`'s sink); nil for a simulated rider or without a store.
    ///   - rideId: the ride's id for the impacts it teaches.
    ///   - notLearning: why the ride teaches nothing ("simulated rider", "no store"), said on arrival.
    public init(plan: RoutePlan?, planner: Planner, knowledge: RoadKnowledge, inputs: [RideInput], recorder: RideRecorder?,
                sink: SegmentObservationSink? = nil, rideId: String = "", notLearning: String? = nil) {
        storeSink = sink as? StoreObservationSink
        self.rideId = rideId
        self.notLearning = sink == nil ? (notLearning ?? "no store") : nil
        session = RideSession(plan: plan, planner: planner, knowledge: knowledge, clock: VirtualClock(), sink: sink, recorder: recorder)
        session.rideId = rideId
        self.inputs = inputs
        origin = inputs.first?.time ?? 0
        duration = max(0, (inputs.last?.time ?? 0) - origin)
        isRecording = recorder != nil
        hasMotion = inputs.contains { if case .motion = $0 { return true } else { return false } }
        session.onEvent = { [weak self] e in self?.handle(e) }
    }

    public var currentPlan: RoutePlan? { session.plan }

    private func handle(_ e: RideEvent) {
        switch e {
        case .cue(let c): cues.append(Self.rideCue(c, plan: session.plan, along: session.state.distanceAlong))
        case .reroute: rerouted = session.plan
        case .backOnRoute: cues.append(RideCue(text: "Back on route", kind: .info, urgent: false))
        case .gap, .warning: break
        case .impact(let i):
            lastImpact = i
            // A loose sensor rattling must not grow the list without bound (the map marks a few).
            if pendingImpacts.count < Self.maxImpactsPerFrame { pendingImpacts.append(i) }
        }
    }

    /// How a cue of the engines is shown: braking and hazards in their banner colours, turns
    /// "now", braking, hazards and leaving the route worth the bell. Turn and arrival cues keep
    /// their maneuver step and its route metres, zone and hazard cues the place they announce
    /// (`along` plus the cue's distance), so the banner can count down and clear live.
    static func rideCue(_ c: Cue, plan: RoutePlan? = nil, along: Double = 0) -> RideCue {
        var c = c, phrase = CueEngine.distanceText(c.distance)
        if UnitSystem.active != .metric, phrase != "now", let r = c.text.firstRange(of: " " + phrase) {
            // The engine's text is metric (it is logged); shown, it follows the active units.
            phrase = CueEngine.distanceText(c.distance, in: UnitSystem.active)
            c.text.replaceSubrange(r, with: " " + phrase)
        }
        let here = along + c.distance
        switch c.kind {
        case .braking: return RideCue(text: c.text, kind: .braking, urgent: true, at: here, phrase: phrase)
        case .hazard: return RideCue(text: c.text, kind: .hazard, urgent: true, at: here, phrase: phrase)
        case .offRoute: return RideCue(text: c.text, kind: .hazard, urgent: true)
        case .turnNow, .turn, .arrive:
            let stepAt = plan.flatMap { p in p.steps.first { $0.index == c.step } }
            let at = c.kind == .arrive ? (plan?.distance ?? here) : (stepAt?.startDistance ?? here)
            return RideCue(text: c.text, kind: .info, urgent: c.kind != .turn, step: c.kind == .arrive ? nil : c.step, at: at, phrase: phrase)
        case .reroute: return RideCue(text: c.text, kind: .info, urgent: false)
        }
    }

    public func advance(to t: Double) -> (frame: RideFrame, cues: [RideCue], rerouted: RoutePlan?) {
        if !stopped {
            while next < inputs.count, inputs[next].time - origin <= t + 1e-9 {
                session.feed(inputs[next])
                next += 1
            }
        }
        // Every input played: the ride is over; finishing now writes the log's summary line, so the
        // log the arrival panel names is complete.
        if next >= inputs.count, !stopped { stop() }
        let out = (frame(at: t), cues, rerouted)
        cues = []
        rerouted = nil
        return out
    }

    private func frame(at t: Double) -> RideFrame {
        let s = session.state
        let plan = session.plan
        var step: RouteStep?
        if let p = plan, let i = s.step, p.steps.indices.contains(i) { step = p.steps[i] }
        if let h = s.heading { lastHeading = h }
        var f = RideFrame(
            t: min(t, duration), position: s.position, heading: lastHeading, speed: s.speed, rms: s.rms,
            surface: s.roughnessClass ?? step?.context.roughnessClass, stability: hasMotion ? s.stability / 100 : nil,
            grade: plan != nil ? s.grade : nil, braking: step?.context.braking ?? .none, step: s.step,
            distanceAlong: s.distanceAlong, distanceLeft: s.distanceLeft, secondsLeft: s.eta.map { max(0, $0 - s.t) },
            offRoute: s.offRoute, finished: next >= inputs.count)
        f.impact = lastImpact
        f.newImpacts = pendingImpacts
        pendingImpacts = []
        if f.finished {
            f.learning = learning()
            f.bumpiness = summary?.bumpiness; f.robustRMS = summary?.robustRMS
        }
        return f
    }

    /// Impacts one frame carries at most: a frame spans at most a tick at ×60 (6 s of ride), and
    /// the engine publishes at most one event per 0.3 s, so 20 is all of them for a sound sensor.
    static let maxImpactsPerFrame = 20

    /// What the ended ride taught the store (counts from its summary and the store sink).
    private func learning() -> RideLearning {
        if let why = notLearning { return RideLearning(rideId: rideId, notLearning: why) }
        let outcome = storeSink?.impactOutcome
        return RideLearning(rideId: rideId, edges: storeSink?.recorded ?? summary?.edges.count ?? 0,
                            impacts: summary?.impacts?.learned ?? 0, alreadyKnown: outcome?.alreadyKnown ?? false,
                            withheld: summary?.impacts?.withheld)
    }

    public func stop() {
        guard !stopped else { return }
        stopped = true
        summary = session.finish()
    }

    deinit { stop() }
}
