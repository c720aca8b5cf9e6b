import SkateCore
import SkateStore

/// A planned route held by the model. `RoutePlan` is neither `Equatable` nor cheap to compare,
/// so the model compares plans by the id given when they were made.
public struct PlanRef: Hashable, Sendable {
    public let id: Int
    public let plan: RoutePlan
    public init(id: Int, plan: RoutePlan) { self.id = id; self.plan = plan }
    public static func == (a: PlanRef, b: PlanRef) -> Bool { a.id == b.id }
    public func hash(into h: inout Hasher) { h.combine(id) }
}

/// The second key a two-key report waits for.
enum PendingReport: Hashable, Sendable {
    /// `h` was pressed: a digit 1–8 picks the hazard kind.
    case hazard
    /// `r` (ride) or `s` (map screens) was pressed: b/o/c picks the rating.
    case rate
}

/// What a report command did, for the toast and the undo slot.
public struct ReportResult: Hashable, Sendable {
    public var text: String
    public var isError: Bool
    /// The hazard a `u` may retract (a new report of this session), nil otherwise.
    public var undoableID: Int64?
    /// Where the report was filed (drawn as `!` for new hazards).
    public var position: Coordinate?
    /// True for the result of an undo (the hazard is removed from the session's marks).
    public var undone: Int64?
    /// The reporter name it was filed under (nil: the services' reporter).
    public var reporter: String?

    public init(text: String, isError: Bool = false, undoableID: Int64? = nil, position: Coordinate? = nil, undone: Int64? = nil, reporter: String? = nil) {
        self.text = text; self.isError = isError; self.undoableID = undoableID; self.position = position; self.undone = undone
        self.reporter = reporter
    }
}

/// The hazard `u` would retract and the seconds left to do it (counted down by ticks, so an
/// idle model stays equal to itself and the loop does not redraw).
struct UndoableReport: Hashable, Sendable {
    public var id: Int64
    public var remaining: Double
    /// The reporter it was filed under (nil: the services' reporter).
    public var reporter: String? = nil
}

/// What ride to start.
public enum RideRequest: Hashable, Sendable {
    /// A simulated rider on this plan.
    case synthesize(PlanRef)
    /// A recorded ride folder (holding ride.json), or a GPX file; `plan` is the route to follow
    /// when the folder names none.
    case replay(path: String, plan: PlanRef?)
}

/// A ride that is ready to play.
public struct RideStart: Hashable, Sendable {
    /// Shown in the title (sanitised when drawn).
    public var name: String
    /// The route being followed, nil for a free ride.
    public var plan: PlanRef?
    /// Ride seconds from the first to the last input.
    public var duration: Double
    /// True when a ride log is being written.
    public var recording: Bool
    /// Warnings from reading the ride (shown as a toast).
    public var warnings: [String]
    /// The ride log being written, nil when not recording.
    public var logPath: String?

    public init(name: String, plan: PlanRef?, duration: Double, recording: Bool, warnings: [String] = [], logPath: String? = nil) {
        self.name = name; self.plan = plan; self.duration = duration; self.recording = recording; self.warnings = warnings
        self.logPath = logPath
    }
}

/// A cue to show (and maybe ring).
public struct RideCue: Hashable, Sendable {
    public var text: String
    public var kind: CueBanner.Kind
    /// Worth the bell (turn now, braking, hazards, off route).
    public var urgent: Bool
    /// The plan step of the maneuver a turn cue announces (nil for other cues).
    public var step: Int?
    /// Route metres of what the cue announces (turn point, zone start, hazard, arrival), nil
    /// when the cue is about no place (off route, back on route).
    public var at: Double?
    /// The distance phrase inside `text` ("in 40 m"), replaced live as the rider moves.
    public var phrase: String?
    public init(text: String, kind: CueBanner.Kind, urgent: Bool, step: Int? = nil, at: Double? = nil, phrase: String? = nil) {
        self.text = text; self.kind = kind; self.urgent = urgent; self.step = step; self.at = at; self.phrase = phrase
    }
}

/// The result of advancing a ride.
public struct RideUpdate: Hashable, Sendable {
    public var frame: RideFrame
    public var cues: [RideCue]
    /// A new plan after a reroute.
    public var reroute: PlanRef?
    public init(frame: RideFrame, cues: [RideCue] = [], reroute: PlanRef? = nil) {
        self.frame = frame; self.cues = cues; self.reroute = reroute
    }
}

/// One recorded ride found on disk.
public struct RideListing: Hashable, Sendable {
    /// The folder (or GPX file).
    public var path: String
    /// Title from ride.json, or the folder name (sanitised when drawn).
    public var title: String
    /// Mode and map from the manifest, when given.
    public var detail: String
    /// Map and ride mode named by the manifest (sanitised), nil when absent.
    public var map: String?
    public var mode: String?
    /// Metres between the GPX fixes, seconds from the first to the last, and the first fix's
    /// time (seconds since 1970, UTC); nil when the GPX cannot be read or has no times.
    public var distance: Double?
    public var duration: Double?
    public var startTime: Double?
    public init(path: String, title: String, detail: String) { self.path = path; self.title = title; self.detail = detail }
}
