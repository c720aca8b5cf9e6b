import Foundation
import SkateCore

/// One published roughness figure: RMS vertical vibration over a 400 ms window, every 100 ms.
public struct RoughnessWindow: Sendable, Equatable, Codable {
    /// End of the window in seconds (same time base as the samples).
    public var t: Double
    /// RMS of the band-passed vertical acceleration over the window, in g.
    public var rms: Double
    /// Largest absolute band-passed value in the window, in g.
    public var peak: Double
    /// True when the window holds a shock (trick pop, landing, kerb drop) rather than surface
    /// texture; robust statistics leave such windows out.
    public var isImpact: Bool
    /// The class of `rms`.
    public var roughnessClass: RoughnessClass

    public init(t: Double, rms: Double, peak: Double, isImpact: Bool) {
        self.t = t; self.rms = rms; self.peak = peak; self.isImpact = isImpact
        roughnessClass = RoughnessClass(rms: rms)
    }

    enum CodingKeys: String, CodingKey {
        case t, rms, peak
        case isImpact = "impact"
        case roughnessClass = "class"
    }
}

/// Why the roughness engine cannot run.
public enum RoughnessError: Error, CustomStringConvertible, Equatable {
    /// The input rate cannot carry the roughness band.
    case sampleRateTooLow(rate: Double, minimum: Double)
    /// No usable rate (fewer than two samples, or non-increasing times).
    case unknownSampleRate

    public var description: String {
        switch self {
        case let .sampleRateTooLow(rate, minimum):
            return String(format: "cannot measure roughness at %.3g Hz: surface vibration lies above %.0f Hz and needs at least %.0f Hz sampling", rate, RoughnessEngine.lowEdgeHz, minimum)
        case .unknownSampleRate: return "cannot measure roughness: fewer than two samples or no increasing timestamps"
        }
    }
}

/// Streaming road-roughness meter. Push accelerometer samples (g) one by one; every 100 ms of
/// sample time it publishes the RMS of the vertical vibration over the last 400 ms.
///
/// Pipeline, per sample:
/// 1. **Gravity direction**: a first-order low-pass (τ = 0.5 s) of each axis estimates gravity;
///    its unit vector is refreshed every 100 ms. The vertical signal is the projection of the
///    sample onto it, so the engine works whatever way the phone or sensor is mounted. (The
///    constant part of that projection, gravity itself, is removed by the band-pass below;
///    the first sample's value is subtracted up front so the filters start without a step.)
/// 2. **Band-pass 8–40 Hz** (4th-order Butterworth high- and low-pass). Small hard wheels
///    (50–60 mm urethane) on pavement shake the board mostly between 10 and 40 Hz at skating
///    speed (texture wavelengths of 10–40 cm at 4 m/s); below 8 Hz lie pushing (1–2 Hz),
///    carving, the rider's legs and the board's rigid-body motion, which say nothing about the
///    surface. The upper edge is lowered to 0.4 × the sampling rate when needed (50 Hz input →
///    8–20 Hz), which reads low on fine texture; `isBandLimited` says so. Below 40 Hz sampling
///    the band cannot exist and `init` throws.
/// 3. **RMS** over a 400 ms window (four 100 ms blocks), published at 10 Hz with the window's
///    peak and an impact flag.
///
/// Impacts: a window is a shock when its peak is at least 0.5 g and either its crest factor
/// (peak / RMS) is ≥ 4.5 or its peak is ≥ 6 × the running baseline (median window RMS of the
/// last 3 s); windows up to 200 ms after a shock are flagged too (the board rings). Rolling
/// noise even on crusty paving stays around crest 3 and peak/baseline 3. The baseline is a
/// median over all windows, so a trick (about 1.2 s of loud windows) hardly moves it, while
/// after a step onto a much rougher surface it catches up within ~1.5 s: those first windows
/// of the new surface are flagged as shocks and left out of the robust figure, never added.
///
/// Cost: one projection, four biquads and a square-accumulate per sample; memory is constant.
public struct RoughnessEngine: Sendable {
    /// Lower band edge in Hz (see type docs).
    public static let lowEdgeHz: Double = 8
    /// Nominal upper band edge in Hz (see type docs).
    public static let highEdgeHz: Double = 40
    /// Upper edge as a fraction of the sampling rate: keeps the low-pass well under Nyquist.
    public static let maxEdgeFractionOfRate: Double = 0.4
    /// Minimum sampling rate in Hz: the upper edge (0.4 × rate) must be ≥ 2 × the lower edge so
    /// at least an octave of the band survives.
    public static let minimumSampleRate: Double = 40
    /// Window length in seconds (the design's 250–500 ms; 400 ms averages ~8 cycles at 20 Hz).
    public static let windowSeconds: Double = 0.4
    /// Publication interval in seconds (10 Hz).
    public static let publishInterval: Double = 0.1
    /// Time constant in seconds of the gravity low-pass: slow enough to ignore vibration,
    /// fast enough to follow the board tilting in a carve.
    public static let gravityTimeConstant: Double = 0.5
    /// A gravity estimate weaker than this (g) means the input already had gravity removed;
    /// the last good direction (initially +z) is kept.
    public static let minimumGravity: Double = 0.5
    /// Peaks below this (g) are never called impacts: no trick or kerb drop is that gentle.
    public static let impactMinimumPeak: Double = 0.5
    /// Crest factor (peak / RMS) from which a window is impulsive; Gaussian rolling noise over
    /// 40 samples rarely exceeds ~3.5.
    public static let impactCrestFactor: Double = 4.5
    /// Peak over running baseline RMS from which a window is a shock.
    public static let impactBaselineRatio: Double = 6
    /// Windows after a shock still flagged: the deck rings for ~0.1–0.2 s after a landing.
    public static let impactHoldWindows = 2
    /// Windows in the running baseline (3 s at 10 Hz): longer than any trick's loud stretch.
    public static let baselineWindows = 30
    /// A gap in sample times longer than this (s) restarts the filters and the window.
    public static let maxGap: Double = 0.5

