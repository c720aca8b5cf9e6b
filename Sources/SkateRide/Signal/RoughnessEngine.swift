import FoundationEssentials
import Glibc
import SkateCore

/// A short transient (pothole, bump, kerb, slab joint, trick pop or landing), kept apart from
/// the sustained roughness.
public struct RoughnessEvent: Sendable, Equatable, Codable {
    /// Time in seconds (same time base as the samples) of the strike's middle (`ImpactSize`), or
    /// of the event band's largest sample when no strike fits (that band lags the strike by
    /// 10–130 ms depending on the rate).
    public var t: Double
    /// Size of the jolt in impact g: the amplitude of the 15 ms reference strike that best fits
    /// the raw vertical samples around the event-band peak (`ImpactSize`), so the same jolt reads
    /// the same at 50, 100 and 200 Hz (within `RoughnessBands.impactRateTolerance`). The event
    /// rule itself (floor and ratio) stays in the event band (`ratio`).
    public var peak: Double
    /// The fitted strike (`peak`, impact g) over the strike baseline (g: the running median of
    /// clean windows' RMS of 20 ms means), how much it stood out; the same at every rate.
    public var ratio: Double
    /// How far the vertical acceleration fell below 1 g (g, ≥ 0) in the 0.15 s before the strike's
    /// onset, in the shape band (gravity removed, high-passed at 0.5 Hz only), as its lowest 20 ms
    /// mean: a wheel falling into a hole before it strikes (`ImpactKindRules`).
    public var dip: Double
    /// The same 0.01–0.11 s after the strike's end: the deck unloading after the wheel rode up
    /// onto something (`ImpactKindRules`).
    public var dipAfter: Double
    /// The running baseline RMS of the event band when the event was called (band g; 0 unknown).
    public var baseline: Double
    /// The rolling's spread in the band the drops are read in (shape band, 20 ms means,
    /// `RoughnessCalibration.dipMeanSeconds`) just before the event (`dipNoiseSeconds` before the
    /// stretch searched for its drop), g (robust: 1.4826 × the median absolute deviation); 0
    /// unknown. Unlike `baseline`, whose band widens with the rate, it reads the same road the same
    /// at 50, 100 and 200 Hz, so the kind rule's noise floor does too.
    public var noise: Double

    public init(t: Double, peak: Double, ratio: Double, dip: Double = 0, dipAfter: Double = 0, baseline: Double = 0, noise: Double = 0) {
        self.t = t; self.peak = peak; self.ratio = ratio; self.dip = dip; self.dipAfter = dipAfter; self.baseline = baseline
        self.noise = noise
    }

    /// The kind the pulse's shape suggests (against `noise`, or `baseline` when it is unknown).
    public var kind: ImpactKind { ImpactKindRules.guess(peak: peak, dip: dip, dipAfter: dipAfter, noise: noise > 0 ? noise : baseline) }

    enum CodingKeys: String, CodingKey { case t, peak, ratio, dip, dipAfter, baseline, noise }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        t = try c.decode(Double.self, forKey: .t)
        peak = try c.decode(Double.self, forKey: .peak)
        ratio = try c.decode(Double.self, forKey: .ratio)
        dip = try c.decodeIfPresent(Double.self, forKey: .dip) ?? 0
        dipAfter = try c.decodeIfPresent(Double.self, forKey: .dipAfter) ?? 0
        baseline = try c.decodeIfPresent(Double.self, forKey: .baseline) ?? 0
        noise = try c.decodeIfPresent(Double.self, forKey: .noise) ?? 0
    }

    /// Writes t, peak and ratio as before `dip` existed (reports keep their bytes).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(t, forKey: .t); try c.encode(peak, forKey: .peak); try c.encode(ratio, forKey: .ratio)
    }
}

/// One published roughness figure: RMS vertical vibration over a 400 ms window, every 100 ms.
public struct RoughnessWindow: Sendable, Equatable, Codable {
    /// End of the window in seconds (same time base as the samples).
    public var t: Double
    /// RMS of the band-passed vertical acceleration over the window, in g (band-limit correction
    /// applied; not speed-normalised, see `normalised(speed:)`).
    public var rms: Double
    /// Largest absolute band-passed value in the window, in g.
    public var peak: Double
    /// True when the window overlaps an event (or the 0.2 s ring after it): left out of the
    /// robust figure, the class histogram and the stability gauge.
    public var isImpact: Bool
    /// The class of `rms`.
    public var roughnessClass: RoughnessClass
    /// The event detected since the previous published window, if any.
    public var event: RoughnessEvent?

