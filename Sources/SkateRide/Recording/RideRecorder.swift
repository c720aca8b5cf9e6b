import FoundationEssentials
import Glibc
import SkateCore

/// The first line of a ride log.
public struct RideLogHeader: Sendable, Equatable, Codable {
    /// Log schema version; bump on incompatible changes. 2: samples carry the matched edge (OSM
    /// way and end nodes, offset), `transient` and `edge_pass` lines, units and fields in the header.
    public static let currentSchema = 2
    /// Keys of a 10 Hz sample line, in the order written.
    public static let sampleFields = ["class", "edge", "from_node", "lat", "lon", "matched", "off", "offset_m", "rms", "speed",
                                      "stab", "step", "t", "to_node", "way"]
    /// Units of every numeric key in the log's lines, the summary's included (an object's unit,
    /// as `metres_by_class`'s, covers its values). Counts are "count", map edge and plan step
    /// indices "index", OSM ids "osm_id", ratios "1".
    public static let fieldUnits: [String: String] = [
        "t": "s", "since": "s", "seconds": "s", "latency_s": "s",
        "lat": "deg", "lon": "deg",
        "speed": "m/s", "rms": "g", "rms_g": "g", "peak_g": "g", "pass_rms_g": "g",
        "offset_m": "m", "distance_m": "m", "off_route_m": "m",
        "stab": "percent", "ratio": "1", "matched_fraction": "1",
        "edge": "index", "step": "index", "way": "osm_id", "from_node": "osm_id", "to_node": "osm_id",
        "windows": "count", "events": "count", "passes": "count", "fixes": "count", "motion_samples": "count",
        "edge_observations": "count", "dropped_fixes": "count", "gps_jumps": "count", "reroutes": "count", "auto_pauses": "count",
        "duration_s": "s", "moving_s": "s", "reroute_latency_s": "s",
        "learned": "count", "onsets": "count", "capped": "count", "in_train": "count", "off_edge": "count",
        "average_speed_mps": "m/s", "max_speed_mps": "m/s", "max_fix_speed_mps": "m/s",
        "events_per_min": "1/min", "events_per_100m": "1/(100 m)", "metres_by_class": "m",
        "schema": "version", "start_epoch": "s since 1970-01-01T00:00:00Z",
        "robust_rms_g": "g", "counted_s": "s", "pushing_or_carving_s": "s",
    ]
    /// Keys of every other line, by its `event` (the header's `fields` list the sample lines').
    public static let eventFields: [String: [String]] = [
        "cue": ["distance_m", "event", "kind", "step", "t", "text"],
        "reroute": ["distance_m", "event", "lat", "latency_s", "lon", "off_route_m", "t"],
        "back_on_route": ["event", "t"],
        "gap": ["event", "seconds", "t"],
        "warning": ["event", "t", "text"],
        "pause": ["event", "t"],
        "resume": ["event", "seconds", "t"],
        "alert": ["distance_m", "event", "id", "kind", "latency_s", "t", "text"],
        "transient": ["edge", "event", "from_node", "kind", "lat", "lon", "offset_m", "peak_g", "ratio", "t", "to_node", "way"],
        "edge_pass": ["class", "edge", "event", "events", "from_node", "rms_g", "since", "t", "to_node", "way", "windows"],
        "summary": ["event", "summary"],
    ]
    public var schema: Int = RideLogHeader.currentSchema
    /// Units by key (m/s, g, m, s, deg).
    public var units: [String: String] = RideLogHeader.fieldUnits
    /// Keys of the sample lines.
    public var fields: [String] = RideLogHeader.sampleFields
    /// Keys of the other lines, by event.
    public var eventFields: [String: [String]] = RideLogHeader.eventFields
    /// The attribution of the map the ride was matched on (nil: not known to the writer).
    public var attribution: String?
    /// When the log was made, ISO 8601 UTC (nil: not known to the writer).
    public var createdAt: String?
    /// What the log records: nil for a recorded ride (GPS fixes, replayed or live), or
    /// `RideLogHeader.simulatedSource` for a simulated rider on a plan (the TUI's preview ride),
    /// which ride history, stats and badges never count.
    public var source: String?
    /// `source` of a simulated rider's log.
    public static let simulatedSource = "simulated"
    /// Stable id of the ride (derived from its input, so replays give the same id).
    public var rideId: String
    /// Map name, or "" for a free ride without a map.
    public var map: String
    /// Ride mode, or "free".
    public var mode: String
    /// Ride start, seconds since 1970 (the first fix), and the same as ISO 8601.
    public var startEpoch: Double
    public var start: String

