/// How the rider wants to ride: each mode is one row of weights in `ModeWeights.table`.
public enum RideMode: String, Sendable, CaseIterable, Codable {
    case smoothest, chillFewCrossings, fastMildRoughness, nightSafe, trickSpotCrawl

    public var weights: ModeWeights { ModeWeights.override[self] ?? ModeWeights.table(for: self) }

    /// Position in `allCases` (0…4), for per-mode slots.
    public var ordinal: Int {
        switch self {
        case .smoothest: return 0
        case .chillFewCrossings: return 1
        case .fastMildRoughness: return 2
        case .nightSafe: return 3
        case .trickSpotCrawl: return 4
        }
    }

    /// A short description for help texts and the TUI.
    public var summary: String {
        switch self {
        case .smoothest: return "smoothest surface, accepts a longer line"
        case .chillFewCrossings: return "fewest road crossings and signals"
        case .fastMildRoughness: return "shorter and faster, tolerates some roughness"
        case .nightSafe: return "lit streets, away from arterials"
        case .trickSpotCrawl: return "passes a skatepark, plaza or square on the way"
        }
    }
}

/// The per-mode weights of the skate costing. Costs are in "effort seconds": the travel time of
/// an edge from the skate speed model, multiplied by penalty factors and plus fixed penalties.
/// Every weight carries its reason.
public struct ModeWeights: Sendable, Equatable {
    /// Multiplier per g of RMS roughness above fresh asphalt: cost × (1 + w·max(0, rms − 0.03)).
    public var roughness: Double
    /// Extra effort seconds per metre climbed (on top of the slower uphill speed).
    public var climbSecondsPerMetre: Double
    /// Cost multiplier reward for gentle downhill (−1 … −4 %) "flow": cost × (1 − w).
    public var flowReward: Double
    /// Multiplier per % of downhill grade steeper than −4 %, scaled by roughness (braking risk).
    public var brakingRisk: Double
    /// Effort seconds per metre ridden at braking grade (`BrakingGrade`; × its roughness
    /// multiplier, so braking on a rough surface costs more). Lifts, escalators and stairs carry
    /// none: they are the gentle way down.
    public var brakingSecondsPerMetre: Double
    /// Effort seconds per metre ridden at caution grade (steep, not braking).
    public var cautionSecondsPerMetre: Double
    /// Effort seconds per crossing node (marked crossing) passed.
    public var crossingSeconds: Double
    /// Extra effort seconds per traffic signal (waiting).
    public var signalSeconds: Double
    /// Effort seconds for crossing a major road at a junction without a marked crossing.
    public var majorJunctionSeconds: Double
    /// Multiplier on arterials (primary/secondary) without a sidewalk or bike lane.
    public var arterial: Double
    /// Multiplier where the law or tags say no (foot=no; bicycle=no).
    public var illegal: Double
    /// Multiplier reward on bike lanes and cycleways: cost × (1 − w).
    public var bikeLaneReward: Double
    /// Multiplier on unlit ways (lit=no), and half of it on unknown lighting.
    public var unlit: Double
    /// Multiplier on the pure distance component (more = prefers shorter).
    public var distance: Double
    /// Effort seconds for a sharp (> 60°) turn on a downhill (carving hard at speed).
    public var sharpDownhillTurnSeconds: Double
    /// Effort seconds per unit of hazard severity² × confidence on an edge.
    public var hazardSeconds: Double
    /// Largest length ratio to the shortest line that the mode accepts as a detour
    /// (`smoothest` caps its distance; `trickSpotCrawl` budgets its spot detour).
    public var detourCap: Double

    /// True when no edge costs less under these weights than under `other`: the same weights
    /// but a distance weight at least as large (all the smoothest mode's detour cap raises), so
    /// lower bounds computed for `other` (landmarks, the least cost per metre) still hold.
    /// Higher braking and caution weights qualify too (steep metres only add cost), so the
    /// planner's steep-averse searches (`SteepLineRule`) keep the stored landmark bounds.
    public func costsAtLeast(_ other: ModeWeights) -> Bool {
        var same = self
        same.distance = other.distance
        same.brakingSecondsPerMetre = other.brakingSecondsPerMetre
        same.cautionSecondsPerMetre = other.cautionSecondsPerMetre
        return same == other && distance >= other.distance
            && brakingSecondsPerMetre >= other.brakingSecondsPerMetre && cautionSecondsPerMetre >= other.cautionSecondsPerMetre
    }

    /// Weights that replace a mode's row of `table` within a task (tests and experiments:
    /// `ModeWeights.$override.withValue([.smoothest: w]) { … }`). Maps loaded meanwhile see a
    /// different `CostingFingerprint` and recompute their derived costs.
    @TaskLocal public static var override: ModeWeightOverrides = [:]

