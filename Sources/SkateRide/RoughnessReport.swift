import Foundation
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
    }

    /// Reads a motion file (CSV or NDJSON) and measures it.
    /// - Parameters:
    ///   - path: the motion file.
    ///   - sampleRate: input rate in Hz; estimated from the timestamps when nil.
    ///   - units: units to assume if the file declares none.
    /// - Throws: `MotionError` (file problems) or `RoughnessError` (rate unknown or too low),
    ///   each a one-line message naming the file.
    public static func make(path: String, sampleRate: Double? = nil, units: MotionUnits? = nil) throws -> RoughnessReport {
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
        var builder = Builder(engine: engine)
        let info = try reader.forEachSample(path: path) { builder.push($0) }
        return builder.finish(file: path, sampleCount: info.sampleCount)
    }

    /// Measures samples already in memory (g).
    /// - Throws: `RoughnessError` when the rate is unknown or too low.
    public static func make(samples: [MotionSample], file: String = "-", sampleRate: Double? = nil) throws -> RoughnessReport {
        let engine = try RoughnessEngine(sampleRate: sampleRate ?? RoughnessEngine.estimateRate(samples))
        var builder = Builder(engine: engine)
        for s in samples { builder.push(s) }
        return builder.finish(file: file, sampleCount: samples.count)
    }

    private struct StopReading: Error {}

    /// Streams samples into the engine and collects the report.
    struct Builder {
        var engine: RoughnessEngine
        var smooth = SmoothnessEngine()
        var series: [Point] = []
        var windows: [RoughnessWindow] = []

        init(engine: RoughnessEngine) { self.engine = engine }

        mutating func push(_ s: MotionSample) {
            guard let w = engine.push(s) else { return }
            smooth.push(w)
            windows.append(w)
            series.append(Point(t: w.t, rms: w.rms, roughnessClass: w.roughnessClass.name, impact: w.isImpact))
        }

        func finish(file: String, sampleCount: Int) -> RoughnessReport {
            var seconds: [String: Double] = [:]
            for c in RoughnessClass.allCases { seconds[c.name] = 0 }
            var impact = 0.0
            for w in windows {
                if w.isImpact { impact += RoughnessEngine.publishInterval } else { seconds[w.roughnessClass.name, default: 0] += RoughnessEngine.publishInterval }
            }
            // Round away float dust (0.1 × n).
            for (k, v) in seconds { seconds[k] = (v * 10).rounded() / 10 }
            let robust = RoughnessEngine.robustRMS(for: windows)
            var notes: [String] = []
            if engine.isBandLimited {
                notes.append(String(format: "input at %.3g Hz: band limited to %.0f–%.0f Hz, reads low on fine texture", engine.sampleRate, engine.band.low, engine.band.high))
            }
            if windows.isEmpty { notes.append("recording shorter than one 0.4 s window: no figures") }
            return RoughnessReport(file: file, sampleRate: engine.sampleRate, bandLowHz: engine.band.low, bandHighHz: engine.band.high,
                                   sampleCount: sampleCount, secondsByClass: seconds, impactSeconds: (impact * 10).rounded() / 10,
                                   robustRMS: robust, robustClass: robust.map { RoughnessClass(rms: $0).name },
                                   stability: smooth.stability, notes: notes, series: series)
        }
    }

    /// JSON with sorted keys (stable bytes), one trailing newline.
    public func json() throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try enc.encode(self), as: UTF8.self) + "\n"
    }

    /// Plain-text rendering: a summary, the class histogram, then the series.
    /// - Parameter includeSeries: print the 10 Hz lines (default true).
    public func text(includeSeries: Bool = true) -> String {
        var out = ""
        out += "file: \(file)\n"
        out += String(format: "samples: %d at %.4g Hz, band %.0f–%.0f Hz\n", sampleCount, sampleRate, bandLowHz, bandHighHz)
        for n in notes { out += "note: \(n)\n" }
        if let r = robustRMS, let c = robustClass {
            out += String(format: "robust roughness: %.3f g", r) + " (\(c))\n"
        } else {
            out += "robust roughness: no evidence\n"
        }
        out += String(format: "stability: %.0f %%\n", stability)
        out += "seconds by class:\n"
        let total = secondsByClass.values.reduce(0, +) + impactSeconds
        let barWidth = 40
        for c in RoughnessClass.allCases {
            let s = secondsByClass[c.name] ?? 0
            let bar = total > 0 ? String(repeating: "#", count: Int((s / total * Double(barWidth)).rounded())) : ""
            out += "  " + c.name.padding(toLength: 7, withPad: " ", startingAt: 0) + String(format: "%8.1f s  ", s) + bar + "\n"
        }
        out += "  impact " + String(format: "%8.1f s", impactSeconds) + "\n"
        if includeSeries {
            out += "t_s,rms_g,class,impact\n"
            for p in series {
                out += String(format: "%.1f,%.4f,", p.t, p.rms) + p.roughnessClass + (p.impact ? ",impact" : ",") + "\n"
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
