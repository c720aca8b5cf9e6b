import FoundationEssentials
import Glibc

/// Turns the 10 Hz roughness series into a ride-stability figure, 0–100 % (100 = perfectly
/// smooth), for the ride view's gauge.
///
/// Low-pass: a first-order filter with a 2 s time constant on the window RMS, so the gauge
/// moves with the street rather than with every crack; impact windows are skipped (the figure
/// holds) so a trick does not dip it. Mapping: stability = 100 × (1 − RMS / 0.30 g), clamped to
/// 0…100. It is linear so that equal steps of vibration cost equal steps of gauge: the class
/// bounds land at butter < 0.05 g → > 83 %, okay < 0.12 g → > 60 %, meh < 0.20 g → > 33 %,
/// and crusty paving at ≥ 0.30 g (1.5 × the crusty bound) reads 0 %.
public struct SmoothnessEngine: Sendable {
    /// Low-pass time constant in seconds: a few seconds of rolling, about one block of street.
    public static let timeConstant: Double = 2
    /// RMS (g) that reads 0 % stability: well inside crusty (1.5 × its 0.20 g bound).
    public static let zeroStabilityRMS: Double = 0.30

    private var level: Double?
    private var lastT: Double?

    public init() {}

    /// The smoothed RMS in g (nil before the first clean window).
    public var smoothedRMS: Double? { level }

    /// Current stability in percent (100 before any evidence).
    public var stability: Double { Self.stability(forRMS: level ?? 0) }

    /// Maps an RMS level (g) to stability in percent.
    public static func stability(forRMS rms: Double) -> Double {
        guard rms.isFinite else { return 0 }
        return 100 * min(1, max(0, 1 - rms / zeroStabilityRMS))
    }

    /// Feeds one roughness window; returns the stability in percent after it.
    @discardableResult
    public mutating func push(_ w: RoughnessWindow) -> Double {
        defer { lastT = w.t }
        guard !w.isImpact, w.rms.isFinite else { return stability }
        guard let l = level, let prev = lastT, w.t > prev else {
            if level == nil { level = w.rms }
            return stability
        }
        let alpha = 1 - exp(-(w.t - prev) / Self.timeConstant)
        level = l + alpha * (w.rms - l)
        return stability
    }
}
