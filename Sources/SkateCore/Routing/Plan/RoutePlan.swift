import FoundationEssentials
import Glibc

/// What the rider does at the start of a step.
public enum Maneuver: String, Sendable, Codable, CaseIterable {
    case depart, `continue`, slightLeft = "slight_left", left, sharpLeft = "sharp_left",
         slightRight = "slight_right", right, sharpRight = "sharp_right", uTurn = "uturn", arrive

    /// The maneuver for a signed turn angle in degrees (positive = right).
    public init(turn: Double) {
        let a = abs(turn)
        if a < ManeuverAngles.continueMax { self = .continue }
        else if a < ManeuverAngles.slightMax { self = turn > 0 ? .slightRight : .slightLeft }
        else if a < ManeuverAngles.turnMax { self = turn > 0 ? .right : .left }
        else if a < ManeuverAngles.sharpMax { self = turn > 0 ? .sharpRight : .sharpLeft }
        else { self = .uTurn }
    }

    /// A verb phrase for instructions.
    public var phrase: String {
        switch self {
        case .depart: return "Depart"
        case .continue: return "Continue"
        case .slightLeft: return "Bear left"
        case .left: return "Turn left"
        case .sharpLeft: return "Turn sharp left"
        case .slightRight: return "Bear right"
        case .right: return "Turn right"
        case .sharpRight: return "Turn sharp right"
        case .uTurn: return "Make a U-turn"
        case .arrive: return "Arrive"
        }
    }

    /// A one-character arrow for the TUI.
    public var arrow: String {
        switch self {
        case .depart, .continue: return "↑"
        case .slightLeft: return "↖"
        case .left: return "←"
        case .sharpLeft: return "↙"
        case .slightRight: return "↗"
        case .right: return "→"
        case .sharpRight: return "↘"
        case .uTurn: return "↶"
        case .arrive: return "◎"
        }
    }

    public var isTurn: Bool { self != .depart && self != .continue && self != .arrive }
}

/// Turn-angle bands in degrees for maneuvers.
public enum ManeuverAngles {
    /// Below this, riding on.
    public static let continueMax = 20.0
    /// Below this, a slight bend.
    public static let slightMax = 50.0
    /// Below this, a plain turn.
    public static let turnMax = 120.0
    /// Below this, a sharp turn; above, a U-turn.
    public static let sharpMax = 165.0
}

/// Facts about one step for the rider and the display.
public struct StepContext: Sendable, Equatable {
    /// Length in metres.
    public var distance: Double
    /// Mean grade in percent (uphill positive), clamped to ±30.
    public var gradePct: Double
    /// Strongest braking zone overlapping the step.
    public var braking: BrakingLevel
    /// Crossings per kilometre of the step.
    public var crossingsPerKm: Double
    /// More than half the step has a bike lane or is a cycleway.
    public var hasBikeLane: Bool
    /// Length-weighted RMS vibration in g.
    public var roughnessRMS: Double
    public var roughnessClass: RoughnessClass
    /// The weakest (least trusted) roughness source on the step.
    public var roughnessSource: RoughnessSource
    /// Σ severity × confidence of live hazards on the step.
    public var hazardScore: Double
    /// 0 (forbidden) … 1 (skating plainly allowed), length-weighted.
    public var legalityScore: Double
    /// 0 (tags only) … 1 (measured or rated today), length-weighted.
    public var freshness: Double
    /// Free rolling would exceed the safe cap over at least `PlanBuilder.brakingStepOverlap`
    /// metres of the step (a too-fast stretch): the rider must brake.
    public var tooFast: Bool
    /// When `tooFast`: the metres of the step inside too-fast stretches, and where the first
    /// starts, metres into the step (0 / nil otherwise), so the text names the share, not the step.
    public var tooFastMetres: Double = 0
    public var tooFastFromM: Double? = nil
    /// The step is steps: walk with the board.
    public var walk: Bool
    /// Where the first zone of the step's `braking` level starts, metres into the step, and how
    /// many metres of the step it covers (nil / 0 when `braking` is `.none`).
    public var brakeFromM: Double? = nil
    public var brakeLengthM: Double = 0
    /// Every braking or caution zone inside the step, in order: only the metres actually inside
    /// a zone (`PlanBuilder.zoneSpanMinMetres` and longer).
    public var zoneSpans: [StepZoneSpan] = []
    /// Crusty stretches inside a step that reads better as a whole (`StepRoughSpan`).
    public var roughSpans: [StepRoughSpan] = []
    /// The least legal class on the step (`AccessModel`), and the reason of its longest such stretch.
    public var legality: AccessClass = .ok
    public var accessReason: AccessReason = .none
    /// Metres of the step on forbidden ways.
    public var forbiddenMetres: Double = 0
    /// Metres of stairs walked on the step, and their tagged `step_count` (0 when untagged).
    public var walkMetres: Double = 0
    public var stepCount: Int = 0
    /// The lift or escalator the step takes, if it is one (the first of a chain; `seconds` the
    /// whole chain's wait and ride).
    public var connector: StepConnector?
    /// Lifts and escalators the step takes (a chain of them is one step).
    public var liftsTaken: Int = 0
    public var escalatorsTaken: Int = 0
    /// Every legality note of the step with the metres that carry it, worst class first, then
    /// the most metres: each way speaks for its own metres, not for the whole step.
    public var accessNotes: [StepAccessNote] = []
}