    /// Sampling rate in Hz the filters were designed for.
    public let sampleRate: Double
    /// The band actually used, in Hz.
    public let band: (low: Double, high: Double)
    /// True when the upper edge had to be lowered below 40 Hz for this rate.
    public var isBandLimited: Bool { band.high < Self.highEdgeHz }

    private var filter: BandPass
    private let gravityAlpha: Double
    private var gx = 0.0, gy = 0.0, gz = 0.0     // gravity estimate (g)
    private var ux = 0.0, uy = 0.0, uz = 1.0     // its unit vector
    private var offset = 0.0                     // first projected value
    private var started = false
    private var lastT = 0.0
    private var t0 = 0.0
    private var block = 0                        // index of the open block
    private var blockSumSq = 0.0, blockCount = 0, blockPeak = 0.0
    // Ring of the last four closed blocks.
    private var ringSumSq: (Double, Double, Double, Double) = (0, 0, 0, 0)
    private var ringCount: (Int, Int, Int, Int) = (0, 0, 0, 0)
    private var ringPeak: (Double, Double, Double, Double) = (0, 0, 0, 0)
    private var closedBlocks = 0
    private let blocksPerWindow: Int
    private var baseline: [Double]
    private var baselineNext = 0
    private var holdLeft = 0

    /// - Parameter sampleRate: input rate in Hz.
    /// - Throws: `RoughnessError.sampleRateTooLow` below 40 Hz (10 Hz wearables cannot see
    ///   road vibration), `.unknownSampleRate` for a non-finite or non-positive rate.
    public init(sampleRate: Double) throws {
        guard sampleRate.isFinite, sampleRate > 0 else { throw RoughnessError.unknownSampleRate }
        guard sampleRate >= Self.minimumSampleRate - 1e-9 else {
            throw RoughnessError.sampleRateTooLow(rate: sampleRate, minimum: Self.minimumSampleRate)
        }
        self.sampleRate = sampleRate
        let high = min(Self.highEdgeHz, Self.maxEdgeFractionOfRate * sampleRate)
        band = (Self.lowEdgeHz, high)
        filter = BandPass(low: Self.lowEdgeHz, high: high, sampleRate: sampleRate)
        gravityAlpha = 1 - exp(-1 / (sampleRate * Self.gravityTimeConstant))
        blocksPerWindow = Int((Self.windowSeconds / Self.publishInterval).rounded())
        baseline = []
        baseline.reserveCapacity(Self.baselineWindows)
    }

