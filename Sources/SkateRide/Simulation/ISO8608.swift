import FoundationEssentials
import Glibc
import SkateCore

/// ISO 8608 road-roughness model, used to synthesise the vibration a skateboard feels.
///
/// The standard describes a road's vertical displacement profile by its one-sided PSD
/// Gd(n) = Gd(n0) · (n / n0)^−w with n the spatial frequency (cycles/m), n0 = 0.1 cycles/m and
/// waviness w = 2, and names classes A (very good) … H (very poor) by Gd(n0): class A has a
/// geometric mean of 16 × 10⁻⁶ m³ (range < 32 × 10⁻⁶), and each class is 4× the previous
/// (B 64, C 256, D 1024, E 4096, F 16384, G 65536, H 262144 × 10⁻⁶ m³).
///
/// **From profile to board vibration.** A wheel following the profile at speed v sees the
/// temporal frequency f = v·n; its vertical acceleration has PSD (2πf)⁴·Gd(f/v)/v, which with
/// w = 2 rises as f². The chain applied here:
/// - geometric enveloping: texture shorter than 2.5 cm (n > 40 cycles/m) is bridged by a
///   50–60 mm wheel's contact patch and never reaches the axle;
/// - the sensor's anti-alias filter: nothing above 0.45 × the sampling rate;
/// - board/wheel filter: a first-order low-pass at 70 Hz (urethane compliance and deck damping)
///   and a second-order Butterworth high-pass at 5 Hz (below it deck and rider heave as one
///   rigid body over long undulations, absorbed by the rider's legs);
/// - a board transmissibility, calibrated so that ISO class A at 4 m/s reads 0.04 g in the
///   roughness engine. Without it (wheel acceleration passed 1:1) class A would read ≈ 0.4 g,
///   i.e. every ISO class — tuned to car tyres — would be "crusty" to small hard wheels; the
///   scalar stands for what urethane, bushings, risers and the loaded deck absorb between the
///   contact patch and a board-mounted sensor, a figure we cannot measure without real rolling
///   recordings. With it, RMS ∝ √(Gd(n0)·v) puts each class a factor 2 above the previous one,
///   matching the roughness classes' spacing: A → butter (0.035–0.045 g at 3–5 m/s),
///   B → okay, C → meh, D and worse → crusty, over the whole 3–5 m/s skating range.
public enum ISO8608 {
    /// Reference spatial frequency n0 in cycles per metre.
    public static let n0: Double = 0.1
    /// Waviness exponent w (the standard's fixed value).
    public static let waviness: Double = 2

    /// ISO 8608 road classes.
    public enum RoadClass: Int, Sendable, CaseIterable, Codable, Comparable {
        case A = 0, B, C, D, E, F, G, H

        /// Geometric mean of the class's Gd(n0) in m³ (16 × 10⁻⁶ × 4^class).
        public var gd0: Double { 16e-6 * pow(4, Double(rawValue)) }
        /// Lower bound of the class's Gd(n0) in m³ (0 for A).
        public var lowerBound: Double { rawValue == 0 ? 0 : 32e-6 * pow(4, Double(rawValue - 1)) }
        /// Upper bound of the class's Gd(n0) in m³ (infinite for H).
        public var upperBound: Double { rawValue == 7 ? .infinity : 32e-6 * pow(4, Double(rawValue)) }
        public var name: String { ["A", "B", "C", "D", "E", "F", "G", "H"][rawValue] }

        /// The class whose range holds `gd0` (m³).
        public init(gd0: Double) {
            self = RoadClass.allCases.first { gd0 < $0.upperBound } ?? .H
        }

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// Displacement PSD Gd(n) in m³ (m² per cycle/m) at spatial frequency `n` (cycles/m).
    public static func displacementPSD(_ n: Double, gd0: Double) -> Double {
        gd0 * pow(n / n0, -waviness)
    }

    // MARK: Board chain constants

    /// Shortest texture wavelength reaching the axle is 2.5 cm (a 50–60 mm wheel bridges shorter).
    public static let maxSpatialFrequency: Double = 40
    /// Longest wavelength synthesised: 2 m (at skating speed ≤ 2.5 Hz, far below the 5 Hz
    /// high-pass; longer waves add nothing but displacement).
    public static let minSpatialFrequency: Double = 0.5
    /// Sensor anti-alias limit as a fraction of the sampling rate.
    public static let antiAliasFraction: Double = 0.45
    /// First-order low-pass corner (Hz) of the wheel/deck path.
    public static let wheelLowPassHz: Double = 70
    /// Second-order high-pass corner (Hz) below which the board moves as a rigid body.
    public static let boardHighPassHz: Double = 5
    /// Speed (m/s) at which the calibration is set: mid of the 3–5 m/s skating range.
    public static let referenceSpeed: Double = 4
    /// What class A reads in the roughness engine at the reference speed (g): inside butter
    /// with room on both sides across 3–5 m/s (see type docs).
    public static let classAReferenceRMS: Double = 0.04
    /// Sampling rate (Hz) of synthesised motion and of the calibration.
    public static let referenceSampleRate: Double = 100