    public init(t: Double, rms: Double, peak: Double, isImpact: Bool, event: RoughnessEvent? = nil) {
        self.t = t; self.rms = rms; self.peak = peak; self.isImpact = isImpact; self.event = event
        roughnessClass = RoughnessClass(rms: rms)
    }

    /// The window with its RMS brought to the reference speed (`RoughnessCalibration.speedFactor`).
    /// - Parameter speed: ground speed in m/s, nil when unknown (no change).
    public func normalised(speed: Double?) -> RoughnessWindow {
        let k = RoughnessCalibration.speedFactor(speed: speed)
        guard k != 1 else { return self }
        var w = self
        w.rms = rms * k
        w.roughnessClass = RoughnessClass(rms: w.rms)
        return w
    }

    enum CodingKeys: String, CodingKey {
        case t, rms, peak, event
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
            return String(printf: "cannot measure roughness at %.3g Hz: surface vibration lies above %.0f Hz and needs at least %.0f Hz sampling", rate, RoughnessBands.lowEdgeHz, minimum)
        case .unknownSampleRate: return "cannot measure roughness: fewer than two samples or no increasing timestamps"
        }
    }
}

/// Streaming road-roughness meter. Push accelerometer samples (g) one by one; every 100 ms of
/// sample time it publishes the RMS of the vertical vibration over the last 400 ms, and it
/// detects short transients (events) on the way.
///
/// Pipeline, per sample:
/// 1. **Gravity direction**: a first-order low-pass (τ = 0.5 s) of each axis estimates gravity;
///    its unit vector is refreshed every 100 ms. The vertical signal is the projection of the
///    sample onto it, so the engine works whatever way the sensor is mounted (gravity on −z or on
///    x reads the same). The first sample's value is subtracted up front so the filters start
///    without a step.
/// 2. **Two band-passes** sharing one 4th-order Butterworth high-pass at 4 Hz: the roughness band
///    (low-pass at 40 Hz or 0.4 × rate) and the event band (low-pass at 80 Hz or 0.4 × rate);
///    `RoughnessBands` says why each edge. At 100 Hz both are 4–40 Hz and share every filter.
/// 3. **Roughness**: RMS of the roughness band over a 400 ms window (four 100 ms blocks),
///    published at 10 Hz, times the band-limit correction below 100 Hz input.
/// 4. **Events**, decided on the strike, the same at every rate (issue 28): a 100 ms block whose
///    event-band peak passes a cheap pre-filter (`RoughnessCalibration.eventCandidateShare`,
///    `.eventCandidateBandRatio`) is a candidate; at the next block close, with every sample the
///    fit reads in the ring, the 15 ms reference strike is fitted to the raw vertical around it
///    (`ImpactSize`), and the candidate is an event when that strike is ≥ 1.0 impact g and ≥ 8 ×
///    the strike baseline (the running median of clean windows' RMS of 20 ms means of the 4 Hz
///    high-passed vertical: the rolling as a 50 Hz sensor sees it), unless it falls within 0.3 s
///    of the previous event (`RoughnessCalibration`). The band peak and band RMS depend on the
///    rate (a 4–80 Hz band at 200 Hz, 4–20 Hz at 50 Hz, and the phase of a short strike against a
///    50 Hz sample), the fitted strike and the 20 ms means do not. The four windows holding the
///    event's block, the one before it and the two after it (the deck rings) are flagged
///    `isImpact` and left out of the robust figure, so tricks, landings and kerbs come out as
///    events, never as crusty surface; the two newest windows are held back for this. Only clean
///    windows feed the baselines, so a line of tricks hardly moves them, while after a step onto
///    much rougher paving they restart within ~1.5 s. An event's size (`peak`) is that fitted
///    strike.
///
/// Cost: one projection, six biquads (four at 100 Hz) and two square-accumulates per sample;
/// memory is constant.
public struct RoughnessEngine: Sendable {
    /// Lower band edge in Hz (`RoughnessBands.lowEdgeHz`).
    public static let lowEdgeHz: Double = RoughnessBands.lowEdgeHz
    /// Nominal upper roughness edge in Hz (`RoughnessBands.roughnessHighEdgeHz`).
    public static let highEdgeHz: Double = RoughnessBands.roughnessHighEdgeHz
    /// Minimum sampling rate in Hz (`RoughnessBands.minimumSampleRate`).
    public static let minimumSampleRate: Double = RoughnessBands.minimumSampleRate
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
    /// Windows after the last one holding an event that are still flagged: the deck rings for
    /// ~0.1–0.2 s after a landing.
    public static let impactHoldWindows = 2
    /// A gap in sample times longer than this (s) restarts the filters and the window.
    public static let maxGap: Double = 0.5
    /// After an event, windows stay flagged while their event-band RMS is at least this many times
    /// the baseline: a landing's ring through the 4 Hz high-pass and the board settling last up to
    /// ~0.5 s, far above rolling noise (whose windows rarely reach 2 × their median).
    public static let impactTailRatio: Double = 2
    /// …for at most this many windows (1 s): a lasting rougher surface is not a tail.
    public static let impactTailMaxWindows = 10

