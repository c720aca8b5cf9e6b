import FoundationEssentials
import Glibc
import SkateCore

/// Why a motion file could not be read. Each description is one line naming the file (and line).
public enum MotionError: Error, CustomStringConvertible, Equatable {
    case unreadable(path: String, reason: String)
    case malformed(path: String, line: Int, reason: String)
    /// Neither the file, a sidecar nor the caller declared m/s² or g.
    case missingUnits(path: String)
    case empty(path: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read motion file: \(reason)"
        case let .malformed(path, line, reason): return "\(path):\(line): \(reason)"
        case let .missingUnits(path):
            return "\(path): acceleration units not declared: add a '# units: g' or '# units: m/s^2' line, a \(PathText.lastComponent(path)).units sidecar, or pass the units"
        case let .empty(path): return "\(path): no motion samples"
        }
    }
}

/// What a motion file held, besides its samples.
public struct MotionFileInfo: Sendable, Equatable {
    public enum Format: String, Sendable { case csv, ndjson }
    public var format: Format
    /// Units the file's accelerations were in (samples are always delivered in g).
    public var units: MotionUnits
    public var sampleCount: Int
    /// True when the CSV header had gx, gy, gz columns (read but not used).
    public var hasGyro: Bool
    /// Sampling rate in Hz from the median interval of the first samples; nil with < 2 samples.
    public var estimatedRate: Double?
}

/// A motion file read into memory (for batch use; replay should stream with `forEachSample`).
public struct MotionRecording: Sendable {
    public var samples: [MotionSample]
    public var info: MotionFileInfo
}

/// Reads accelerometer recordings:
/// - CSV with a header `t,ax,ay,az[,gx,gy,gz]` (columns in any order, extra columns ignored),
///   `#` comment lines, units declared in a `# units: m/s^2` or `# units: g` comment before the
///   data, or in a sidecar file `FILE.units` holding the unit name;
/// - NDJSON, one object a line: `{"t":0.01,"ax":0.0,"ay":0.0,"az":1.0}`; units from a line
///   `{"units":"g"}` (or a `"units"` key on any line before the first sample), or the sidecar.
/// Time `t` is in seconds and must not go backwards. Accelerations are delivered in g.
public struct MotionReader: Sendable {
    /// Units to assume when the file and sidecar declare none; nil makes that an error.
    public var defaultUnits: MotionUnits?

    /// Intervals used to estimate the sampling rate (median of the first ones).
    static let rateEstimateIntervals = 512

    public init(defaultUnits: MotionUnits? = nil) { self.defaultUnits = defaultUnits }

    /// Reads the whole file into memory.
    /// - Throws: `MotionError` naming the file and line.
    public func read(path: String) throws -> MotionRecording {
        var samples: [MotionSample] = []
        let info = try forEachSample(path: path) { samples.append($0) }
        return MotionRecording(samples: samples, info: info)
    }

    /// Streams every sample (in g) to `body` without retaining any: flat memory for long rides.
    /// - Throws: `MotionError` naming the file and line, or what `body` throws.
    @discardableResult
    public func forEachSample(path: String, _ body: (MotionSample) throws -> Void) throws -> MotionFileInfo {
        // A regular file only: `/dev/zero` would stream forever and a FIFO would block.
        do { try InputPath.checkRegularFile(path) } catch { throw MotionError.unreadable(path: path, reason: error.problem) }
        let sidecar = Self.sidecarUnits(for: path)
        var parser = LineParser(path: path, sidecarUnits: sidecar, defaultUnits: defaultUnits)
        let opened: Bool
        do {
            opened = try LineReader.forEachLine(path: path) { number, line in
                if let s = try parser.consume(line: line, number: number) { try body(s) }
            }
        } catch let e as InputPathError {
            throw MotionError.unreadable(path: path, reason: e.problem)
        }
        guard opened else { throw MotionError.unreadable(path: path, reason: "cannot open (permission denied?)") }
        // Units are checked at the first data row, so here only "no rows at all" remains.
        guard parser.count > 0, let units = parser.units, let format = parser.format else {
            throw MotionError.empty(path: path)
        }
        return MotionFileInfo(format: format, units: units, sampleCount: parser.count, hasGyro: parser.hasGyro,
                              estimatedRate: parser.estimatedRate())
    }

