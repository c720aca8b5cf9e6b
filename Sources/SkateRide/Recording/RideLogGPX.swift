import FoundationEssentials
import Glibc
import SkateCore

/// A ride log (NDJSON, `RideRecorder`) as a GPX 1.1 track: one `trkpt` per logged position with
/// its time, the elevation of the matched edge where the map knows it, and, in SkateRoute's own
/// extension namespace, the ground speed (m/s) and the roughness class of the moment.
public enum RideLogGPX {
    /// Namespace of the `sr:` extension elements (`<sr:speed>` in m/s, `<sr:roughness>` a class name).
    public static let namespace = "urn:skateroute:gpx:1"
    /// Largest ride log read, in bytes: 10 Hz samples of ~250 bytes are ~9 MB an hour, so this is
    /// days of riding; a bigger file is not a ride log.
    public static let maxFileBytes = 1 << 30
    /// Two logged positions closer than this (degrees, ~1 cm) are the same point: the 10 Hz log
    /// repeats a fix until the next one arrives, and a GPX track wants one point per fix.
    static let samePosition = 1e-7

    /// One exported track point.
    public struct Point: Sendable, Equatable {
        /// Seconds since 1970.
        public var time: Double
        public var coordinate: Coordinate
        /// Metres, from the matched edge's profile; nil off the map or off the route.
        public var elevation: Double?
        /// Ground speed in m/s, if logged.
        public var speed: Double?
        /// Roughness class name (butter, okay, meh, crusty), if measured.
        public var roughness: String?
    }

    /// The header and the track points of the log at `path`, elevations looked up in `map` when
    /// the log's matched edges belong to it (same edge index, OSM way and end nodes).
    /// - Throws: `RideLogReadError` naming the file (and line): missing, not a regular file, not
    ///   a ride log, or without any position.
    public static func read(path: String, map: SkateMap?) throws -> (header: RideLogHeader, points: [Point]) {
        do {
            let size = try InputPath.regularFileSize(path)
            if size > maxFileBytes { throw RideLogReadError(path: path, line: 0, reason: "\(size >> 20) MB is over the \(maxFileBytes >> 20) MB limit for a ride log") }
        } catch let e as InputPathError {
            throw RideLogReadError(path: path, line: 0, reason: e.problem)
        }
        var header: RideLogHeader?
        var points: [Point] = []
        _ = try LineReader.forEachLine(path: path) { number, raw in
            let line = ByteText.trimmed(raw)
            if line.isEmpty { return }
            let data = Data(line)
            guard let h = header else {
                guard let h = try? JSONDecoder().decode(RideLogHeader.self, from: data) else {
                    throw RideLogReadError(path: path, line: number, reason: "not a ride log: the first line is not a header with schema, ride_id, map")
                }
                header = h
                return
            }
            // Samples carry "lat"; event lines carry "event".
            guard let o = JSONNode.parse(data), o.object != nil else {
                throw RideLogReadError(path: path, line: number, reason: "not a JSON object")
            }
            if o["event"] != nil { return }
            guard let t = o["t"]?.double, let lat = o["lat"]?.double,
                  let lon = o["lon"]?.double, t.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { return }
            if let last = points.last, abs(last.coordinate.lat - lat) < samePosition, abs(last.coordinate.lon - lon) < samePosition {
                return
            }
            var p = Point(time: h.startEpoch + t, coordinate: Coordinate(lat: lat, lon: lon))
            if let v = o["speed"]?.double, v.isFinite, v >= 0 { p.speed = v }
            if let c = o["class"]?.string, !c.isEmpty { p.roughness = c }
            if let map, let e = o["edge"]?.int, let off = o["offset_m"]?.double {
                p.elevation = elevation(map: map, edge: e, way: o["way"]?.int64,
                                        fromNode: o["from_node"]?.int64, offset: off)
            }
            points.append(p)
        }
        guard let header else { throw RideLogReadError(path: path, line: 0, reason: "empty file: not a ride log") }
        guard !points.isEmpty else { throw RideLogReadError(path: path, line: 0, reason: "no positions to export") }
        return (header, points)
    }

    /// Elevation (m) at `offset` metres along map edge `e` measured from the end whose OSM node is
    /// `fromNode`; nil when the edge is not the logged one (another map) or has no profile.
    static func elevation(map: SkateMap, edge e: Int, way: Int64?, fromNode: Int64?, offset: Double) -> Double? {
        guard e >= 0, e < map.edgeCount, map.metadata.hasElevation, let way, map.edgeWayId[e] == way else { return nil }
        let prof = map.elevationProfile(ofEdge: e)
        guard prof.count >= 2 else { return nil }
        let len = Double(map.edgeLength[e])
        var along = min(max(offset, 0), len)
        if let fromNode, map.nodeOsmId[Int(map.edgeTo[e])] == fromNode, map.nodeOsmId[Int(map.edgeFrom[e])] != fromNode {
            along = len - along  // logged in the edge's reverse direction
        }
        let x = len > 0 ? along / len * Double(prof.count - 1) : 0
        let i = min(Int(x), prof.count - 2)
        let a = Double(prof[prof.startIndex + i]), b = Double(prof[prof.startIndex + i + 1])
        return a + (b - a) * (x - Double(i))
    }

    /// ISO 8601 UTC with milliseconds, e.g. `2026-11-20T10:00:00.100Z` (xsd:dateTime).
    static func time(_ t: Double) -> String {
        let whole = t.rounded(.down)
        let ms = min(999, Int(((t - whole) * 1000).rounded()))
        let base = ISO8601Time.format(whole)
        let digits = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return String(base.dropLast()) + "." + digits + "Z"
    }

    /// The GPX 1.1 document: metadata (name, time), one `trk` with one `trkseg`.
    public static func gpx(header: RideLogHeader, points: [Point]) -> String {
        let name = PlanFormats.xmlEscape(header.rideId)
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<gpx version=\"1.1\" creator=\"SkateRoute\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:sr=\"\(namespace)\">\n"
        s += "  <metadata><name>\(name)</name><time>\(time(points.first?.time ?? header.startEpoch))</time></metadata>\n"
        s += "  <trk>\n    <name>\(name)</name>\n    <type>skateboard</type>\n    <trkseg>\n"
        for p in points {
            s += "      <trkpt lat=\"\(FixedDecimal.string(p.coordinate.lat, decimals: 7))\" lon=\"\(FixedDecimal.string(p.coordinate.lon, decimals: 7))\">"
            if let e = p.elevation { s += "<ele>\(FixedDecimal.string(e, decimals: 1))</ele>" }
            s += "<time>\(time(p.time))</time>"
            if p.speed != nil || p.roughness != nil {
                s += "<extensions>"
                if let v = p.speed { s += "<sr:speed>\(FixedDecimal.string(v, decimals: 2))</sr:speed>" }
                if let c = p.roughness { s += "<sr:roughness>\(PlanFormats.xmlEscape(c))</sr:roughness>" }
                s += "</extensions>"
            }
            s += "</trkpt>\n"
        }
        s += "    </trkseg>\n  </trk>\n</gpx>\n"
        return s
    }
}
