import FoundationEssentials
import Glibc
import SkateCore

/// The roughness of a motion file for `skateroute roughness FILE [--rate HZ] [--json]`: the
/// 10 Hz series, a class histogram in seconds, and the robust whole-file figure.
public struct RoughnessReport: Sendable, Codable, Equatable {
    /// One line of the 10 Hz series.
    public struct Point: Sendable, Codable, Equatable {
        /// Window end time in seconds.
        public var t: Double
        /// RMS vibration in g.
        public var rms: Double
        /// Class name (butter/okay/meh/crusty).
        public var roughnessClass: String
        /// True for a shock window (left out of the robust figure and the histogram).
        public var impact: Bool

        enum CodingKeys: String, CodingKey {
            case t, rms, impact
            case roughnessClass = "class"
        }
    }

    /// The file read.
    public var file: String
    /// Input sampling rate in Hz (given or estimated).
    public var sampleRate: Double
    /// Band used, in Hz.
    public var bandLowHz: Double
    public var bandHighHz: Double
    /// Samples read.
    public var sampleCount: Int
    /// Seconds per class over clean windows (each window stands for 0.1 s), keyed by class name;
    /// all four classes are always present.
    public var secondsByClass: [String: Double]
    /// Seconds flagged as impacts.
    public var impactSeconds: Double
    /// Robust figure for the whole file (median of clean windows), g; nil without evidence.
    public var robustRMS: Double?
    /// Class of `robustRMS`.
    public var robustClass: String?
    /// Smoothness stability at the end of the file, percent.
    public var stability: Double
    /// Notes such as a reduced band at 50 Hz.
    public var notes: [String]
    /// The 10 Hz series.
    public var series: [Point]
    /// Event band used, in Hz.
    public var eventBandHighHz: Double
    /// Short transients (potholes, bumps, kerbs, slab joints, tricks), kept apart from roughness.
    public var events: [RoughnessEvent]
    /// Events per minute of recording.
    public var eventsPerMinute: Double
    /// Events per 100 m, when the distance is known (a speed was given); nil otherwise.
    public var eventsPer100m: Double?
    /// Seconds covered by the 10 Hz series (windows × 0.1 s).
    public var durationSeconds: Double
    /// Ground speed the figures were normalised from (m/s), nil when unknown (no normalisation).
    public var speed: Double?
    /// Factor applied to every RMS for the speed normalisation (1 without a speed).
    public var speedFactor: Double
    /// Rate at which the values actually change (Hz); see `MotionQuality`.
    public var effectiveRate: Double
    /// Named problems with the input.
    public var warnings: [MotionWarning]
    /// True when a warning means the figures cannot be trusted: the robust class is then nil
    /// ("not trusted"), never a smooth verdict.
    public var degraded: Bool

    enum CodingKeys: String, CodingKey {
        case file
        case sampleRate = "sample_rate_hz"
        case bandLowHz = "band_low_hz"
        case bandHighHz = "band_high_hz"
        case sampleCount = "samples"
        case secondsByClass = "seconds_by_class"
        case impactSeconds = "impact_s"
        case robustRMS = "robust_rms_g"
        case robustClass = "robust_class"
        case stability = "stability_pct"
        case notes
        case series
        case eventBandHighHz = "event_band_high_hz"
        case events
        case eventsPerMinute = "events_per_min"
        case eventsPer100m = "events_per_100m"
        case durationSeconds = "duration_s"
        case speed = "speed_mps"
        case speedFactor = "speed_factor"
        case effectiveRate = "effective_rate_hz"
        case warnings
        case degraded
    }

