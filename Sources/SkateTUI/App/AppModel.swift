import SkateCore
import SkateStore

/// What the app reacts to: keys, time, size, and the results of commands it asked for.
public enum AppEvent: Hashable, Sendable {
    case key(Key)
    /// Time passed, in seconds since the previous tick.
    case tick(Double)
    /// The terminal's new size in cells.
    case resize(Size)
    /// A report command finished (toast text, and a hazard that `u` may undo).
    case reportDone(ReportResult)
    /// A ride is ready to play.
    case rideStarted(RideStart)
    /// A ride could not start (one line).
    case rideFailed(String)
    /// The ride advanced to a new ride time.
    case rideAdvanced(RideUpdate)
    /// The recorded rides found.
    case ridesListed([RideListing])
    /// The planner answered a query (`AppCommand.plan`).
    case planned(PlanAnswer)
    /// The saved places and routes, read for the saved list (`AppCommand.listSaved`).
    case savedListed([SavedRow])
    /// The place search answered a query (`AppCommand.searchPlaces`).
    case searched(PlaceSearchAnswer)
    /// The installed maps, read for the map list (`AppCommand.listMaps`).
    case mapsListed([MapListRow])
    /// The descents near a place (`AppCommand.findDownhills`).
    case downhillsFound(DownhillAnswer)
}

/// Effects `update` asks the loop to carry out; effects with results come back as events.
enum AppCommand: Hashable, Sendable {
    /// Leave the loop and restore the terminal.
    case quit
    /// Ring the terminal bell (cues).
    case bell
    /// File a hazard report at a position.
    /// `simulated`: filed while watching a replay or a simulated ride (stored apart, see
    /// `HazardSource.simulated`).
    case fileHazard(kind: HazardKind, at: Coordinate, simulated: Bool = false)
    /// Rate the surface of the street nearest a position.
    /// `simulated`: asked during a replay or simulation (refused: a watched ride cannot feel the surface).
    case rateSurface(SurfaceRating, at: Coordinate, simulated: Bool = false)
    /// Retract a hazard this session added (vote it gone).
    /// `reporter`: the name the hazard was filed under (the simulated reporter for simulated reports).
    case undoHazard(id: Int64, reporter: String? = nil)
    /// Build a ride and start playing it.
    case startRide(RideRequest)
    /// Advance the ride to a ride time (seconds).
    case advanceRide(to: Double)
    /// Stop the ride (closes its log).
    case stopRide
    /// The rider's answer to the arrival question about a recorded ride's bumps: confirm them
    /// as potholes or dismiss them, on the store (issue 28, `ImpactVerdict`).
    case answerImpacts(rideId: String, confirm: Bool)
    /// List the recorded rides.
    case listRides
    /// Make a chosen destination the most recent one (issue 17).
    case recordDestination(ChosenPlace)
    /// Save the previewed route under the typed name (issue 17).
    case saveRoute(RouteNameState)
    /// Plan a route; the answer arrives as `AppEvent.planned`.
    case plan(PlanQuery)
    /// Read the saved places and routes; the answer arrives as `AppEvent.savedListed`.
    case listSaved
    /// Search places for a field; the answer arrives as `AppEvent.searched`.
    case searchPlaces(PlaceSearchQuery)
    /// Read the installed maps; the answer arrives as `AppEvent.mapsListed`.
    case listMaps
    /// Leave the loop and open the map at this path (`runTUI` starts again on it).
    case switchMap(String)
    /// Find the descents near a place; the answer arrives as `AppEvent.downhillsFound`.
    case findDownhills(Coordinate, placeName: String)
}

/// What "Leave the ride?" was asked for.
enum LeaveIntent: Hashable, Sendable {
    /// Esc: back to the preview or plan screen.
    case back
    /// `q`: quit the app.
    case quit
}

/// The whole state of the UI; `render` is a pure function of it.
struct AppModel: Hashable, Sendable {
    public var screen: ScreenID
    /// Terminal size in cells.
    public var size: Size
    public var browse: MapBrowseState
    public var plan: PlanState
    public var preview: PreviewState?
    public var ride: RideScreenState?
    public var picker: RidePickerState?
    public var helpVisible: Bool
    public var toast: Toast?
    public var banner: CueBanner?
    /// Seconds the banner stays.
    public var bannerRemaining: Double
    /// A report waiting for its second key.
    public var pending: PendingReport?
    /// The last hazard this session filed, undoable for `QuickReports.undoWindow` seconds.
    public var lastReport: UndoableReport?
    /// Ring the bell on cues.
    public var bellOn: Bool
    /// Hazards filed in this session (drawn until the knowledge is reloaded).
    public var sessionHazards: [Int64: Coordinate]
    /// Set once `quit` was chosen.
    public var quitting: Bool
    /// Colour scheme chosen with the palette key (nil: the one the app started with).
    public var scheme: PaletteScheme?
    /// The spots list, when open (issue 17).
    public var spotList: SpotListState?
    /// The "save route as" prompt, when open (issue 17).
    public var routeName: RouteNameState?
    /// First help row shown (the help box scrolls).
    public var helpScroll = 0
    /// "Leave the ride?" is open: what a yes does.
    public var leaving: LeaveIntent?
    /// The saved places and routes list, when open.
    public var savedList: SavedListState?
    /// The installed maps list, when open.
    public var mapList: MapListState?
    /// The map file to open once the loop ends (Enter on the map list).
    public var switchTo: String?
    /// The skateability layer is drawn on the map screens (the layer key).
    public var skateLayer = false
    /// The descents list, when open (issue 32).
    public var downhillList: DownhillListState?