    /// Sampling rate in Hz the filters were designed for.
    public let sampleRate: Double
    /// Both bands and the band-limit correction.
    public let bands: RoughnessBands
    /// The roughness band actually used, in Hz.
    public var band: (low: Double, high: Double) { bands.roughness }
    /// True when the roughness band had to stop below 40 Hz for this rate.
    public var isBandLimited: Bool { bands.isLimited }

    private var highPass: (Biquad, Biquad)
    private var lowPass: (Biquad, Biquad)
    private var eventLowPass: (Biquad, Biquad)
    private let sharedEventBand: Bool
    private let gravityAlpha: Double
    private var gx = 0.0, gy = 0.0, gz = 0.0     // gravity estimate (g)
    private var ux = 0.0, uy = 0.0, uz = 1.0     // its unit vector
    private var offset = 0.0                     // first projected value
    private var started = false
    private var lastT = 0.0
    private var t0 = 0.0
    private var block = 0                        // index of the open block
    private var blockSumSq = 0.0, blockCount = 0, blockPeak = 0.0
    private var blockEventSumSq = 0.0, blockEventPeak = 0.0, blockEventPeakT = 0.0
    /// Sum of squares over the open block of the 4 Hz high-passed vertical averaged over the last
    /// `strikeMeanSamples` samples (20 ms, `RoughnessCalibration.strikeNoiseMeanSeconds`): the
    /// rolling as a 50 Hz sensor sees it, at every rate, for the strike baseline.
    private var blockStrikeSumSq = 0.0
    private var strikeMean: [Double]
    private var strikeMeanSum = 0.0
    private var strikeMeanNext = 0
    private var ringStrikeSumSq: (Double, Double, Double, Double) = (0, 0, 0, 0)
    /// Running strike baseline: the last `eventBaselineWindows` clean windows' RMS of the 20 ms
    /// means (g), in step with `baseline`.
    private var strikeBaseline: [Double]
    // Shape-band values (vertical acceleration less gravity, high-passed at
    // `RoughnessCalibration.shapeLowEdgeHz` only) of the last `dipRing.count` samples (a ring) and
    // the sample counter, to read the drop before and after a strike (`RoughnessEvent.dip`,
    // `dipAfter`) only when a block holds an event. The event band's 4 Hz high-pass would leave a
    // tail after every hit as deep as a deck unloading; this band keeps drops whole at every rate.
    private var dipRing: [Double]
    /// The vertical acceleration itself (less the first sample's) of the same samples at the same
    /// index, for the strike's size and onset (`ImpactSize`).
    private var strikeRing: [Double]
    private var shapeHighPass: Biquad
    private var sampleIndex = 0
    private var dipRingNext = 0   // == sampleIndex % dipRing.count
    private var blockEventPeakIndex = 0
    /// The event band's peak for a 1 g reference strike (`RoughnessBands.impactGain`: a size when
    /// no strike fits), and the pre-filter's floor in this rate's band g: what a strike at the
    /// event floor leaves there, times `RoughnessCalibration.eventCandidateShare`.
    private let impactGain: Double
    private let candidateFloor: Double
    /// The event rule proper, on the fitted strike (impact g): its floor, and its ratio to the
    /// strike baseline (`RoughnessCalibration.eventMinimumPeak`, `.eventBaselineRatio` unless refitted).
    private let strikeFloor: Double
    private let eventRatio: Double
    // Rings of the last four closed blocks.
    private var ringSumSq: (Double, Double, Double, Double) = (0, 0, 0, 0)
    private var ringEventSumSq: (Double, Double, Double, Double) = (0, 0, 0, 0)
    private var ringCount: (Int, Int, Int, Int) = (0, 0, 0, 0)
    private var ringPeak: (Double, Double, Double, Double) = (0, 0, 0, 0)
    private var closedBlocks = 0
    private let blocksPerWindow: Int
    private var baseline: [Double]
    private var baselineNext = 0
    private var scratch: [Double] = []
    /// The reference strike's per-sample weights at this rate, for every fit (`ImpactSize.Weights`).
    private let strikeWeights: ImpactSize.Weights
    private var blocksSinceEvent = Int.max / 2
    private var lastEventT = -Double.infinity
    private var pendingEvent: RoughnessEvent?
    /// A block whose event-band peak passed the cheap pre-filter (`RoughnessCalibration
    /// .eventCandidateShare`), decided at the next block close on its fitted strike, when the
    /// samples the fit reads are all in. Its band peak time and index, band peak, band baseline,
    /// strike baseline, and the time of the first peak of the transient (a larger one in the next
    /// block within `eventRefractory` moves the candidate there).
    private var candidate: (t: Double, index: Int, bandPeak: Double, base: Double, strikeBase: Double, first: Double)?
    private var pendingFit: ImpactSize.Fit?
    // Sample index of the pending event's peak, and the index from which its after-peak stretch
    // (`RoughnessEvent.dipAfter`) is all in the ring: the event is published at the first block
    // close from then on (at most one block later than without the look).
    private var pendingPeakIndex = 0
    private var pendingReadyIndex = 0
    /// Event-band RMS of the last `eventOnsetWindows` windows (a ring), for the onset check.
    private var recent: [Double]
    private var recentStrike: [Double]
    private var recentNext = 0, recentCount = 0
    private var tailLeft = 0
    /// The two newest windows, published two blocks later: a candidate is decided one block after
    /// its own, and then the window before its block (a trick's run-up and a pothole's approach sit
    /// there) and the one holding it are flagged. `held.0` is the older.
    private var held: (RoughnessWindow?, RoughnessWindow?) = (nil, nil)
    /// Windows `finish()` flushed at a gap that `push` could not return at once: returned by the
    /// next pushes (which close no block so soon after a restart), oldest first.
    private var spill: [RoughnessWindow] = []
    /// Events detected so far (since creation; `reset` keeps the count).
    public private(set) var eventCount = 0