    /// Encodes every key, nil ones as null (so `events_per_100m` is always present).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(sampleRate, forKey: .sampleRate)
        try c.encode(bandLowHz, forKey: .bandLowHz)
        try c.encode(bandHighHz, forKey: .bandHighHz)
        try c.encode(sampleCount, forKey: .sampleCount)
        try c.encode(secondsByClass, forKey: .secondsByClass)
        try c.encode(impactSeconds, forKey: .impactSeconds)
        try c.encode(robustRMS, forKey: .robustRMS)
        try c.encode(robustClass, forKey: .robustClass)
        try c.encode(stability, forKey: .stability)
        try c.encode(notes, forKey: .notes)
        try c.encode(series, forKey: .series)
        try c.encode(eventBandHighHz, forKey: .eventBandHighHz)
        try c.encode(events, forKey: .events)
        try c.encode(eventsPerMinute, forKey: .eventsPerMinute)
        try c.encode(eventsPer100m, forKey: .eventsPer100m)
        try c.encode(durationSeconds, forKey: .durationSeconds)
        try c.encode(speed, forKey: .speed)
        try c.encode(speedFactor, forKey: .speedFactor)
        try c.encode(effectiveRate, forKey: .effectiveRate)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(degraded, forKey: .degraded)
    }

    /// Reads a motion file (CSV or NDJSON) and measures it.
    /// - Parameters:
    ///   - path: the motion file.
    ///   - sampleRate: input rate in Hz; estimated from the timestamps when nil.
    ///   - units: units to assume if the file declares none.
    ///   - speed: ground speed in m/s for the speed normalisation and events per 100 m; nil when unknown.
    /// - Throws: `MotionError` (file problems) or `RoughnessError` (rate unknown or too low),
    ///   each a one-line message naming the file.
    public static func make(path: String, sampleRate: Double? = nil, units: MotionUnits? = nil, speed: Double? = nil) throws -> RoughnessReport {
        let reader = MotionReader(defaultUnits: units)
        // Pass 1 (cheap) only when the rate must be estimated: read the head of the file.
        var rate = sampleRate
        if rate == nil {
            var head: [MotionSample] = []
            do {
                try reader.forEachSample(path: path) { s in
                    head.append(s)
                    if head.count > 2048 { throw StopReading() }
                }
            } catch is StopReading {}
            do { rate = try RoughnessEngine.estimateRate(head) } catch let e as RoughnessError {
                throw RoughnessReportError(path: path, underlying: e)
            }
        }
        let engine: RoughnessEngine
        do { engine = try RoughnessEngine(sampleRate: rate!) } catch let e as RoughnessError {
            throw RoughnessReportError(path: path, underlying: e)
        }
        var builder = Builder(engine: engine, speed: speed)
        let info = try reader.forEachSample(path: path) { builder.push($0) }
        return builder.finish(file: path, sampleCount: info.sampleCount)
    }

    /// Measures samples already in memory (g).
    /// - Throws: `RoughnessError` when the rate is unknown or too low.
    public static func make(samples: [MotionSample], file: String = "-", sampleRate: Double? = nil, speed: Double? = nil) throws -> RoughnessReport {
        let engine = try RoughnessEngine(sampleRate: sampleRate ?? RoughnessEngine.estimateRate(samples))
        var builder = Builder(engine: engine, speed: speed)
        for s in samples { builder.push(s) }
        return builder.finish(file: file, sampleCount: samples.count)
    }

    private struct StopReading: Error {}

    /// Streams samples into the engine and collects the report.
    struct Builder {
        var engine: RoughnessEngine
        var quality: MotionQuality
        let speed: Double?
        var smooth = SmoothnessEngine()
        var series: [Point] = []
        var windows: [RoughnessWindow] = []
        var events: [RoughnessEvent] = []

        init(engine: RoughnessEngine, speed: Double?) {
            self.engine = engine
            self.speed = speed
            quality = MotionQuality(nominalRate: engine.sampleRate)
        }

        mutating func push(_ s: MotionSample) {
            quality.push(s)
            guard let raw = engine.push(s) else { return }
            add(raw)
        }

        mutating func add(_ raw: RoughnessWindow) {
            let w = raw.normalised(speed: speed)
            if let e = w.event { events.append(e) }
            smooth.push(w)
            windows.append(w)
            // Window ends to the millisecond: float dust (0.6000000000000001 s) is no timing a sensor gave.
            series.append(Point(t: (w.t * 1000).rounded() / 1000, rms: w.rms, roughnessClass: w.roughnessClass.name, impact: w.isImpact))
        }

        mutating func finish(file: String, sampleCount: Int) -> RoughnessReport {
            for w in engine.finish() { add(w) }
            var seconds: [String: Double] = [:]
            for c in RoughnessClass.allCases { seconds[c.name] = 0 }
            var impact = 0.0
            for w in windows {
                if w.isImpact { impact += RoughnessEngine.publishInterval } else { seconds[w.roughnessClass.name, default: 0] += RoughnessEngine.publishInterval }
            }
            // Round away float dust (0.1 × n).
            for (k, v) in seconds { seconds[k] = (v * 10).rounded() / 10 }
            let warnings = quality.warnings(rate: engine.sampleRate)
            let degraded = warnings.contains { $0.degrades }
            let robust = RoughnessEngine.robustRMS(for: windows)
            var notes: [String] = []
            if engine.isBandLimited {
                notes.append(String(printf: "input at %.3g Hz: roughness band limited to %.0f–%.0f Hz and scaled ×%.2f from the ISO 8608 spectrum shape (an assumption); events see only %.0f–%.0f Hz", engine.sampleRate, engine.band.low, engine.band.high, engine.bands.limitCorrection, engine.bands.events.low, engine.bands.events.high))
            }
            if let v = speed {
                notes.append(String(printf: "RMS normalised from %.2f m/s to %.1f m/s (×%.2f, RMS ∝ v^%.1f)", v, RoughnessCalibration.referenceSpeed, RoughnessCalibration.speedFactor(speed: v), RoughnessCalibration.speedExponent))
            }
            if windows.isEmpty { notes.append("recording shorter than one 0.4 s window: no figures") }
            if degraded { notes.append("degraded input: roughness class not trusted (\(warnings.filter(\.degrades).map(\.code).joined(separator: ", ")))") }
            // Duration covered: every published window stands for 0.1 s, plus the first window's 0.3 s lead.
            let duration = windows.isEmpty ? 0 : Double(windows.count) * RoughnessEngine.publishInterval + (RoughnessEngine.windowSeconds - RoughnessEngine.publishInterval)
            let perMin = duration > 0 ? Double(events.count) / duration * 60 : 0
            var per100: Double?
            if let v = speed, v.isFinite, v > 0, duration > 0 { per100 = Double(events.count) / (v * duration) * 100 }
            let rate = engine.sampleRate
            return RoughnessReport(file: file, sampleRate: rate, bandLowHz: engine.band.low, bandHighHz: engine.band.high,
                                   sampleCount: sampleCount, secondsByClass: seconds, impactSeconds: (impact * 10).rounded() / 10,
                                   robustRMS: degraded ? nil : robust, robustClass: degraded ? nil : robust.map { RoughnessClass(rms: $0).name },
                                   stability: smooth.stability, notes: notes, series: series,
                                   eventBandHighHz: engine.bands.events.high, events: events, eventsPerMinute: perMin,
                                   eventsPer100m: per100, durationSeconds: (duration * 10).rounded() / 10, speed: speed,
                                   speedFactor: RoughnessCalibration.speedFactor(speed: speed),
                                   effectiveRate: quality.effectiveRate(rate: rate), warnings: warnings, degraded: degraded)
        }
    }

    /// JSON with sorted keys (stable bytes), one trailing newline.
    public func json() throws -> String {
        try JSONText.text(of: SchemaTagged("roughness", self)) + "\n"
    }

    /// Plain-text rendering: a summary, the class histogram, then the series.
    /// - Parameter includeSeries: print the 10 Hz lines (default true).
    public func text(includeSeries: Bool = true) -> String {
        var out = ""
        out += "file: \(file)\n"
        out += String(printf: "samples: %d at %.4g Hz, band %.0f–%.0f Hz\n", sampleCount, sampleRate, bandLowHz, bandHighHz)
        out += String(printf: "effective rate: %.4g Hz, event band %.0f–%.0f Hz\n", effectiveRate, bandLowHz, eventBandHighHz)
        for w in warnings { out += "warning: \(w.code): \(w.message)\n" }
        for n in notes { out += "note: \(n)\n" }
        if let r = robustRMS, let c = robustClass {
            out += String(printf: "robust roughness: %.3f g", r) + " (\(c))\n"
        } else if degraded {
            out += "robust roughness: not trusted (degraded input)\n"
        } else {
            out += "robust roughness: no evidence\n"
        }
        out += String(printf: "events: %d (%.1f per min", events.count, eventsPerMinute)
            + (eventsPer100m.map { String(printf: ", %.1f per 100 m", $0) } ?? "") + ")\n"
        out += String(printf: "stability: %.0f %%\n", stability)
        out += "seconds by class:\n"
        let total = secondsByClass.values.reduce(0, +) + impactSeconds
        let barWidth = 40
        for c in RoughnessClass.allCases {
            let s = secondsByClass[c.name] ?? 0
            let bar = total > 0 ? String(repeating: "#", count: Int((s / total * Double(barWidth)).rounded())) : ""
            out += "  " + c.name.padded(toLength: 7) + String(printf: "%8.1f s  ", s) + bar + "\n"
        }
        out += "  impact " + String(printf: "%8.1f s", impactSeconds) + "\n"
        if includeSeries {
            for e in events { out += String(printf: "event %.2f s peak %.2f g (×%.1f baseline)\n", e.t, e.peak, e.ratio) }
            out += "t_s,rms_g,class,impact\n"
            for p in series {
                out += String(printf: "%.1f,%.4f,", p.t, p.rms) + p.roughnessClass + (p.impact ? ",impact" : ",") + "\n"
            }
        }
        return out
    }
}

/// A roughness error tied to the file it came from (one line).
public struct RoughnessReportError: Error, CustomStringConvertible {
    public var path: String
    public var underlying: RoughnessError
    public var description: String { "\(path): \(underlying.description)" }
}
