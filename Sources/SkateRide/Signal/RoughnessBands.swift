import FoundationEssentials
import Glibc

/// The two pass-bands of the roughness engine for one input rate (50–400 Hz), and why each edge
/// sits where it does.
///
/// - **Low edge 4 Hz (both bands).** Pushing (1–2 Hz foot strikes), carving and the rider's legs
///   lie below it; a 4th-order Butterworth high-pass at 4 Hz takes 2 Hz down by 24 dB and 1 Hz by
///   48 dB. The old 8 Hz edge also cut the 4–8 Hz thump of bumps, potholes and slab joints
///   (a 0.3–1 m wide feature at 3–5 m/s), which is exactly what riders feel most.
/// - **Roughness high edge: 40 Hz, or 0.4 × the rate when lower.** 40 Hz covers texture down to
///   10 cm wavelength at 4 m/s, and is the highest edge a 100 Hz phone (most input) can carry, so
///   the class thresholds mean the same thing on every device that gives most of the data; above
///   it the sensor mount's own resonances take over. 0.4 × rate keeps the low-pass well clear of
///   Nyquist. A 50 Hz stream gets 4–20 Hz and its RMS is scaled up by `limitCorrection` (see
///   there: a stated model, so the result is marked band-limited).
/// - **Event high edge: 80 Hz, or 0.4 × the rate when lower.** Slab joints, kerbs and landings are
///   steps whose sharp peak lives in the upper band: on the e-scooter recordings (200 Hz) a
///   4–80 Hz peak detector separates jointed sidewalk from asphalt better than 4–40 Hz (AUC
///   ≈ 0.90 against ≈ 0.87 in a prototype sweep over the same thresholds; `RoughnessCalibration`). At ≤ 200 Hz input it equals
///   0.4 × rate; at 100 Hz both bands are 4–40 Hz and share their filters.
public struct RoughnessBands: Sendable {
    /// Low edge of both bands in Hz (see type docs).
    public static let lowEdgeHz: Double = 4
    /// Nominal roughness upper edge in Hz (see type docs).
    public static let roughnessHighEdgeHz: Double = 40
    /// Nominal event upper edge in Hz (see type docs).
    public static let eventHighEdgeHz: Double = 80
    /// Upper edges as a fraction of the sampling rate: keeps each low-pass well under Nyquist.
    public static let maxEdgeFractionOfRate: Double = 0.4
    /// Minimum input rate in Hz: at 40 Hz the band is 4–16 Hz, two octaves; below it too little
    /// of the surface is left to call a class.
    public static let minimumSampleRate: Double = 40

    /// Input rate in Hz.
    public let sampleRate: Double
    /// Roughness band in Hz.
    public let roughness: (low: Double, high: Double)
    /// Event band in Hz.
    public let events: (low: Double, high: Double)
    /// Factor applied to the band-limited RMS (1 when the full 4–40 Hz band fits).
    public let limitCorrection: Double

    public init(sampleRate fs: Double) {
        sampleRate = fs
        let cap = Self.maxEdgeFractionOfRate * fs
        roughness = (Self.lowEdgeHz, min(Self.roughnessHighEdgeHz, cap))
        events = (Self.lowEdgeHz, min(Self.eventHighEdgeHz, cap))
        limitCorrection = Self.correction(sampleRate: fs)
    }

    /// Width (s) of the reference impact: a half-sine jolt of 15 ms, the wheel striking a slab
    /// edge or a pothole's rim at skating speed (a 4–6 cm rim at 3–4 m/s).
    public static let referenceImpactSeconds: Double = 0.015

    /// Peak of this rate's event band for a reference strike of 1 g (≈ 0.7 at 200 Hz, 0.45 at
    /// 100 Hz, 0.3 at 50 Hz): the engine's pre-filter scales the event floor by it
    /// (`RoughnessCalibration.eventCandidateShare`). An event's size and the rule itself are the
    /// fitted strike (`ImpactSize`); only an event with no strike above the level (a drop alone)
    /// reads its band peak over this instead.
    public var impactGain: Double { Self.impulsePeak(sampleRate: sampleRate, high: events.high) }

