/// Distance, length and speed text in the active `UnitSystem` ("850 m", "1.2 km", "12 km/h"
/// metric; "420 ft", "0.7 mi", "7 mph" imperial). Inputs are always SI: metres, metres per second.
public enum UnitFormatter {
    /// Metres in an international mile (exact by definition).
    public static let metresPerMile = 1609.344
    /// Metres in an international foot (exact by definition).
    public static let metresPerFoot = 0.3048
    /// Imperial distances under a tenth of a mile (~161 m) read in feet: "0.0 mi" says nothing.
    public static let feetBelowMiles = 0.1
    /// Metric distances from a kilometre up read in km, as every metric output always has.
    public static let kmFromMetres = 1000.0
    /// km/h in one m/s.
    static let kmhPerMps = 3.6

    /// A distance in metres: metric "850 m" under a kilometre, else "1.2 km"; imperial "420 ft"
    /// under a tenth of a mile, else "0.7 mi". `decimals`: digits after the point in km or mi.
    public static func distance(_ metres: Double, decimals: Int = 1, in system: UnitSystem = .active) -> String {
        switch system {
        case .metric:
            return metres >= kmFromMetres ? FixedDecimal.string(metres / kmFromMetres, decimals: decimals) + " km"
                : FixedDecimal.string(metres, decimals: 0) + " m"
        case .imperial:
            let miles = metres / metresPerMile
            return miles >= feetBelowMiles ? FixedDecimal.string(miles, decimals: decimals) + " mi" : length(metres, in: .imperial)
        }
    }

    /// A short length in metres, whole units: "30 m" or "98 ft" (climbs, zones, stairs, radii).
    public static func length(_ metres: Double, in system: UnitSystem = .active) -> String {
        lengthNumber(metres, in: system) + " " + lengthUnit(system)
    }

    /// The number of `length` alone ("98"), for text that places the unit itself ("30–98 ft").
    public static func lengthNumber(_ metres: Double, in system: UnitSystem = .active) -> String {
        FixedDecimal.string(lengthValue(metres, in: system), decimals: 0)
    }

    /// A length in metres as a number in the system's short unit (m or ft).
    public static func lengthValue(_ metres: Double, in system: UnitSystem = .active) -> Double {
        system == .metric ? metres : metres / metresPerFoot
    }

    /// "m" or "ft".
    public static func lengthUnit(_ system: UnitSystem = .active) -> String { system == .metric ? "m" : "ft" }

    /// A speed in metres per second: "12 km/h" or "7 mph". `decimals`: digits after the point.
    public static func speed(_ metresPerSecond: Double, decimals: Int = 0, in system: UnitSystem = .active) -> String {
        FixedDecimal.string(speedValue(metresPerSecond, in: system), decimals: decimals) + " " + speedUnit(system)
    }

    /// A speed in metres per second as a number in the system's unit (km/h or mph).
    public static func speedValue(_ metresPerSecond: Double, in system: UnitSystem = .active) -> Double {
        system == .metric ? metresPerSecond * kmhPerMps : metresPerSecond * 3600 / metresPerMile
    }

    /// "km/h" or "mph".
    public static func speedUnit(_ system: UnitSystem = .active) -> String { system == .metric ? "km/h" : "mph" }
}
