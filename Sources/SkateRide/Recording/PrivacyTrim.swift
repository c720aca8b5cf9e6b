import FoundationEssentials
import Glibc
import SkateCore

/// Privacy trims for a ride track before it leaves the machine (GPX export): drop the first and
/// last metres (where a ride starts and ends is usually where the rider lives or works), drop
/// every point within a radius of private places (saved `home`/`work`), and thin the rest.
public struct PrivacyTrim: Sendable, Equatable {
    /// Default metres dropped at each end: a few hundred metres hides a front door among the
    /// ~50–100 doors of a city block in Monaco-scale streets.
    public static let defaultEndTrim = 200.0
    /// Default radius around private places (metres): the same block scale.
    public static let defaultZoneRadius = 200.0

    public var trimStart: Double
    public var trimEnd: Double
    /// Private places and the radius (metres) hidden around each.
    public var zones: [(center: Coordinate, radius: Double)]
    /// Keep a point only when at least this many metres from the last kept one (0: keep all).
    public var minSpacing: Double

    public init(trimStart: Double = PrivacyTrim.defaultEndTrim, trimEnd: Double = PrivacyTrim.defaultEndTrim,
                zones: [(center: Coordinate, radius: Double)] = [], minSpacing: Double = 0) {
        self.trimStart = trimStart; self.trimEnd = trimEnd; self.zones = zones; self.minSpacing = minSpacing
    }

    public static func == (a: PrivacyTrim, b: PrivacyTrim) -> Bool {
        a.trimStart == b.trimStart && a.trimEnd == b.trimEnd && a.minSpacing == b.minSpacing
            && a.zones.map(\.center) == b.zones.map(\.center) && a.zones.map(\.radius) == b.zones.map(\.radius)
    }

    /// The indices of `points` that survive, in order.
    public func keep(_ points: [Coordinate]) -> [Int] {
        guard points.count >= 2 else { return [] }
        var along = [0.0]
        for i in 1..<points.count { along.append(along[i - 1] + Geo.distance(points[i - 1], points[i])) }
        let total = along.last!
        var out: [Int] = []
        var last: Coordinate?
        for (i, p) in points.enumerated() {
            guard along[i] >= trimStart, total - along[i] >= trimEnd else { continue }
            if zones.contains(where: { Geo.distance($0.center, p) <= $0.radius }) { continue }
            if let l = last, minSpacing > 0, Geo.distance(l, p) < minSpacing { continue }
            out.append(i)
            last = p
        }
        return out
    }
}
