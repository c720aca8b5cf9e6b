import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateRide
import SkateStore
import SkateTUI

/// `skateroute ride`: replay a recorded or synthetic ride through the matcher, cue and roughness
/// engines, write the NDJSON log and print the summary.
struct RideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ride",
        abstract: "Replay a ride (a ride folder with ride.json, or a GPX file) headless and summarise it.",
        discussion: """
        GPS fixes implying more than --max-speed (60 km/h) are dropped, start-up jumps too; the \
        summary counts them. --json lists per-edge measured roughness and event counts. The log \
        (schema 2) carries the matched edge (OSM way, end nodes, offset) of every sample. \
        The route: --plan FILE (a plan JSON or GPX), --to TEXT (from the ride's first fix), the ride \
        folder's plan.json, or else the ride's own first fix to its last. A ride outside the map \
        replays as a free ride (no plan, no cues). The log goes to --log or \
        $XDG_DATA_HOME/skateroute/rides/ID.ndjson.
        """
    )

    @Argument(help: "A ride folder (holding ride.json), a ride.json, or a GPX file ('-': a GPX on standard input).", completion: .file()) var ride: String = ""
    @Flag(help: .hidden) var benchmark = false
    @Option(help: "A plan to follow: plan JSON (skateroute plan --format json) or GPX.", completion: .file(extensions: ["json", "gpx"])) var plan: String?
    @Option(parsing: .unconditional, help: "Destination (place name or \"lat,lon\"), planned from the ride's first fix.") var to: String?
    @Option(help: "Motion file (CSV or NDJSON) for a bare GPX.", completion: .file(extensions: ["csv", "ndjson", "json"])) var motion: String?
    @Option(help: "Speed in km/h to synthesise times for a GPX without them.") var assumeSpeed: Double?
    @Option(help: "Ride mode for planning (default: the manifest's, else smoothest).") var mode: String?
    @Flag(help: "No live view: replay as fast as possible and print the summary (with --speed other than max: refused, exit 64).") var headless = false
    @Option(name: .customLong("speed"), help: "Replay speed: max, or a factor 0.25…60 (live view default ×1 real time, headless default max).") var speedOption: String?
    /// The asked speed, "max" when none was given (headless replays run flat out).
    var speed: String { speedOption ?? "max" }
    @Option(help: "Where to write the NDJSON ride log.") var log: String?
    @Flag(help: "Print the summary as a JSON document instead of text (replays headless).") var json = false
    @OptionGroup var mapOption: MapOption
    @Option(help: "Data folder of the store (hazards for cues; default $XDG_DATA_HOME/skateroute).") var dataDir: String?
    @Flag(help: "Ignore the hazard and surface store.") var noStore = false
    @Flag(help: "Learn: write the roughness measured on each edge to the store, so the next plan uses it.") var learn = false
    @Flag(help: "No alerts near live hazards, saved places and spots.") var noAlerts = false
    @Flag(help: "Let a ride.json name files outside its folder (absolute paths or '..').") var allowOutsidePaths = false
    @Option(help: "GPS sanity: drop fixes implying more than this speed in km/h (default 60).") var maxSpeed: Double = FixFilter.defaultMaxFixSpeed * 3.6

    /// A ride whose first fix is farther than this (m) outside the map's box is a free ride.
    static let mapMargin: Double = 500

    func run() throws {
        if benchmark {
            #if DEBUG
            print("note: this is a debug build; the replay figure is only meaningful from `swift build -c release`")
            #endif
            print(RideSession.benchmarkReplay(map: try mapOption.load()).text)
            return
        }
        if ride.isEmpty { throw fail("give a ride folder, ride.json or GPX file to replay") }
        let ride = try StdinInput.path(for: ride, suffix: ".gpx")  // `ride -`: a GPX on standard input
        // A factor paces the live view only: a headless replay is a batch job and runs flat out,
        // so asking for both is refused rather than silently ignored.
        if headless || json, let s = speedOption, s != "max" {
            throw usageError("--speed \(TerminalSafe.quoted(s, maxLength: 20)) paces the live view; a headless replay (--headless or --json) runs as fast as it can: drop --speed, or drop --headless/--json to watch it at that speed")
        }
        guard maxSpeed.isFinite, maxSpeed >= 5, maxSpeed <= 1000 else { throw fail("--max-speed must be between 5 and 1000 km/h, got \(maxSpeed)") }
        if plan != nil && to != nil { throw fail("give either --plan or --to, not both") }
        if speed != "max" {
            guard let f = Double(speed), f >= PacedClock.minSpeed, f <= PacedClock.maxSpeed else {
                throw fail("--speed must be 'max' or a factor between 0.25 and 60, got '\(TerminalSafe.clean(speed))'")
            }
        }
        let source: RideSource
        do {
            source = try RideSource.open(ride, motion: motion, assumeSpeedKmh: assumeSpeed, allowOutsidePaths: allowOutsidePaths)
        } catch {
            throw fail(TerminalSafe.clean("\(error)"))
        }
        guard let first = source.fixes.first, let last = source.fixes.last, let startEpoch = first.time else {
            throw fail("\(TerminalSafe.clean(ride)): no timed fixes to replay")
        }
        if !headless && !json && plan == nil && to == nil && motion == nil && assumeSpeed == nil {
            // Live view: the TUI's ride screen replays it on the paced clock.
            // The live view plays in real time unless --speed says otherwise.
            let factor = speedOption == nil ? 1 : (speed == "max" ? 60 : (Double(speed) ?? 1))
            guard factor >= 0.25, factor <= 60 else { throw fail("--speed \(TerminalSafe.clean(speed)) is out of range: use max or 0.25 to 60") }
            let map = try mapOption.loadForSession()
            var options = TUIOptions(ridesDirectory: URL(fileURLWithPath: ride).deletingLastPathComponent().path, rideSpeed: factor)
            options.startRide = .replay(path: ride, plan: nil)
            options.rideLogPath = log
            if !noStore {
                let dir = dataDir.map { URL(fileURLWithPath: $0) } ?? StorePaths.defaultDataDir()
                if let store = try? SkateStore(dataDir: dir) {
                    options.store = store
                    options.rideLogDirectory = dir.appendingPathComponent("rides").path
                }
            }
            do {
                let exit = try runTUI(map: map, options: options)
                if case .interrupted(let s) = exit, s != 0 { throw ExitCode(128 + s) }
                return
            } catch let e as TUIError {
                printError(e.description + " — or add --headless")
                throw ExitCode(1)
            }
        }
        // --json means what it means in every command: the JSON document on stdout instead of the
        // text (here, the live view), so it replays headless without a remark.
        if !headless && !json {
            printError("skateroute: live view needs a ride folder without --plan/--to/--motion; replaying headless"
                       + (speedOption.map { $0 == "max" ? "" : " (--speed \(TerminalSafe.quoted($0, maxLength: 20)) not applied)" } ?? ""))
        }
        // A headless replay is a batch job (its inputs are read before it starts, and it runs flat
        // out): the zero-copy view of the map, as other short commands use. Copying the whole map
        // out of the file (for long-running processes) was a quarter of a shipped ride's page faults.
        let map = try mapOption.load()
        let onMap = Self.inside(first.coordinate, map.bbox, margin: Self.mapMargin)
        var planner: Planner?
        var knowledge = RoadKnowledge.empty
        var routePlan: RoutePlan?
        var notes: [String] = []
        if onMap {
            let iso = ISO8601Time.format(startEpoch)
            knowledge = try loadKnowledge(map: map, dataDir: dataDir, disabled: noStore, now: iso)
            let pl = Planner(map: map, knowledge: knowledge)
            planner = pl
            var rideMode = RideMode.smoothest
            if let m = mode ?? source.manifest?.mode {
                guard let rm = RideMode(rawValue: m) else {
                    throw fail(unknownModeMessage(m))
                }
                rideMode = rm
            }
            var from = first.coordinate, dest = last.coordinate
            if let p = plan ?? (to == nil ? source.plannedRoutePath : nil) {
                do {
                    let f = try PlanFile.load(path: p)
                    from = f.from; dest = f.to
                    if mode == nil, let m = f.mode { rideMode = m }
                } catch {
                    throw fail(TerminalSafe.clean("\(error)"))
                }
            } else if let t = to {
                dest = try resolvePlace(t, search: PlaceSearch(map: map), role: "destination").at
            }
            do {
                routePlan = try pl.plan(from: from, to: dest, mode: rideMode)
            } catch let e as RoutingError {
                throw fail(e.description)
            }
        } else {
            if plan != nil || to != nil {
                throw fail("the ride starts at \(first.coordinate), outside the map \(map.metadata.name): cannot plan on it")
            }
            notes.append("the ride is outside the map \(map.metadata.name): replayed as a free ride (no plan, no cues)")
        }

        let logPath = log ?? StorePaths.defaultDataDir().appendingPathComponent("rides/\(source.rideId).ndjson").path
        let recorder: RideRecorder
        do {
            recorder = try RideRecorder(path: logPath, header: RideLogHeader(
                rideId: source.rideId, map: onMap ? map.metadata.name : "", mode: routePlan?.mode.rawValue ?? "free", startEpoch: startEpoch,
                stamp: onMap ? OutputStamp(attribution: map.metadata.attribution, created: OutputStamp.currentTime()) : nil))
        } catch {
            throw fail(TerminalSafe.clean("\(error)"))
        }
        var sink: StoreObservationSink?
        if learn {
            guard onMap else { throw fail("--learn needs a ride on the map \(map.metadata.name)") }
            let dir = dataDir.map { URL(fileURLWithPath: $0) } ?? StorePaths.defaultDataDir()
            do { sink = StoreObservationSink(store: try SkateStore(dataDir: dir), map: map) } catch {
                throw fail("store \(dir.path): \(error)")
            }
        }
        let session = RideSession(plan: routePlan, planner: planner, knowledge: knowledge, clock: VirtualClock(), sink: sink, recorder: recorder)
        session.maxFixSpeed = maxSpeed / 3.6
        session.rideId = source.rideId
        if onMap, let pl = planner {
            // Match the whole trace first (HMM) so measured roughness lands on the edges really
            // ridden; near-parallel ways (a sidewalk beside its road) resolve to the plan's.
            session.traceMatch = TraceMatcher(map: pl.map, plannedEdges: Set(routePlan?.path.legs.map(\.edge) ?? [])).match(source.fixes)
        }
        if onMap && !noAlerts {
            session.alertEngine = AlertEngine(targets: try alertTargets(map: map, at: Date(timeIntervalSince1970: startEpoch)))
        }
        for w in source.warnings + notes { session.warn(w) }
        do {
            try source.forEachInput { session.feed($0) }
        } catch {
            _ = session.finish()
            throw fail(TerminalSafe.clean("\(error)"))
        }
        let summary = session.finish()
        if let sink {
            printError("learned roughness on \(sink.recorded) edge pass(es)" + (sink.failures.isEmpty ? "" : "; \(sink.failures.count) not saved: \(TerminalSafe.clean(sink.failures[0]))"))
            if let o = sink.impactOutcome {
                if o.alreadyKnown {
                    printError("impacts: this ride's were already stored (nothing learned twice)")
                } else {
                    let ids = o.hazards.map { "#\($0.state.hazard.id) \($0.state.hazard.kind.rawValue) (\($0.outcome.rawValue))" }
                    printError("impacts: \(o.stored) stored" + (ids.isEmpty ? "" : "; detected hazard(s) " + ids.joined(separator: ", ")
                               + ": `skateroute hazards confirm ID` or `hazards gone ID`"))
                }
            }
        }
        if json {
            print(try summary.json())
        } else {
            print(summary.text().split(separator: "\n", omittingEmptySubsequences: false).map { TerminalSafe.clean(String($0)) }.joined(separator: "\n"), terminator: "")
            if !session.alerts.isEmpty {
                let worst = session.alerts.map(\.latency).max() ?? 0
                print("alerts: \(session.alerts.count) (latency ≤ \(FixedDecimal.string(worst * 1000, decimals: 0)) ms sim time)")
                for a in session.alerts {
                    print("  " + FixedDecimal.padLeft(FixedDecimal.string(a.t, decimals: 1), 7) + " s  \(a.target.kind.rawValue.padded(toLength: 6)) "
                          + "\(TerminalSafe.clean(a.target.name)) in \(UnitFormatter.length(a.distance))")
                }
            }
        }
        // A log cut short by a full disk: the summary above stands, the exit status says so.
        if let e = recorder.writeError { throw fail("\(logPath): cannot write ride log: \(e); the log ends on the last whole line written") }
    }

    /// What to alert about on this ride: live hazards (store), saved places and spots (map and own).
    func alertTargets(map: SkateMap, at date: Date) throws -> [AlertTarget] {
        var out: [AlertTarget] = []
        guard let store = try openExistingStore(dataDir: dataDir, disabled: noStore) else {
            return SpotEntry.all(map: map, saved: []).map { AlertTarget(kind: .spot, id: "spot:\($0.name)@\($0.at)", name: $0.name, at: $0.at) }
        }
        for h in (try? store.hazards(now: date)) ?? [] {
            out.append(AlertTarget(kind: .hazard, id: "hazard:\(h.hazard.id)", name: h.hazard.kind.rawValue, at: h.hazard.position))
        }
        let saved = (try? store.places()) ?? []
        for p in saved where p.category != .spot {
            out.append(AlertTarget(kind: .place, id: "place:\(p.id)", name: p.name, at: p.at))
        }
        for sp in SpotEntry.all(map: map, saved: saved) {
            out.append(AlertTarget(kind: .spot, id: "spot:\(sp.name)@\(sp.at)", name: sp.name, at: sp.at))
        }
        return out
    }

    static func inside(_ c: Coordinate, _ box: BoundingBox, margin: Double) -> Bool {
        guard !box.isEmpty else { return false }
        let dLat = margin / 111_320
        let dLon = margin / (111_320 * max(0.1, cos(c.lat * Double.pi / 180)))
        return c.lat >= box.minLat - dLat && c.lat <= box.maxLat + dLat && c.lon >= box.minLon - dLon && c.lon <= box.maxLon + dLon
    }
}
