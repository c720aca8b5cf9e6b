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

    /// A 0.1 s block is an event when its peak is at least this (g). Fitted on the e-scooter set
    /// (200 Hz, 4–80 Hz band, `roughness --evaluate`): 0.9 g keeps all 83 standing windows free
    /// of events (the largest standing transient peaks at 0.88 g) while slab joints clear it
    /// easily; sidewalk/street AUC 0.89 (0.8 g: 0.91 but one standing event; 1.0 g: 0.87).
    /// Correa tricks spliced into rolling all clear it (pops 1.0–2.0 g, landings 3–10 g).
    public static let eventMinimumPeak: Double = 0.9
    /// …and at least this many times the running baseline (median event-band RMS of the last
    /// 3 s). Fitted on the e-scooter set with the 0.9 g floor: sidewalk/street AUC 0.89 at 4.5
    /// (4: 0.87, 5: 0.89 but street reads 0 events/min in most windows); Gaussian rolling noise
    /// (crest ≈ 3 over a block) essentially never reaches 4.5.
    public static let eventBaselineRatio: Double = 4.5
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
