/// How a surface feels under small hard wheels, from RMS vertical vibration (g) after the
/// roughness band-pass. Thresholds from the project's design facts: butter < 0.05 ≤ okay < 0.12
/// ≤ meh < 0.20 ≤ crusty.
public enum RoughnessClass: Int, Sendable, CaseIterable, Codable, Comparable {
    case butter = 0, okay, meh, crusty

    /// Upper RMS bound (g) of butter: below this a 50 mm urethane wheel hums, nothing more.
    public static let butterMax: Double = 0.05
    /// Upper RMS bound (g) of okay: noticeable buzz, full speed still comfortable.
    public static let okayMax: Double = 0.12
    /// Upper RMS bound (g) of meh: feet tingle, riders slow down; above it is crusty.
    public static let mehMax: Double = 0.20

    /// The class of an RMS vibration level in g.
    public init(rms: Double) {
        if !(rms >= 0) || rms < Self.butterMax { self = .butter }  // NaN counts as butter: no evidence of roughness
        else if rms < Self.okayMax { self = .okay }
        else if rms < Self.mehMax { self = .meh }
        else { self = .crusty }
    }

    public var name: String {
        switch self {
        case .butter: return "butter"
        case .okay: return "okay"
        case .meh: return "meh"
        case .crusty: return "crusty"
        }
    }

    public init?(name: String) {
        guard let c = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = c
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// Braking flag of a stretch of route, from sustained downhill grade.
public enum BrakingLevel: Int, Sendable, Codable, Comparable, CaseIterable {
    /// Nothing to manage.
    case none = 0
    /// Grade ≤ −6 % sustained over ≥ 30 m: control speed.
    case caution
    /// Grade ≤ −8 % sustained over ≥ 50 m: brake (foot-brake, carve or walk).
    case braking

    public var name: String {
        switch self {
        case .none: return "none"
        case .caution: return "caution"
        case .braking: return "braking"
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// Metres per roughness class: a fixed slot per class (no dictionary, so building a plan in a
/// fresh process sets up no hashing for `RoughnessClass`).
public struct ClassLengths: Sendable, Equatable {
    private var metres: [Double] = Array(repeating: 0, count: RoughnessClass.allCases.count)

    public init() {}

    /// Metres of the class (0 when none).
    public subscript(_ c: RoughnessClass) -> Double {
        get { metres[c.rawValue] }
        set { metres[c.rawValue] = newValue }
    }

    /// Total metres over all classes.
    public var total: Double { metres.reduce(0, +) }
}
