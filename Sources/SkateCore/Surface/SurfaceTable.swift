/// One row of `SurfaceTable`: an OSM `surface=*` family as 50 mm / 99A urethane wheels feel it.
public struct SurfaceFamilyRow: Sendable, Equatable {
    /// Expected RMS vibration (g, after the roughness band-pass, ~4 m/s) when only `surface` is tagged.
    public var typicalRMS: Double
    /// The smoothest class the family can ever read, whatever `smoothness` says (except the
    /// `excellent` exemption of `liftedByExcellent` rows).
    public var ceiling: RoughnessClass
    /// True for joint-and-gap families (pavers, bricks, wood, metal, plates) whose ceiling
    /// `smoothness=excellent` lifts to okay: freshly laid, flush pavers do roll.
    public var liftedByExcellent: Bool
    /// Why the row reads as it does.
    public var reason: String
}

/// Where a roughness figure came from, as a rider-facing word (plan JSON `roughness_source`
/// details): a ride measured it, a rider rated it, OSM tags say it, or it is a guess.
public enum SurfaceEvidence: String, Sendable, CaseIterable {
    case measured, rated, tag, guess
}

/// An edge's roughness estimate with its source and how far to trust it.
public struct SurfaceEstimate: Sendable, Equatable {
    /// Expected RMS vibration in g.
    public var rms: Double
    /// Which input decided the figure.
    public var source: RoughnessSource

    public init(rms: Double, source: RoughnessSource) { self.rms = rms; self.source = source }

    /// The figure's class (butter / okay / meh / crusty).
    public var roughnessClass: RoughnessClass { RoughnessClass(rms: rms) }
    /// `measured`, `rated`, `tag` or `guess`.
    public var evidence: SurfaceEvidence { source.evidence }
    /// 0…1: how likely the class is right (`RoughnessSource.confidence`).
    public var confidence: Double { source.confidence }
}

/// The one surface table for small hard wheels (issue 26). The OSM `surface=*` family sets a
/// *ceiling* on how smooth a way can read; `smoothness=*` can only make a way worse than its
/// family or refine within it (the OSM wiki's scale mapped to skateboards: excellent = butter,
/// good = okay, intermediate = meh, bad and worse = crusty; the wiki names skateboards only at
/// `excellent`, and `intermediate` is its city-bike level). Values outside the table (typos,
/// `asphalt;sett`, `unknown`) read as a documented guess, never as butter. Measured and rated
/// roughness win over all of this (`EdgeTable` patches them in from the store).
public enum SurfaceTable {
    /// Lowest RMS (g) a class allows: the class's lower bound.
    static func floorRMS(_ c: RoughnessClass) -> Double {
        switch c {
        case .butter: return 0
        case .okay: return RoughnessClass.butterMax
        case .meh: return RoughnessClass.okayMax
        case .crusty: return RoughnessClass.mehMax
        }
    }

