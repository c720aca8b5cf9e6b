import FoundationEssentials
import Glibc
import SkateCore

/// Builds map overlays from route plans: one segment per step in the step's roughness class,
/// one dashed stretch per braking/caution zone over exactly its extent, start and end markers,
/// hazards and spots.
enum PlanOverlay {
    /// The overlay of `plan`.
    /// - Parameters:
    ///   - hazards: hazard positions to mark (`!`).
    ///   - spots: skateparks and plazas to mark (`*`).
    public static func make(_ plan: RoutePlan, hazards: [Coordinate] = [], spots: [Coordinate] = []) -> RouteOverlay {
        var segs: [OverlaySegment] = []
        for s in plan.steps where s.geometry.count >= 2 {
            segs.append(OverlaySegment(points: s.geometry, roughness: s.context.roughnessClass))
        }
        let zones = plan.brakingZones.compactMap { z -> OverlaySegment? in
            let g = plan.geometry(from: z.start, to: z.end)
            return g.count >= 2 ? OverlaySegment(points: g, roughness: .okay, braking: z.level) : nil
        }
        if segs.isEmpty, plan.geometry.count >= 2 {
            segs.append(OverlaySegment(points: plan.geometry, roughness: .okay))
        }
        var o = RouteOverlay(segments: segs, start: plan.geometry.first, end: plan.geometry.last, hazards: hazards, spots: spots)
        o.brakingStretches = zones
        o.names = MapLabels.names(of: plan)
        return o
    }

    /// Hazards and spots near enough to a plan to be worth drawing on its map (within `radius` m of
    /// its box; the renderer clips the rest anyway, this only keeps the overlay small).
    public static func near(_ plan: RoutePlan, _ points: [Coordinate], radius: Double = 300) -> [Coordinate] {
        var b = BoundingBox.empty
        for c in plan.geometry { b.extend(lat: c.lat, lon: c.lon) }
        guard !b.isEmpty else { return [] }
        let dLat = radius / 111_320.0
        let dLon = radius / max(1, 111_320.0 * cos(b.center.lat * .pi / 180))
        return points.filter {
            $0.lat >= b.minLat - dLat && $0.lat <= b.maxLat + dLat && $0.lon >= b.minLon - dLon && $0.lon <= b.maxLon + dLon
        }
    }
}

extension ManeuverArrow {
    /// The arrow the HUD draws for a router maneuver.
    public init(_ m: Maneuver) {
        switch m {
        case .depart: self = .depart
        case .continue: self = .straight
        case .slightLeft: self = .slightLeft
        case .left: self = .left
        case .sharpLeft: self = .sharpLeft
        case .slightRight: self = .slightRight
        case .right: self = .right
        case .sharpRight: self = .sharpRight
        case .uTurn: self = .uTurn
        case .arrive: self = .arrive
        }
    }
}

extension Format {
    /// Grade as "+2.1 %", "-6.4 %".
    public static func grade(_ g: Double) -> String { (g > 0.05 ? "+" : "") + String(format1: g) + " %" }

    /// Metres rounded to whole metres ("0 m", "140 m", "1.2 km" above 1 km); imperial: feet, miles.
    public static func metres(_ m: Double) -> String {
        guard m.isFinite else { return "–" }
        if UnitSystem.active == .imperial { return UnitFormatter.distance(m) }
        return m < 1000 ? "\(Int(m.rounded())) m" : String(format1: m / 1000) + " km"
    }
}
