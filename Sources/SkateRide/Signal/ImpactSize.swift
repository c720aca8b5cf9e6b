import FoundationEssentials
import Glibc

/// How big a jolt was, read the same at every sample rate: the amplitude of the reference strike
/// (a 15 ms half-sine, `RoughnessBands.referenceImpactSeconds`) that best fits the raw vertical
/// samples around an event's peak, in **impact g**.
///
/// Why a fit, not a band peak: a sensor averages each sample interval (its anti-alias filter), so
/// a 15 ms strike sampled at 50 Hz lands in one 20 ms sample or is split across two, and what it
/// leaves above ~10 Hz depends on that phase and folds back under Nyquist. The event band's
/// largest sample (4–20 Hz at 50 Hz, 4–40 at 100, 4–80 at 200) therefore read the same strike
/// 0.72–1.14 × its mean by phase alone at 50 Hz, a block boundary could cut the pulse's rise
/// short, and a pothole's drop or a bump's unloading leaked into a band that differs per rate.
/// Averaging keeps *area*, whatever the rate and phase: the fit models each sample as the mean
/// of a strike of unknown amplitude and onset over that sample's interval (the onset searched
/// every 1/8 sample, so no sampling phase is missed), so a lone 15 ms strike of A g reads A g at
/// 40, 50, 100 or 200 Hz. What is left of the rate: a sample that holds both the end of a drop
/// and the start of the strike cannot be split exactly; the fit takes the drop to ramp linearly
/// to zero at the strike and removes that share using the whole sample before (or after, for a
/// deck unloading). Without rolling such a strike then reads within 0.3 % at 100 and 200 Hz and
/// within 19 % at 50 Hz, where a short (40–50 ms) drop's tail is steeper than the ramp
/// (`RoughnessBands.impactRateTolerance`). And a
/// strike much longer or shorter than 15 ms reads as the 15 ms one of the same fit (a 30 ms one
/// as ~2 g per g at 50 Hz, ~1.3 at 200 Hz) — the size of a *short* jolt, which is what the
/// hard-hit and crack/bump lines are about.
///
/// | constant | value | why |
/// |---|---|---|
/// | `levelBefore`, `levelAfter` | 0.25 s, 0.1 s | the level under the strike is the median of the vertical over this span: gravity's tilt and slow body motion move it, a 40–100 ms drop (under a third of the span) hardly does; the span after ends before the event is published anyway |
/// | `onsetBefore`, `onsetAfter` | 0.15 s, 10 ms | where the strike may start around the event band's largest sample: that band's filters put it 10–25 ms after the strike's onset at 200 Hz, 35–40 ms at 100 Hz, 50–70 ms at 50 Hz and up to 130 ms at 40 Hz (a later lobe of the ringing) |
/// | `onsetSteps` | 8 per sample | the onset grid: fine enough that the best fit is within 1 % of the exact one |
///
/// The fitted onset also anchors the kind guess: the drop before and the unloading after are read
/// from the strike's own start and end (`RoughnessCalibration.dipSeconds`), not from the event
/// band's peak, whose lag depends on the rate.
public enum ImpactSize {
    /// Seconds before the event peak whose median is the level (see type docs).
    public static let levelBefore: Double = 0.25
    /// Seconds after the event peak whose median is the level.
    public static let levelAfter: Double = 0.1
    /// Earliest strike onset searched, seconds before the event-band peak.
    public static let onsetBefore: Double = 0.15
    /// Latest strike onset searched, seconds after the event-band peak.
    public static let onsetAfter: Double = 0.01
    /// Onsets tried per sample interval.
    public static let onsetSteps = 8

    /// The best-fitting reference strike around an event.
    public struct Fit: Sendable, Equatable {
        /// Amplitude in impact g (> 0).
        public var amplitude: Double
        /// Onset in sample positions: sample `i` covers (i − 1, i], so onset 10.5 is half-way
        /// through sample 11. The strike ends `referenceImpactSeconds × rate` later.
        public var onset: Double
    }

    /// The reference strike that best fits `value(i)` around sample `peak` (least squares,
    /// upward strikes only), nil when nothing there rises above the level.
    /// - Parameters:
    ///   - value: the raw vertical acceleration (g, gravity's level need not be removed) of
    ///     sample `i`, where sample `i` is the sensor's mean over ((i − 1)·dt, i·dt].
    ///   - range: the sample indices `value` can answer.
    ///   - peak: the event band's largest sample.
    ///   - sampleRate: Hz.
    ///   - scratch: reused storage for the level's median.
    public static func strike(value: (Int) -> Double, range: ClosedRange<Int>, peak: Int, sampleRate: Double,
                              scratch: inout [Double]) -> Fit? {
        strike(value: value, range: range, peak: peak, weights: Weights(sampleRate: sampleRate), scratch: &scratch)
    }

