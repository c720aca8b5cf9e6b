import FoundationEssentials
import Glibc
import SkateCore

/// Leave-one-recording-day-out for `roughness --evaluate` (issue 28): the event rule's two fitted
/// numbers (floor and ratio) are refitted on the other days' files and scored on the held-out
/// day's, so the figure says how the rule does on a day it never saw. Recording day is tangled
/// with class on the e-scooter set (file names MM-DD-HHMMSS), which makes an in-sample AUC flatter.
public struct DayOutEvaluation: Sendable {
    /// Event floors tried (fitted strike, impact g), around the calibrated 1.0.
    public static let floors: [Double] = [0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 2.0]
    /// Strike-baseline ratios tried, around the calibrated 10.
    public static let ratios: [Double] = [4, 6, 8, 10, 12, 15]

    /// One file: its class, recording day and figures.
    public struct File: Sendable {
        public var label: String
        public var day: String
        /// Events per minute for each (floor, ratio) of the grid, floors outer.
        public var eventsPerMinute: [Double]
        public var robustRMS: Double?
        public var bumpiness: Double?
        public var naiveStd: Double
        /// `Bumpiness.impulsiveness` (excess kurtosis of the bumpiness band), nil when unknown.
        public var impulsiveness: Double? = nil
        /// The ride summary's bumpiness (`BumpinessMeter`, streamed, every sample taken as rolling,
        /// the body-motion gate on), nil when nothing was counted.
        public var rideBumpiness: Double? = nil
    }

    /// The pair scored (first should score higher).
    public var positive: String
    public var negative: String
    public var files: [File]
    /// Input rate after resampling, Hz.
    public var rate: Double

    static func index(_ f: Int, _ r: Int) -> Int { f * ratios.count + r }
    static var calibrated: Int {
        index(floors.firstIndex(of: RoughnessCalibration.eventMinimumPeak)!, ratios.firstIndex(of: RoughnessCalibration.eventBaselineRatio)!)
    }

    /// The recording day of a file named MM-DD-HHMMSS (the e-scooter layout), nil otherwise.
    public static func day(ofPath path: String) -> String? {
        let name = PathText.lastComponent(path)
        let parts = name.split(separator: "-")
        guard parts.count >= 3, parts[0].count == 2, parts[1].count == 2, Int(parts[0]) != nil, Int(parts[1]) != nil else { return nil }
        return "\(parts[0])-\(parts[1])"
    }

    /// Averages groups of samples down to `rate` Hz (a sensor's anti-alias filter at that rate).
    public static func resample(_ s: [MotionSample], from: Double, to rate: Double) -> [MotionSample] {
        let k = max(1, Int((from / rate).rounded()))
        guard k > 1 else { return s }
        return stride(from: 0, to: s.count - k + 1, by: k).map { i in
            let g = s[i..<i + k]
            let n = Double(k)
            return MotionSample(t: g.last!.t, ax: g.reduce(0) { $0 + $1.ax } / n, ay: g.reduce(0) { $0 + $1.ay } / n, az: g.reduce(0) { $0 + $1.az } / n)
        }
    }

    /// Measures every dated file of classes `positive` and `negative` under `folder`.
    /// - Parameter rate: resample to this rate (Hz) first, nil to keep the recorded rate.
    public static func evaluate(folder: String, positive: String, negative: String, rate: Double? = nil) throws -> DayOutEvaluation {
        var out: [File] = []
        var usedRate = ScooterWindow.sampleRate
        for label in [positive, negative] {
            let dir = PathText.appending(folder, label)
            let paths = ((try? FileManager.default.subpathsOfDirectory(atPath: dir)) ?? []).map { PathText.appending(dir, $0) }
                .filter { ScooterWindow.matches(path: $0) && day(ofPath: $0) != nil }.sorted()
            for p in paths {
                var s = try ScooterWindow.load(path: p)
                var r = ScooterWindow.sampleRate
                if let target = rate { s = resample(s, from: r, to: target); r = target }
                usedRate = r
                let minutes = (s.last!.t - s.first!.t) / 60
                var epm: [Double] = []
                epm.reserveCapacity(floors.count * ratios.count)
                for f in floors {
                    for q in ratios {
                        var e = try RoughnessEngine(sampleRate: r, eventMinimumPeak: f, eventBaselineRatio: q)
                        var n = 0
                        for x in s { if e.push(x)?.event != nil { n += 1 } }
                        n += e.finish().filter { $0.event != nil }.count
                        epm.append(minutes > 0 ? Double(n) / minutes : 0)
                    }
                }
                let robust = RoughnessEngine.robustRMS(for: try RoughnessEngine.windows(for: s, sampleRate: r))
                out.append(File(label: label, day: day(ofPath: p)!, eventsPerMinute: epm, robustRMS: robust,
                                // Ungated: an e-scooter is not pushed, and its throttle and
                                // steering fill the gate's body band (docs/wheels-to-routes.md §5).
                                bumpiness: Bumpiness.measure(s, sampleRate: r), naiveStd: RoughnessEvaluation.naiveVerticalStd(s),
                                impulsiveness: Bumpiness.impulsiveness(s, sampleRate: r), rideBumpiness: {
                                    var m = BumpinessMeter(sampleRate: r)
                                    for x in s { m.push(x, rolling: true) }
                                    m.finish()
                                    return m.rms
                                }()))
            }
        }
        return DayOutEvaluation(positive: positive, negative: negative, files: out, rate: usedRate)
    }

