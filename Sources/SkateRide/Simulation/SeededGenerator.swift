import FoundationEssentials
import Glibc
import SkateCore

/// A small deterministic random number generator: xoshiro256** seeded through SplitMix64.
/// Same seed → same stream on every platform and Swift version (unlike the standard library's
/// `random(in:using:)` helpers, whose algorithms may change), so synthetic rides are reproducible.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// - Parameter seed: any 64-bit value (0 included).
    public init(seed: UInt64) {
        var sm = SplitMix64(seed: seed)
        s0 = sm.next(); s1 = sm.next(); s2 = sm.next(); s3 = sm.next()
    }

    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    @inline(__always) private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// A uniform double in [0, 1) from the top 53 bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A standard normal deviate (Box–Muller; one of the pair is discarded for simplicity).
    public mutating func nextGaussian() -> Double {
        var u = nextUnit()
        while u <= 0 { u = nextUnit() }
        let v = nextUnit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}