    /// Forgets all state (filters, window, baseline), as at a gap in the data.
    public mutating func reset() {
        filter.reset()
        started = false
        closedBlocks = 0
        blockSumSq = 0; blockCount = 0; blockPeak = 0
        ringSumSq = (0, 0, 0, 0); ringCount = (0, 0, 0, 0); ringPeak = (0, 0, 0, 0)
        baseline.removeAll(keepingCapacity: true)
        baselineNext = 0
        holdLeft = 0
    }

    private mutating func refreshDirection() {
        let m = (gx * gx + gy * gy + gz * gz).squareRoot()
        if m >= Self.minimumGravity { ux = gx / m; uy = gy / m; uz = gz / m }
    }

    /// Feeds one sample (accelerations in g). Returns a window when this sample crossed a
    /// 100 ms boundary and a full 400 ms window is available; at most one per sample (a gap
    /// longer than `maxGap` restarts the engine instead).
    public mutating func push(_ s: MotionSample) -> RoughnessWindow? {
        guard s.t.isFinite, s.ax.isFinite, s.ay.isFinite, s.az.isFinite else { return nil }
        if started, s.t - lastT > Self.maxGap || s.t < lastT { reset() }
        if !started {
            started = true
            t0 = s.t
            block = 0
            gx = s.ax; gy = s.ay; gz = s.az
            refreshDirection()
            offset = s.ax * ux + s.ay * uy + s.az * uz
        }
        lastT = s.t
        var out: RoughnessWindow?
        let b = Int(((s.t - t0) / Self.publishInterval + 1e-6).rounded(.down))
        if b > block {
            // Close the open block and any empty ones a short dropout skipped (≤ maxGap, so at
            // most five); only the latest window is returned.
            while block < b {
                out = closeBlock(endTime: t0 + Double(block + 1) * Self.publishInterval)
                block += 1
            }
            refreshDirection()
        }
        gx += gravityAlpha * (s.ax - gx)
        gy += gravityAlpha * (s.ay - gy)
        gz += gravityAlpha * (s.az - gz)
        let v = filter.process(s.ax * ux + s.ay * uy + s.az * uz - offset)
        blockSumSq += v * v
        blockCount += 1
        let a = abs(v)
        if a > blockPeak { blockPeak = a }
        return out
    }

    private mutating func closeBlock(endTime: Double) -> RoughnessWindow? {
        ringSumSq = (ringSumSq.1, ringSumSq.2, ringSumSq.3, blockSumSq)
        ringCount = (ringCount.1, ringCount.2, ringCount.3, blockCount)
        ringPeak = (ringPeak.1, ringPeak.2, ringPeak.3, blockPeak)
        blockSumSq = 0; blockCount = 0; blockPeak = 0
        closedBlocks += 1
        guard closedBlocks >= blocksPerWindow else { return nil }
        let n = ringCount.0 + ringCount.1 + ringCount.2 + ringCount.3
        guard n > 0 else { return nil }
        let rms = ((ringSumSq.0 + ringSumSq.1 + ringSumSq.2 + ringSumSq.3) / Double(n)).squareRoot()
        let peak = max(max(ringPeak.0, ringPeak.1), max(ringPeak.2, ringPeak.3))
        var impact = false
        if peak >= Self.impactMinimumPeak {
            if rms > 0, peak / rms >= Self.impactCrestFactor { impact = true }
            if let base = baselineMedian(), peak >= Self.impactBaselineRatio * base { impact = true }
        }
        if impact {
            holdLeft = Self.impactHoldWindows
        } else if holdLeft > 0 {
            holdLeft -= 1
            impact = true
        }
        // Every window feeds the baseline, shocks included: a trick's ~1.2 s of loud windows are
        // a minority of the 3 s median, while a lasting change of surface takes it over in ~1.5 s.
        addToBaseline(rms)
        return RoughnessWindow(t: endTime, rms: rms, peak: peak, isImpact: impact)
    }

