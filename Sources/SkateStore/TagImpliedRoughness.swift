import SkateCore

/// The roughness class an edge's OSM tags imply, for spotting tags that measurements contradict.
/// Deliberately simple (the router has its own, finer table): `smoothness` first, since it was
/// written for exactly this question; otherwise `surface`.
///
/// | smoothness | class |            | surface | class |
/// |---|---|---|---|---|
/// | excellent | butter | | asphalt, concrete, paved, tartan, rubber | okay |
/// | good | okay | | paving_stones, concrete_plates, bricks, wood, metal | meh |
/// | intermediate | meh | | sett, cobblestone, compacted, fine_gravel, gravel, unpaved, ground, dirt, grass, sand | crusty |
/// | bad and worse | crusty | | unknown, other | — (no claim) |
public enum TagImpliedRoughness {
    /// The class implied by the tags, or nil when they make no claim.
    public static func implied(surface: Surface, smoothness: Smoothness) -> RoughnessClass? {
        switch smoothness {
        case .excellent: return .butter
        case .good: return .okay
        case .intermediate: return .meh
        case .bad, .veryBad, .horrible, .veryHorrible, .impassable: return .crusty
        case .unknown: break
        }
        switch surface {
        case .asphalt, .concrete, .paved, .tartan, .rubber: return .okay
        case .pavingStones, .concretePlates, .bricks, .wood, .metal: return .meh
        case .sett, .cobblestone, .compacted, .fineGravel, .gravel, .unpaved, .ground, .dirt, .grass, .sand: return .crusty
        case .unknown, .other: return nil
        }
    }

    /// Classes apart at which a measurement contradicts the tags: neighbouring classes are within
    /// the noise of both a rider's phone and a mapper's judgement; two apart (butter vs meh,
    /// okay vs crusty) is a real disagreement.
    public static let contradictionDistance = 2

    /// True when `measured` and `implied` are at least `contradictionDistance` classes apart.
    public static func contradicts(measured: RoughnessClass, implied: RoughnessClass) -> Bool {
        abs(measured.rawValue - implied.rawValue) >= contradictionDistance
    }
}
