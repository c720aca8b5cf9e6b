import FoundationEssentials
import Glibc
import SkateCore

/// `skateroute roughness --evaluate DIR`: runs every recording of a labelled folder (one
/// sub-folder per class, files anywhere below it) through the reader and the engine, and reports
/// per-class medians and the AUC between classes for the engine's measures beside a naive
/// baseline, so the calibration can be reproduced and judged.
///
/// Measures per file:
/// - `events_per_min`: the engine's event rate;
/// - `robust_rms_g`: the engine's robust roughness (median RMS of clean windows);
/// - `naive_std_g`: the plain standard deviation of vertical acceleration (the samples projected
///   on their mean gravity direction), no filtering: the baseline any measure has to beat.
///
/// AUC(a, b) is the probability that a random file of class `a` scores higher than one of class
/// `b` (ties count half): 0.5 is no separation, 1 (or 0) perfect.
public struct RoughnessEvaluation: Sendable {
    /// One recording's figures.
    public struct FileResult: Sendable {
        public var label: String
        public var path: String
        public var eventsPerMinute: Double
        public var events: Int
        public var robustRMS: Double?
        public var naiveStd: Double
        /// Worst class over all windows, event windows included (what a careless reader would show).
        public var worstWindowClass: RoughnessClass?
        public var windows: Int
        /// The input carried a degrading warning (robust figure withheld).
        public var degraded: Bool
        /// Class of `robustRMS`.
        public var robustClass: RoughnessClass? { robustRMS.map { RoughnessClass(rms: $0) } }
    }

    /// The measures compared, in print order.
    public enum Measure: String, Sendable, CaseIterable {
        case eventsPerMinute = "events_per_min"
        case robustRMS = "robust_rms_g"
        case naiveStd = "naive_std_g"

        func value(_ r: FileResult) -> Double? {
            switch self {
            case .eventsPerMinute: return r.eventsPerMinute
            case .robustRMS: return r.robustRMS
            case .naiveStd: return r.naiveStd
            }
        }
    }

    public var folder: String
    /// Class names in report order.
    public var labels: [String]
    public var files: [FileResult]
    /// Files that could not be read, one line each.
    public var failures: [String]

    /// Median of `measure` over the files of `label` (nil when none has a value).
    public func median(_ measure: Measure, label: String) -> Double? {
        let v = files.filter { $0.label == label }.compactMap { measure.value($0) }.sorted()
        guard !v.isEmpty else { return nil }
        return v.count % 2 == 1 ? v[v.count / 2] : (v[v.count / 2 - 1] + v[v.count / 2]) / 2
    }

    /// P(score of a random `a` file > score of a random `b` file), ties half; nil without values.
    public func auc(_ measure: Measure, _ a: String, _ b: String) -> Double? {
        let x = files.filter { $0.label == a }.compactMap { measure.value($0) }
        let y = files.filter { $0.label == b }.compactMap { measure.value($0) }
        return Self.auc(x, y)
    }

    /// Mann–Whitney AUC of `positives` over `negatives` (ties count half); nil when either is empty.
    public static func auc(_ positives: [Double], _ negatives: [Double]) -> Double? {
        guard !positives.isEmpty, !negatives.isEmpty else { return nil }
        var s = 0.0
        for p in positives { for n in negatives { s += p > n ? 1 : (p == n ? 0.5 : 0) } }
        return s / Double(positives.count * negatives.count)
    }

    /// Reads the labelled folder.
    /// - Parameters:
    ///   - folder: holds one sub-folder per class.
    ///   - labels: classes in report order (default: every sub-folder, by name).
    ///   - units: units for motion files that declare none.
    /// - Throws: `MotionError.unreadable` when the folder or a named class is missing, or no
    ///   class holds a file.
    public static func evaluate(folder: String, labels: [String]? = nil, units: MotionUnits? = nil) throws -> RoughnessEvaluation {
        let fm = FileManager.default
        var isDir = false
        guard fm.fileExists(atPath: folder, isDirectory: &isDir), isDir else {
            throw MotionError.unreadable(path: folder, reason: "not a folder of labelled recordings (one sub-folder per class)")
        }
        let subs = ((try? fm.contentsOfDirectory(atPath: folder)) ?? []).filter {
            var d = false
            return !$0.hasPrefix(".") && fm.fileExists(atPath: PathText.appending(folder, $0), isDirectory: &d) && d
        }.sorted()
        let chosen = labels ?? subs
        for l in chosen where !subs.contains(l) {
            throw MotionError.unreadable(path: PathText.appending(folder, l), reason: "no such class folder (have: \(subs.joined(separator: ", ")))")
        }
        var results: [FileResult] = []
        var failures: [String] = []
        for label in chosen {
            let dir = PathText.appending(folder, label)
            var paths: [String] = []
            if let e = try? fm.subpathsOfDirectory(atPath: dir) {
                for rel in e {
                    let p = PathText.appending(dir, rel)
                    var d = false
                    if fm.fileExists(atPath: p, isDirectory: &d), !d, !rel.hasSuffix(".units"),
                       !PathText.lastComponent(rel).hasPrefix(".") { paths.append(p) }
                }
            }
            for p in paths.sorted() {
                do { results.append(try measure(path: p, label: label, units: units)) } catch {
                    failures.append("\(error)")
                }
            }
        }
        guard !results.isEmpty else {
            throw MotionError.unreadable(path: folder, reason: "no readable recordings in \(chosen.joined(separator: ", "))")
        }
        return RoughnessEvaluation(folder: folder, labels: chosen, files: results, failures: failures)
    }

