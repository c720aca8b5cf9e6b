import FoundationEssentials
import Glibc

/// What the rider is doing over a second of motion, read from the accelerations alone, for the
/// bumpiness figure (issue 28): **pushing** (a foot on the ground surges the board forward and
/// rocks it at the stride, 0.7–2 Hz) and **carving** (the board leans and swings from side to
/// side, 0.3–1 Hz) shake the sensor as much as a rough street does, but they are the rider, not
/// the road. Both live in the body band (0.5–3 Hz) on every axis; the road's vibration at skating
/// speed lives above 4 Hz. Neither is told apart from the other (the mounting, so the forward
/// axis, is unknown): a loud body band is "pushing or carving".
public enum RideActivity: String, Sendable, Equatable, CaseIterable {
    /// Rolling: only the road shakes the sensor (counts toward bumpiness).
    case cruising
    /// Pushing or carving: the body band is loud (left out of bumpiness).
    case pushingOrCarving
}

/// The activity of one gate window.
public struct ActivityWindow: Sendable, Equatable {
    /// Start and end of the window, seconds (the samples' time base).
    public var start: Double
    public var end: Double
    /// RMS (g) of the acceleration's body band (gravity removed) over the window, all axes.
    public var bodyRMS: Double
    public var activity: RideActivity
}

/// The gate: windows of `windowSeconds` whose body-band RMS reaches `bodyMotionRMS` are pushing
/// or carving.
///
/// | constant | value | why |
/// |---|---|---|
/// | `windowSeconds` | 1 s | one push stride (0.5–1.4 s) or half a carve |
/// | `bodyLowHz` … `bodyHighHz` | 0.5–3 Hz | strides and sway; the board's tilt drifts slower, the road at ≥ 1 m/s shakes faster |
/// | `bodyMotionRMS` | 0.05 g | a push surges the board 0.1–0.3 g, a carve swings it 0.1–0.3 g (RMS ≥ 0.07); ISO 8608 roads A–D at 4 m/s read ≤ 0.02 g in this band (`BodyMotionGateTests`) |
public enum BodyMotionGate {
    public static let windowSeconds: Double = 1
    public static let bodyLowHz: Double = 0.5
    public static let bodyHighHz: Double = 3
    public static let bodyMotionRMS: Double = 0.05

    /// The activity of each whole window of the stream (the last partial one is dropped).
    /// - Parameters:
    ///   - samples: accelerations in g, in time order.
    ///   - sampleRate: input rate in Hz (the filters' design rate).
    public static func windows(_ samples: [MotionSample], sampleRate: Double) -> [ActivityWindow] {
        guard sampleRate > 2 * bodyHighHz else { return [] }
        var gate = Stream(sampleRate: sampleRate)
        var out: [ActivityWindow] = []
        for s in samples { if let w = gate.push(s) { out.append(w) } }
        return out
    }

    /// The gate one sample at a time (the ride session's bumpiness, `BumpinessMeter`); `windows`
    /// is this over a whole stream.
    public struct Stream: Sendable {
        /// Hz (the filters' design rate; above 2 × `bodyHighHz`).
        public let sampleRate: Double
        private var fx: (Biquad, Biquad), fy: (Biquad, Biquad), fz: (Biquad, Biquad)
        private var x0 = 0.0, y0 = 0.0, z0 = 0.0
        private var started = false
        private var start = 0.0, sum = 0.0, n = 0

        public init(sampleRate: Double) {
            self.sampleRate = sampleRate
            func band() -> (Biquad, Biquad) {
                (Biquad.highPass(cutoff: bodyLowHz, q: 0.5.squareRoot(), sampleRate: sampleRate),
                 Biquad.lowPass(cutoff: bodyHighHz, q: 0.5.squareRoot(), sampleRate: sampleRate))
            }
            fx = band(); fy = band(); fz = band()
        }

        /// Feeds one sample (g); returns the window this sample's time closed (the one before it),
        /// if any. Windows start at the first sample and follow each other every `windowSeconds`.
        public mutating func push(_ s: MotionSample) -> ActivityWindow? {
            if !started {
                // The filters start from the first sample's value, so gravity does not ring them.
                started = true
                x0 = s.ax; y0 = s.ay; z0 = s.az
                start = s.t
            }
            var closed: ActivityWindow?
            if s.t - start >= windowSeconds {
                let rms = n > 0 ? (sum / Double(n)).squareRoot() : 0
                closed = ActivityWindow(start: start, end: start + windowSeconds, bodyRMS: rms,
                                        activity: rms >= bodyMotionRMS ? .pushingOrCarving : .cruising)
                start += windowSeconds * ((s.t - start) / windowSeconds).rounded(.down)
                sum = 0; n = 0
            }
            let x = fx.1.process(fx.0.process(s.ax - x0))
            let y = fy.1.process(fy.0.process(s.ay - y0))
            let z = fz.1.process(fz.0.process(s.az - z0))
            sum += x * x + y * y + z * z
            n += 1
            return closed
        }

        /// The activity of the open window from what it holds so far (nil before any sample).
        public var openActivity: RideActivity? {
            guard n > 0 else { return nil }
            return (sum / Double(n)).squareRoot() >= bodyMotionRMS ? .pushingOrCarving : .cruising
        }
    }

    /// Whether the sample at time `t` lies in a cruising window (`Bumpiness.measure`'s `rolling`);
    /// times outside every whole window count as cruising.
    public static func cruising(_ samples: [MotionSample], sampleRate: Double) -> @Sendable (Double) -> Bool {
        let w = windows(samples, sampleRate: sampleRate)
        return { t in
            // Windows are in time order and do not overlap: binary search for the one holding t.
            var lo = 0, hi = w.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if w[mid].end <= t { lo = mid + 1 } else { hi = mid }
            }
            guard lo < w.count, w[lo].start <= t else { return true }
            return w[lo].activity == .cruising
        }
    }
}

extension Bumpiness {
    /// Bumpiness over the cruising windows only (`BodyMotionGate`): pushing and carving do not count.
    /// - Returns: RMS in g, nil without a cruising sample after the settling time.
    public static func measureGated(_ samples: [MotionSample], sampleRate: Double) -> Double? {
        measure(samples, sampleRate: sampleRate, rolling: BodyMotionGate.cruising(samples, sampleRate: sampleRate))
    }

    /// Impulsiveness over the cruising windows only (`BodyMotionGate`).
    public static func impulsivenessGated(_ samples: [MotionSample], sampleRate: Double) -> Double? {
        impulsiveness(samples, sampleRate: sampleRate, rolling: BodyMotionGate.cruising(samples, sampleRate: sampleRate))
    }
}