    /// How closely the same impact's size (`RoughnessEvent.peak`, `ImpactSize`) reads at 50, 100
    /// and 200 Hz: each rate within this fraction of the impact's middle reading over the rates
    /// (`sizesAgree`). Without rolling, a lone strike fits its amplitude exactly at every rate and
    /// sampling phase, and one right against a drop or a deck unloading within 0.3 % at 100 and
    /// 200 Hz; at 50 Hz the sample both share cannot be split, and a short (40–50 ms) drop ending
    /// at a small strike leaves it up to 19 % low (40 Hz: 28 %; `ImpactRateTests`). Rolling under
    /// the strike moves each rate's fit on its own by up to ~0.2 g on ISO A/B at 4 m/s: on
    /// `ImpactRateTests`' seeds every rate reads within 14.8 % of the middle, and 62 of 66 impacts
    /// within 15 % of each other pairwise (the widest pair 24 %, a 1.9 g pothole). 20 % covers the
    /// 50 Hz edge sample; it is still narrow against the kind rule's 2.5 g line
    /// (`ImpactKindRules.crackMaxPeak`: a jolt read 2.0 g at one rate reads under 2.5 g at all).
    public static let impactRateTolerance: Double = 0.2

    /// True when the sizes (impact g) one impact read at several rates agree: each is within
    /// `impactRateTolerance` of their middle value (the median; for two rates, their mean).
    public static func sizesAgree(_ sizes: [Double]) -> Bool {
        guard !sizes.isEmpty else { return true }
        let v = sizes.sorted(), n = v.count
        let middle = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
        return v.allSatisfy { abs($0 - middle) <= impactRateTolerance * middle + 1e-12 }
    }

    /// Peak |output| of the event band (4 Hz high-pass, `high` low-pass, 4th-order each) for the
    /// reference impact of 1 g as a sensor at `sampleRate` samples it (each sample the pulse's mean
    /// over its interval), averaged over four sub-sample phases.
    static func impulsePeak(sampleRate fs: Double, high: Double) -> Double {
        let w = referenceImpactSeconds, dt = 1 / fs
        var total = 0.0
        for phase in 0..<4 {
            var hp = (Biquad.highPass(cutoff: lowEdgeHz, q: Butterworth4.q1, sampleRate: fs),
                      Biquad.highPass(cutoff: lowEdgeHz, q: Butterworth4.q2, sampleRate: fs))
            var lp = (Biquad.lowPass(cutoff: high, q: Butterworth4.q1, sampleRate: fs),
                      Biquad.lowPass(cutoff: high, q: Butterworth4.q2, sampleRate: fs))
            let start = 0.05 + Double(phase) / 4 * dt
            var peak = 0.0
            for i in 0..<Int(0.3 * fs) {
                let t = Double(i + 1) * dt
                let a = max(start, t - dt), b = min(start + w, t)
                var x = 0.0
                if b > a {
                    let k = Double.pi / w
                    x = (cos(k * (a - start)) - cos(k * (b - start))) / k / dt
                }
                let y = lp.1.process(lp.0.process(hp.1.process(hp.0.process(x))))
                peak = max(peak, abs(y))
            }
            total += peak
        }
        return total / 4
    }

    /// True when the roughness band had to stop below 40 Hz (input under 100 Hz).
    public var isLimited: Bool { roughness.high < Self.roughnessHighEdgeHz - 1e-9 }

    /// Model correction for a band-limited stream: the ratio of the RMS an ISO 8608 road
    /// (waviness w = 2, through the board chain of `ISO8608`) gives in the full 4–40 Hz band at
    /// 100 Hz to what it gives in this rate's band, at the reference speed (4 m/s). Surface
    /// vibration rises with frequency (acceleration PSD ∝ f² for w = 2), so a 4–20 Hz band sees
    /// about a third of the 4–40 Hz RMS; scaling it back keeps a 50 Hz phone in the same class as
    /// a 100 Hz one on a road of that shape. It is an assumption about the spectrum (real
    /// surfaces with strong joints are less steep), which is why 50 Hz results carry a note.
    static func correction(sampleRate fs: Double) -> Double {
        guard fs.isFinite, fs > 0, Self.maxEdgeFractionOfRate * fs < Self.roughnessHighEdgeHz - 1e-9 else { return 1 }
        let full = ISO8608.bandRMS(gd0: ISO8608.RoadClass.A.gd0, speed: ISO8608.referenceSpeed,
                                   sampleRate: ISO8608.referenceSampleRate, low: lowEdgeHz, high: roughnessHighEdgeHz)
        let part = ISO8608.bandRMS(gd0: ISO8608.RoadClass.A.gd0, speed: ISO8608.referenceSpeed,
                                   sampleRate: fs, low: lowEdgeHz, high: Self.maxEdgeFractionOfRate * fs)
        return part > 0 ? full / part : 1
    }
}