    /// Magnitude of the wheel/board filter at `f` Hz (without the transmissibility scalar).
    public static func boardGain(_ f: Double) -> Double {
        guard f > 0 else { return 0 }
        let lp = 1 / (1 + (f / wheelLowPassHz) * (f / wheelLowPassHz)).squareRoot()
        let r = f / boardHighPassHz
        let hp = r * r / (1 + r * r * r * r).squareRoot()
        return lp * hp
    }

    /// RMS (g) the roughness engine would read for a profile level `gd0` (m³) at `speed` (m/s)
    /// and `sampleRate` (Hz), before the transmissibility scalar: the integral of the
    /// acceleration PSD through the board filter and the engine's actual digital band-pass,
    /// band-limit correction included (so 50, 100 and 200 Hz read alike on an ISO road).
    static func unscaledEngineRMS(gd0: Double, speed v: Double, sampleRate fs: Double) -> Double {
        guard fs >= RoughnessBands.minimumSampleRate else { return 0 }
        let b = RoughnessBands(sampleRate: fs)
        return b.limitCorrection * bandRMS(gd0: gd0, speed: v, sampleRate: fs, low: b.roughness.low, high: b.roughness.high)
    }

    /// RMS (g, unscaled) of the wheel-path vibration of profile level `gd0` (m³) at `speed` (m/s)
    /// sampled at `sampleRate` (Hz), through the board filter and a digital 4th-order Butterworth
    /// band-pass `low`–`high` Hz (numerical integral over 4,000 log-spaced steps).
    static func bandRMS(gd0: Double, speed v: Double, sampleRate fs: Double, low: Double, high: Double) -> Double {
        guard v > 0, gd0 > 0, fs > 0, high > low else { return 0 }
        let band = BandPass(low: low, high: high, sampleRate: fs)
        let fLo = v * minSpatialFrequency
        let fHi = min(v * maxSpatialFrequency, antiAliasFraction * fs)
        guard fHi > fLo else { return 0 }
        let steps = 4000
        let ratio = pow(fHi / fLo, 1 / Double(steps))
        var sum = 0.0
        var f = fLo
        var prev = 0.0
        for i in 0...steps {
            let w = 2 * Double.pi * f
            let ga = w * w * w * w * displacementPSD(f / v, gd0: gd0) / v
            let g = boardGain(f) * band.gain(at: f, sampleRate: fs)
            let value = ga * g * g
            if i > 0 { sum += 0.5 * (value + prev) * (f - f / ratio) }
            prev = value
            f *= ratio
        }
        return sum.squareRoot() / MotionUnits.standardGravity
    }

    /// Fraction of the wheel-path acceleration reaching a board-mounted sensor (see type docs),
    /// derived from `classAReferenceRMS`.
    public static let boardTransmissibility: Double =
        classAReferenceRMS / unscaledEngineRMS(gd0: RoadClass.A.gd0, speed: referenceSpeed, sampleRate: referenceSampleRate)

    /// RMS (g) the roughness engine reads for profile level `gd0` (m³) at `speed` (m/s).
    public static func predictedRMS(gd0: Double, speed: Double, sampleRate: Double = referenceSampleRate) -> Double {
        boardTransmissibility * unscaledEngineRMS(gd0: gd0, speed: speed, sampleRate: sampleRate)
    }

    /// The profile level Gd(n0) (m³) that reads `rms` (g) at `speed` (m/s): RMS ∝ √Gd(n0).
    public static func gd0(forTargetRMS rms: Double, speed: Double, sampleRate: Double = referenceSampleRate) -> Double {
        let a = predictedRMS(gd0: RoadClass.A.gd0, speed: speed, sampleRate: sampleRate)
        guard a > 0, rms > 0 else { return 0 }
        return RoadClass.A.gd0 * (rms / a) * (rms / a)
    }

    /// The ISO class a skate roughness class is synthesised from: butter → A, okay → B,
    /// meh → C, crusty → D (as with OSM smoothness excellent/good/intermediate/bad).
    public static func roadClass(for c: RoughnessClass) -> RoadClass {
        switch c {
        case .butter: return .A
        case .okay: return .B
        case .meh: return .C
        case .crusty: return .D
        }
    }

