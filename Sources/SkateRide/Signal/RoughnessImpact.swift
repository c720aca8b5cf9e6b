import FoundationEssentials
import SkateCore

/// What an impact probably was, guessed from the shape of its event-band pulse (`ImpactKindRules`).
public enum ImpactKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// A lift: the wheel rides up onto something (a kerb edge, a root, a speed bump).
    case bump
    /// A drop before the hit: the wheel falls into a hole, then strikes its far edge.
    case pothole
    /// A short, moderate jolt without a drop: a crack, a slab joint, a seam.
    case crack
}

/// The thresholds of the kind guess. The guess reads the pulse the engine already filtered, so it
/// costs nothing per sample; it is a hint for the rider to confirm, never a fact.
public enum ImpactKindRules {
    /// A downward excursion before the peak of at least this share of the peak means the wheel fell
    /// first: free fall reads −1 g at most, and the 4 Hz high-pass keeps ~a third of a 60 ms drop,
    /// while a pothole's rim strike reads 2–5 g: shares of 0.1–0.3.
    public static let potholeDipShare: Double = 0.12
    /// …and the drop must stand out from the rolling: at least this many times the baseline RMS
    /// (rolling noise peaks reach ~3 × its RMS).
    public static let dipOverBaseline: Double = 4
    /// Without a drop, a peak below this (impact g) is a crack or joint; at or above it, a bump or
    /// kerb (slab joints on the e-scooter set peak at 0.9–1.8 g in its band, 1.4–2.8 impact g;
    /// the store's hard hit starts here too, `ImpactRules.hardHitPeak`).
    public static let crackMaxPeak: Double = 2.5

    /// The kind of a pulse of `peak` g standing `ratio` times over the baseline RMS, preceded by a
    /// downward excursion of `dip` g (≥ 0).
    public static func guess(peak: Double, dip: Double, ratio: Double) -> ImpactKind {
        let base = ratio > 0 && ratio.isFinite ? peak / ratio : 0
        if peak > 0, dip >= potholeDipShare * peak, dip >= dipOverBaseline * base { return .pothole }
        return peak < crackMaxPeak ? .crack : .bump
    }
}

/// A roughness event placed on the map: what the ride HUD shows the moment it happens, what the
/// log's `transient` line holds and what a learning ride hands to the store.
public struct RoughnessImpact: Sendable, Hashable {
    /// Ride time of the peak, seconds.
    public var t: Double
    /// Peak of the event band (4–80 Hz, or what the rate allows) in impact g (`RoughnessEvent.peak`).
    public var peak: Double
    /// Peak over the running baseline (how much it stood out), 1.
    public var ratio: Double
    /// The shape's guess.
    public var kind: ImpactKind
    /// Where the rider was at the peak (dead-reckoned along the matched edge from the last fix).
    public var position: Coordinate?
    /// The matched edge and the offset along it (metres from `fromNode`) at the peak.
    public var edge: MatchedEdge?

    public init(t: Double, peak: Double, ratio: Double, kind: ImpactKind, position: Coordinate?, edge: MatchedEdge?) {
        self.t = t; self.peak = peak; self.ratio = ratio; self.kind = kind; self.position = position; self.edge = edge
    }
}

/// Where a ride's learning goes besides the per-edge figures (`SegmentObservationSink`): impacts
/// placed on the map and roughness per stretch of an edge. The store implements it
/// (`StoreObservationSink`); the ride engine knows only this protocol. A `RideSession` whose sink
/// also conforms calls it once, at the end of the ride, and never for a simulated ride or a
/// ride whose motion was degraded.
public protocol RideLearningSink: AnyObject {
    /// Records a ride's impacts (those with an edge), in ride order.
    /// - Parameters:
    ///   - impacts: placed impacts; `edge` is non-nil for every one.
    ///   - rideId: the ride they came from (the log's `ride_id`).
    ///   - start: the ride's first input time, seconds since 1970 (impact times are ride times).
    func recordImpacts(_ impacts: [RoughnessImpact], rideId: String, start: Double)
    /// Records the robust RMS (g) per stretch of one pass over `edge`.
    /// - Parameters:
    ///   - edge: edge index in the ride's map.
    ///   - stretches: stretches of at most `EdgeStretches.maxBinLength` metres with enough clean windows.
    ///   - at: when the rider was there (ride time, never the wall clock).
    func recordStretches(edge: Int, stretches: [StretchRoughness], at: Date)
}

/// The robust roughness of one stretch of an edge on one pass.
public struct StretchRoughness: Sendable, Equatable {
    /// Metres from the edge's `fromNode` where the stretch starts and ends.
    public var from: Double
    public var to: Double
    /// Robust RMS (g) of the clean windows on the stretch, speed-normalised.
    public var rms: Double
    /// Clean 10 Hz windows behind the figure.
    public var windows: Int

    public init(from: Double, to: Double, rms: Double, windows: Int) {
        self.from = from; self.to = to; self.rms = rms; self.windows = windows
    }
}

/// How an edge pass is cut into stretches.
public enum EdgeStretches {
    /// Longest stretch (m): short enough that 20 m of cobbles inside a 120 m edge shows as its own
    /// bins, long enough that a bin ridden at 5 m/s holds ~50 windows (a robust median).
    public static let maxBinLength: Double = 25
    /// Fewest clean windows a stretch needs (1 s of riding): fewer say nothing about the surface.
    public static let minimumWindows = 10

    /// Bins of equal length ≤ `maxBinLength` covering an edge of `length` metres: (count, bin length).
    public static func bins(length: Double) -> (count: Int, width: Double) {
        guard length.isFinite, length > 0 else { return (1, max(0, length)) }
        let n = max(1, Int((length / maxBinLength).rounded(.up)))
        return (n, length / Double(n))
    }
}
