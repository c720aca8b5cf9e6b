/// A rider's verdict on a street's surface.
public enum SurfaceRating: String, Sendable, CaseIterable, Codable {
    case butter, okay, crusty

    /// Middle of the butter class (< 0.05 g).
    public static let butterRMS: Double = 0.04
    /// Middle of the okay class (0.05–0.12 g).
    public static let okayRMS: Double = 0.09
    /// Clearly crusty (≥ 0.20 g), not at the border with meh.
    public static let crustyRMS: Double = 0.25

    /// The RMS vibration (g) a rating stands for, so ratings and measurements share one scale.
    public var nominalRMS: Double {
        switch self {
        case .butter: return Self.butterRMS
        case .okay: return Self.okayRMS
        case .crusty: return Self.crustyRMS
        }
    }

    /// Parses a rating name (case-insensitive); nil when unknown.
    public init?(name: String) { self.init(rawValue: name.lowercased()) }
}