    /// The ISO class whose reading at `speed` is nearest (in ratio) to `rms` (g).
    public static func roadClass(forTargetRMS rms: Double, speed: Double) -> RoadClass {
        RoadClass(gd0: gd0(forTargetRMS: rms, speed: speed))
    }
}

/// Synthesises 100 Hz vertical board vibration from an ISO 8608 profile.
///
/// The road is a sum of sinusoids in space: `componentCount` spatial frequencies log-spaced over
/// 0.5–40 cycles/m (each jittered inside its bin), amplitude √(2·Gd(n)·Δn), random phase, all
/// from a `SeededGenerator`, so the same seed gives the same road and the same samples. The
/// wheel's position advances by speed / rate per sample; the vertical acceleration is the
/// profile's second derivative along the path times v² (d²z/dt² = v²·z''(x), the v̇·z' term is
/// negligible), each component weighted by the board filter's magnitude at its temporal
/// frequency v·n (zero phase: phase is irrelevant in a random-phase sum) and dropped above the
/// anti-alias limit. The level `gd0` may change between samples (a new edge, a new surface)
/// without changing the texture's shape.
public struct VibrationSynthesizer: Sendable {
    /// Spatial components: ~90–130 are active at skating speed, enough for a Gaussian-like sum.
    public static let defaultComponentCount = 192
    /// Relative speed change that triggers recomputing per-component gains.
    static let gainRefreshTolerance: Double = 0.005

    /// Profile level Gd(n0) in m³.
    public var gd0: Double
    /// Sampling rate in Hz.
    public let sampleRate: Double
    /// Distance travelled along the road in metres.
    public private(set) var distance: Double = 0

    private let k: [Double]          // 2π n (rad/m)
    private let n: [Double]          // cycles/m
    private let phase: [Double]
    private let curvature: [Double]  // k² · unit amplitude (per √gd0)
    private var gains: [Double]
    private var gainSpeed = -1.0

    /// - Parameters:
    ///   - gd0: profile level Gd(n0) in m³ (an ISO class's `gd0`, or `ISO8608.gd0(forTargetRMS:…)`).
    ///   - seed: random seed of the road texture.
    ///   - sampleRate: output rate in Hz (default 100).
    public init(gd0: Double, seed: UInt64, sampleRate: Double = ISO8608.referenceSampleRate,
                componentCount: Int = VibrationSynthesizer.defaultComponentCount) {
        self.gd0 = gd0
        self.sampleRate = sampleRate
        var rng = SeededGenerator(seed: seed)
        let count = max(8, componentCount)
        let lo = ISO8608.minSpatialFrequency, hi = ISO8608.maxSpatialFrequency
        let r = pow(hi / lo, 1 / Double(count))
        var k: [Double] = [], n: [Double] = [], phase: [Double] = [], curv: [Double] = []
        for i in 0..<count {
            let binStart = lo * pow(r, Double(i))
            let ni = binStart * pow(r, rng.nextUnit())
            let dn = binStart * (r - 1)
            let unitAmp = (2 * ISO8608.displacementPSD(ni, gd0: 1) * dn).squareRoot()
            let ki = 2 * Double.pi * ni
            n.append(ni); k.append(ki)
            phase.append(2 * Double.pi * rng.nextUnit())
            curv.append(ki * ki * unitAmp)
        }
        self.k = k; self.n = n; self.phase = phase; curvature = curv
        gains = Array(repeating: 0, count: count)
    }

    /// A synthesiser for an ISO road class.
    public init(roadClass: ISO8608.RoadClass, seed: UInt64, sampleRate: Double = ISO8608.referenceSampleRate) {
        self.init(gd0: roadClass.gd0, seed: seed, sampleRate: sampleRate)
    }

    private mutating func refreshGains(speed v: Double) {
        let limit = ISO8608.antiAliasFraction * sampleRate
        for i in gains.indices {
            let f = v * n[i]
            gains[i] = f <= limit ? ISO8608.boardGain(f) * curvature[i] : 0
        }
        gainSpeed = v
    }

    /// The next sample's vertical vibration in g (gravity excluded) at `speed` m/s; advances the
    /// wheel by speed / rate metres. Zero when standing still.
    public mutating func next(speed: Double) -> Double {
        let v = speed.isFinite ? max(0, speed) : 0
        guard v > 0 else { return 0 }
        if gainSpeed < 0 || abs(v - gainSpeed) > Self.gainRefreshTolerance * gainSpeed { refreshGains(speed: v) }
        distance += v / sampleRate
        let x = distance
        var sum = 0.0
        for i in gains.indices where gains[i] != 0 {
            sum += gains[i] * cos(k[i] * x + phase[i])
        }
        return -v * v * gd0.squareRoot() * sum * ISO8608.boardTransmissibility / MotionUnits.standardGravity
    }

    /// `duration` seconds at constant `speed` as motion samples of a sensor lying flat
    /// (ax = ay = 0, az = 1 g + vibration), times starting at `startTime`.
    public mutating func samples(duration: Double, speed: Double, startTime: Double = 0) -> [MotionSample] {
        let count = Int((duration * sampleRate).rounded())
        var out: [MotionSample] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            let a = next(speed: speed)
            out.append(MotionSample(t: startTime + Double(i) / sampleRate, ax: 0, ay: 0, az: 1 + a))
        }
        return out
    }
}