    private mutating func addToBaseline(_ rms: Double) {
        if baseline.count < Self.baselineWindows {
            baseline.append(rms)
        } else {
            baseline[baselineNext] = rms
            baselineNext = (baselineNext + 1) % Self.baselineWindows
        }
    }

    private func baselineMedian() -> Double? {
        guard baseline.count >= Self.blocksPerBaselineMinimum else { return nil }
        var copy = baseline
        copy.sort()
        return copy[copy.count / 2]
    }

    /// Windows needed before the baseline is trusted (1 s).
    static let blocksPerBaselineMinimum = 10
}

extension RoughnessEngine {
    /// Sampling rate in Hz from the median interval between consecutive samples.
    /// - Throws: `RoughnessError.unknownSampleRate` with fewer than two increasing timestamps.
    public static func estimateRate<C: Collection>(_ samples: C) throws -> Double where C.Element == MotionSample {
        var dts: [Double] = []
        var prev: Double?
        for s in samples.prefix(2049) {
            if let p = prev, s.t > p { dts.append(s.t - p) }
            prev = s.t
        }
        guard !dts.isEmpty else { throw RoughnessError.unknownSampleRate }
        dts.sort()
        // Rounded to 0.001 Hz so 1 / 0.1 reads 10, not 9.999999999999998.
        return (1000 / dts[dts.count / 2]).rounded() / 1000
    }

    /// Runs a whole recording through a fresh engine.
    /// - Parameters:
    ///   - samples: accelerometer samples in g, in time order.
    ///   - sampleRate: input rate in Hz; estimated from the timestamps when nil.
    /// - Returns: the 10 Hz window series.
    /// - Throws: `RoughnessError` when the rate is unknown or too low.
    public static func windows<C: Collection>(for samples: C, sampleRate: Double? = nil) throws -> [RoughnessWindow]
    where C.Element == MotionSample {
        var engine = try RoughnessEngine(sampleRate: sampleRate ?? estimateRate(samples))
        var out: [RoughnessWindow] = []
        out.reserveCapacity(Int(Double(samples.count) / engine.sampleRate / publishInterval) + 1)
        for s in samples { if let w = engine.push(s) { out.append(w) } }
        return out
    }

    /// Fewest clean windows a stretch needs for a robust figure (0.3 s of rolling).
    public static let robustMinimumWindows = 3

    /// The robust roughness of a stretch (what gets written per edge): the median RMS (g) of its
    /// clean windows, impacts left out. The median ignores up to half the windows being odd, so
    /// a few tricks, landings or a kerb cannot paint a smooth street crusty. Nil when fewer than
    /// `robustMinimumWindows` clean windows remain (no evidence about the surface).
    public static func robustRMS<S: Sequence>(for windows: S) -> Double? where S.Element == RoughnessWindow {
        var values: [Double] = []
        for w in windows where !w.isImpact { values.append(w.rms) }
        guard values.count >= robustMinimumWindows else { return nil }
        values.sort()
        let n = values.count
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2
    }

    /// The naive energy RMS of a stretch, √(mean of window RMS²) over all windows, impacts
    /// included: what a plain RMS meter would report. For comparison and diagnostics only.
    public static func naiveRMS<S: Sequence>(for windows: S) -> Double? where S.Element == RoughnessWindow {
        var sum = 0.0, n = 0
        for w in windows { sum += w.rms * w.rms; n += 1 }
        return n > 0 ? (sum / Double(n)).squareRoot() : nil
    }
}
