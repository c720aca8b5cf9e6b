import FoundationEssentials
import Glibc
import SkateCore
import SkateRide

/// The ride screen's geofenced alerts: the `AlertEngine` fed with every ride frame, its alerts
/// turned into banners ("Hazard ahead: pothole, 55 m"), ringing the bell only when
/// `TUIServices.alertBell` is on (`--bell`; off by default).
enum RideAlerts {
    /// What the engine watches on a ride: live hazards near the route (all of them on a free
    /// ride; the engine itself keeps only those ahead), the rider's saved places (spots count as
    /// spots) and the spots.
    public static func engine(plan: RoutePlan?, services: TUIServices) -> AlertEngine {
        var targets: [AlertTarget] = []
        let hazards = services.knowledge.hazards.values.flatMap { $0 }.sorted { $0.id < $1.id }
        let near: Set<Coordinate>? = plan.map { Set(PlanOverlay.near($0, hazards.map(\.position), radius: AlertKind.hazard.defaultRadius)) }
        for h in hazards where near?.contains(h.position) ?? true {
            targets.append(AlertTarget(kind: .hazard, id: "hazard:\(h.id)", name: h.kind, at: h.position))
        }
        for p in services.rider.savedPlaces() where p.category != "spot" {
            targets.append(AlertTarget(kind: .place, id: "place:" + p.name, name: p.name, at: p.at))
        }
        for s in services.spotEntries {
            targets.append(AlertTarget(kind: .spot, id: "spot:\(s.name)@\(s.at)", name: s.name, at: s.at))
        }
        return AlertEngine(targets: targets)
    }

    /// Feeds one frame to the services' engine; the cues for the alerts it raised.
    public static func cues(_ services: TUIServices, frame: RideFrame) -> [RideCue] {
        guard var e = services.alerts, let pos = frame.position else { return [] }
        let alerts = e.update(t: frame.t, position: pos, heading: frame.heading)
        services.alerts = e
        return alerts.map { cue($0, bell: services.alertBell) }
    }

    /// The banner text and kind of one alert.
    public static func cue(_ a: Alert, bell: Bool) -> RideCue {
        let name = TerminalSafe.clean(a.target.name)
        let d = UnitFormatter.length(a.distance)
        switch a.target.kind {
        case .hazard: return RideCue(text: "Hazard ahead: \(name), \(d)", kind: .hazard, urgent: bell)
        case .place: return RideCue(text: "Saved place nearby: \(name), \(d)", kind: .info, urgent: bell)
        case .spot: return RideCue(text: "Spot nearby: \(name), \(d)", kind: .info, urgent: bell)
        }
    }
}
