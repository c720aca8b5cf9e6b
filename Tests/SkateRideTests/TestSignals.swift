import Foundation
import SkateRide

/// Synthetic inputs for the roughness tests, built independently of the engine's filters.
enum TestSignals {
    /// "Rolling" on a surface: band-limited noise modelled as a sum of `components` sinusoids with
    /// frequencies uniform in 10–35 Hz and random phases (seeded), scaled so its RMS is `rms` g,
    /// added to gravity along `gravity` (unit vector, g). Equal-amplitude components: RMS =
    /// a·√(N/2).
    static func rolling(duration: Double, rate: Double = 100, rms: Double, seed: UInt64,
                        gravity: (Double, Double, Double) = (0, 0, 1), components: Int = 200) -> [MotionSample] {
        var rng = SeededGenerator(seed: seed)
        let freqs = (0..<components).map { _ in 10 + 25 * rng.nextUnit() }
        let phases = (0..<components).map { _ in 2 * Double.pi * rng.nextUnit() }
        let a = rms / (Double(components) / 2).squareRoot()
        let n = Int(duration * rate)
        var out: [MotionSample] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            let t = Double(i) / rate
            var v = 0.0
            for k in 0..<components { v += a * cos(2 * Double.pi * freqs[k] * t + phases[k]) }
            out.append(MotionSample(t: t, ax: gravity.0 * (1 + v), ay: gravity.1 * (1 + v), az: gravity.2 * (1 + v)))
        }
        return out
    }

    /// A pure sinusoid of amplitude `amplitude` g at `frequency` Hz on top of 1 g along z.
    static func sine(frequency: Double, amplitude: Double, duration: Double, rate: Double = 100) -> [MotionSample] {
        (0..<Int(duration * rate)).map { i in
            let t = Double(i) / rate
            return MotionSample(t: t, ax: 0, ay: 0, az: 1 + amplitude * sin(2 * Double.pi * frequency * t))
        }
    }
}
