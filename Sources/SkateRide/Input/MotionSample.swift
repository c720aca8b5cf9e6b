import FoundationEssentials
import Glibc

/// One accelerometer sample.
public struct MotionSample: Sendable, Equatable, Codable {
    /// Time in seconds (ride time or seconds since 1970, as the source gives it).
    public var t: Double
    /// Acceleration along the sensor's x, y and z axes in g (gravity included).
    public var ax: Double
    public var ay: Double
    public var az: Double

    public init(t: Double, ax: Double, ay: Double, az: Double) {
        self.t = t; self.ax = ax; self.ay = ay; self.az = az
    }
}

/// Units of the acceleration columns in a motion file.
public enum MotionUnits: String, Sendable, Codable, CaseIterable {
    /// Standard gravities.
    case g
    /// Metres per second squared.
    case metresPerSecondSquared = "m/s^2"

    /// Standard gravity in m/s² (CGPM 1901), the m/s² → g divisor.
    public static let standardGravity: Double = 9.80665

    /// Multiplier from these units to g.
    public var toG: Double {
        switch self {
        case .g: return 1
        case .metresPerSecondSquared: return 1 / MotionUnits.standardGravity
        }
    }

    /// Parses a unit name: `g`, `G`, `m/s^2`, `m/s2`, `m/s²`, `mps2`, `m s-2`.
    public init?(parsing text: String) {
        let t = text.trimmingWhitespaceAndNewlines().lowercased()
            .replacing(" ", with: "")
        switch t {
        case "g", "gs", "gee", "standard_gravity": self = .g
        case "m/s^2", "m/s2", "m/s²", "mps2", "ms-2", "m/s/s", "m·s⁻²", "m*s^-2", "ms^-2": self = .metresPerSecondSquared
        default: return nil
        }
    }
}