    /// - Parameter sampleRate: input rate in Hz.
    /// - Throws: `RoughnessError.sampleRateTooLow` below 40 Hz (10 Hz wearables cannot see
    ///   road vibration), `.unknownSampleRate` for a non-finite or non-positive rate.
    public init(sampleRate: Double) throws {
        try self.init(sampleRate: sampleRate, eventMinimumPeak: RoughnessCalibration.eventMinimumPeak,
                      eventBaselineRatio: RoughnessCalibration.eventBaselineRatio)
    }

    /// An engine with its own event rule (the refits of `RoughnessEvaluation.dayOut`).
    /// - Parameters:
    ///   - eventMinimumPeak: event floor in 200 Hz-band g (scaled to this rate's band).
    ///   - eventBaselineRatio: peak over the running baseline an event needs.
    public init(sampleRate: Double, eventMinimumPeak: Double, eventBaselineRatio: Double) throws {
        guard sampleRate.isFinite, sampleRate > 0 else { throw RoughnessError.unknownSampleRate }
        guard sampleRate >= Self.minimumSampleRate - 1e-9 else {
            throw RoughnessError.sampleRateTooLow(rate: sampleRate, minimum: Self.minimumSampleRate)
        }
        self.sampleRate = sampleRate
        bands = RoughnessBands(sampleRate: sampleRate)
        let low = bands.roughness.low
        highPass = (Biquad.highPass(cutoff: low, q: Butterworth4.q1, sampleRate: sampleRate),
                    Biquad.highPass(cutoff: low, q: Butterworth4.q2, sampleRate: sampleRate))
        lowPass = (Biquad.lowPass(cutoff: bands.roughness.high, q: Butterworth4.q1, sampleRate: sampleRate),
                   Biquad.lowPass(cutoff: bands.roughness.high, q: Butterworth4.q2, sampleRate: sampleRate))
        eventLowPass = (Biquad.lowPass(cutoff: bands.events.high, q: Butterworth4.q1, sampleRate: sampleRate),
                        Biquad.lowPass(cutoff: bands.events.high, q: Butterworth4.q2, sampleRate: sampleRate))
        sharedEventBand = abs(bands.events.high - bands.roughness.high) < 1e-9
        shapeHighPass = Biquad.highPass(cutoff: RoughnessCalibration.shapeLowEdgeHz, q: 0.5.squareRoot(), sampleRate: sampleRate)
        gravityAlpha = 1 - exp(-1 / (sampleRate * Self.gravityTimeConstant))
        blocksPerWindow = Int((Self.windowSeconds / Self.publishInterval).rounded())
        baseline = []
        baseline.reserveCapacity(RoughnessCalibration.eventBaselineWindows)
        recent = [Double](repeating: 0, count: RoughnessCalibration.eventOnsetWindows)
        recentStrike = recent
        impactGain = bands.impactGain
        candidateFloor = eventMinimumPeak * impactGain * RoughnessCalibration.eventCandidateShare
        strikeFloor = eventMinimumPeak
        eventRatio = eventBaselineRatio
        strikeMean = [Double](repeating: 0, count: max(1, Int((RoughnessCalibration.strikeNoiseMeanSeconds * sampleRate).rounded())))
        strikeBaseline = []
        strikeBaseline.reserveCapacity(RoughnessCalibration.eventBaselineWindows)
        // From the earliest sample an event reads (the level's start, or the drop before the
        // earliest strike onset) to its publication, at most 0.25 s after the band's peak.
        let back = max(ImpactSize.levelBefore, ImpactSize.onsetBefore + RoughnessCalibration.dipSeconds + RoughnessCalibration.dipNoiseSeconds)
        dipRing = [Double](repeating: 0, count: Int((back + Self.publishInterval * 3) * sampleRate) + 2)
        strikeRing = dipRing
        scratch.reserveCapacity(RoughnessCalibration.eventBaselineWindows)
        strikeWeights = ImpactSize.Weights(sampleRate: sampleRate)
    }

