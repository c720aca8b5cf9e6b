import FoundationEssentials
import SkateCore

/// Which of a ride's roughness events may teach the store, and why the others may not. Every
/// event is shown live and logged; only isolated hits on a healthy stream, in sane numbers, are
/// handed to a `RideLearningSink`.
///
/// | rule | value | why |
/// |---|---|---|
/// | `isolationSeconds` | 2 s | slab joints, cobbles and trick lines come in trains; a pothole stands alone |
/// | `onsetAfter` | 1.0–2.0 s after | the surface after the event, past the deck's ring and the engine's impact tail |
/// | `onsetBefore` | 3.0–0.3 s before | the surface before it, clear of the approach |
/// | `onsetRatio` | 2 | a surface twice as rough after the event as before is a new surface, not a hit |
/// | `maxLearnedPerRide` | 20 | more isolated hazards than that on one ride is a loose sensor, not a street |
/// | `floodPerMinute` | 30 | one event every 2 s all ride long: the sensor rattles; learn nothing |
/// | `degradingCodes` | gaps, stuck axes, no gravity, … | a stream that lost samples or its vertical cannot place a hit |
public enum ImpactLearning {
    /// Another event closer than this (s) makes both part of a train, not hazards.
    public static let isolationSeconds: Double = 2
    /// The window (s after the event) whose median RMS tells the surface after it.
    public static let onsetAfter: ClosedRange<Double> = 1.0...2.0
    /// The window (s before the event) whose median RMS tells the surface before it.
    public static let onsetBefore: ClosedRange<Double> = 0.3...3.0
    /// After over before at or above this ratio: the event was the onset of a rougher surface.
    public static let onsetRatio: Double = 2
    /// Most impacts one ride may hand to the store.
    public static let maxLearnedPerRide = 20
    /// Events per minute of motion above which a ride learns no impact at all.
    public static let floodPerMinute: Double = 30
    /// Motion-quality codes that keep a ride's impacts out of the store (`MotionQuality`).
    public static let degradingCodes: Set<String> = ["gaps", "stuck_axis", "no_gravity", "low_effective_rate", "units_suspect",
                                                     "non_finite_values", "time_backwards"]
    /// Seconds of windows the session keeps for the onset check (covers both windows).
    static let historySeconds: Double = 3.5
}

/// What became of a ride's impacts for learning, for the summary.
public struct ImpactLearningReport: Sendable, Equatable, Codable {
    /// Impacts handed to the store.
    public var learned = 0
    /// Events in a train (another within `ImpactLearning.isolationSeconds`).
    public var inTrain = 0
    /// Events that began a rougher surface (`ImpactLearning.onsetRatio`).
    public var onsets = 0
    /// Isolated impacts off any edge.
    public var offEdge = 0
    /// Impacts over `ImpactLearning.maxLearnedPerRide` (the cap).
    public var capped = 0
    /// Why nothing was learned, when nothing was: "simulated", "degraded motion (gaps)", "flood …".
    public var withheld: String?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case learned, onsets, capped, withheld
        case inTrain = "in_train", offEdge = "off_edge"
    }
}
