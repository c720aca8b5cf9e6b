/// Expected RMS vertical vibration (g, after the roughness band-pass, at ~4 m/s on 52 mm / 99A
/// urethane wheels) of a surface as OSM describes it. These are the router's priors when no ride
/// measured the edge and no rider rated it; the figures are calibrated to the class thresholds
/// (butter < 0.05 ≤ okay < 0.12 ≤ meh < 0.20 ≤ crusty) from how skaters describe each surface.
public enum SurfaceRoughness {
    /// RMS (g) by OSM `smoothness=*`, the tag written for exactly this question.
    public static func rms(smoothness: Smoothness) -> Double? {
        switch smoothness {
        case .unknown: return nil
        case .excellent: return 0.03     // fresh asphalt, polished concrete: butter
        case .good: return 0.06          // ordinary good asphalt: okay, near butter
        case .intermediate: return 0.11  // patched asphalt, good pavers: upper okay
        case .bad: return 0.18           // cracked asphalt, rough pavers: meh
        case .veryBad: return 0.28       // broken surface: crusty
        case .horrible: return 0.40      // tracks: crusty, walk it
        case .veryHorrible: return 0.50
        case .impassable: return 0.60
        }
    }

    /// RMS (g) by OSM `surface=*`.
    public static func rms(surface: Surface) -> Double? {
        switch surface {
        case .unknown: return nil
        case .asphalt: return 0.06        // typical city asphalt, mixed ages: okay
        case .concrete: return 0.07       // smooth but with expansion joints every few metres
        case .concretePlates: return 0.10 // joints every 3–5 m clack
        case .paved: return 0.08          // unspecified hard surface: assume asphalt-ish
        case .pavingStones: return 0.13   // interlocking pavers: constant buzz, meh
        case .sett: return 0.25           // dressed stone blocks: crusty
        case .cobblestone: return 0.32    // round cobbles: crusty, small wheels stall
        case .metal: return 0.12          // plates and grates
        case .wood: return 0.15           // boardwalk gaps
        case .compacted: return 0.25
        case .fineGravel: return 0.30
        case .gravel: return 0.40         // small wheels dig in and stop
        case .unpaved: return 0.40
        case .ground, .dirt: return 0.45
        case .grass: return 0.50
        case .sand: return 0.60
        case .rubber: return 0.05         // playground and track rubber: smooth
        case .tartan: return 0.06
        case .bricks: return 0.15
        case .other: return 0.15          // unknown exotic surface: assume meh
        }
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
        case .path: return 0.20                               // untagged paths are often unpaved
        case .track: return 0.35
        case .bridleway: return 0.40
        case .steps: return 0.60                              // not rideable; a high figure for display only
        case .road, .other: return 0.10
        }
    }

    /// The best tag-based estimate for an edge, with its source: smoothness > surface > highway.
    public static func estimate(highway: HighwayClass, surface: Surface, smoothness: Smoothness) -> (rms: Double, source: RoughnessSource) {
        if let r = rms(smoothness: smoothness) { return (r, .osmSmoothness) }
        if let r = rms(surface: surface) { return (r, .osmSurface) }
        return (rms(highway: highway), .highwayDefault)
    }
}

extension SkateMap {
    /// The tag-based roughness estimate of an edge (g) and where it came from.
    public func tagRoughness(ofEdge e: Int) -> (rms: Double, source: RoughnessSource) {
        SurfaceRoughness.estimate(highway: highway(ofEdge: e), surface: surface(ofEdge: e), smoothness: smoothness(ofEdge: e))
    }
}
