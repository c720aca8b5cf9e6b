import FoundationEssentials
import Glibc
import SkateCore

/// One trick from the Correa et al. (2017) skateboard accelerometer recordings.
public struct SkateTrickRecording: Sendable {
    /// Row in the CSV files (0-based, after the header).
    public var index: Int
    /// Label 1…5 as in the files.
    public var label: Int
    /// Trick name inferred from the upstream classifier's column order.
    public var name: String
    /// 82 samples in g at `CorreaTricks.sampleRate`, starting at t = 0.
    public var samples: [MotionSample]
}

/// Loader for `motion/skateboard-tricks-correa2017` (three CSVs `datax/y/z.csv`, one row per
/// trick, 82 raw integer counts per axis, plus a label column).
///
/// Neither the repository nor the paper's abstract states the scale or the sampling rate, so:
/// - **Scale 1 g = 1000 counts** (1 mg per count): at the start of every trick the board is at
///   rest and the vector magnitude of (x, y, z) has median 1017 counts, i.e. exactly gravity;
///   the largest landing spike (13,002 counts = 13 g) then sits inside a ±16 g sensor range.
/// - **Rate 100 Hz**: each trick shows the pop (~2–3 g for ~80 ms), a near-free-fall flight
///   (0.1–0.5 g) and the landing spike; pop-to-landing is a median 43 samples. At 100 Hz that is
///   0.43 s of air time, the time of flight of an ordinary ~20 cm flat-ground ollie
///   (h = g·t²/8 ≈ 0.23 m); 50 Hz would mean 0.86 s (a 0.9 m ollie, implausible for these riders)
///   and the 3–4-sample landing spikes would last 60–80 ms instead of the 30–40 ms typical of a
///   hard-wheel impact.
public enum CorreaTricks {
    /// Counts per g (see type docs).
    public static let countsPerG: Double = 1000
    /// Assumed sampling rate in Hz (see type docs).
    public static let sampleRate: Double = 100
    /// Trick names by label 1…5 (upstream one-hot column order).
    public static let names = ["Nollie", "Nollie Shove-It", "Kickflip", "Shove-It", "Ollie"]

    /// Reads the three axis files from `folder`.
    /// - Throws: `MotionError` naming the file and line when a file is missing or malformed, or
    ///   when the three files disagree on row count or labels.
    public static func load(folder: String) throws -> [SkateTrickRecording] {
        func axis(_ name: String) throws -> [(label: Int, values: [Double])] {
            let path = PathText.appending(folder, name)
            var rows: [(Int, [Double])] = []
            var width: Int?
            let opened = try LineReader.forEachLine(path: path) { number, line in
                let text = ByteText.string(ByteText.trimmed(line))
                if text.isEmpty { return }
                let fields = text.split(separator: ",", omittingEmptySubsequences: false)
                if number == 1 {
                    guard fields.last == "label" else {
                        throw MotionError.malformed(path: path, line: 1, reason: "header must end with 'label'")
                    }
                    width = fields.count
                    return
                }
                guard fields.count == width else {
                    throw MotionError.malformed(path: path, line: number, reason: "expected \(width ?? 0) fields, found \(fields.count)")
                }
                var values: [Double] = []
                values.reserveCapacity(fields.count - 1)
                for f in fields.dropLast() {
                    guard let v = Double(f.trimmingWhitespace()) else {
                        throw MotionError.malformed(path: path, line: number, reason: "'\(f)' is not a number")
                    }
                    values.append(v)
                }
                guard let label = Int(fields.last!.trimmingWhitespace()), (1...names.count).contains(label) else {
                    throw MotionError.malformed(path: path, line: number, reason: "label '\(fields.last!)' is not 1…\(names.count)")
                }
                rows.append((label, values))
            }
            guard opened else { throw MotionError.unreadable(path: path, reason: "no such file") }
            return rows
        }
        let x = try axis("datax.csv"), y = try axis("datay.csv"), z = try axis("dataz.csv")
        let zPath = PathText.appending(folder, "dataz.csv")
        guard x.count == y.count, y.count == z.count, !x.isEmpty else {
            throw MotionError.malformed(path: zPath, line: 1, reason: "axis files disagree on row count (\(x.count), \(y.count), \(z.count))")
        }
        var out: [SkateTrickRecording] = []
        out.reserveCapacity(x.count)
        for i in 0..<x.count {
            guard x[i].label == y[i].label, y[i].label == z[i].label else {
                throw MotionError.malformed(path: zPath, line: i + 2, reason: "labels differ across axis files")
            }
            let n = min(x[i].values.count, y[i].values.count, z[i].values.count)
            let samples = (0..<n).map { k in
                MotionSample(t: Double(k) / sampleRate, ax: x[i].values[k] / countsPerG,
                             ay: y[i].values[k] / countsPerG, az: z[i].values[k] / countsPerG)
            }
            out.append(SkateTrickRecording(index: i, label: x[i].label, name: names[x[i].label - 1], samples: samples))
        }
        return out
    }
}

/// One case from the sktime BasicMotions set (smartwatch, 10 Hz, 10 s).
public struct BasicMotionsCase: Sendable {
    public var index: Int
    /// Standing, Walking, Running or Badminton.
    public var label: String
    /// 100 samples at 10 Hz in g.
    public var samples: [MotionSample]
}