    /// Largest `.units` sidecar read, in bytes: it holds one unit name.
    static let maxSidecarBytes = 4096

    /// Units from `FILE.units` (a unit name, optionally after `units:`), if present and valid.
    static func sidecarUnits(for path: String) -> MotionUnits? {
        guard let bytes = try? FileBytes.read(path: path + ".units", maxBytes: Self.maxSidecarBytes) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        var t = text.trimmingWhitespaceAndNewlines()
        if t.hasPrefix("#") { t.removeFirst() }
        if let r = t.rangeIgnoringASCIICase(of: "units:") { t = String(t[r.upperBound...]) }
        return MotionUnits(parsing: t)
    }

    /// Units from a comment like `# units: m/s^2` (nil if the comment is about something else).
    static func commentUnits(_ comment: String) -> MotionUnits?? {
        guard let r = comment.rangeIgnoringASCIICase(of: "units") else { return nil }
        var rest = comment[r.upperBound...].trimmingWhitespace()
        guard rest.hasPrefix(":") || rest.hasPrefix("=") else { return nil }
        rest.removeFirst()
        return .some(MotionUnits(parsing: rest))
    }
}

/// The per-line state machine shared by the CSV and NDJSON paths.
struct LineParser {
    let path: String
    let sidecarUnits: MotionUnits?
    let defaultUnits: MotionUnits?
    var format: MotionFileInfo.Format?
    var declaredUnits: MotionUnits?
    var units: MotionUnits? { declaredUnits ?? sidecarUnits ?? defaultUnits }
    var count = 0
    var sawData = false
    var hasGyro = false
    var lastT = -Double.infinity
    var intervals: [Double] = []

    // CSV column positions.
    var columns: (t: Int, ax: Int, ay: Int, az: Int)?
    var columnCount = 0
    var fieldStarts: [Int] = []

    /// The format is decided by content: a first data line starting with `{` is NDJSON.
    init(path: String, sidecarUnits: MotionUnits?, defaultUnits: MotionUnits?) {
        self.path = path
        self.sidecarUnits = sidecarUnits
        self.defaultUnits = defaultUnits
    }

    func estimatedRate() -> Double? {
        guard !intervals.isEmpty else { return nil }
        let sorted = intervals.sorted()
        let median = sorted[sorted.count / 2]
        return median > 0 ? (1000 / median).rounded() / 1000 : nil  // 0.001 Hz: 1/0.01 reads 100
    }

    private func fail(_ line: Int, _ reason: String) -> MotionError {
        MotionError.malformed(path: path, line: line, reason: reason)
    }

    mutating func consume(line raw: UnsafeBufferPointer<UInt8>, number: Int) throws -> MotionSample? {
        let line = ByteText.trimmed(raw)
        if line.isEmpty { return nil }
        if line[0] == 0x23 /* # */ {
            if !sawData, let u = MotionReader.commentUnits(ByteText.string(UnsafeBufferPointer(rebasing: line[1...]))) {
                guard let unit = u else { throw fail(number, "unknown units in '\(ByteText.excerpt(line))' (use g or m/s^2)") }
                declaredUnits = unit
            }
            return nil
        }
        if format == nil { format = line[0] == 0x7B /* { */ ? .ndjson : .csv }
        switch format! {
        case .csv: return try csvLine(line, number)
        case .ndjson: return try jsonLine(line, number)
        }
    }

    // MARK: CSV