    /// Recording days, sorted.
    public var days: [String] { Array(Set(files.map(\.day))).sorted() }

    func auc(_ fs: [File], _ value: (File) -> Double?) -> Double? {
        RoughnessEvaluation.auc(fs.filter { $0.label == positive }.compactMap(value), fs.filter { $0.label == negative }.compactMap(value))
    }

    /// The grid point with the best events/min AUC on `fs` (the calibrated one on ties).
    func bestRule(_ fs: [File]) -> Int {
        var best = Self.calibrated, bestAUC = auc(fs) { $0.eventsPerMinute[Self.calibrated] } ?? 0
        for i in 0..<(Self.floors.count * Self.ratios.count) {
            if let a = auc(fs, { $0.eventsPerMinute[i] }), a > bestAUC + 1e-12 { best = i; bestAUC = a }
        }
        return best
    }

    /// Events/min AUC: in-sample with the calibrated rule, in-sample refitted on all days, and
    /// leave-one-day-out (each day scored with the rule fitted on the others, the scores pooled),
    /// with the rule each held-out day got.
    public func eventsAUC() -> (calibrated: Double?, refitted: Double?, dayOut: Double?, rules: [(day: String, floor: Double, ratio: Double)]) {
        let all = bestRule(files)
        var scored: [File] = []
        var rules: [(String, Double, Double)] = []
        for d in days {
            let rule = bestRule(files.filter { $0.day != d })
            rules.append((d, Self.floors[rule / Self.ratios.count], Self.ratios[rule % Self.ratios.count]))
            for var f in files where f.day == d {
                f.eventsPerMinute = [f.eventsPerMinute[rule]]
                scored.append(f)
            }
        }
        return (auc(files) { $0.eventsPerMinute[Self.calibrated] }, auc(files) { $0.eventsPerMinute[all] },
                RoughnessEvaluation.auc(scored.filter { $0.label == positive }.map { $0.eventsPerMinute[0] },
                                        scored.filter { $0.label == negative }.map { $0.eventsPerMinute[0] }), rules)
    }

    /// The table: events (in-sample, refit, day-out), robust RMS, bumpiness and naive std (no
    /// fitted numbers: the same in and out of sample), per day the files and the rule it got.
    public func text() -> String {
        func f(_ x: Double?) -> String { x.map { String(printf: "%.3f", $0) } ?? "-" }
        let e = eventsAUC()
        var within: [(day: String, calibrated: Double, dayOut: Double, robust: Double?, bumpiness: Double?, naive: Double?, impulsive: Double?, ride: Double?)] = []
        var out = String(printf: "leave-one-recording-day-out, %@ > %@ at %.0f Hz (%d files, %d days):\n", positive, negative, rate, files.count, days.count)
        out += "  events/min: in-sample (calibrated rule) \(f(e.calibrated)), in-sample refit \(f(e.refitted)), day-out \(f(e.dayOut))\n"
        out += "  robust_rms \(f(auc(files) { $0.robustRMS })), bumpiness \(f(auc(files) { $0.bumpiness })), impulsiveness \(f(auc(files) { $0.impulsiveness })), ride_bumpiness \(f(auc(files) { $0.rideBumpiness })), naive_std \(f(auc(files) { $0.naiveStd })) (nothing fitted: in = out)\n"
        // Day and class are tangled (most days hold one class): the pooled figures still compare
        // days. Within a day that holds both classes, only the surface differs.
        for r in e.rules {
            let n = files.filter { $0.day == r.day }
            let rule = Self.index(Self.floors.firstIndex(of: r.floor)!, Self.ratios.firstIndex(of: r.ratio)!)
            if let out = auc(n, { $0.eventsPerMinute[rule] }), let cal = auc(n, { $0.eventsPerMinute[Self.calibrated] }) {
                within.append((r.day, cal, out, auc(n) { $0.robustRMS }, auc(n) { $0.bumpiness }, auc(n) { $0.naiveStd }, auc(n) { $0.impulsiveness }, auc(n) { $0.rideBumpiness }))
            }
            out += "  held out \(r.day): \(n.filter { $0.label == positive }.count) \(positive), \(n.filter { $0.label == negative }.count) \(negative); rule fitted on the others: floor "
                + String(printf: "%.1f g, ratio %.0f", r.floor, r.ratio) + "\n"
        }
        for w in within {
            out += "  within \(w.day) (both classes): events/min calibrated \(f(w.calibrated)), day-out rule \(f(w.dayOut)); robust_rms \(f(w.robust)), bumpiness \(f(w.bumpiness)), impulsiveness \(f(w.impulsive)), ride_bumpiness \(f(w.ride)), naive_std \(f(w.naive))\n"
        }
        return out
    }
}