/// One legality reason inside a step and the metres of the step it holds for.
public struct StepAccessNote: Sendable, Equatable {
    public var accessClass: AccessClass
    public var reason: AccessReason
    /// Metres of the step on ways with this reason.
    public var metres: Double
}

/// The part of one braking or caution zone that lies inside a step.
public struct StepZoneSpan: Sendable, Equatable {
    public var level: BrakingLevel
    /// Where the zone's part starts, metres into the step, and its length in metres.
    public var fromM: Double
    public var lengthM: Double
    /// Index of the zone in `RoutePlan.brakingZones`.
    public var zone: Int
}

/// A lift or escalator a step takes.
public struct StepConnector: Sendable, Equatable {
    public enum Kind: String, Sendable { case lift, escalator }
    public var kind: Kind
    /// The lift's name ("" when untagged).
    public var name: String
    /// Opening hours are tagged and not 24/7.
    public var limitedHours: Bool
    /// Seconds of wait and ride (`ConnectorTiming`).
    public var seconds: Double
}

/// A stretch of a route on forbidden ways (used because no legal line joins the ends).
public struct ForbiddenStretch: Sendable, Equatable {
    /// Start, metres from the route start, and length in metres.
    public var start: Double
    public var length: Double
    /// Street name of the stretch ("" when unnamed) and why it is forbidden.
    public var name: String
    public var reason: AccessReason
}

/// One instruction of a route.
public struct RouteStep: Sendable, Equatable {
    public var index: Int
    public var maneuver: Maneuver
    public var instruction: String
    /// Street name ("" when unnamed).
    public var street: String
    public var context: StepContext
    /// Polyline in travel order, metres apart as mapped.
    public var geometry: [Coordinate]
    /// Distance from the route start to the step start, metres.
    public var startDistance: Double
    /// Seconds to ride the step at the speed profile.
    public var seconds: Double
    /// Index range into the path's legs.
    public var legs: Range<Int>
    /// Index into the plan's `geometry` of the step's first point: the step's points are the
    /// plan's `firstPoint ..< firstPoint + geometry.count`.
    public var firstPoint: Int = 0
}

/// A stretch of route that needs braking (or care): its mean grade on the route's conditioned
/// profile meets its level's rule, and it holds no ≥ 60 m stretch gentler than −4 % (see
/// `PlanBuilder.brakingZones`, `ZoneRules`).
public struct BrakingZone: RouteStretch {
    /// Start and end, metres from the route start.
    public var start: Double
    public var end: Double
    public var level: BrakingLevel
    /// Mean grade in percent over the zone.
    public var gradePct: Double
    /// Mean grade in percent of the zone's steepest `ZoneRules.steepestWindow` (30 m) window,
    /// never gentler than `gradePct` (before issue 26: the steepest 5 m profile segment, noise).
    public var minGradePct: Double = 0
    /// Steps the zone overlaps, in order.
    public var stepIndices: [Int] = []
    /// Metres.
    public var length: Double { end - start }

    public init(start: Double, end: Double, level: BrakingLevel, gradePct: Double, minGradePct: Double = 0, stepIndices: [Int] = []) {
        self.start = start; self.end = end; self.level = level; self.gradePct = gradePct
        self.minGradePct = minGradePct; self.stepIndices = stepIndices
    }
}

