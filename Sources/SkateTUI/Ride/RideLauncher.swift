import FoundationEssentials
import Glibc
import SkateCore
import SkateRide
import SkateStore

/// Builds a ride feed for a request and installs it in the services (a command's effect).
enum RideLauncher {
    /// Starts the ride; `.rideStarted` on success, `.rideFailed` with one line otherwise.
    static func start(_ req: RideRequest, services: TUIServices, mapName: String) -> AppEvent {
        services.feed?.stop()
        services.feed = nil
        let planner = services.planner
        let inputs: [RideInput], plan: RoutePlan?, name: String
        var warnings: [String] = []
        var planRef: PlanRef?
        switch req {
        case .synthesize(let ref):
            let sim = RideInputs.simulated(plan: ref.plan, planner: planner)
            inputs = sim.inputs
            plan = ref.plan
            planRef = ref
            name = sim.synthesized ? "simulated rider" : "simulated rider (profile playback)"
        case .replay(let path, let fallback):
            do {
                let rec = try RideInputs.recorded(path: path, planner: planner, fallbackMode: fallback?.plan.mode ?? .smoothest)
                inputs = rec.inputs
                warnings = rec.warnings.map { TerminalSafe.clean($0) }
                name = TerminalSafe.clean(rec.name)
                if let p = rec.plan {
                    services.planCounter += 1
                    planRef = PlanRef(id: -services.planCounter, plan: p)
                    plan = p
                } else {
                    plan = nil
                }
            } catch {
                return .rideFailed(TerminalSafe.clean("\(error)"))
            }
        }
        guard inputs.count >= 2 else { return .rideFailed("the ride has fewer than two inputs") }
        var logPath: String?
        var simulated = false
        if case .synthesize = req { simulated = true }
        let recorder = makeRecorder(services: services, inputs: inputs, plan: plan, mapName: mapName, simulated: simulated, warnings: &warnings, path: &logPath)
        // Issue 28: a recorded ride learns at its end like `ride --learn`; a simulated rider never does.
        let sink = simulated ? nil : services.store.map { StoreObservationSink(store: $0, map: planner.map) }
        // Stable per recording (as `RideSource.rideId`), so replaying it again teaches nothing twice.
        let rideId = "\(name)-\(Int(inputs.first?.time ?? 0))"
        let feed = SessionRideFeed(plan: plan, planner: planner, knowledge: services.knowledge, inputs: inputs, recorder: recorder,
                                   sink: sink, rideId: rideId, notLearning: simulated ? "simulated rider" : nil)
        services.feed = feed
        return .rideStarted(RideStart(name: name, plan: planRef, duration: feed.duration, recording: recorder != nil, warnings: warnings, logPath: logPath))
    }

    /// A ride log in the log directory, or nil (no directory, or it cannot be written: a warning).
    static func makeRecorder(services: TUIServices, inputs: [RideInput], plan: RoutePlan?, mapName: String, simulated: Bool = false,
                             warnings: inout [String], path logPath: inout String?) -> RideRecorder? {
        let given = services.rideLogPath
        services.rideLogPath = nil
        guard let dir = services.rideLogDirectory ?? given.map({ PathText.deletingLastComponent($0) }) else { return nil }
        let start = inputs.first?.time ?? 0
        let id = "tui-\(Int(start))-\(Int(services.now().timeIntervalSince1970))"
        let path = given ?? PathText.appending(dir, id + ".ndjson")
        let stamp = OutputStamp(attribution: services.planner.map.metadata.attribution, created: services.now().timeIntervalSince1970.rounded(.down))
        do {
            logPath = path
            return try RideRecorder(path: path, header: header(id: id, mapName: mapName, plan: plan, start: start, simulated: simulated, stamp: stamp))
        } catch {
            logPath = nil
            warnings.append("not recording: " + TerminalSafe.clean("\(error)"))
            return nil
        }
    }

    /// The log header (the map's attribution and the creation time, as every output carries them);
    /// a simulated rider's log says so, so ride history never counts it.
    static func header(id: String, mapName: String, plan: RoutePlan?, start: Double, simulated: Bool, stamp: OutputStamp? = nil) -> RideLogHeader {
        var h = RideLogHeader(rideId: id, map: mapName, mode: plan?.mode.rawValue ?? "free", startEpoch: start, stamp: stamp)
        if simulated { h.source = RideLogHeader.simulatedSource }
        return h
    }
}
