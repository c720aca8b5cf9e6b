import SkateCore

/// The roughness class an edge's OSM tags imply, for spotting tags that measurements contradict:
/// the router's own table (`SurfaceTable.taggedClass`: the surface family's ceiling, refined or
/// worsened by smoothness), nil when the tags make no claim (no usable surface or smoothness).
public enum TagImpliedRoughness {
    /// The class implied by the tags, or nil when they make no claim.
    public static func implied(surface: Surface, smoothness: Smoothness) -> RoughnessClass? {
        SurfaceTable.taggedClass(surface: surface, smoothness: smoothness)
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
