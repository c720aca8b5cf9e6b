import FoundationEssentials
import Glibc
import SkateCore

/// Every fitted number of the roughness engine in one place, each with the data it was fitted on.
/// Reproduce the event figures with
/// `skateroute roughness --evaluate ../shared/data/motion/escooter-sidewalk-street-techiepizza2020`.
public enum RoughnessCalibration {
    // MARK: Classes (sustained roughness, RMS of the 4–40 Hz band on the 10 Hz grid)

    /// Butter / okay boundary (g), `RoughnessClass.butterMax`. Fitted on the ISO 8608 synthetic
    /// classes at 4 m/s (class A reads 0.04 g by the board-transmissibility calibration, class B
    /// 0.08 g): halfway in ratio between A and B. Checked on the e-scooter set: every standing
    /// window reads far below it (median 0.002 g).
    public static let butterMax = RoughnessClass.butterMax
    /// Okay / meh boundary (g), `RoughnessClass.okayMax`: between ISO B (0.08 g) and C (0.16 g).
    public static let okayMax = RoughnessClass.okayMax
    /// Meh / crusty boundary (g), `RoughnessClass.mehMax`: between ISO C (0.16 g) and D (0.32 g).
    /// The e-scooter's asphalt and concrete both read above it (medians ≈ 0.2 g at an unknown
    /// speed and mount): on that vehicle the RMS level does not separate the two surfaces
    /// (AUC ≈ 0.5), the event rate does.
    public static let mehMax = RoughnessClass.mehMax

    // MARK: Speed normalisation

    /// Speed (m/s) every roughness figure is normalised to when the speed is known: the middle
    /// of the 3–5 m/s skating range, the same reference as the ISO 8608 calibration.
    public static let referenceSpeed: Double = ISO8608.referenceSpeed
    /// Exponent of the speed model RMS ∝ v^0.5. Source: ISO 8608's road PSD with waviness w = 2
    /// gives a wheel acceleration PSD of (2πf)⁴·Gd(n0)·n0²·(f/v)⁻²/v ∝ f²·v at a fixed temporal
    /// frequency, so the RMS in a fixed band grows as √v (the synthesiser obeys the same law).
    public static let speedExponent: Double = 0.5
    /// Below this speed (m/s) the rider is walking or stopped: no normalisation (the factor
    /// would explode and the vibration is not rolling vibration).
    public static let minimumNormalisingSpeed: Double = 1.0
    /// Speeds are clamped to this range (m/s) before normalising: 1.5 m/s is a slow roll, 10 m/s
    /// a fast downhill; the factor stays within 0.63–1.63.
    public static let normalisingSpeedRange: ClosedRange<Double> = 1.5...10

    /// Factor (vref / v)^0.5 that brings an RMS measured at `speed` (m/s) to the reference speed;
    /// 1 when the speed is unknown, not finite or below `minimumNormalisingSpeed`.
    public static func speedFactor(speed: Double?) -> Double {
        guard let v = speed, v.isFinite, v >= minimumNormalisingSpeed else { return 1 }
        let c = min(max(v, normalisingSpeedRange.lowerBound), normalisingSpeedRange.upperBound)
        return pow(referenceSpeed / c, speedExponent)
    }

    // MARK: Events (short transients in the 4–80 Hz band)