    public init(rideId: String, map: String, mode: String, startEpoch: Double, stamp: OutputStamp? = nil) {
        self.rideId = rideId; self.map = map; self.mode = mode; self.startEpoch = startEpoch
        attribution = stamp?.attribution
        createdAt = stamp?.createdISO
        start = ISO8601Time.format(startEpoch)
    }

    enum CodingKeys: String, CodingKey {
        case schema, map, mode, start, units, fields, attribution, source
        case eventFields = "event_fields"
        case createdAt = "created_at"
        case rideId = "ride_id"
        case startEpoch = "start_epoch"
    }

    /// Reads any schema: logs before schema 2 have no units or fields (empty here).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schema = try c.decode(Int.self, forKey: .schema)
        rideId = try c.decode(String.self, forKey: .rideId)
        map = try c.decode(String.self, forKey: .map)
        mode = try c.decode(String.self, forKey: .mode)
        startEpoch = try c.decode(Double.self, forKey: .startEpoch)
        start = try c.decode(String.self, forKey: .start)
        units = try c.decodeIfPresent([String: String].self, forKey: .units) ?? [:]
        fields = try c.decodeIfPresent([String].self, forKey: .fields) ?? []
        eventFields = try c.decodeIfPresent([String: [String]].self, forKey: .eventFields) ?? [:]
        attribution = try c.decodeIfPresent(String.self, forKey: .attribution)
        createdAt = try c.decodeIfPresent(String.self, forKey: .createdAt)
        source = try c.decodeIfPresent(String.self, forKey: .source)
    }
}

/// Why a ride log could not be written.
public struct RideLogError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): cannot write ride log: \(reason)" }
}

/// Writes a ride as NDJSON: a header line (schema, units, fields), then 10 Hz sample lines
/// `{"class","edge","from_node","lat","lon","matched","off","offset_m","rms","speed","stab","step","t","to_node","way"}`
/// (the matched edge as map index, OSM way id and end node ids, and the offset along it from
/// `from_node`), event lines `{"event":…,"t":…}` (cues, reroutes, warnings, `transient` for a
/// roughness event with its peak and position, `edge_pass` for the measured roughness of one pass
/// over an edge) and a closing summary line, every line with sorted keys and rounded figures so the same ride gives
/// the same bytes. Every line but the samples is a `JSONText` object (the project's one JSON writer); the samples,
/// ten a second, are laid byte by byte in the same style with fixed decimals (`SampleLineBytes`). Lines are buffered and appended with a `RawFile` whenever a second of ride time
/// has passed since the last write (and on `stop`), so a `kill -9` loses at most a second.
public final class RideRecorder {
    /// Ride seconds between writes: the most a crash can lose.
    public static let flushInterval: Double = 1

    /// Path of the log.
    public let path: String
    private let handle: RawFile
    private var buffer: [UInt8] = []
    private var lastFlush: Double
    private var stopped = false