/// Something that lies along a route between two distances and knows the steps it overlaps.
public protocol RouteStretch: Sendable, Equatable {
    /// Start and end, metres from the route start.
    var start: Double { get }
    var end: Double { get }
    /// Steps the stretch overlaps, in order.
    var stepIndices: [Int] { get set }
}

/// A stretch of route, metres from the start (e.g. where free rolling would be too fast).
public struct Stretch: RouteStretch {
    public var start: Double
    public var end: Double
    /// Steps the stretch overlaps, in order.
    public var stepIndices: [Int] = []
    public var length: Double { end - start }
    public init(start: Double, end: Double, stepIndices: [Int] = []) { self.start = start; self.end = end; self.stepIndices = stepIndices }
}

/// Grade facts of a whole route.
public struct GradeSummary: Sendable, Equatable {
    public var maxGradePct: Double
    public var minGradePct: Double
    /// Length-weighted mean of |grade|… signed mean would cancel out; this is the mean absolute grade.
    public var meanGradePct: Double
    public var climbM: Double
    public var descentM: Double
    /// Indices of steps with a braking (or caution) zone.
    public var brakingSteps: [Int]
}

extension RoutePlan {
    /// Braking zones (level `.braking`), counted apart from caution zones.
    public var brakingZoneCount: Int { brakingZones.filter { $0.level == .braking }.count }
    /// Caution zones (level `.caution`).
    public var cautionZoneCount: Int { brakingZones.filter { $0.level == .caution }.count }
}

/// A sample of the route's elevation and speed profile.
public struct ProfileSample: Sendable, Equatable {
    /// Metres from the start.
    public var distance: Double
    /// Metres above sea level (0 when unknown).
    public var elevation: Double
    /// Planned speed in m/s.
    public var speed: Double
    /// Rider must brake here to hold the cap.
    public var braking: Bool
    /// The segment from the previous sample to this one is walked (stairs) or ridden standing
    /// (a lift): no zone spans it.
    public var walked: Bool = false
}

/// A planned route: steps with their contexts, the grade summary, speed profile, ETA, score and
/// alternatives.
public struct RoutePlan: Sendable {
    public var mode: RideMode
    public var path: RoutePath
    public var steps: [RouteStep]
    public var geometry: [Coordinate]
    /// Elevation of each `geometry` point, metres (empty when the map has no elevation).
    public var geometryElevation: [Double] = []
    /// Path details over the geometry's point indices (way id, surface, smoothness, roughness
    /// class and source, grade, legality).
    public var details = PathDetails()
    /// Metres.
    public var distance: Double
    /// Seconds from the speed profile.
    public var duration: Double
    /// 0–100: how close the route comes to an ideal flat butter line of the same length.
    public var score: Double
    public var gradeSummary: GradeSummary
    public var brakingZones: [BrakingZone]
    /// Where the speed profile had to brake to hold the cap.
    public var tooFastStretches: [Stretch] = []
    public var profile: [ProfileSample]
    /// Metres by roughness class.
    public var metresByClass: ClassLengths
    /// Trick spots the route passes (trickSpotCrawl).
    public var spots: [String]
    /// Notes for the rider (e.g. the crusty rule could not be met).
    public var notes: [String]
    public var alternatives: [RoutePlan]
    public var hasElevation: Bool

    /// Longest continuous crusty stretch in metres.
    public var longestCrustyRun: Double

    /// Where the requested start and end were snapped onto the network.
    public var startSnap: EdgeSnap?
    public var endSnap: EdgeSnap?

    /// False when the route uses forbidden ways (no legal line joins the ends); see `forbidden`.
    public var legal: Bool = true
    /// The forbidden stretches, in route order.
    public var forbidden: [ForbiddenStretch] = []
    /// Metres of stairs walked, and lifts and escalators taken.
    public var walkMetres: Double = 0
    public var liftsUsed: Int = 0
    public var escalatorsUsed: Int = 0

    /// The shortest legal walk, the direct line and the crow-flies distance (every plan from `Planner`).
    public var walkReference: WalkReference?
    /// Set when the plan is a detour by `DetourRules`: how much longer and higher, and why.
    public var detour: Detour?
    /// "" for a planned route; `walkLabel` or `notLegalLabel` for a direct line offered beside a detour.
    public var label = ""
    /// Labels of the direct lines offered with a detour.
    public static let walkLabel = "walk", notLegalLabel = "not legal"
}