    /// An event's fitted strike (`ImpactSize`, impact g) must be at least this. The rule reads
    /// the strike, not the event band's peak, so whether a jolt is an event does not depend on the
    /// rate (issue 28: a 1.8 g jolt was no event at 100 Hz and a crack at 50 Hz under the band
    /// rule). Fitted on the e-scooter set at 200 Hz and averaged down to 50 Hz (sidewalk > street
    /// events/min AUC over floors 0.6–2 g × ratios 3–20, candidates logged once and re-scored):
    /// 1.0 g keeps all 83 standing windows free of events at both rates (the largest standing
    /// transient fits 0.77 g; 0.8 g scores 0.01 higher with that margin gone), and clears the
    /// 0.7–0.8 g a 0.8 g jolt reads on the seafront ride. The band rule it replaced read 0.89 at
    /// 200 Hz and 0.68 at 50 Hz: its 4–80 Hz band sees the sharp edge of a slab joint that no
    /// 50 Hz sensor can, which is exactly what made it rate-dependent (`roughness --evaluate`).
    public static let eventMinimumPeak: Double = 1.0
    /// …and at least this many times the strike baseline (the running median of the clean
    /// windows' RMS of 20 ms means, `strikeNoiseMeanSeconds`; impact g over g). Plain rolling
    /// reaches ~9 × (ISO D at 4 m/s, 30 s: one 1.8 g fit at 8.8 ×; the seafront ride's lone
    /// rolling fits up to 14 × but under 0.8 g), injected 1.8–4 g strikes 45–130 ×. 10 keeps ISO
    /// A–D event-free at 50, 100 and 200 Hz; on the e-scooter set it scores 0.77 at 200 Hz (8:
    /// 0.81 but rolling events on ISO D; 12: 0.69).
    public static let eventBaselineRatio: Double = 10
    /// The event band's pre-filter: a block is a candidate (its strike fitted and the rule above
    /// applied) when its band peak is at least this share of what a strike at the floor leaves in
    /// this rate's band (`RoughnessBands.impactGain`). A 50 Hz band reads a strike 0.72–1.14 × its
    /// mean by sampling phase alone (`ImpactSize`), so 0.6 lets every strike at the floor through.
    public static let eventCandidateShare: Double = 0.6
    /// …and at least this many times the band baseline. The band's ratio is rate-dependent (a
    /// wider band holds more rolling), so it only spares the fit on plain rolling: Gaussian
    /// rolling peaks at ≈ 3 × its RMS over a block; the rule proper (`eventBaselineRatio`) decides.
    public static let eventCandidateBandRatio: Double = 3
    /// The strike baseline's averaging (s): the rolling under a strike is read as its 20 ms
    /// means of the 4 Hz high-passed vertical, what a 50 Hz sensor (the slowest the engine takes
    /// apart from 40 Hz) sees of it, so the same road gives the same baseline at 50, 100 and
    /// 200 Hz and the fitted strike, itself an average over ≥ 15 ms, is compared with its like.
    public static let strikeNoiseMeanSeconds: Double = 0.02
    /// One transient is one event: a second one within this many seconds (s) belongs to it
    /// (the deck rings for 0.1–0.2 s after a hit; a trick's pop and landing are ~0.4 s apart,
    /// and slabs of ≥ 1.2 m ridden at ≤ 4 m/s put joints ≥ 0.3 s apart).
    public static let eventRefractory: Double = 0.3
    /// Windows of the baseline needed before any event can be called (0.5 s of rolling).
    public static let eventBaselineMinimumWindows = 5
    /// Windows in the running baseline (3 s at 10 Hz): longer than any trick's loud stretch.
    public static let eventBaselineWindows = 30
    /// Windows (1.5 s) without one quiet window (under `RoughnessEngine.impactTailRatio` × the
    /// baseline) that mean a new, rougher surface: the baseline restarts from them. A trick line
    /// every 1.5 s leaves 2–3 quiet windows per cycle; rolling onto cobbles leaves none.
    public static let eventOnsetWindows = 15
    /// Seconds before the strike's onset (`ImpactSize`) searched for the wheel's drop
    /// (`RoughnessEvent.dip`): a pothole 0.2–0.5 m long crossed at 3–5 m/s.
    public static let dipSeconds: Double = 0.15
    /// …up to this long before the onset (s). Anchored on the fitted strike, not on the event
    /// band's peak (whose filters ring within ~20 ms of it and lag it by 10–130 ms depending on the
    /// rate, so the old 20 ms guard before that peak read different stretches at 50 and 200 Hz),
    /// nothing of the strike lies before its onset: only samples wholly before it count.
    public static let dipGuardSeconds: Double = 0
    /// Drops are read as the lowest mean over this long (s): a 50 Hz sensor's sample interval, so
    /// a 200 Hz stream reads a drop through the same 20 ms averaging a 50 Hz one does (4 samples at
    /// 200 Hz, 2 at 100, 1 at 50 and 40), and road texture above ~25 Hz, which a 50 Hz sensor never
    /// sees, cannot fake a drop. A 40–100 ms drop keeps ≥ 85 % of its depth.
    public static let dipMeanSeconds: Double = 0.02
    /// Seconds of rolling, just before the stretch searched for the drop, whose spread is the kind
    /// rule's noise (`RoughnessEvent.noise`, `ImpactKindRules.dropOverNoise`): read around the
    /// strike instead, the drop and the strike themselves fill a third of a 50 Hz window and lift
    /// its spread by a third. 0.3 s holds 15 means at 50 Hz.
    public static let dipNoiseSeconds: Double = 0.3
    /// Lower edge (Hz) of the shape band the drops are read in: gravity and the rider's lean move
    /// slower (as `Bumpiness.lowEdgeHz`); a 40–100 ms drop passes whole, and the tail a 2nd-order
    /// high-pass this low leaves after a 15 ms, 5 g hit is ~0.15 g, under `ImpactKindRules.minDrop`.
    public static let shapeLowEdgeHz: Double = 0.5
    /// Seconds after the strike's end (plus `dipAfterGuardSeconds`) searched for the board
    /// unloading (`RoughnessEvent.dipAfter`): the wheel rode up onto a bump or kerb 5–30 cm long at
    /// 3–5 m/s and the deck falls back. The event is published once this is in (0.135 s after the
    /// band's peak at most, at the next 0.1 s block close).
    public static let dipAfterSeconds: Double = 0.1
    /// …from this long after the strike's end (s): the second half of a symmetric crack pair
    /// (8 ms each) ends within ~10 ms of a 15 ms strike fitted over the first; a deck unloading
    /// lasts 40–100 ms and is deepest 20–50 ms after it starts, so it is read whole at every rate.
    public static let dipAfterGuardSeconds: Double = 0.01
}