    /// Creates (truncating) the log and writes the header at once.
    /// - Throws: `RideLogError` naming the path.
    public init(path: String, header: RideLogHeader) throws {
        self.path = path
        let dir = PathText.deletingLastComponent(path)
        if !dir.isEmpty { try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        guard let h = RawFile(writingTo: path) else {
            throw RideLogError(path: path, reason: "cannot create the file")
        }
        handle = h
        lastFlush = 0
        buffer.reserveCapacity(4096)
        try appendJSON(header)
        flush()
        if let e = writeError { throw RideLogError(path: path, reason: e) }
    }

    /// Why the last write to the log failed (disk full, EIO), or nil when every line written so far
    /// reached it. Lines that could not be written stay buffered and are tried again on the next
    /// write: the log on disk always ends on a whole line, and nothing is dropped while the ride goes on.
    public private(set) var writeError: String?

    deinit { if !stopped { flush(); handle.close() } }

    private func appendJSON<T: Encodable>(_ value: T) throws {
        buffer.append(contentsOf: try JSONText.text(of: value).utf8)
        buffer.append(0x0A)
    }

    /// Appends one line: `line`'s compact JSON (keys sorted) and a newline.
    private func appendLine(_ line: JSONObject) {
        buffer.append(contentsOf: JSONText.object(line).text().utf8)
        buffer.append(0x0A)
    }

    /// Writes the buffered lines to disk now.
    public func flush() {
        guard !buffer.isEmpty, !stopped else { return }
        guard handle.write(buffer) else {
            writeError = String(cString: strerror(handle.lastError))
            return
        }
        writeError = nil
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes when a second of ride time has passed since the last write.
    private func maybeFlush(_ t: Double) {
        if t - lastFlush >= Self.flushInterval { flush(); lastFlush = t }
    }

    /// Appends one 10 Hz sample line.
    public func sample(t: Double, state s: RideState) {
        guard !stopped, let p = s.position else { return }
        // The whole line in one access to `buffer` (a class property: each access is checked at
        // run time), not one per key.
        Self.appendSample(t: t, state: s, position: p, bytes: sampleBytes, to: &buffer)
        maybeFlush(t)
    }

    /// Appends a sample line's bytes: keys in sorted order (RideLogHeader.sampleFields), their
    /// bytes made once (`SampleLineBytes`).
    private static func appendSample(t: Double, state s: RideState, position p: Coordinate, bytes k: SampleLineBytes,
                                     to b: inout [UInt8]) {
        b.append(contentsOf: k.open)
        if let c = s.roughnessClass { appendString(c.name, to: &b) } else { b.append(contentsOf: k.null) }
        let m = s.matchedEdge
        b.append(contentsOf: k.edge); if let m { FixedDecimal.appendInt(m.edge, to: &b) } else { b.append(contentsOf: k.null) }
        b.append(contentsOf: k.fromNode); if let m { FixedDecimal.appendInt(Int(m.fromNode), to: &b) } else { b.append(contentsOf: k.null) }
        b.append(contentsOf: k.lat); FixedDecimal.append(p.lat, decimals: 6, to: &b)
        b.append(contentsOf: k.lon); FixedDecimal.append(p.lon, decimals: 6, to: &b)
        b.append(contentsOf: k.matched); b.append(contentsOf: s.matched ? k.trueText : k.falseText)
        b.append(contentsOf: k.off); b.append(contentsOf: s.offRoute ? k.trueText : k.falseText)
        b.append(contentsOf: k.offset); if let m { FixedDecimal.append(m.offset, decimals: 1, to: &b) } else { b.append(contentsOf: k.null) }
        b.append(contentsOf: k.rms); if let r = s.rms { FixedDecimal.append(r, decimals: 3, to: &b) } else { b.append(contentsOf: k.null) }
        b.append(contentsOf: k.speed); FixedDecimal.append(s.speed, decimals: 2, to: &b)
        b.append(contentsOf: k.stab); FixedDecimal.append(s.stability, decimals: 0, to: &b)
        b.append(contentsOf: k.step); if let st = s.step { FixedDecimal.appendInt(st, to: &b) } else { b.append(contentsOf: k.null) }
        b.append(contentsOf: k.t); FixedDecimal.append(t, decimals: 1, to: &b)
        b.append(contentsOf: k.toNode); if let m { FixedDecimal.appendInt(Int(m.toNode), to: &b) } else { b.append(contentsOf: k.null) }
        b.append(contentsOf: k.way); if let m { FixedDecimal.appendInt(Int(m.wayId), to: &b) } else { b.append(contentsOf: k.null) }
        b.append(UInt8(ascii: "}")); b.append(0x0A)
    }

    /// Appends a `transient` line: a roughness event at its ride time (s) with its peak (g), the
    /// kind its shape suggests, where the rider was and the edge and offset matched then (null
    /// where unknown).
    public func impact(_ i: RoughnessImpact) {
        guard !stopped else { return }
        let edge = i.edge
        appendLine(["event": .string("transient"), "t": Self.number(i.t, 2), "peak_g": Self.number(i.peak, 3),
                    "ratio": Self.number(min(i.ratio, 1e6), 1), "kind": .string(i.kind.rawValue),
                    "lat": Self.orNull(i.position) { Self.number($0.lat, 6) }, "lon": Self.orNull(i.position) { Self.number($0.lon, 6) },
                    "edge": Self.orNull(edge) { .int(Int64($0.edge)) }, "way": Self.orNull(edge) { .int($0.wayId) },
                    "from_node": Self.orNull(edge) { .int($0.fromNode) }, "to_node": Self.orNull(edge) { .int($0.toNode) },
                    "offset_m": Self.orNull(edge) { Self.number($0.offset, 1) }])
        maybeFlush(i.t)
    }

    /// Appends an `edge_pass` line: one pass over an edge from ride time `since` to `t` (s), its
    /// robust speed-normalised RMS (g, null without enough clean windows), clean windows and events.
    public func edgePass(_ st: EdgeRoughness, rms: Double?, windows: Int, events: Int, t: Double, since: Double) {
        guard !stopped else { return }
        appendLine(["event": .string("edge_pass"), "t": Self.number(t, 2), "since": Self.number(since, 2),
                    "edge": .int(Int64(st.edge)), "way": .int(st.wayId), "from_node": .int(st.fromNode), "to_node": .int(st.toNode),
                    "rms_g": Self.orNull(rms) { Self.number($0, 4) },
                    "class": Self.orNull(rms) { .string(RoughnessClass(rms: $0).name) },
                    "windows": .int(Int64(windows)), "events": .int(Int64(events))])
        maybeFlush(t)
    }

    /// Appends one event line (the keys `RideLogHeader.eventFields` lists; none is null).
    public func event(_ e: RideEvent) {
        guard !stopped else { return }
        let line: JSONObject
        switch e {
        case .cue(let c):
            line = ["event": .string("cue"), "t": Self.number(c.t, 2), "kind": .string(c.kind.rawValue),
                    "step": .int(Int64(c.step)), "distance_m": Self.number(c.distance, 1), "text": .string(c.text)]
        case .reroute(let r):
            line = ["event": .string("reroute"), "t": Self.number(r.t, 2), "distance_m": Self.number(r.distance, 1),
                    "latency_s": Self.number(r.latency, 2), "lat": Self.number(r.from.lat, 6), "lon": Self.number(r.from.lon, 6),
                    "off_route_m": Self.number(r.offRouteDistance, 1)]
        case .backOnRoute(let t):
            line = ["event": .string("back_on_route"), "t": Self.number(t, 2)]
        case .gap(let t, let seconds):
            line = ["event": .string("gap"), "t": Self.number(t, 2), "seconds": Self.number(seconds, 2)]
        case .warning(let t, let message):
            line = ["event": .string("warning"), "t": Self.number(t, 2), "text": .string(message)]
        case .impact(let i):
            impact(i)
            return
        }
        appendLine(line)
        maybeFlush(e.t)
    }

    /// Appends a `pause` line (the recording stops writing samples: the rider stands still) or a
    /// `resume` line with the pause's length.
    public func motionChange(_ c: AutoPause.Change) {
        guard !stopped else { return }
        let line: JSONObject
        let t: Double
        switch c {
        case .paused(let at): t = at; line = ["event": .string("pause"), "t": .rounded(at, 2)]
        case .resumed(let at, let d):
            t = at; line = ["event": .string("resume"), "t": .rounded(at, 2), "seconds": .rounded(d, 2)]
        }
        appendLine(line)
        maybeFlush(t)
    }

    /// Appends an `alert` line: kind, name, metres to it and the latency from crossing the radius (s).
    public func alert(_ a: Alert) {
        guard !stopped else { return }
        appendLine(["event": .string("alert"), "t": .rounded(a.t, 2), "kind": .string(a.target.kind.rawValue),
                    "id": .string(a.target.id), "text": .string(a.target.name), "distance_m": .rounded(a.distance, 1),
                    "latency_s": .rounded(a.latency, 3)])
        maybeFlush(a.t)
    }

    /// Appends the closing summary line, writes everything and closes the file.
    /// - Returns: the log's path.
    @discardableResult
    public func stop(summary: RideSummary? = nil) -> String {
        guard !stopped else { return path }
        if let s = summary {
            // The same object `ride --json` prints (rounded, cues listed) without the schema and the
            // log's own path (a moved log would carry a stale one, and the same ride gives the same bytes).
            var copy = s.rounded()
            copy.logPath = nil
            try? appendJSON(SummaryLine(summary: copy))
        }
        flush()
        stopped = true
        handle.close()
        return path
    }

    struct SummaryLine: Encodable {
        var event = "summary"
        var summary: RideSummary
    }

    static func round(_ x: Double, _ d: Int) -> Double { RideSummary.round(x, d) }

    /// `x` rounded to `d` decimals as the summary rounds (a non-finite value writes 0, -0 writes 0).
    static func number(_ x: Double, _ d: Int) -> JSONText { .number(round(x, d)) }

    /// `value`'s JSON, or null when there is none (an event line keeps every key it lists).
    static func orNull<T>(_ value: T?, _ json: (T) -> JSONText) -> JSONText { value.map(json) ?? .null }

    // MARK: Fast fixed-decimal output

    /// The fixed bytes of a sample line (`{"class":`, `,"edge":`, …, `true`, `false`, `null`),
    /// made once per recorder: building them per line (a `StaticString` copied key by key, and
    /// `Array("true".utf8)` allocated each time) was a tenth of a headless replay's CPU.
    struct SampleLineBytes {
        let open = Array("{\"class\":".utf8)
        let edge = SampleLineBytes.key("edge"), fromNode = SampleLineBytes.key("from_node")
        let lat = SampleLineBytes.key("lat"), lon = SampleLineBytes.key("lon")
        let matched = SampleLineBytes.key("matched"), off = SampleLineBytes.key("off")
        let offset = SampleLineBytes.key("offset_m"), rms = SampleLineBytes.key("rms")
        let speed = SampleLineBytes.key("speed"), stab = SampleLineBytes.key("stab")
        let step = SampleLineBytes.key("step"), t = SampleLineBytes.key("t")
        let toNode = SampleLineBytes.key("to_node"), way = SampleLineBytes.key("way")
        let trueText = Array("true".utf8), falseText = Array("false".utf8), null = Array("null".utf8)

        /// `,"name":`.
        static func key(_ name: String) -> [UInt8] { Array(",\"\(name)\":".utf8) }
    }
    private let sampleBytes = SampleLineBytes()

    private static func appendString(_ s: String, to b: inout [UInt8]) {
        b.append(UInt8(ascii: "\"")); b.append(contentsOf: s.utf8); b.append(UInt8(ascii: "\""))
    }
}