    /// The family rows, one per `Surface` value the importer folds OSM's spellings into.
    public static func row(_ s: Surface) -> SurfaceFamilyRow {
        switch s {
        case .asphalt: return .init(typicalRMS: 0.06, ceiling: .butter, liftedByExcellent: false, reason: "city asphalt of mixed ages: okay; smoothness refines it")
        case .concrete: return .init(typicalRMS: 0.07, ceiling: .butter, liftedByExcellent: false, reason: "smooth slabs with expansion joints every few metres")
        case .paved: return .init(typicalRMS: 0.08, ceiling: .butter, liftedByExcellent: false, reason: "unspecified hard surface: assume asphalt-ish")
        case .rubber: return .init(typicalRMS: 0.05, ceiling: .butter, liftedByExcellent: false, reason: "playground and track rubber: smooth, a little draggy")
        case .tartan: return .init(typicalRMS: 0.06, ceiling: .butter, liftedByExcellent: false, reason: "running-track and court coatings: smooth")
        case .concretePlates: return .init(typicalRMS: 0.13, ceiling: .meh, liftedByExcellent: true, reason: "plate joints every 3–5 m clack under small wheels")
        case .pavingStones: return .init(typicalRMS: 0.13, ceiling: .meh, liftedByExcellent: true, reason: "interlocking pavers: a constant buzz")
        case .bricks: return .init(typicalRMS: 0.15, ceiling: .meh, liftedByExcellent: true, reason: "small units with many joints")
        case .metal: return .init(typicalRMS: 0.13, ceiling: .meh, liftedByExcellent: true, reason: "plates, grates and their edges")
        case .wood: return .init(typicalRMS: 0.15, ceiling: .meh, liftedByExcellent: true, reason: "boardwalk gaps catch 50 mm wheels")
        case .sett: return .init(typicalRMS: 0.25, ceiling: .crusty, liftedByExcellent: false, reason: "dressed stone blocks: even 'flat' sett chatters and stops small wheels")
        case .cobblestone: return .init(typicalRMS: 0.32, ceiling: .crusty, liftedByExcellent: false, reason: "rounded or unhewn cobbles: wheels stall in the gaps")
        case .compacted: return .init(typicalRMS: 0.25, ceiling: .crusty, liftedByExcellent: false, reason: "packed grit: loose stones lock a 50 mm wheel")
        case .fineGravel: return .init(typicalRMS: 0.30, ceiling: .crusty, liftedByExcellent: false, reason: "fine gravel: wheels dig in")
        case .gravel: return .init(typicalRMS: 0.40, ceiling: .crusty, liftedByExcellent: false, reason: "gravel, pebbles, rock: small wheels stop")
        case .unpaved: return .init(typicalRMS: 0.40, ceiling: .crusty, liftedByExcellent: false, reason: "unpaved of any kind (clay too): not for urethane")
        case .ground: return .init(typicalRMS: 0.45, ceiling: .crusty, liftedByExcellent: false, reason: "earth and mud")
        case .dirt: return .init(typicalRMS: 0.45, ceiling: .crusty, liftedByExcellent: false, reason: "dirt")
        case .grass: return .init(typicalRMS: 0.50, ceiling: .crusty, liftedByExcellent: false, reason: "grass, grass pavers, turf: walk it")
        case .sand: return .init(typicalRMS: 0.60, ceiling: .crusty, liftedByExcellent: false, reason: "sand: walk it")
        case .woodchips: return .init(typicalRMS: 0.50, ceiling: .crusty, liftedByExcellent: false, reason: "woodchips and bark mulch: walk it")
        case .other: return .init(typicalRMS: 0.15, ceiling: .okay, liftedByExcellent: false, reason: "a value outside this table (typo, asphalt;sett, unknown): guess meh, never butter")
        case .unknown: return .init(typicalRMS: 0, ceiling: .butter, liftedByExcellent: false, reason: "no surface tag: smoothness or the highway class decides")
        }
    }

    /// RMS (g) by OSM `smoothness=*` mapped to skateboards; nil when untagged.
    public static func rms(smoothness: Smoothness) -> Double? {
        switch smoothness {
        case .unknown: return nil
        case .excellent: return 0.03     // the wiki's skateboard level: butter
        case .good: return 0.06          // racing-bike level: okay
        case .intermediate: return 0.15  // city-bike level: meh for 50 mm wheels
        case .bad: return 0.25           // trekking-bike level: crusty
        case .veryBad: return 0.30       // car-with-clearance level: crusty
        case .horrible: return 0.40      // off-road level: walk it
        case .veryHorrible: return 0.50
        case .impassable: return 0.60
        }
    }

    /// The class `smoothness=excellent` lifts a `liftedByExcellent` family to.
    public static let excellentLiftsTo = RoughnessClass.okay

    /// The tag estimate: the family's ceiling bounds the smoothness figure from below; with no
    /// usable tag the highway class guesses (`SurfaceRoughness.rms(highway:)`).
    public static func estimate(highway: HighwayClass, surface: Surface, smoothness: Smoothness) -> SurfaceEstimate {
        let fromSmoothness = rms(smoothness: smoothness)
        if surface == .unknown {
            if let r = fromSmoothness { return SurfaceEstimate(rms: r, source: .osmSmoothness) }
            return SurfaceEstimate(rms: SurfaceRoughness.rms(highway: highway), source: .highwayDefault)
        }
        let row = row(surface)
        let ceiling = (smoothness == .excellent && row.liftedByExcellent) ? excellentLiftsTo : row.ceiling
        let floor = floorRMS(ceiling)
        guard let s = fromSmoothness else {
            return SurfaceEstimate(rms: max(floor, row.typicalRMS), source: surface == .other ? .surfaceGuess : .osmSurface)
        }
        if row.ceiling == .crusty {
            // Within crusty, smoothness can only say "worse than typical".
            return s > row.typicalRMS ? SurfaceEstimate(rms: s, source: .osmSmoothness) : SurfaceEstimate(rms: row.typicalRMS, source: .osmSurface)
        }
        if s >= floor { return SurfaceEstimate(rms: s, source: surface == .other ? .surfaceGuess : .osmSmoothness) }
        return SurfaceEstimate(rms: floor, source: surface == .other ? .surfaceGuess : .osmSurface)
    }

    /// The class the tags alone claim, or nil when they claim nothing (no usable surface or
    /// smoothness tag): what measured roughness is compared with (`TagImpliedRoughness`).
    public static func taggedClass(surface: Surface, smoothness: Smoothness) -> RoughnessClass? {
        if smoothness == .unknown && (surface == .unknown || surface == .other) { return nil }
        return estimate(highway: .other, surface: surface, smoothness: smoothness).roughnessClass
    }
}