    /// The same fit with the strike's per-sample weights worked out beforehand (`Weights`, one per
    /// rate: the roughness engine keeps its own).
    public static func strike(value: (Int) -> Double, range: ClosedRange<Int>, peak: Int, weights: Weights,
                              scratch: inout [Double]) -> Fit? {
        let sampleRate = weights.sampleRate
        // Everything in sample positions: sample i covers (i − 1, i].
        let width = weights.width
        // The level: median of the vertical around the peak.
        let lo = max(range.lowerBound, peak - Int((levelBefore * sampleRate).rounded())),
            hi = min(range.upperBound, peak + Int((levelAfter * sampleRate).rounded()))
        guard lo <= hi else { return nil }
        scratch.removeAll(keepingCapacity: true)
        for i in lo...hi { scratch.append(value(i)) }
        // The middle value a sort would give (`Selection`).
        let level = Selection.kth(&scratch, scratch.count / 2)
        let steps = Double(onsetSteps)
        let first = Int((-onsetBefore * sampleRate * steps).rounded(.down))
        let last = Int((onsetAfter * sampleRate * steps).rounded(.up))
        var bestScore = 0.0, best: Fit?
        for step in first...last {
            let onset = Double(peak) + Double(step) / steps
            // Samples whose interval overlaps [onset, onset + width]; each holds the strike's mean
            // over its interval (∫ sin over the overlap, over one sample).
            let i0 = Int(onset.rounded(.down)) + 1, i1 = Int((onset + width).rounded(.up))
            guard i0 >= range.lowerBound, i1 <= range.upperBound, i0 <= i1 else { continue }
            // A drop (or unloading) right against the strike shares its edge samples: taken to ramp
            // linearly to 0 at the strike, its share of an edge sample that is a fraction f outside
            // the strike is f²/(2f + 1) of the whole sample next to it (when that one is below the level).
            let before = i0 - 1 >= range.lowerBound ? min(0, value(i0 - 1) - level) : 0
            let after = i1 + 1 <= range.upperBound ? min(0, value(i1 + 1) - level) : 0
            let phase = weights.phases[((step % onsetSteps) + onsetSteps) % onsetSteps]
            var xs = 0.0, ss = 0.0
            for (m, w) in phase.enumerated() where i0 + m <= i1 {
                guard w.overlaps else { continue }
                var x = value(i0 + m) - level
                let fb = w.before, fa = w.after
                if fb > 0 { x -= before * fb * fb / (2 * fb + 1) }
                if fa > 0 { x -= after * fa * fa / (2 * fa + 1) }
                xs += x * w.share
                ss += w.share * w.share
            }
            guard ss > 0, xs > 0 else { continue }
            let score = xs * xs / ss
            if score > bestScore { bestScore = score; best = Fit(amplitude: xs / ss, onset: onset) }
        }
        return best
    }

    /// The reference strike's overlap with each sample it may touch, for every onset phase
    /// (`onsetSteps` per sample interval) at one sample rate: what the fit computed with two
    /// cosines per sample and onset tried, once per rate instead (an event's fit tries ~130
    /// onsets at 100 Hz). Positions are relative to the onset, so each value is the very Double
    /// the direct formula gives when the strike's width is a multiple of 1/`onsetSteps` sample
    /// (50, 100 and 200 Hz) and within an ulp of it otherwise.
    public struct Weights: Sendable {
        /// Hz.
        public let sampleRate: Double
        /// The strike's width in samples (`RoughnessBands.referenceImpactSeconds` × rate).
        public let width: Double
        /// One sample `m` after the onset's sample (the first one the strike reaches is m = 0).
        struct Sample: Sendable {
            /// Whether the strike overlaps the sample's interval at all.
            var overlaps: Bool
            /// The strike's mean over the sample for a 1 g strike, times the interval (∫ sin, samples).
            var share: Double
            /// The fraction of the sample before the onset (m = 0) and after the strike's end (the
            /// last sample), 0 elsewhere: the drop ramp's share is f²/(2f + 1) of the sample next to it.
            var before: Double
            var after: Double
        }
        /// By phase p (onset p/`onsetSteps` of a sample past a sample boundary).
        let phases: [[Sample]]

        public init(sampleRate: Double) {
            self.sampleRate = sampleRate
            let width = RoughnessBands.referenceImpactSeconds * sampleRate
            self.width = width
            let steps = Double(onsetSteps)
            let k = Double.pi / width
            phases = (0..<onsetSteps).map { p in
                // Onset at o = p / steps past the boundary of sample 0's interval (0, 1]: sample m
                // covers (m, m + 1] in these units, as sample i0 + m does around the real onset.
                let o = Double(p) / steps
                // One spare sample: the fit stops at the strike's last sample anyway.
                let count = max(0, Int((o + width).rounded(.up))) + 1
                return (0..<count).map { m -> Sample in
                    let a = max(0, Double(m) - o), b = min(width, Double(m + 1) - o)
                    guard b > a else { return Sample(overlaps: false, share: 0, before: 0, after: 0) }
                    let t = (cos(k * a) - cos(k * b)) / k
                    let fb = min(1, max(0, o - Double(m))), fa = min(1, max(0, Double(m + 1) - o - width))
                    return Sample(overlaps: true, share: t, before: fb, after: fa)
                }
            }
        }
    }
}
