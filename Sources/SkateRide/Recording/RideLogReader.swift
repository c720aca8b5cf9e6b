import FoundationEssentials
import Glibc
import SkateCore

/// One `edge_pass` line of a ride log: the measured roughness of one pass over an edge.
public struct RideLogEdgePass: Sendable, Equatable {
    /// Edge index in the map the ride was logged on.
    public var edge: Int
    /// OSM way id and the OSM ids of the edge's end nodes (stable across map rebuilds).
    public var wayId: Int64
    public var fromNode: Int64
    public var toNode: Int64
    /// Robust speed-normalised RMS of the pass in g (nil: too few clean windows).
    public var rms: Double?
    /// Clean windows and events of the pass.
    public var windows: Int
    public var events: Int
    /// Ride time (s) at the end of the pass.
    public var t: Double
}

/// Why a ride log could not be read (one line naming the file and line).
public struct RideLogReadError: Error, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var reason: String
    public var description: String { line > 0 ? "\(path):\(line): \(reason)" : "\(path): \(reason)" }
}

/// Reads what a ride log (NDJSON, `RideRecorder`) says about edges.
public enum RideLogReader {
    /// The header and every `edge_pass` line of the log at `path`.
    /// - Throws: `RideLogReadError` when the file is missing, the first line is not a header, the
    ///   schema predates edge passes (1), or an `edge_pass` line is malformed.
    public static func edgePasses(path: String) throws -> (header: RideLogHeader, passes: [RideLogEdgePass]) {
        var header: RideLogHeader?
        var passes: [RideLogEdgePass] = []
        let opened = try LineReader.forEachLine(path: path) { number, raw in
            let line = ByteText.trimmed(raw)
            if line.isEmpty { return }
            let data = Data(line)
            if header == nil {
                guard let h = try? JSONDecoder().decode(RideLogHeader.self, from: data) else {
                    throw RideLogReadError(path: path, line: number, reason: "not a ride log: the first line is not a header with schema, ride_id, map")
                }
                guard h.schema >= 2 else {
                    throw RideLogReadError(path: path, line: number, reason: "ride log schema \(h.schema) carries no matched edges (needs schema ≥ 2): replay the ride again to rewrite it")
                }
                header = h
                return
            }
            // Cheap filter before parsing: only edge_pass lines matter.
            guard ByteText.string(line).contains("\"edge_pass\"") else { return }
            guard let o = JSONNode.parse(data), o["event"]?.string == "edge_pass" else {
                throw RideLogReadError(path: path, line: number, reason: "malformed edge_pass line")
            }
            func int64(_ k: String) -> Int64? { o[k]?.int64 }
            guard let e = int64("edge"), let w = int64("way"), let f = int64("from_node"), let to = int64("to_node"),
                  let t = o["t"]?.double else {
                throw RideLogReadError(path: path, line: number, reason: "edge_pass line lacks edge, way, from_node, to_node or t")
            }
            passes.append(RideLogEdgePass(edge: Int(e), wayId: w, fromNode: f, toNode: to, rms: o["rms_g"]?.double,
                                          windows: Int(int64("windows") ?? 0), events: Int(int64("events") ?? 0), t: t))
        }
        guard opened else { throw RideLogReadError(path: path, line: 0, reason: "cannot open the ride log") }
        guard let h = header else { throw RideLogReadError(path: path, line: 0, reason: "empty ride log") }
        return (h, passes)
    }
}
