import Foundation
import SkateCore

/// The first line of a ride log.
public struct RideLogHeader: Sendable, Equatable, Codable {
    /// Log schema version; bump on incompatible changes.
    public static let currentSchema = 1
    public var schema: Int = RideLogHeader.currentSchema
    /// Stable id of the ride (derived from its input, so replays give the same id).
    public var rideId: String
    /// Map name, or "" for a free ride without a map.
    public var map: String
    /// Ride mode, or "free".
    public var mode: String
    /// Ride start, seconds since 1970 (the first fix), and the same as ISO 8601.
    public var startEpoch: Double
    public var start: String

    public init(rideId: String, map: String, mode: String, startEpoch: Double) {
        self.rideId = rideId; self.map = map; self.mode = mode; self.startEpoch = startEpoch
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        start = f.string(from: Date(timeIntervalSince1970: startEpoch))
    }

    enum CodingKeys: String, CodingKey {
        case schema, map, mode, start
        case rideId = "ride_id"
        case startEpoch = "start_epoch"
    }
}

/// Why a ride log could not be written.
public struct RideLogError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): cannot write ride log: \(reason)" }
}

/// Writes a ride as NDJSON: a header line, then 10 Hz sample lines
/// `{"class","lat","lon","matched","off","rms","speed","stab","step","t"}` and event lines
/// `{"event":…,"t":…}`, every line with sorted keys and fixed decimals so the same ride gives the
/// same bytes. Lines are buffered and appended with a `FileHandle` whenever a second of ride time
/// has passed since the last write (and on `stop`), so a `kill -9` loses at most a second.
public final class RideRecorder {
    /// Ride seconds between writes: the most a crash can lose.
    public static let flushInterval: Double = 1

    /// Path of the log.
    public let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var lastFlush: Double
    private var stopped = false
    private let encoder: JSONEncoder

    /// Creates (truncating) the log and writes the header at once.
    /// - Throws: `RideLogError` naming the path.
    public init(path: String, header: RideLogHeader) throws {
        self.path = path
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let h = FileHandle(forWritingAtPath: path) else {
            throw RideLogError(path: path, reason: "cannot create the file")
        }
        handle = h
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        lastFlush = 0
        buffer.reserveCapacity(4096)
        try appendJSON(header)
        flush()
    }

    deinit { if !stopped { flush(); try? handle.close() } }

    private func appendJSON<T: Encodable>(_ value: T) throws {
        buffer.append(contentsOf: try encoder.encode(value))
        buffer.append(0x0A)
    }

    /// Writes the buffered lines to disk now.
    public func flush() {
        guard !buffer.isEmpty, !stopped else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes when a second of ride time has passed since the last write.
    private func maybeFlush(_ t: Double) {
        if t - lastFlush >= Self.flushInterval { flush(); lastFlush = t }
    }

    /// Appends one 10 Hz sample line.
    public func sample(t: Double, state s: RideState) {
        guard !stopped, let p = s.position else { return }
        // Keys in sorted order: class, lat, lon, matched, off, rms, speed, stab, step, t.
        buffer.append(contentsOf: Array("{\"class\":".utf8))
        if let c = s.roughnessClass { appendString(c.name) } else { appendNull() }
        key("lat"); appendNumber(p.lat, 6)
        key("lon"); appendNumber(p.lon, 6)
        key("matched"); buffer.append(contentsOf: s.matched ? Array("true".utf8) : Array("false".utf8))
        key("off"); buffer.append(contentsOf: s.offRoute ? Array("true".utf8) : Array("false".utf8))
        key("rms"); if let r = s.rms { appendNumber(r, 3) } else { appendNull() }
        key("speed"); appendNumber(s.speed, 2)
        key("stab"); appendNumber(s.stability, 0)
        key("step"); if let st = s.step { appendInt(st) } else { appendNull() }
        key("t"); appendNumber(t, 1)
        buffer.append(UInt8(ascii: "}")); buffer.append(0x0A)
        maybeFlush(t)
    }

    /// Appends one event line.
    public func event(_ e: RideEvent) {
        guard !stopped else { return }
        let line: EventLine
        switch e {
        case .cue(let c):
            line = EventLine(event: "cue", t: Self.round(c.t, 2), kind: c.kind.rawValue, step: c.step,
                             distance: Self.round(c.distance, 1), text: c.text)
        case .reroute(let r):
            line = EventLine(event: "reroute", t: Self.round(r.t, 2), distance: Self.round(r.distance, 1),
                             latency: Self.round(r.latency, 2), lat: Self.round(r.from.lat, 6), lon: Self.round(r.from.lon, 6),
                             offRoute: Self.round(r.offRouteDistance, 1))
        case .backOnRoute(let t):
            line = EventLine(event: "back_on_route", t: Self.round(t, 2))
        case .gap(let t, let seconds):
            line = EventLine(event: "gap", t: Self.round(t, 2), seconds: Self.round(seconds, 2))
        case .warning(let t, let message):
            line = EventLine(event: "warning", t: Self.round(t, 2), text: message)
        }
        try? appendJSON(line)
        maybeFlush(e.t)
    }

    /// Appends the closing summary line, writes everything and closes the file.
    /// - Returns: the log's path.
    @discardableResult
    public func stop(summary: RideSummary? = nil) -> String {
        guard !stopped else { return path }
        if let s = summary {
            var copy = s
            copy.logPath = nil
            copy.cues = []
            try? appendJSON(SummaryLine(summary: copy))
        }
        flush()
        stopped = true
        try? handle.close()
        return path
    }

    struct SummaryLine: Encodable {
        var event = "summary"
        var summary: RideSummary
    }

    struct EventLine: Encodable {
        var event: String
        var t: Double
        var kind: String? = nil
        var step: Int? = nil
        var distance: Double? = nil
        var text: String? = nil
        var latency: Double? = nil
        var lat: Double? = nil
        var lon: Double? = nil
        var offRoute: Double? = nil
        var seconds: Double? = nil

        enum CodingKeys: String, CodingKey {
            case event, t, kind, step, text, lat, lon, seconds
            case distance = "distance_m"
            case latency = "latency_s"
            case offRoute = "off_route_m"
        }
    }

    static func round(_ x: Double, _ d: Int) -> Double { RideSummary.round(x, d) }

    // MARK: Fast fixed-decimal output

    private func key(_ k: StaticString) {
        buffer.append(UInt8(ascii: ",")); buffer.append(UInt8(ascii: "\""))
        k.withUTF8Buffer { buffer.append(contentsOf: $0) }
        buffer.append(UInt8(ascii: "\"")); buffer.append(UInt8(ascii: ":"))
    }

    private func appendNull() { buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    private func appendString(_ s: String) {
        buffer.append(UInt8(ascii: "\"")); buffer.append(contentsOf: s.utf8); buffer.append(UInt8(ascii: "\""))
    }

    private func appendInt(_ v: Int) { FixedDecimal.appendInt(v, to: &buffer) }

    /// Appends `x` with exactly `decimals` decimals (no exponent, no "-0").
    private func appendNumber(_ x: Double, _ decimals: Int) { FixedDecimal.append(x, decimals: decimals, to: &buffer) }
}
