import FoundationEssentials
import Glibc

/// The GPS error model of synthetic rides.
///
/// Each horizontal axis (east, north) carries a first-order Gauss–Markov error
/// e(k+1) = φ·e(k) + σ·√(1 − φ²)·N(0,1) with φ = exp(−Δt/τ): stationary standard deviation σ per
/// axis, correlation time τ. Consumer GNSS in a city drifts slowly (multipath changes as the
/// rider moves), so consecutive 1 Hz fixes are strongly correlated rather than independent.
/// On top, with probability `outlierProbability` per fix, a single fix jumps 20–40 m in a
/// random direction (a reflection off a façade) and the next fix is normal again.
public struct GPSNoiseModel: Sendable, Equatable {
    /// Per-axis standard deviation in metres (3 m per axis ≈ 4.2 m radial RMS).
    public var sigma: Double = 3
    /// Correlation time in seconds.
    public var correlationTime: Double = 20
    /// Chance per fix of a single-fix outlier.
    public var outlierProbability: Double = 1.0 / 150
    /// Outlier jump range in metres.
    public var outlierMin: Double = 20
    public var outlierMax: Double = 40
    /// Vertical standard deviation of reported elevation, metres.
    public var elevationSigma: Double = 2

    private var ex = 0.0, ey = 0.0
    private var started = false

    public init() {}

    /// The error (east, north, up in metres) of the next fix, `dt` seconds after the previous one.
    public mutating func next(dt: Double, rng: inout SeededGenerator) -> (dx: Double, dy: Double, dz: Double, outlier: Bool) {
        if !started {
            ex = sigma * rng.nextGaussian(); ey = sigma * rng.nextGaussian(); started = true
        } else {
            let phi = exp(-max(0, dt) / correlationTime)
            let k = sigma * (1 - phi * phi).squareRoot()
            ex = phi * ex + k * rng.nextGaussian()
            ey = phi * ey + k * rng.nextGaussian()
        }
        let dz = elevationSigma * rng.nextGaussian()
        if rng.nextUnit() < outlierProbability {
            let r = outlierMin + (outlierMax - outlierMin) * rng.nextUnit()
            let a = 2 * Double.pi * rng.nextUnit()
            return (ex + r * sin(a), ey + r * cos(a), dz, true)
        }
        return (ex, ey, dz, false)
    }
}