    /// Forgets all state (filters, window, baseline), as at a gap in the data.
    public mutating func reset() {
        highPass.0.reset(); highPass.1.reset(); lowPass.0.reset(); lowPass.1.reset(); shapeHighPass.reset()
        eventLowPass.0.reset(); eventLowPass.1.reset()
        started = false
        closedBlocks = 0
        blockSumSq = 0; blockCount = 0; blockPeak = 0
        blockEventSumSq = 0; blockEventPeak = 0
        for k in dipRing.indices { dipRing[k] = 0 }
        for k in strikeRing.indices { strikeRing[k] = 0 }
        pendingEvent = nil; pendingFit = nil; candidate = nil
        ringSumSq = (0, 0, 0, 0); ringEventSumSq = (0, 0, 0, 0); ringCount = (0, 0, 0, 0); ringPeak = (0, 0, 0, 0)
        ringStrikeSumSq = (0, 0, 0, 0); blockStrikeSumSq = 0
        for k in strikeMean.indices { strikeMean[k] = 0 }
        strikeMeanSum = 0; strikeMeanNext = 0
        baseline.removeAll(keepingCapacity: true)
        strikeBaseline.removeAll(keepingCapacity: true)
        baselineNext = 0
        recentNext = 0; recentCount = 0
        blocksSinceEvent = Int.max / 2
        lastEventT = -Double.infinity
        tailLeft = 0
        held = (nil, nil)
        spill = []
        candidate = nil
    }

    /// Publishes the windows held back for the look-ahead, oldest first (call at the end of the
    /// input): a candidate still open is decided on what the rings hold, and a pending event rides
    /// on the last window.
    public mutating func finish() -> [RoughnessWindow] {
        defer { held = (nil, nil); pendingEvent = nil; pendingFit = nil; candidate = nil; spill = [] }
        decideCandidate()
        var out = spill
        if let w = held.0 { out.append(w) }
        if let w = held.1 { out.append(w) }
        if var e = pendingEvent, !out.isEmpty {
            complete(&e)
            out[out.count - 1].event = e
        }
        return out
    }

    private mutating func refreshDirection() {
        let m = (gx * gx + gy * gy + gz * gz).squareRoot()
        if m >= Self.minimumGravity { ux = gx / m; uy = gy / m; uz = gz / m }
    }

