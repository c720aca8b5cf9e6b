import FoundationEssentials
import Glibc

/// Bumpiness: how much the rider is shaken, impacts and body motion included, beside the robust
/// roughness (which leaves impacts out and keeps to 4–40 Hz). The RMS (g) of the vertical
/// acceleration (projected on the mean gravity direction) in every band the rate allows, from
/// `lowEdgeHz` to 0.45 × rate, over the samples the caller counts as rolling (`rolling`), so
/// standing, pushing and carving stretches can be left out by the motion state.
public enum Bumpiness {
    /// Lower edge (Hz): below it the board's tilt and the rider's lean move gravity, not the road.
    public static let lowEdgeHz: Double = 0.5
    /// Seconds left out at the start while the high-pass settles (2nd order at 0.5 Hz: ~1 s).
    public static let settleSeconds: Double = 1

    /// - Parameters:
    ///   - samples: accelerations in g, in time order.
    ///   - sampleRate: input rate in Hz.
    ///   - rolling: whether the sample at time `t` (s) counts; nil counts every sample.
    /// - Returns: RMS in g, nil without a counted sample after the settling time.
    public static func measure(_ samples: [MotionSample], sampleRate: Double, rolling: ((Double) -> Bool)? = nil) -> Double? {
        let y = band(samples, sampleRate: sampleRate, rolling: rolling)
        guard !y.isEmpty else { return nil }
        return (y.reduce(0) { $0 + $1 * $1 } / Double(y.count)).squareRoot()
    }

    /// Impulsiveness: the excess kurtosis (1; 0 for Gaussian rolling noise) of the same band over
    /// the same samples as `measure`. Slab joints, cracks and potholes come as jolts standing out of
    /// quiet rolling, which lifts the fourth moment against the square of the second; a smooth
    /// street shaken as hard but evenly reads near 0. Level-free, so neither speed, mounting nor
    /// the recording day scale it, and nothing is fitted.
    /// - Returns: nil with fewer than `minImpulsivenessSamples` counted samples or a silent band.
    public static func impulsiveness(_ samples: [MotionSample], sampleRate: Double, rolling: ((Double) -> Bool)? = nil) -> Double? {
        let y = band(samples, sampleRate: sampleRate, rolling: rolling)
        guard y.count >= minImpulsivenessSamples else { return nil }
        let n = Double(y.count)
        let mean = y.reduce(0, +) / n
        var m2 = 0.0, m4 = 0.0
        for v in y {
            let d = (v - mean) * (v - mean)
            m2 += d; m4 += d * d
        }
        m2 /= n; m4 /= n
        return m2 > 1e-18 ? m4 / (m2 * m2) - 3 : nil
    }

    /// Samples below which a fourth moment says little (1 s at 50 Hz).
    public static let minImpulsivenessSamples = 50

    /// The band's values (g) at the counted samples: vertical acceleration on the mean gravity
    /// direction, high-passed at `lowEdgeHz`, after `settleSeconds`, where `rolling` says so.
    static func band(_ samples: [MotionSample], sampleRate: Double, rolling: ((Double) -> Bool)?) -> [Double] {
        guard let first = samples.first, sampleRate > 2 * lowEdgeHz else { return [] }
        var mx = 0.0, my = 0.0, mz = 0.0
        for s in samples { mx += s.ax; my += s.ay; mz += s.az }
        let m = (mx * mx + my * my + mz * mz).squareRoot()
        let (ux, uy, uz) = m > 1e-9 ? (mx / m, my / m, mz / m) : (0, 0, 1)
        var hp = Biquad.highPass(cutoff: lowEdgeHz, q: 0.5.squareRoot(), sampleRate: sampleRate)
        let offset = first.ax * ux + first.ay * uy + first.az * uz
        var out: [Double] = []
        out.reserveCapacity(samples.count)
        for s in samples {
            let y = hp.process(s.ax * ux + s.ay * uy + s.az * uz - offset)
            guard s.t - first.t >= settleSeconds, rolling?(s.t) ?? true else { continue }
            out.append(y)
        }
        return out
    }
}
