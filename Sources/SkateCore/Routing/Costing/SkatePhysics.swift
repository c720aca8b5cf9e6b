import FoundationEssentials
import Glibc

/// The skate speed model: a rider pushing on the flat, slowed by climbs and roughness, rolling
/// with gravity on descents and braking to a safe cap.
///
/// Forces on rider + board (mass `mass`): gravity along the slope m·g·s, rolling resistance
/// m·g·Crr (Crr grows with surface roughness), air drag ½·ρ·CdA·v². Pushing supplies constant
/// power `pushPower`, sized so that the steady flat speed on smooth asphalt is `pushSpeed`.
public enum SkatePhysics {
    /// Standard gravity, m/s².
    public static let gravity = 9.80665
    /// Rider + board mass in kg (a typical adult with a longboard).
    public static let mass = 78.0
    /// Air density at sea level, kg/m³.
    public static let airDensity = 1.2
    /// Drag area of an upright rider, m².
    public static let dragArea = 0.55
    /// Rolling resistance of urethane wheels on ordinary asphalt (up to `rollingFreeRMS`).
    public static let baseRollingResistance = 0.010
    /// Roughness (g) up to which rolling resistance stays at its base: ordinary asphalt rolls freely.
    public static let rollingFreeRMS = 0.06
    /// Extra rolling resistance per g of RMS vibration above that (rough surfaces eat energy:
    /// sett at 0.25 g rolls ~1.8× harder than asphalt).
    public static let rollingPerG = 0.04
    /// Cruising push speed on the flat: 12 km/h.
    public static let pushSpeed = 12.0 / 3.6
    /// Walking pace with the board in hand, m/s (steps, steep climbs).
    public static let walkSpeed = 1.2
    /// Climbs steeper than this (percent) are walked.
    public static let walkGradePct = 8.0
    /// Descents steeper than this (percent) are walked: beyond what foot-braking controls.
    public static let walkDownGradePct = -15.0
    /// Safe speed cap on descents: 25 km/h, braking above.
    public static let speedCap = 25.0 / 3.6
    /// Comfortable speed on a crusty surface (m/s); speed eases down with roughness towards it.
    public static let crustySpeed = 2.0
    /// Walking pace on steps, m/s (carrying the board).
    public static let stepsSpeed = 0.6

    /// Rolling resistance coefficient for an RMS roughness in g.
    @inlinable public static func rollingResistance(rms: Double) -> Double {
        baseRollingResistance + rollingPerG * max(0, rms - rollingFreeRMS)
    }

    /// Push power in watts that holds `pushSpeed` on smooth flat asphalt.
    public static let pushPower: Double = {
        let v = pushSpeed
        return (mass * gravity * baseRollingResistance + 0.5 * airDensity * dragArea * v * v) * v
    }()

    /// The speed a rider is comfortable at on a surface, ignoring slope (m/s).
    @inlinable public static func comfortSpeed(rms: Double) -> Double {
        // Linear ease from the cap at butter (0.05 g) to crustySpeed at 0.30 g.
        let t = min(1, max(0, (rms - 0.05) / 0.25))
        return speedCap + (crustySpeed - speedCap) * t
    }

    /// Steady pushing speed on a grade (percent, uphill positive) and roughness (m/s); walk when too steep.
    public static func pushSpeed(gradePct: Double, rms: Double) -> Double {
        if gradePct >= walkGradePct { return walkSpeed }
        let s = gradePct / 100
        let crr = rollingResistance(rms: rms)
        let a = mass * gravity * (crr + s), b = 0.5 * airDensity * dragArea
        // Gravity beats rolling resistance: pushing is not what limits speed.
        guard a > 0 else { return comfortSpeed(rms: rms) }
        // Solve P = a·v + b·v³ by Newton's method from above (convex, so it converges monotonically).
        var v = 15.0
        for _ in 0..<30 {
            let f = a * v + b * v * v * v - pushPower
            let next = v - f / (a + 3 * b * v * v)
            if abs(next - v) < 1e-6 { v = next; break }
            v = next
        }
        let lo = v
        return max(walkSpeed, min(lo, comfortSpeed(rms: rms)))
    }

    /// Terminal free-rolling speed on a downhill (grade negative, percent), m/s; 0 when gravity
    /// does not beat rolling resistance.
    public static func freeRollSpeed(gradePct: Double, rms: Double) -> Double {
        let drive = -gradePct / 100 - rollingResistance(rms: rms)
        guard drive > 0 else { return 0 }
        return (2 * mass * gravity * drive / (airDensity * dragArea)).squareRoot()
    }

    /// Longitudinal acceleration (m/s²) when coasting at speed v on a grade.
    public static func coastAcceleration(v: Double, gradePct: Double, rms: Double) -> Double {
        -gravity * (gradePct / 100 + rollingResistance(rms: rms)) - 0.5 * airDensity * dragArea * v * v / mass
    }

    /// The speed cap applied on a surface (m/s): the lower of `speedCap` and its comfort speed.
    @inlinable public static func appliedCap(rms: Double) -> Double { min(speedCap, comfortSpeed(rms: rms)) }

    /// True when gravity still accelerates a rider coasting at the applied cap (`appliedCap`) on a
    /// grade (percent, downhill negative): drag and rolling resistance cannot hold the cap there,
    /// so the rider brakes to hold it.
    public static func gravityBeatsCap(gradePct: Double, rms: Double) -> Bool {
        coastAcceleration(v: appliedCap(rms: rms), gradePct: gradePct, rms: rms) > 0
    }

    /// Steady-state riding speed on a stretch (m/s) used for edge costs: push on the flat and
    /// uphill, roll with gravity downhill, never above the roughness comfort speed or the cap.
    public static func cruiseSpeed(gradePct: Double, rms: Double) -> Double {
        if gradePct <= walkDownGradePct { return walkSpeed }
        let push = pushSpeed(gradePct: gradePct, rms: rms)
        let roll = freeRollSpeed(gradePct: gradePct, rms: rms)
        return min(max(push, roll), comfortSpeed(rms: rms), speedCap)
    }
}
