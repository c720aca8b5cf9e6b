import Foundation
import SkateCore

/// The end-of-ride figures. Encodes with the CLI's JSON keys.
public struct RideSummary: Sendable, Equatable, Codable {
    /// Ride time from the first to the last input, seconds.
    public var duration: Double
    /// Distance ridden (fix to fix, outliers left out), metres.
    public var distance: Double
    /// Mean speed over the ride, m/s.
    public var averageSpeed: Double
    /// Highest speed over a few seconds, m/s.
    public var maxSpeed: Double
    /// Share of fixes that matched the route (0 on a free ride).
    public var matchedFraction: Double
    /// Number of reroutes.
    public var reroutes: Int
    /// Seconds from the first fix beyond 25 m to each reroute.
    public var rerouteLatencies: [Double]
    /// Every cue of the ride.
    public var cues: [Cue]
    /// Metres ridden per measured roughness class (planned class when there is no motion).
    public var metresByClass: [String: Double]
    /// Fixes and motion samples read.
    public var fixes: Int
    public var motionSamples: Int
    /// Roughness observations sent to the sink (edge passes).
    public var edgeObservations: Int
    /// Repairs and skipped input.
    public var warnings: [String]
    /// The ride log, if one was written.
    public var logPath: String?

    enum CodingKeys: String, CodingKey {
        case duration = "duration_s"
        case distance = "distance_m"
        case averageSpeed = "average_speed_mps"
        case maxSpeed = "max_speed_mps"
        case matchedFraction = "matched_fraction"
        case reroutes
        case rerouteLatencies = "reroute_latency_s"
        case cues
        case metresByClass = "metres_by_class"
        case fixes, warnings
        case motionSamples = "motion_samples"
        case edgeObservations = "edge_observations"
        case logPath = "log_path"
    }

    /// Sorted-key JSON with numbers rounded for stable output.
    public func json() throws -> String {
        var copy = self
        copy.duration = Self.round(duration, 2); copy.distance = Self.round(distance, 1)
        copy.averageSpeed = Self.round(averageSpeed, 2); copy.maxSpeed = Self.round(maxSpeed, 2)
        copy.matchedFraction = Self.round(matchedFraction, 4)
        copy.rerouteLatencies = rerouteLatencies.map { Self.round($0, 2) }
        copy.metresByClass = metresByClass.mapValues { Self.round($0, 1) }
        copy.cues = cues.map { var c = $0; c.t = Self.round(c.t, 2); c.distance = Self.round(c.distance, 1); return c }
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try enc.encode(copy), as: UTF8.self)
    }

    static func round(_ x: Double, _ d: Int) -> Double {
        guard x.isFinite else { return 0 }
        let p = pow(10, Double(d))
        let v = (x * p).rounded() / p
        return v == 0 ? 0 : v
    }

    /// A few readable lines.
    public func text() -> String {
        var lines: [String] = []
        let m = Int(duration) / 60, s = Int(duration.rounded()) % 60
        lines.append(String(format: "ride: %d min %02d s, %.2f km, average %.1f km/h, max %.1f km/h", m, s, distance / 1000, averageSpeed * 3.6, maxSpeed * 3.6))
        lines.append(String(format: "fixes %d, motion samples %d, matched %.1f %%", fixes, motionSamples, matchedFraction * 100))
        let lat = rerouteLatencies.map { String(format: "%.1f s", $0) }.joined(separator: ", ")
        lines.append("reroutes: \(reroutes)" + (lat.isEmpty ? "" : " (latency \(lat))"))
        let classes = RoughnessClass.allCases.map { "\($0.name) " + String(format: "%.0f m", metresByClass[$0.name] ?? 0) }.joined(separator: ", ")
        lines.append("surface: \(classes)")
        lines.append("cues: \(cues.count)")
        for c in cues {
            let kind = c.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
            lines.append(String(format: "  %7.1f s  ", c.t) + kind + " " + c.text)
        }
        for w in warnings { lines.append("warning: \(w)") }
        if let p = logPath { lines.append("log: \(p)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
