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

/// The thresholds of the kind guess, read from the pulse's shape around its peak: a **pothole**
/// is a drop then a hit (the vertical acceleration falls below 1 g as the wheel drops, then the
/// far edge strikes); a **bump** is the reverse (the wheel rides up — the hit — then the deck
/// unloads); a **crack** is a short, small jolt with no drop on either side (a symmetric pair
/// within ~20 ms). The drops are read in the shape band (`RoughnessCalibration.shapeLowEdgeHz`)
/// as 20 ms means, before the fitted strike's onset and after its end (`ImpactSize`), and the
/// noise they must clear is that band's spread just before (`RoughnessEvent.noise`), so a
/// 40–100 ms drop, the strike's size and the floor all read the same at 50, 100 and 200 Hz. A
/// hint for the rider to confirm.
///
/// | rule | value | why |
/// |---|---|---|
/// | `minDrop` | 0.25 g | free fall reads −1 g; a wheel dropping 2–5 cm or a deck unloading reads 0.4–1 g; rolling on smooth streets (ISO A–B) peaks ~0.1–0.2 g in this band |
/// | `dropOverNoise` | 4 × the rolling's spread (`RoughnessEvent.noise`) | rolling noise peaks reach ~3 × its RMS, so rough surfaces need a deeper drop |
/// | first or deeper | drop before ≥ drop after: pothole; else bump | the order of drop and hit is the shape |
/// | `crackMaxPeak` | 2.5 impact g | no drop either side: a smaller jolt (the fitted strike, `ImpactSize`) is a crack or joint, a larger a kerb-like bump |
///
/// Checked on labelled synthetic impacts at 50/100/200 Hz (`ImpactKindEvaluationTests`); no
/// labelled real pothole or bump recording is available (docs/wheels-to-routes.md).
public enum ImpactKindRules {
    /// A drop below 1 g (shape-band g) that means the wheel fell or the deck unloaded.
    public static let minDrop: Double = 0.25
    /// …and it must stand out from the rolling: this many times the event baseline RMS.
    public static let dropOverNoise: Double = 4
    /// Without a drop, a peak below this (impact g) is a crack or joint; at or above it, a bump or
    /// kerb (slab joints on the e-scooter set peak at 0.9–1.8 g in its band, 1.4–2.8 impact g;
    /// the store's hard hit starts here too, `ImpactRules.hardHitPeak`).
    public static let crackMaxPeak: Double = 2.5

    /// The kind of a pulse of `peak` impact g, with drops of `dip` g before and `dipAfter` g
    /// after it (shape band, ≥ 0), on rolling whose event-band RMS is `noise` g (0: unknown).
    public static func guess(peak: Double, dip: Double, dipAfter: Double, noise: Double = 0) -> ImpactKind {
        let floor = max(minDrop, dropOverNoise * (noise.isFinite ? noise : 0))
        let before = dip >= floor, after = dipAfter >= floor
        if before && (!after || dip >= dipAfter) { return .pothole }
        if after { return .bump }
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