/// Loader for `motion/basicmotions-sktime/*.ts` (sktime .ts text format: `@` header lines, then
/// one case a line: six comma-separated series separated by `:`, then the label). Only the first
/// three series (accelerometer) are used. The files do not state units; magnitudes (standing
/// ≈ 0.3, running ≈ 14–18) match gravity-removed linear acceleration in m/s², so values are
/// divided by 9.80665. A low-rate robustness input only: 10 Hz cannot see road vibration.
public enum BasicMotions {
    /// Sampling rate in Hz ("sampled once every tenth of a second").
    public static let sampleRate: Double = 10

    /// - Throws: `MotionError` naming the file and line.
    public static func load(path: String) throws -> [BasicMotionsCase] {
        var out: [BasicMotionsCase] = []
        var inData = false
        let opened = try LineReader.forEachLine(path: path) { number, line in
            let text = ByteText.string(ByteText.trimmed(line))
            if text.isEmpty || text.hasPrefix("#") { return }
            if text.hasPrefix("@") {
                if text.lowercased().hasPrefix("@data") { inData = true }
                return
            }
            guard inData else { throw MotionError.malformed(path: path, line: number, reason: "data before @data") }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 4 else {
                throw MotionError.malformed(path: path, line: number, reason: "expected dimensions separated by ':' and a label")
            }
            var axes: [[Double]] = []
            for p in parts.prefix(3) {
                var series: [Double] = []
                for f in p.split(separator: ",") {
                    guard let v = Double(f.trimmingWhitespace()), v.isFinite else {
                        throw MotionError.malformed(path: path, line: number, reason: "'\(f)' is not a number")
                    }
                    series.append(v / MotionUnits.standardGravity)
                }
                axes.append(series)
            }
            let n = min(axes[0].count, axes[1].count, axes[2].count)
            let samples = (0..<n).map { k in
                MotionSample(t: Double(k) / sampleRate, ax: axes[0][k], ay: axes[1][k], az: axes[2][k])
            }
            out.append(BasicMotionsCase(index: out.count, label: String(parts.last!), samples: samples))
        }
        guard opened else { throw MotionError.unreadable(path: path, reason: "no such file") }
        guard !out.isEmpty else { throw MotionError.empty(path: path) }
        return out
    }
}

/// Loader for one window of `motion/escooter-sidewalk-street-techiepizza2020` (Techie Pizza 2020,
/// BSD-2): a headerless CSV, one sample a line, seven columns `time, rotx, roty, rotz, accelx,
/// accely, accelz` (column names from the team's training.py), accelerations in m/s² with
/// gravity (z vertical, reading negative), gyro in deg/s (ignored).
///
/// The time column is printed with 2 decimals (10 ms steps) at a 200 Hz rate, so consecutive
/// stamps repeat, and a few files have clock jumps; as the data's SOURCE notes advise, sample
/// times are rebuilt as index / 200 Hz (the BMX055 gyro data-ready rate that paces the logger).
public enum ScooterWindow {
    /// Sampling rate in Hz (see type docs).
    public static let sampleRate: Double = 200
    /// Columns per line.
    public static let columnCount = 7
    /// Zero-based columns of accelx, accely, accelz.
    public static let accelColumns = (4, 5, 6)

    /// True when the file's first non-empty line is seven plain numbers (no header): this layout.
    public static func matches(path: String) -> Bool {
        guard (try? InputPath.checkRegularFile(path)) != nil, let bytes = RawFile.readPrefix(of: path, count: 512) else { return false }
        let head = String(decoding: bytes, as: UTF8.self)
        guard let line = head.split(whereSeparator: \.isNewline).first else { return false }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        return fields.count == columnCount && fields.allSatisfy { Double($0.trimmingWhitespace()) != nil }
    }

    /// Reads one window: samples in g at `sampleRate`, t from 0.
    /// - Throws: `MotionError` naming the file and line.
    public static func load(path: String) throws -> [MotionSample] {
        var out: [MotionSample] = []
        out.reserveCapacity(1300)
        let opened = try LineReader.forEachLine(path: path) { number, line in
            let t = ByteText.trimmed(line)
            if t.isEmpty { return }
            var fields: [Double] = []
            var start = 0
            for i in 0...t.count where i == t.count || t[i] == 0x2C {
                guard let v = ByteText.double(UnsafeBufferPointer(rebasing: t[start..<i])) else {
                    throw MotionError.malformed(path: path, line: number, reason: "field \(fields.count + 1) is not a finite number")
                }
                fields.append(v)
                start = i + 1
            }
            guard fields.count == columnCount else {
                throw MotionError.malformed(path: path, line: number, reason: "expected \(columnCount) fields (time, rotx, roty, rotz, accelx, accely, accelz), found \(fields.count)")
            }
            let k = MotionUnits.metresPerSecondSquared.toG
            out.append(MotionSample(t: Double(out.count) / sampleRate, ax: fields[accelColumns.0] * k,
                                    ay: fields[accelColumns.1] * k, az: fields[accelColumns.2] * k))
        }
        guard opened else { throw MotionError.unreadable(path: path, reason: "no such file") }
        guard !out.isEmpty else { throw MotionError.empty(path: path) }
        return out
    }
}
