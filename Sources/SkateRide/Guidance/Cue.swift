import FoundationEssentials
import Glibc

/// One spoken/shown instruction of a ride.
public struct Cue: Sendable, Equatable, Codable {
    /// What the cue is about.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A turn announced ahead (~40 m).
        case turn
        /// The turn is imminent (~15 m).
        case turnNow = "turn_now"
        /// Entering a braking (or caution) zone.
        case braking
        /// A reported hazard ahead on the route.
        case hazard
        /// Arriving at the destination.
        case arrive
        /// The rider left the route.
        case offRoute = "off_route"
        /// A new route was planned from the rider's position.
        case reroute
    }

    /// Ride time in seconds.
    public var t: Double
    public var kind: Kind
    /// Step the cue is about (the maneuver's step for turns), -1 for a free ride.
    public var step: Int
    /// Metres from the rider to what the cue announces (0 for off-route/reroute).
    public var distance: Double
    /// The text shown or spoken.
    public var text: String

    enum CodingKeys: String, CodingKey {
        case t, kind, step, text
        case distance = "distance_m"
    }
}
