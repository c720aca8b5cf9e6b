import Dispatch
import FoundationEssentials
import Glibc
import SkateCore
import SkateRide
import SkateStore

/// The app's engines and I/O, built once: planner, place search, no-report zones, the store (if
/// any), and the ride being played. `update` never touches them; commands do (`TUIApp.perform`).
///
/// Not thread-safe: the app loop is the only user (hence `@unchecked Sendable`).
public final class TUIServices: @unchecked Sendable {
    public private(set) var planner: Planner
    /// The place index (streets, places, towns), built on first use: on a region that is a pass
    /// over a million names, so the live app builds it off the UI thread after start-up
    /// (`warmSearch`) instead of before the first frame.
    public var search: PlaceSearch { searchIndex.value }
    let searchIndex: ComputedOnce<PlaceSearch>
    public let zones: NoReportZones
    public let knowledge: RoadKnowledge
    /// Where reports go; nil when there is no store (tests, read-only disks).
    public let store: SkateStore?
    /// Why there is no store, for the "reports not saved" toast.
    public let storeProblem: String
    /// Name reports are filed under.
    public let reporter: String
    /// Folder listing recorded rides to replay.
    public let ridesDirectory: String
    /// Folder ride logs are written to, nil for no logs.
    public let rideLogDirectory: String?
    /// The next ride's log path (`ride --log FILE`), used once; nil: a file in `rideLogDirectory`.
    public var rideLogPath: String?
    /// Wall time for store records (injected in tests).
    public let now: @Sendable () -> Date
    /// The ride being played.
    public var feed: RideFeed?
    /// Plans off the UI thread when set (the live app); nil plans inside the command (tests, benchmarks).
    public var planWorker: PlanWorker?
    /// Lists and opens installed maps (the map list); nil: only this map.
    public var maps: MapSwitcher?
    /// The open map's file, when known (marked in the map list).
    public var mapPath: String?
    /// Where the rider left this map last time (the map opens there when there is no home on it).
    public var lastView: MapView?
    /// An error line the app opens with (a map switch that failed), nil for none.
    public var startNotice: String?
    /// Searches places off the UI thread when set (the live app); nil searches inside the command.
    public var searchWorker: SearchWorker?
    /// Seconds of quiet typing before a place search is sent (0: at once, as tests want;
    /// the live app uses `PlanScreen.liveSearchDebounce`).
    public var searchDebounce: Double = 0
    /// Ids given to plans made by reroutes (negative in `PlanRef`s, apart from the plan screen's).
    public var planCounter = 0
    /// Hazards on the map from the store (positions).
    public let knownHazards: [Coordinate]
    /// Skateparks and plazas worth a stop.
    public let spots: [Coordinate]
    /// The rider's saved places, recents, weekly goal and saved routes (issue 17: see `RiderData`).
    public let rider: RiderData
    /// Map spots and the rider's own, for the spots list and alerts.
    public let spotEntries: [SpotEntry]
    /// "map name@digest" saved with routes (`skateroute routes` checks it); set by the CLI.
    public var mapIdentity: String
    /// Ring the terminal bell on ride alerts (hazard ahead, saved place, spot); off by default.
    public var alertBell = false
    /// Alerts of the ride being played (built when it starts).
    public var alerts: AlertEngine?
    /// This week's distance against the goal, read at start and after each ride.
    public var weekProgress: WeekProgress?

    /// Builds the place index on a background queue now, so it is ready by the time the rider
    /// has typed a name (a search asked for meanwhile waits for it).
    public func warmSearch() {
        let index = searchIndex
        DispatchQueue.global(qos: .utility).async { _ = index.value }
    }

    /// Hazard reports filed from the keyboard come from this reporter unless told otherwise.
    public static let defaultReporter = "tui"

    /// - Parameter zones: no-report zones (default: the map's schools and hospitals).
    public init(map: SkateMap, knowledge: RoadKnowledge = .empty, store: SkateStore? = nil, storeProblem: String = "no data directory",
                reporter: String = TUIServices.defaultReporter, ridesDirectory: String = "Rides", rideLogDirectory: String? = nil,
                zones: NoReportZones? = nil, now: @escaping @Sendable () -> Date = { Date() }, rider: RiderData? = nil) {
        let rider = rider ?? store.map { StoreRiderData(store: $0, rideLogDirectory: rideLogDirectory, map: map) } ?? MemoryRiderData()
        self.rider = rider
        planner = Planner(map: map, knowledge: knowledge)
        searchIndex = ComputedOnce { PlaceSearch(map: map) }
        self.zones = zones ?? NoReportZones(map: map)
        self.knowledge = knowledge
        self.store = store
        self.storeProblem = storeProblem
        self.reporter = reporter
        self.ridesDirectory = ridesDirectory
        self.rideLogDirectory = rideLogDirectory
        self.now = now
        knownHazards = knowledge.hazards.values.flatMap { $0.map(\.position) }
        let own = rider.savedPlaces().filter { $0.category == SavedPlaceCategory.spot.rawValue }
        planner.ownSpots = own.map { ($0.name, $0.at) }
        spots = planner.trickSpots().map(\.at)
        spotEntries = SpotEntry.all(map: map, saved: []) + own.map {
            SpotEntry(name: $0.name, kind: "own", category: "saved=spot", at: $0.at, isPrivate: true)
        }
        mapIdentity = map.metadata.name + "@?"
        weekProgress = rider.weekProgress(now: now())
    }
}