    private mutating func csvLine(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws -> MotionSample? {
        if let cols = columns, let row = Self.plainRow(line, columns: cols, count: columnCount) {
            return try emit(t: row.t, ax: row.ax, ay: row.ay, az: row.az, number)
        }
        // Split on commas (positions only).
        fieldStarts.removeAll(keepingCapacity: true)
        fieldStarts.append(0)
        for i in 0..<line.count where line[i] == 0x2C { fieldStarts.append(i + 1) }
        func field(_ k: Int) -> UnsafeBufferPointer<UInt8> {
            let s = fieldStarts[k]
            let e = k + 1 < fieldStarts.count ? fieldStarts[k + 1] - 1 : line.count
            return UnsafeBufferPointer(rebasing: line[s..<e])
        }
        guard let cols = columns else {
            var names: [String] = []
            for k in 0..<fieldStarts.count {
                names.append(ByteText.string(ByteText.trimmed(field(k))).lowercased().trimming(charactersIn: "\""))
            }
            guard let t = names.firstIndex(of: "t"), let ax = names.firstIndex(of: "ax"),
                  let ay = names.firstIndex(of: "ay"), let az = names.firstIndex(of: "az") else {
                throw fail(number, "header must name columns t,ax,ay,az[,gx,gy,gz], found '\(ByteText.excerpt(line))'")
            }
            columns = (t, ax, ay, az)
            columnCount = names.count
            hasGyro = names.contains("gx") && names.contains("gy") && names.contains("gz")
            return nil
        }
        guard fieldStarts.count == columnCount else {
            throw fail(number, "expected \(columnCount) fields, found \(fieldStarts.count)")
        }
        func value(_ k: Int, _ name: String) throws -> Double {
            guard let v = ByteText.double(field(k)) else {
                throw fail(number, "'\(ByteText.excerpt(ByteText.trimmed(field(k))))' in column \(name) is not a finite number")
            }
            return v
        }
        let t = try value(cols.t, "t")
        let ax = try value(cols.ax, "ax"), ay = try value(cols.ay, "ay"), az = try value(cols.az, "az")
        return try emit(t: t, ax: ax, ay: ay, az: az, number)
    }

    /// A data line's t, ax, ay, az read in one pass, without splitting it first, when it has
    /// exactly `count` fields and those four are plain decimals (`ByteText.plainDecimal`, blanks
    /// around them allowed): the values `ByteText.double` gives them. Anything else returns nil
    /// and takes the general path (its split, the full parser and its error messages). The
    /// split, the per-field calls and the number parser were a tenth of a headless replay.
    static func plainRow(_ line: UnsafeBufferPointer<UInt8>, columns c: (t: Int, ax: Int, ay: Int, az: Int),
                         count: Int) -> (t: Double, ax: Double, ay: Double, az: Double)? {
        guard let base = line.baseAddress else { return nil }
        let n = line.count
        var t = 0.0, ax = 0.0, ay = 0.0, az = 0.0
        var k = 0, start = 0
        while true {
            var end = start
            while end < n, base[end] != UInt8(ascii: ",") { end += 1 }
            if k == c.t || k == c.ax || k == c.ay || k == c.az {
                var s = start, e = end
                while s < e, ByteText.isSpace(base[s]) { s += 1 }
                while e > s, ByteText.isSpace(base[e - 1]) { e -= 1 }
                guard e > s, e - s < ByteText.maxNumberBytes,
                      let v = ByteText.plainDecimal(UnsafeBufferPointer(start: base + s, count: e - s)) else { return nil }
                if k == c.t { t = v } else if k == c.ax { ax = v } else if k == c.ay { ay = v } else { az = v }
            }
            k += 1
            if end == n { break }
            start = end + 1
        }
        guard k == count else { return nil }
        return (t, ax, ay, az)
    }

    // MARK: NDJSON

    private mutating func jsonLine(_ line: UnsafeBufferPointer<UInt8>, _ number: Int) throws -> MotionSample? {
        var obj = FlatJSONObject()
        do { try obj.parse(line) } catch let e as FlatJSONObject.ParseError {
            throw fail(number, "not a JSON object: \(e.reason)")
        }
        if let u = obj.strings["units"] {
            guard let unit = MotionUnits(parsing: u) else { throw fail(number, "unknown units '\(u)' (use g or m/s^2)") }
            if !sawData { declaredUnits = unit }
        }
        let t = obj.numbers["t"], ax = obj.numbers["ax"], ay = obj.numbers["ay"], az = obj.numbers["az"]
        if t == nil, ax == nil, ay == nil, az == nil { return nil }  // a header/metadata line
        guard let t, let ax, let ay, let az else {
            let missing = ["t", "ax", "ay", "az"].filter { obj.numbers[$0] == nil }
            throw fail(number, "missing or non-numeric \(missing.joined(separator: ", "))")
        }
        return try emit(t: t, ax: ax, ay: ay, az: az, number)
    }

    // MARK: Shared

    private mutating func emit(t: Double, ax: Double, ay: Double, az: Double, _ number: Int) throws -> MotionSample {
        sawData = true
        guard let u = units else { throw MotionError.missingUnits(path: path) }
        guard PlausibleRange.holds(t, PlausibleRange.time) else {
            throw fail(number, "time \(t) s is outside 1900–2200 (or a relative clock of that span)")
        }
        guard t >= lastT else {
            throw fail(number, "time goes back from \(lastT) s to \(t) s")
        }
        if count > 0, intervals.count < MotionReader.rateEstimateIntervals { intervals.append(t - lastT) }
        lastT = t
        count += 1
        let k = u.toG
        return MotionSample(t: t, ax: ax * k, ay: ay * k, az: az * k)
    }
}

/// A one-level JSON object parser for NDJSON motion lines: string and number values are kept,
/// booleans/null ignored, nested arrays/objects skipped.
struct FlatJSONObject {
    struct ParseError: Error { let reason: String }
    var numbers: [String: Double] = [:]
    var strings: [String: String] = [:]

