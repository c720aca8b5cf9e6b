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
        guard let first = samples.first, sampleRate > 2 * lowEdgeHz else { return nil }
        var mx = 0.0, my = 0.0, mz = 0.0
        for s in samples { mx += s.ax; my += s.ay; mz += s.az }
        let m = (mx * mx + my * my + mz * mz).squareRoot()
        let (ux, uy, uz) = m > 1e-9 ? (mx / m, my / m, mz / m) : (0, 0, 1)
        var hp = Biquad.highPass(cutoff: lowEdgeHz, q: 0.5.squareRoot(), sampleRate: sampleRate)
        let offset = first.ax * ux + first.ay * uy + first.az * uz
        var sum = 0.0, n = 0
        for s in samples {
            let y = hp.process(s.ax * ux + s.ay * uy + s.az * uz - offset)
            guard s.t - first.t >= settleSeconds, rolling?(s.t) ?? true else { continue }
            sum += y * y
            n += 1
        }
        return n > 0 ? (sum / Double(n)).squareRoot() : nil
    }
}