    /// Smoothest's (and chill's) effort seconds per braking-grade metre (≈ 8 m of detour at push
    /// speed): the knee of the bench's curve (`skateroute bench --braking`,
    /// docs/surfaces-and-braking.md): Monaco's braking + caution metres stop falling past 1.5–2 s/m,
    /// and 2 is the least that sends a 75 m −10 % drop round a 175 m switchback
    /// (`SurfaceTableTests`); the price: Heidelberg's lines ride 2.8 km more crusty than at 1.5.
    public static let smoothestBrakingSecondsPerMetre = 2.0
    /// Smoothest's effort seconds per caution-grade metre: 0.3 × a braking metre, so the router
    /// does not swap braking metres for many more caution metres.
    public static let smoothestCautionSecondsPerMetre = 0.6

    /// The weights table. Values were tuned on the ASCII-art test maps and real Monaco.
    public static func table(for mode: RideMode) -> ModeWeights {
        switch mode {
        case .smoothest:
            return ModeWeights(
                roughness: 10,                // crusty (0.25 g) costs 3.2× butter: goes well out of its way for smooth
                climbSecondsPerMetre: 4,      // a metre of climb ≈ 4 s of extra pushing (Tobler-like)
                flowReward: 0.10,             // gentle descents are a pleasure
                brakingRisk: 0.15,            // steep and rough is the worst
                brakingSecondsPerMetre: Self.smoothestBrakingSecondsPerMetre,
                cautionSecondsPerMetre: Self.smoothestCautionSecondsPerMetre,
                crossingSeconds: 5,           // a crossing is a stop and a kerb
                signalSeconds: 10,            // waiting at lights
                majorJunctionSeconds: 12,     // unmarked crossing of a busy road
                arterial: 1.3,                // busy roads: noise, trucks, no room
                illegal: 4,                   // avoid, but not impossible when nothing else exists
                bikeLaneReward: 0.10,         // bike lanes are usually fresh asphalt
                unlit: 1.0,                   // lighting does not matter by day
                distance: 1.0,
                sharpDownhillTurnSeconds: 6,  // carving hard at speed
                hazardSeconds: 60,            // minor (1) ≈ 1 min of detour; severe (3), certain ≈ 9 min
                detourCap: 1.8                // "distance capped": never more than 1.8× the fast line
            )
        case .chillFewCrossings:
            var w = table(for: .smoothest)
            w.roughness = 6                   // still care about surface, less than smoothest
            w.crossingSeconds *= 3            // crossings ×3: the mode's point
            w.signalSeconds *= 3
            w.majorJunctionSeconds *= 3
            w.detourCap = 2.0
            return w
        case .fastMildRoughness:
            var w = table(for: .smoothest)
            w.roughness = 6                   // 60 % of smoothest's roughness weight
            w.distance = 1.4                  // distance up: shorter lines win
            w.brakingSecondsPerMetre /= 4     // accepts steep metres for a shorter line
            w.cautionSecondsPerMetre /= 4
            w.detourCap = 1.4
            return w
        case .nightSafe:
            var w = table(for: .smoothest)
            w.roughness = 6                   // rough is worse in the dark but light matters more
            w.unlit = 2.5                     // unlit ways cost 2.5×, unknown 1.75×
            w.arterial = 2.5                  // fast cars, tired drivers
            w.brakingRisk = 0.25              // braking blind is worse
            w.hazardSeconds = 90              // you cannot see the pothole
            w.detourCap = 2.0
            return w
        case .trickSpotCrawl:
            var w = table(for: .smoothest)
            w.roughness = 6                   // spots matter more than the surface on the way
            w.detourCap = 1.6                 // spot detour budget: ≤ 1.6× the direct line (+ 400 m)
            return w
        }
    }
}

/// Weights replacing modes' rows of `ModeWeights.table` (`ModeWeights.override`), written as a
/// dictionary literal (`[.smoothest: w]`). One slot per mode rather than a `Dictionary`: every
/// plan reads the task-local, and a `Dictionary` keyed by `RideMode` would make the runtime scan
/// the binary's conformance records to check `RideMode: Hashable` (`IntKeyedTable`).
public struct ModeWeightOverrides: Sendable, ExpressibleByDictionaryLiteral {
    private var slots = [ModeWeights?](repeating: nil, count: RideMode.allCases.count)

    public init(dictionaryLiteral elements: (RideMode, ModeWeights)...) {
        for (mode, w) in elements { slots[mode.ordinal] = w }
    }

    /// The weights replacing `mode`'s row, or nil.
    public subscript(mode: RideMode) -> ModeWeights? { slots[mode.ordinal] }
}
