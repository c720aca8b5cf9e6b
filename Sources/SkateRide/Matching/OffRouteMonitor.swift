import FoundationEssentials
import Glibc

/// Decides when a rider is off the route, with confirmation, hysteresis and a reroute cooldown.
///
/// Off route: the fix is more than `offDistance` from the route for at least `confirmSeconds`
/// *and* `confirmFixes` consecutive fixes, while moving (≥ `minMovingSpeed`). A single outlier
/// fix resets nothing but never confirms. Back on route only under `backDistance` (hysteresis:
/// a rider riding along the 20–25 m band does not flicker). A reroute is asked for when off
/// route is confirmed and the last reroute is at least `cooldown` seconds old.
public struct OffRouteMonitor: Sendable {
    /// Distance (m) beyond which a fix counts as off route.
    public static let offDistance: Double = 25
    /// Distance (m) under which an off-route rider is back on route.
    public static let backDistance: Double = 20
    /// Seconds the rider must stay beyond `offDistance` before it counts.
    public static let confirmSeconds: Double = 2
    /// Consecutive fixes beyond `offDistance` needed (one outlier is not a detour).
    public static let confirmFixes = 3
    /// Below this speed (m/s) the rider is standing: GPS wander must not reroute.
    public static let minMovingSpeed: Double = 0.5
    /// Seconds after a reroute before another: no reroute storms.
    public static let cooldown: Double = 10

    /// What one fix changed.
    public enum Verdict: Sendable, Equatable {
        case none
        /// Off route confirmed at this fix; `since` is the ride time of the first fix beyond 25 m.
        case wentOff(since: Double)
        case backOn
    }

    /// True while confirmed off route.
    public private(set) var isOffRoute = false
    /// Ride time of the first fix of the current run beyond `offDistance`.
    public private(set) var runStart: Double?
    private var runFixes = 0
    private var lastReroute: Double?

    public init() {}

    /// Feeds one fix.
    /// - Parameters:
    ///   - distance: metres from the fix to the route.
    ///   - time: ride time in seconds.
    ///   - speed: the rider's speed in m/s.
    public mutating func update(distance: Double, time: Double, speed: Double) -> Verdict {
        if isOffRoute {
            if distance < Self.backDistance {
                isOffRoute = false; runStart = nil; runFixes = 0
                return .backOn
            }
            return .none
        }
        guard distance > Self.offDistance else { runStart = nil; runFixes = 0; return .none }
        if runStart == nil { runStart = time }
        runFixes += 1
        if let start = runStart, runFixes >= Self.confirmFixes, time - start >= Self.confirmSeconds - 1e-9,
           speed >= Self.minMovingSpeed {
            isOffRoute = true
            return .wentOff(since: start)
        }
        return .none
    }

    /// True when a reroute may run now (off route and out of cooldown).
    public func mayReroute(at time: Double) -> Bool {
        isOffRoute && (lastReroute.map { time - $0 >= Self.cooldown } ?? true)
    }

    /// Records a reroute at `time`; the new route starts at the rider, so the rider is on it.
    public mutating func didReroute(at time: Double) {
        lastReroute = time
        isOffRoute = false; runStart = nil; runFixes = 0
    }
}