    mutating func parse(_ b: UnsafeBufferPointer<UInt8>) throws {
        var i = 0
        let n = b.count
        func ws() { while i < n, ByteText.isSpace(b[i]) { i += 1 } }
        func str() throws -> String {
            guard i < n, b[i] == 0x22 else { throw ParseError(reason: "expected a string at column \(i + 1)") }
            i += 1
            var bytes: [UInt8] = []
            while i < n, b[i] != 0x22 {
                if b[i] == 0x5C { i += 1; guard i < n else { break } }
                bytes.append(b[i]); i += 1
            }
            guard i < n else { throw ParseError(reason: "unterminated string") }
            i += 1
            return String(decoding: bytes, as: UTF8.self)
        }
        func skipNested() throws {
            var depth = 0
            while i < n {
                let c = b[i]
                if c == 0x22 { _ = try str(); continue }
                if c == 0x7B || c == 0x5B { depth += 1 }
                if c == 0x7D || c == 0x5D { depth -= 1; if depth == 0 { i += 1; return } }
                i += 1
            }
            throw ParseError(reason: "unterminated nested value")
        }
        ws()
        guard i < n, b[i] == 0x7B else { throw ParseError(reason: "line does not start with {") }
        i += 1
        ws()
        if i < n, b[i] == 0x7D { i += 1; ws(); guard i == n else { throw ParseError(reason: "text after }") }; return }
        while true {
            ws()
            let key = try str()
            ws()
            guard i < n, b[i] == 0x3A else { throw ParseError(reason: "expected ':' after \"\(key)\"") }
            i += 1
            ws()
            guard i < n else { throw ParseError(reason: "missing value for \"\(key)\"") }
            let c = b[i]
            if c == 0x22 {
                strings[key] = try str()
            } else if c == 0x7B || c == 0x5B {
                try skipNested()
            } else {
                let s = i
                while i < n, b[i] != 0x2C, b[i] != 0x7D, !ByteText.isSpace(b[i]) { i += 1 }
                let tok = UnsafeBufferPointer(rebasing: b[s..<i])
                let text = ByteText.string(tok)
                if text == "true" || text == "false" || text == "null" {
                    // ignored
                } else if let v = ByteText.double(tok) {
                    numbers[key] = v
                } else {
                    throw ParseError(reason: "bad value '\(text)' for \"\(key)\"")
                }
            }
            ws()
            guard i < n else { throw ParseError(reason: "missing }") }
            if b[i] == 0x2C { i += 1; continue }
            if b[i] == 0x7D { i += 1; break }
            throw ParseError(reason: "expected ',' or '}' at column \(i + 1)")
        }
        ws()
        guard i == n else { throw ParseError(reason: "text after }") }
    }
}