    /// Feeds one sample (accelerations in g). Returns a window when this sample crossed a
    /// 100 ms boundary and a full 400 ms window is available, two blocks (0.2 s) late for the
    /// look-ahead; at most one per sample (a gap longer than `maxGap` restarts the engine
    /// instead). Non-finite samples are ignored. Call `finish()` at the end for the last windows.
    public mutating func push(_ s: MotionSample) -> RoughnessWindow? {
        guard s.t.isFinite, s.ax.isFinite, s.ay.isFinite, s.az.isFinite else { return nil }
        var flushed: [RoughnessWindow] = []
        if started, s.t - lastT > Self.maxGap || s.t < lastT { flushed = finish(); reset() }
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
            // most five); only the latest window is returned (an event rides on it).
            while block < b {
                if let w = closeBlock(endTime: t0 + Double(block + 1) * Self.publishInterval) { out = w }
                block += 1
            }
            refreshDirection()
            if out != nil, var e = pendingEvent, sampleIndex >= pendingReadyIndex {
                complete(&e)
                out!.event = e
                pendingEvent = nil
            }
        }
        if !flushed.isEmpty {
            // A restart closes no block for 0.1 s: the first flushed window goes out now, the
            // others with the next samples (`spill`).
            out = flushed[0]
            spill = Array(flushed.dropFirst())
        } else if out == nil, !spill.isEmpty {
            out = spill.removeFirst()
        }
        gx += gravityAlpha * (s.ax - gx)
        gy += gravityAlpha * (s.ay - gy)
        gz += gravityAlpha * (s.az - gz)
        let vertical = s.ax * ux + s.ay * uy + s.az * uz - offset
        let h = highPass.1.process(highPass.0.process(vertical))
        let v = lowPass.1.process(lowPass.0.process(h))
        let e = sharedEventBand ? v : eventLowPass.1.process(eventLowPass.0.process(h))
        var m = h
        if strikeMean.count > 1 {
            strikeMeanSum += h - strikeMean[strikeMeanNext]
            strikeMean[strikeMeanNext] = h
            strikeMeanNext += 1
            if strikeMeanNext == strikeMean.count { strikeMeanNext = 0 }
            m = strikeMeanSum / Double(strikeMean.count)
        }
        blockStrikeSumSq += m * m
        blockSumSq += v * v
        blockEventSumSq += e * e
        blockCount += 1
        let a = abs(v)
        if a > blockPeak { blockPeak = a }
        let ae = abs(e)
        if ae > blockEventPeak { blockEventPeak = ae; blockEventPeakT = s.t; blockEventPeakIndex = sampleIndex }
        dipRing[dipRingNext] = shapeHighPass.process(vertical)
        strikeRing[dipRingNext] = vertical
        dipRingNext += 1
        if dipRingNext == dipRing.count { dipRingNext = 0 }
        sampleIndex &+= 1
        return out
    }

    private mutating func closeBlock(endTime: Double) -> RoughnessWindow? {
        ringSumSq = (ringSumSq.1, ringSumSq.2, ringSumSq.3, blockSumSq)
        ringEventSumSq = (ringEventSumSq.1, ringEventSumSq.2, ringEventSumSq.3, blockEventSumSq)
        ringStrikeSumSq = (ringStrikeSumSq.1, ringStrikeSumSq.2, ringStrikeSumSq.3, blockStrikeSumSq)
        ringCount = (ringCount.1, ringCount.2, ringCount.3, blockCount)
        ringPeak = (ringPeak.1, ringPeak.2, ringPeak.3, blockPeak)
        let eventPeak = blockEventPeak, eventPeakT = blockEventPeakT, hadSamples = blockCount > 0
        blockSumSq = 0; blockCount = 0; blockPeak = 0; blockEventSumSq = 0; blockEventPeak = 0; blockStrikeSumSq = 0
        closedBlocks += 1
        blocksSinceEvent = blocksSinceEvent &+ 1
        let base = baselineMedian(baseline)
        // Pre-filter on the block just closed, against the baseline of earlier windows: the band
        // peak is cheap, but what it reads of a strike and of rolling depends on the rate, so it
        // only picks the blocks worth a fit (`RoughnessCalibration.eventCandidateShare`).
        var passes = false
        if hadSamples, eventPeak >= candidateFloor, let base, eventPeak >= RoughnessCalibration.eventCandidateBandRatio * base {
            passes = true
        }
        if passes, let c = candidate, eventPeak > c.bandPeak, eventPeakT - c.first < RoughnessCalibration.eventRefractory {
            // A larger peak right after the candidate's is the same transient's strike (a pothole's
            // drop reaches the band first, the far edge's strike after it): the fit is anchored
            // there, against the baselines from before the first.
            candidate = (eventPeakT, blockEventPeakIndex, eventPeak, c.base, c.strikeBase, c.first)
        } else {
            // The last block's candidate: every sample its strike fit reads is in now.
            decideCandidate()
            if passes, let base, let strikeBase = baselineMedian(strikeBaseline),
               eventPeakT - lastEventT >= RoughnessCalibration.eventRefractory {
                candidate = (eventPeakT, blockEventPeakIndex, eventPeak, base, strikeBase, eventPeakT)
            }
        }
        guard closedBlocks >= blocksPerWindow else { return nil }
        let n = ringCount.0 + ringCount.1 + ringCount.2 + ringCount.3
        guard n > 0 else { return nil }
        let rms = ((ringSumSq.0 + ringSumSq.1 + ringSumSq.2 + ringSumSq.3) / Double(n)).squareRoot() * bands.limitCorrection
        let eventRMS = ((ringEventSumSq.0 + ringEventSumSq.1 + ringEventSumSq.2 + ringEventSumSq.3) / Double(n)).squareRoot()
        let strikeRMS = ((ringStrikeSumSq.0 + ringStrikeSumSq.1 + ringStrikeSumSq.2 + ringStrikeSumSq.3) / Double(n)).squareRoot()
        let peak = max(max(ringPeak.0, ringPeak.1), max(ringPeak.2, ringPeak.3))
        // The window holds the event's block for blocksPerWindow closes, then rings for the hold,
        // then stays flagged while it is still loud against the baseline (the tail).
        var impact = blocksSinceEvent < blocksPerWindow + Self.impactHoldWindows
        if impact {
            if tailLeft > 0 { tailLeft -= 1 }
        } else if tailLeft > 0, let b = base, eventRMS >= Self.impactTailRatio * b {
            impact = true
            tailLeft -= 1
        } else {
            tailLeft = 0
        }
        // Only clean windows feed the baselines (issue 28): a line of tricks every 1.5 s keeps ~80 %
        // of the windows loud and would lift a median of all of them, hiding the next tricks and
        // painting the street rough. A lasting change of surface has no quiet window at all: when
        // none of the last 1.5 s reads under `impactTailRatio` × the baseline, the baselines start
        // over from them and the flags stop (`RoughnessCalibration.eventOnsetWindows`).
        if !impact { addToBaseline(eventRMS, strikeRMS) }
        recent[recentNext] = eventRMS
        recentStrike[recentNext] = strikeRMS
        recentNext = (recentNext + 1) % recent.count
        recentCount = min(recentCount + 1, recent.count)
        if recentCount == recent.count, let b = base, recent.min()! >= Self.impactTailRatio * b {
            baseline = recent
            strikeBaseline = recentStrike
            baselineNext = 0
            recentCount = 0
            tailLeft = 0
            blocksSinceEvent = Int.max / 2
        }
        let out = held.0
        held = (held.1, RoughnessWindow(t: endTime, rms: rms, peak: peak, isImpact: impact))
        return out
    }

    /// Decides the open candidate on its fitted strike (`ImpactSize`): an event when the strike is
    /// at least the floor and `eventRatio` × the strike baseline, both in impact g and read the same
    /// at every rate. An event flags the two held windows (the one holding its block and the one
    /// before) and is published once its unloading stretch is in the ring (`complete`).
    private mutating func decideCandidate() {
        guard let c = candidate else { return }
        candidate = nil
        let n = strikeRing.count
        let oldest = max(0, sampleIndex - n), newest = sampleIndex - 1
        guard newest >= oldest else { return }
        let fit = ImpactSize.strike(value: { [strikeRing] i in strikeRing[i % n] }, range: oldest...newest,
                                    peak: c.index, weights: strikeWeights, scratch: &scratch)
        let size = fit?.amplitude ?? c.bandPeak / impactGain
        guard size >= strikeFloor, size >= eventRatio * c.strikeBase else { return }
        lastEventT = c.t
        // The candidate's block closed one block ago.
        blocksSinceEvent = 1
        eventCount += 1
        tailLeft = Self.impactTailMaxWindows
        held.0?.isImpact = true
        held.1?.isImpact = true
        pendingEvent = RoughnessEvent(t: c.t, peak: size, ratio: c.strikeBase > 0 ? size / c.strikeBase : .infinity, baseline: c.base)
        pendingFit = fit
        pendingPeakIndex = c.index
        // Published once the latest strike's unloading window is in the ring.
        let look = ImpactSize.onsetAfter + RoughnessBands.referenceImpactSeconds
            + RoughnessCalibration.dipAfterGuardSeconds + RoughnessCalibration.dipAfterSeconds
        pendingReadyIndex = c.index + Int((look * sampleRate).rounded(.up)) + 1
    }

    /// Completes the pending event from its fitted strike (`decideCandidate`): its time (the
    /// strike's middle, not the band's peak, which lags it by 10–130 ms depending on the rate) and
    /// the drops before its start and after its end (`RoughnessCalibration.dipSeconds`). When no
    /// strike rose above the level (a drop alone), the size is the band's peak over its gain and
    /// the drops are read around a strike taken to end at that peak.
    private mutating func complete(_ e: inout RoughnessEvent) {
        let n = strikeRing.count
        let oldest = max(0, sampleIndex - n), newest = sampleIndex - 1
        guard newest >= oldest else { return }
        let width = RoughnessBands.referenceImpactSeconds * sampleRate
        var onset = Double(pendingPeakIndex) - width
        if let fit = pendingFit {
            onset = fit.onset
            e.t += (fit.onset + width / 2 - Double(pendingPeakIndex)) / sampleRate
        }
        pendingFit = nil
        let rate = sampleRate
        let k = max(1, Int((RoughnessCalibration.dipMeanSeconds * rate).rounded()))
        e.dip = lowestShape(from: onset - RoughnessCalibration.dipSeconds * rate, to: onset - RoughnessCalibration.dipGuardSeconds * rate, means: k)
        let end = onset + width + RoughnessCalibration.dipAfterGuardSeconds * rate
        e.dipAfter = lowestShape(from: end, to: end + RoughnessCalibration.dipAfterSeconds * rate, means: k)
        let quiet = onset - RoughnessCalibration.dipSeconds * rate
        e.noise = shapeNoise(from: quiet - RoughnessCalibration.dipNoiseSeconds * rate, to: quiet, means: k)
    }

    /// Means of `k` consecutive shape-band samples (`RoughnessCalibration.dipMeanSeconds`) over the
    /// samples whose whole interval lies between sample positions `from` and `to` (sample `i`
    /// covers (i − 1, i]) and the ring holds, each passed to `body`.
    private func shapeMeans(from: Double, to: Double, means k: Int, _ body: (Double) -> Void) {
        let n = dipRing.count
        let first = max(Int(from.rounded(.up)) + 1, sampleIndex - n, 0), last = min(Int(to.rounded(.down)), sampleIndex - 1)
        guard last - first + 1 >= k else { return }
        var sum = 0.0
        for i in first...last {
            sum += dipRing[i % n]
            if i - first >= k { sum -= dipRing[(i - k) % n] }
            if i - first >= k - 1 { body(sum / Double(k)) }
        }
    }

    /// Largest downward excursion (shape-band g, ≥ 0) of the `k`-sample means in a stretch.
    private func lowestShape(from: Double, to: Double, means k: Int) -> Double {
        var m = 0.0
        shapeMeans(from: from, to: to, means: k) { m = min(m, $0) }
        return -m
    }

    /// Robust spread (1.4826 × median absolute deviation, g) of the `k`-sample shape-band means in a
    /// stretch; 0 when it holds fewer than five.
    private mutating func shapeNoise(from: Double, to: Double, means k: Int) -> Double {
        var values: [Double] = []
        shapeMeans(from: from, to: to, means: k) { values.append($0) }
        guard values.count >= 5 else { return 0 }
        values.sort()
        let mid = values[values.count / 2]
        for i in values.indices { values[i] = abs(values[i] - mid) }
        values.sort()
        return 1.4826 * values[values.count / 2]
    }

    private mutating func addToBaseline(_ rms: Double, _ strike: Double) {
        if baseline.count < RoughnessCalibration.eventBaselineWindows {
            baseline.append(rms)
            strikeBaseline.append(strike)
        } else {
            baseline[baselineNext] = rms
            strikeBaseline[baselineNext] = strike
            baselineNext = (baselineNext + 1) % RoughnessCalibration.eventBaselineWindows
        }
    }

    private mutating func baselineMedian(_ values: [Double]) -> Double? {
        guard values.count >= RoughnessCalibration.eventBaselineMinimumWindows else { return nil }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: values)
        // The middle value a sort would give, without the sort (`Selection`).
        return Selection.kth(&scratch, scratch.count / 2)
    }
}

