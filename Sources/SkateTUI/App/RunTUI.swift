import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// How to open the TUI besides the map.
public struct TUIOptions: Sendable {
    /// Where reports go and knowledge comes from; nil runs without saving reports.
    public var store: SkateStore?
    /// Why there is no store (shown when a report cannot be saved).
    public var storeProblem: String
    /// Folder of recorded rides to replay.
    public var ridesDirectory: String
    /// Folder for ride logs (NDJSON); nil for none.
    public var rideLogDirectory: String?
    /// Speed factor of new rides (×0.25…×60).
    public var rideSpeed: Double
    /// Reporter name for hazard reports and ratings.
    public var reporter: String
    /// A ride to start at once (`skateroute ride RIDE` without `--headless`).
    public var startRide: RideRequest?
    /// Log path for the ride `startRide` plays (`skateroute ride RIDE --log FILE`); later rides use `rideLogDirectory`.
    public var rideLogPath: String?
    /// Colour scheme at start (`--palette`).
    public var scheme: PaletteScheme = .standard
    /// "map name@digest" stored with routes saved from the TUI (`w` in the preview).
    public var mapIdentity: String?
    /// Ring the bell on ride alerts (`--bell`; off by default).
    public var alertBell = false
    /// Installed maps for the map list (`M`) and how to open one; nil: only `map`.
    public var maps: MapSwitcher?
    /// The file of the map opened (marked in the map list).
    public var mapPath: String?
    /// Reads and keeps where the rider left a map (by its file); nil: not remembered.
    public var views: MapViewMemory?
    /// A line shown as an error toast when the app opens (a map that could not be switched to).
    public var notice: String?

    public init(store: SkateStore? = nil, storeProblem: String = "no data directory", ridesDirectory: String = "Rides",
                rideLogDirectory: String? = nil, rideSpeed: Double = RideScreen.defaultSimSpeed, reporter: String = TUIServices.defaultReporter) {
        self.store = store; self.storeProblem = storeProblem; self.ridesDirectory = ridesDirectory
        self.rideLogDirectory = rideLogDirectory; self.rideSpeed = rideSpeed; self.reporter = reporter
    }
}

/// Opens the terminal UI on `map` and runs until the user quits or a signal arrives; the
/// terminal is restored on every exit path.
/// - Parameters:
///   - environment: where colour and locale settings are read (`NO_COLOR`, `COLORTERM`,
///     `TERM`, `LC_ALL`/`LC_CTYPE`/`LANG`).
///   - overlay: a route and markers to show on the map browser (fitted to it), or nil for the
///     plan screen.
///   - options: the store, ride folders and ride speed.
/// - Returns: how it ended (a signal → the caller may exit 128+signal).
/// - Throws: `TUIError` when stdin is not a terminal or `TERM` is unusable.
@discardableResult
public func runTUI(map: SkateMap, environment: [String: String] = ProcessInfo.processInfo.environment,
                   overlay: RouteOverlay? = nil, options: TUIOptions = TUIOptions()) throws -> TUIExit {
    try TUIError.check(environment: environment)
    let theme = Theme.detect(environment: environment).with(scheme: options.scheme)
    // Check the terminal before the (slower) engines are built.
    let terminal = try NcursesTerminal.openInteractive()
    defer { terminal.close() }
    var map = map, options = options, overlay = overlay
    // Each map switch (the map list) runs the app again on the new map, same terminal.
    while true {
        let exit = runSession(map: map, theme: theme, terminal: terminal, overlay: overlay, options: options)
        guard case .switchMap(let path) = exit, let maps = options.maps else { return exit }
        // A map that cannot be read leaves the open one in place and says why in one line.
        options.notice = nil
        do {
            let opened = try maps.open(path)
            map = opened.map
            options.mapIdentity = opened.identity
            options.mapPath = path
        } catch {
            options.notice = TerminalSafe.clean("map not opened: \(error)")
        }
        options.startRide = nil
        options.rideLogPath = nil
        overlay = nil
    }
}

/// One run of the app on one map.
func runSession(map: SkateMap, theme: Theme, terminal: NcursesTerminal, overlay: RouteOverlay?, options: TUIOptions) -> TUIExit {
    var knowledge = RoadKnowledge.empty
    if let s = options.store { knowledge = (try? s.loadKnowledge(for: map, now: Date())) ?? .empty }
    let services = TUIServices(map: map, knowledge: knowledge, store: options.store, storeProblem: options.storeProblem,
                               reporter: options.reporter, ridesDirectory: options.ridesDirectory,
                               rideLogDirectory: options.rideLogDirectory)
    if let id = options.mapIdentity { services.mapIdentity = id }
    services.alertBell = options.alertBell
    services.rideLogPath = options.rideLogPath
    services.maps = options.maps
    services.mapPath = options.mapPath
    if let p = options.mapPath { services.lastView = options.views?.read(p) }
    services.startNotice = options.notice
    // Plans run off the UI thread, on a planner with its own caches.
    let workerPlanner = services.planner.detached()
    services.planWorker = PlanWorker { PlanScreen.answer($0, planner: workerPlanner) }
    // Place searches run off the key path too, debounced (issue 29 row 2).
    // The place index is built off the UI thread, after start-up (a region's first frame
    // does not wait for it); a search sent before it is ready waits on the worker.
    let index = services.searchIndex
    services.warmSearch()
    services.searchWorker = SearchWorker(search: { PlanScreen.answer($0, search: index.value) })
    services.searchDebounce = PlanScreen.liveSearchDebounce
    defer { services.feed?.stop() }
    let app = TUIApp(map: map, theme: theme, services: services, initialOverlay: overlay, rideSpeed: options.rideSpeed)
    let clock = ContinuousClock()
    let t0 = clock.now
    return AppLoop.run(app: app, terminal: terminal, now: {
        let d = clock.now - t0
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }, initialCommands: options.startRide.map { [AppCommand.startRide($0)] } ?? [], onEnd: { m in
        // The plan screen's map is where the rider looked last.
        guard let p = options.mapPath, let vp = m.plan.map?.viewport, let v = MapView(center: vp.center, metresPerDot: vp.metresPerDot) else { return }
        options.views?.record(v, p)
    })
}

/// Where the rider left each map (kept by the CLI in its state folder).
public struct MapViewMemory: Sendable {
    public var read: @Sendable (String) -> MapView?
    public var record: @Sendable (MapView, String) -> Void
    public init(read: @escaping @Sendable (String) -> MapView?, record: @escaping @Sendable (MapView, String) -> Void) {
        self.read = read; self.record = record
    }
}
