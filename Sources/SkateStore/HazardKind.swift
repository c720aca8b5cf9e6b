import FoundationEssentials
import SkateCore

/// What a rider reported. Each kind has its own lifetime: how long a report stays live after
/// its last confirmation without anyone confirming it again.
public enum HazardKind: String, Sendable, CaseIterable, Codable {
    case pothole, crack, gravel, wet, debris, rail, construction, other

    /// Seconds in a day.
    static let day: TimeInterval = 86_400

    /// Wet patches dry within a day.
    public static let wetLifetime: TimeInterval = 1 * day
    /// Debris (glass, branches) is swept or blown away within a couple of days.
    public static let debrisLifetime: TimeInterval = 2 * day
    /// Gravel spills linger about a week until street cleaning.
    public static let gravelLifetime: TimeInterval = 7 * day
    /// Unclassified hazards: two weeks, between the transient and the structural kinds.
    public static let otherLifetime: TimeInterval = 14 * day
    /// Street works typically run for weeks; after a month without a confirmation assume the site
    /// has cleared (a long job gets re-confirmed by riders passing it, which extends it).
    public static let constructionLifetime: TimeInterval = 30 * day
    /// Potholes are patched on a timescale of months.
    public static let potholeLifetime: TimeInterval = 60 * day
    /// Cracks persist until resurfacing: a season or more.
    public static let crackLifetime: TimeInterval = 120 * day
    /// Rails and grates are fixtures: a year.
    public static let railLifetime: TimeInterval = 365 * day

    /// How long a report of this kind stays live after its last confirmation, in seconds.
    public var lifetime: TimeInterval {
        switch self {
        case .pothole: return Self.potholeLifetime
        case .crack: return Self.crackLifetime
        case .gravel: return Self.gravelLifetime
        case .wet: return Self.wetLifetime
        case .debris: return Self.debrisLifetime
        case .rail: return Self.railLifetime
        case .construction: return Self.constructionLifetime
        case .other: return Self.otherLifetime
        }
    }

    /// The longest lifetime of any kind: reports last confirmed before `now` minus this are all expired.
    public static var longestLifetime: TimeInterval { allCases.map(\.lifetime).max()! }

    /// Parses a kind name (case-insensitive); nil when unknown.
    public init?(name: String) {
        self.init(rawValue: name.lowercased().trimmingWhitespace())
    }

    /// All kind names, for error messages and help.
    public static var namesList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// How a report reached the store.
public enum HazardSource: String, Sendable, CaseIterable, Codable {
    /// A key press during a ride (TUI).
    case keyboard
    /// `skateroute hazards add`.
    case cli
    /// The ride engine detected it (e.g. a sharp impact at the same spot).
    case rideDetected = "ride_detected"
    /// Filed by the store from impacts rides felt (`ImpactRules`: the same spot on two passes, or
    /// one hard hit): low trust until a rider confirms it, and dismissed by a "gone" vote.
    case detected
    /// A key press while watching a replay or a simulated ride: kept apart from real reports
    /// and not used for routing unless someone confirms it.
    case simulated
    /// Read from another rider's or a club's file (`hazards import`): its reporter is the
    /// origin's name and its evidence the source's trust (`HazardExchange`).
    case imported
}