extension RoughnessEngine {
    /// Sampling rate in Hz from the median interval between consecutive samples of the first
    /// 2,049. When more than `quantisedTimeShare` of the intervals are zero (timestamps printed
    /// coarser than the sample interval, e.g. 10 ms steps at 200 Hz), the median would read the
    /// print step, so the rate is the sample count over the time span instead.
    /// - Throws: `RoughnessError.unknownSampleRate` with fewer than two increasing timestamps.
    public static func estimateRate<C: Collection>(_ samples: C) throws -> Double where C.Element == MotionSample {
        var dts: [Double] = []
        var prev: Double?
        var zeros = 0, intervals = 0
        var first: Double?, last = 0.0
        for s in samples.prefix(2049) where s.t.isFinite {
            if first == nil { first = s.t }
            if let p = prev {
                intervals += 1
                if s.t > p { dts.append(s.t - p) } else if s.t == p { zeros += 1 }
            }
            prev = s.t
            last = s.t
        }
        guard !dts.isEmpty, let t0 = first else { throw RoughnessError.unknownSampleRate }
        if Double(zeros) > quantisedTimeShare * Double(intervals), last > t0 {
            return (1000 * Double(intervals) / (last - t0)).rounded() / 1000
        }
        dts.sort()
        // Rounded to 0.001 Hz so 1 / 0.1 reads 10, not 9.999999999999998.
        return (1000 / dts[dts.count / 2]).rounded() / 1000
    }

    /// Share of repeated timestamps from which they are taken as coarsely printed (see
    /// `estimateRate`): a real stream repeats none.
    public static let quantisedTimeShare: Double = 0.2

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
        out.append(contentsOf: engine.finish())
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