    public init(screen: ScreenID, size: Size, browse: MapBrowseState, plan: PlanState = PlanState()) {
        self.screen = screen; self.size = size; self.browse = browse; self.plan = plan
        preview = nil; ride = nil; picker = nil
        helpVisible = false; toast = nil; banner = nil; bannerRemaining = 0; pending = nil; lastReport = nil
        bellOn = true; sessionHazards = [:]; quitting = false
    }

    /// Where key lookups happen: the screen, or an overlay or mode over it (`.planInput` only
    /// while a field is being edited, after Enter or `/` on it).
    public var keyContext: ScreenID {
        if helpVisible { return .help }
        if leaving != nil { return .confirmLeave }
        if routeName != nil { return .routeName }
        if spotList != nil { return .spotList }
        if savedList != nil { return .savedList }
        if mapList != nil { return .mapList }
        if downhillList != nil { return .downhillList }
        if let p = picker, p.visible { return .ridePicker }
        if screen == .plan, plan.editing { return .planInput }
        if screen == .ride, let r = ride, r.frame.finished { return .arrival }
        return screen
    }
}

/// Things that never change while the app runs: the map, the theme, the key table, the
/// skateability facts and the level-of-detail index.
public struct TUIContext: Sendable {
    public let map: SkateMap
    public let theme: Theme
    public let keyMap: KeyMap
    /// Map name and attribution, sanitised once.
    public let mapName: String
    public let attribution: String
    /// The skateability layer's facts (the planner's edge table), nil when the app has none;
    /// read from the table the first time the layer is shown (one byte per edge of the map).
    public var skate: SkateLayer? { skateSource?.value }
    private let skateSource: ComputedOnce<SkateLayer>?
    /// True when the maps draw the skateability layer (the layer key; `AppModel.skateLayer`).
    public let showSkateLayer: Bool
    /// Which streets each zoom draws (built once per map).
    public let detail: MapDetail

    public init(map: SkateMap, theme: Theme, keyMap: KeyMap = .standard, skate: SkateLayer? = nil) {
        // (`TUIApp` drops the bindings that need a store when there is none.)
        self.init(map: map, theme: theme, keyMap: keyMap, skateSource: skate.map { ComputedOnce(value: $0) }, showSkateLayer: false,
                  detail: MapDetail(map: map))
    }

    init(map: SkateMap, theme: Theme, keyMap: KeyMap, skateSource: ComputedOnce<SkateLayer>?, showSkateLayer: Bool, detail: MapDetail) {
        self.map = map; self.theme = theme; self.keyMap = keyMap
        self.skateSource = skateSource; self.showSkateLayer = showSkateLayer; self.detail = detail
        mapName = TerminalSafe.clean(map.metadata.name)
        attribution = TerminalSafe.clean(map.metadata.attribution)
    }

    /// The layer to draw: the facts when the layer is on, else nil.
    public var layer: SkateLayer? { showSkateLayer ? skate : nil }

    /// The same context drawn with another theme (the palette key).
    public func with(theme: Theme) -> TUIContext {
        TUIContext(map: map, theme: theme, keyMap: keyMap, skateSource: skateSource, showSkateLayer: showSkateLayer, detail: detail)
    }

    /// The same context with another key table.
    public func with(keyMap: KeyMap) -> TUIContext {
        TUIContext(map: map, theme: theme, keyMap: keyMap, skateSource: skateSource, showSkateLayer: showSkateLayer, detail: detail)
    }

    /// The same context with the skateability facts (from the planner) and the layer on or off.
    public func with(skate: SkateLayer?, shown: Bool) -> TUIContext {
        TUIContext(map: map, theme: theme, keyMap: keyMap, skateSource: skate.map { ComputedOnce(value: $0) }, showSkateLayer: shown, detail: detail)
    }

    /// The same context with the layer's facts read from `table` when first shown (unless it
    /// has them already), layer on or off.
    func with(skateFrom table: EdgeTable, shown: Bool) -> TUIContext {
        TUIContext(map: map, theme: theme, keyMap: keyMap, skateSource: skateSource ?? ComputedOnce { SkateLayer(table: table) },
                   showSkateLayer: shown, detail: detail)
    }

    /// The same context with the layer on or off (its facts unchanged).
    func with(skateShown shown: Bool) -> TUIContext {
        TUIContext(map: map, theme: theme, keyMap: keyMap, skateSource: skateSource, showSkateLayer: shown, detail: detail)
    }
}