    /// Measures one recording (the scooter-window layout or any `MotionReader` file).
    static func measure(path: String, label: String, units: MotionUnits?) throws -> FileResult {
        let samples: [MotionSample]
        var rate: Double?
        if ScooterWindow.matches(path: path) {
            samples = try ScooterWindow.load(path: path)
            rate = ScooterWindow.sampleRate
        } else {
            samples = try MotionReader(defaultUnits: units).read(path: path).samples
        }
        let report: RoughnessReport
        do { report = try RoughnessReport.make(samples: samples, file: path, sampleRate: rate) } catch let e as RoughnessError {
            throw RoughnessReportError(path: path, underlying: e)
        }
        let worst = report.series.compactMap { RoughnessClass(name: $0.roughnessClass) }.max()
        return FileResult(label: label, path: path, eventsPerMinute: report.eventsPerMinute, events: report.events.count,
                          robustRMS: report.robustRMS, naiveStd: naiveVerticalStd(samples), worstWindowClass: worst,
                          windows: report.series.count, degraded: report.degraded)
    }

    /// Plain standard deviation (g) of the samples projected on their mean acceleration direction
    /// (+z when the mean is ~0): the naive baseline.
    public static func naiveVerticalStd(_ samples: [MotionSample]) -> Double {
        let finite = samples.filter { $0.ax.isFinite && $0.ay.isFinite && $0.az.isFinite }
        guard finite.count > 1 else { return 0 }
        var mx = 0.0, my = 0.0, mz = 0.0
        for s in finite { mx += s.ax; my += s.ay; mz += s.az }
        let n = Double(finite.count)
        mx /= n; my /= n; mz /= n
        let m = (mx * mx + my * my + mz * mz).squareRoot()
        let (ux, uy, uz) = m > 1e-9 ? (mx / m, my / m, mz / m) : (0, 0, 1)
        var sum = 0.0, sumSq = 0.0
        for s in finite {
            let v = s.ax * ux + s.ay * uy + s.az * uz
            sum += v; sumSq += v * v
        }
        let mean = sum / n
        return max(0, sumSq / n - mean * mean).squareRoot()
    }

    /// The table: per-class medians, then the AUC of every class pair for each measure.
    public func text() -> String {
        var out = "folder: \(folder)\n"
        out += "classes: " + labels.map { l in "\(l) (\(files.filter { $0.label == l }.count) files)" }.joined(separator: ", ") + "\n"
        out += "per-class medians:\n"
        out += "  class        files  events/min  robust_rms_g  naive_std_g  event-free  robust butter  all windows butter  degraded\n"
        for l in labels {
            let fs = files.filter { $0.label == l }
            func f(_ m: Measure, _ fmt: String) -> String { median(m, label: l).map { String(printf: fmt, $0) } ?? "-" }
            out += "  " + l.padded(toLength: 12)
                + String(printf: " %5d", fs.count)
                + f(.eventsPerMinute, "%12.1f") + f(.robustRMS, "%14.3f") + f(.naiveStd, "%13.3f")
                + "  " + "\(fs.filter { $0.events == 0 }.count)/\(fs.count)".padded(toLength: 12)
                + "\(fs.filter { $0.robustClass == .butter }.count)/\(fs.count)".padded(toLength: 15)
                + "\(fs.filter { $0.worstWindowClass == .butter }.count)/\(fs.count)".padded(toLength: 20)
                + "\(fs.filter(\.degraded).count)\n"
        }
        out += "AUC = P(first class scores higher than second); 0.5 = no separation:\n"
        out += "  pair                      events/min  robust_rms  naive_std (baseline)\n"
        for i in labels.indices {
            for j in labels.indices where j > i {
                let a = labels[i], b = labels[j]
                func f(_ m: Measure) -> String { auc(m, a, b).map { String(printf: "%.3f", $0) } ?? "-" }
                out += "  " + "\(a) > \(b)".padded(toLength: 26)
                    + f(.eventsPerMinute).padded(toLength: 12)
                    + f(.robustRMS).padded(toLength: 12) + f(.naiveStd) + "\n"
            }
        }
        for f in failures { out += "skipped: \(f)\n" }
        return out
    }

    /// The same figures as JSON (sorted keys).
    public func json() -> String {
        var classes: JSONObject = [:]
        for l in labels {
            var o: JSONObject = ["files": .number(Double(files.filter { $0.label == l }.count))]
            for m in Measure.allCases { o["median_" + m.rawValue] = median(m, label: l).map { .number($0) } ?? .null }
            classes[l] = .object(o)
        }
        var pairs: [JSONText] = []
        for i in labels.indices {
            for j in labels.indices where j > i {
                var o: JSONObject = ["first": .string(labels[i]), "second": .string(labels[j])]
                for m in Measure.allCases { o["auc_" + m.rawValue] = auc(m, labels[i], labels[j]).map { .number($0) } ?? .null }
                pairs.append(.object(o))
            }
        }
        let v: JSONText = DocumentSchema.document("roughness_evaluation", ["folder": .string(folder), "labels": .array(labels.map { .string($0) }),
                                    "classes": .object(classes), "auc": .array(pairs),
                                    "skipped": .array(failures.map { .string($0) })])
        return v.text(pretty: true) + "\n"
    }
}
