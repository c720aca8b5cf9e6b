import FoundationEssentials
import Glibc

/// A second-order IIR section (transposed direct form II), coefficients normalised by a0.
struct Biquad: Sendable {
    var b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    var z1 = 0.0, z2 = 0.0

    @inline(__always)
    mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    mutating func reset() { z1 = 0; z2 = 0 }

    /// Magnitude of the section's frequency response at `f` Hz.
    func gain(at f: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * f / sampleRate
        let c1 = cos(w), s1 = sin(w), c2 = cos(2 * w), s2 = sin(2 * w)
        let nr = b0 + b1 * c1 + b2 * c2, ni = -(b1 * s1 + b2 * s2)
        let dr = 1 + a1 * c1 + a2 * c2, di = -(a1 * s1 + a2 * s2)
        return ((nr * nr + ni * ni) / (dr * dr + di * di)).squareRoot()
    }

    /// Low-pass section at `cutoff` Hz with quality `q` (bilinear transform, pre-warped at the
    /// cutoff: the Audio EQ Cookbook form).
    static func lowPass(cutoff: Double, q: Double, sampleRate: Double) -> Biquad {
        let w = 2 * Double.pi * cutoff / sampleRate
        let c = cos(w), alpha = sin(w) / (2 * q)
        let a0 = 1 + alpha
        return Biquad(b0: (1 - c) / 2 / a0, b1: (1 - c) / a0, b2: (1 - c) / 2 / a0,
                      a1: -2 * c / a0, a2: (1 - alpha) / a0)
    }

    /// High-pass section at `cutoff` Hz with quality `q` (same transform).
    static func highPass(cutoff: Double, q: Double, sampleRate: Double) -> Biquad {
        let w = 2 * Double.pi * cutoff / sampleRate
        let c = cos(w), alpha = sin(w) / (2 * q)
        let a0 = 1 + alpha
        return Biquad(b0: (1 + c) / 2 / a0, b1: -(1 + c) / a0, b2: (1 + c) / 2 / a0,
                      a1: -2 * c / a0, a2: (1 - alpha) / a0)
    }
}

/// Quality factors of the two sections of a 4th-order Butterworth filter
/// (1 / (2 cos(π/8)) and 1 / (2 cos(3π/8))).
enum Butterworth4 {
    static let q1 = 1 / (2 * cos(Double.pi / 8))
    static let q2 = 1 / (2 * cos(3 * Double.pi / 8))

    /// Magnitude of an analog 4th-order Butterworth low-pass at `f` for cutoff `fc`.
    static func lowPassGain(_ f: Double, cutoff fc: Double) -> Double {
        1 / (1 + pow(f / fc, 8)).squareRoot()
    }

    /// Magnitude of an analog 4th-order Butterworth high-pass at `f` for cutoff `fc`.
    static func highPassGain(_ f: Double, cutoff fc: Double) -> Double {
        guard f > 0 else { return 0 }
        return 1 / (1 + pow(fc / f, 8)).squareRoot()
    }
}

/// The roughness band-pass: a 4th-order Butterworth high-pass then a 4th-order Butterworth
/// low-pass (four biquads), flat to ±0.1 dB over most of the band.
struct BandPass: Sendable {
    var sections: (Biquad, Biquad, Biquad, Biquad)

    init(low: Double, high: Double, sampleRate: Double) {
        sections = (Biquad.highPass(cutoff: low, q: Butterworth4.q1, sampleRate: sampleRate),
                    Biquad.highPass(cutoff: low, q: Butterworth4.q2, sampleRate: sampleRate),
                    Biquad.lowPass(cutoff: high, q: Butterworth4.q1, sampleRate: sampleRate),
                    Biquad.lowPass(cutoff: high, q: Butterworth4.q2, sampleRate: sampleRate))
    }

    @inline(__always)
    mutating func process(_ x: Double) -> Double {
        let a = sections.0.process(x)
        let b = sections.1.process(a)
        let c = sections.2.process(b)
        return sections.3.process(c)
    }

    /// Magnitude of the whole band-pass at `f` Hz.
    func gain(at f: Double, sampleRate fs: Double) -> Double {
        sections.0.gain(at: f, sampleRate: fs) * sections.1.gain(at: f, sampleRate: fs)
            * sections.2.gain(at: f, sampleRate: fs) * sections.3.gain(at: f, sampleRate: fs)
    }

    mutating func reset() {
        sections.0.reset(); sections.1.reset(); sections.2.reset(); sections.3.reset()
    }
}
