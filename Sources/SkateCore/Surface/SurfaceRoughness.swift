/// Expected RMS vertical vibration (g, after the roughness band-pass, at ~4 m/s on 52 mm / 99A
/// urethane wheels) of a surface as OSM describes it. These are the router's priors when no ride
/// measured the edge and no rider rated it; the figures are calibrated to the class thresholds
/// (butter < 0.05 ≤ okay < 0.12 ≤ meh < 0.20 ≤ crusty) from how skaters describe each surface.
public enum SurfaceRoughness {
    /// RMS (g) by OSM `smoothness=*` (`SurfaceTable.rms(smoothness:)`).
    public static func rms(smoothness: Smoothness) -> Double? { SurfaceTable.rms(smoothness: smoothness) }

    /// RMS (g) by OSM `surface=*` alone: the family's typical figure (`SurfaceTable.row`).
    public static func rms(surface: Surface) -> Double? {
        surface == .unknown ? nil : max(SurfaceTable.floorRMS(SurfaceTable.row(surface).ceiling), SurfaceTable.row(surface).typicalRMS)
    }

    /// RMS (g) assumed from the highway class alone when neither smoothness nor surface is tagged.
    public static func rms(highway: HighwayClass) -> Double {
        switch highway {
        case .primary, .secondary, .tertiary: return 0.07     // arterials: asphalt, patched by traffic
        case .motorway, .trunk: return 0.07                   // fast-road asphalt (forbidden anyway)
        case .construction: return 0.40                       // a building site
        case .elevator: return 0.03                           // a lift car's floor (the board is carried or stood on)
        case .unclassified, .residential, .livingStreet: return 0.07
        case .service: return 0.09                            // driveways and car parks, less kept
        case .cycleway: return 0.06                           // built for small wheels
        case .pedestrian: return 0.10                         // often pavers
        case .footway: return 0.10                            // pavements: pavers and kerbs
        case .corridor: return 0.05                           // indoor floors
        case .platform: return 0.08
        case .path: return 0.20                               // guess: untagged paths are mostly unpaved (crusty)
        case .track: return 0.35                              // guess: untagged tracks are farm and forest tracks (crusty)
        case .bridleway: return 0.40                          // guess: horse tracks (crusty)
        case .steps: return 0.60                              // not rideable; a high figure for display only
        case .road, .other: return 0.10
        }
    }

    /// The tag-based estimate for an edge with its source (`SurfaceTable.estimate`: the surface
    /// family's ceiling, refined or worsened by smoothness, else the highway class's guess).
    public static func estimate(highway: HighwayClass, surface: Surface, smoothness: Smoothness) -> (rms: Double, source: RoughnessSource) {
        let e = SurfaceTable.estimate(highway: highway, surface: surface, smoothness: smoothness)
        return (e.rms, e.source)
    }
}

extension SkateMap {
    /// The tag-based roughness estimate of an edge (g) and where it came from.
    public func tagRoughness(ofEdge e: Int) -> (rms: Double, source: RoughnessSource) {
        SurfaceRoughness.estimate(highway: highway(ofEdge: e), surface: surface(ofEdge: e), smoothness: smoothness(ofEdge: e))
    }

    /// The tag-based estimate of an edge with its source, evidence and confidence (no store
    /// knowledge; `EdgeTable.surfaceEstimate(ofEdge:)` has measured and rated figures too).
    public func surfaceEstimate(ofEdge e: Int) -> SurfaceEstimate {
        SurfaceTable.estimate(highway: highway(ofEdge: e), surface: surface(ofEdge: e), smoothness: smoothness(ofEdge: e))
    }
}

extension EdgeTable {
    /// The edge's roughness as the router uses it (a ride's measurement or a rider's rating when
    /// the store has one, else the tags), with its source.
    public func surfaceEstimate(ofEdge e: Int) -> SurfaceEstimate {
        SurfaceEstimate(rms: Double(rms[e]), source: RoughnessSource(rawValue: Int(rmsSource[e])) ?? .highwayDefault)
    }
}
