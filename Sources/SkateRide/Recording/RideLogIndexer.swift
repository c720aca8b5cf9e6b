import FoundationEssentials
import Glibc
import SkateCore

/// Reads a ride log (NDJSON, schema 1 or 2, see `RideRecorder`) into a `RideRecord`.
public enum RideLogIndexer {
    /// Elevation changes smaller than this (metres) are not counted as climb or descent: the
    /// conditioned DEM's noise floor along an edge (the import reports ~1–2 m).
    public static let elevationHysteresis = 2.0
    /// Largest log read (bytes): an hour at 10 Hz is ~10 MB.
    public static let maxBytes = 512 << 20

    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        /// The log is a simulated rider's (`RideLogHeader.simulatedSource`): skipped without a warning.
        public var simulated = false
        public var description: String { "\(path): \(reason)" }
    }

    /// The record of the log at `path`, plus a one-line warning when the log was cut short.
    /// `map`: the map to read elevation from, used only when the log names it.
    /// - Throws: `Failure` (one line) when the file is unreadable or has no valid header.
    public static func read(path: String, map: SkateMap?) throws -> (record: RideRecord, warning: String?) {
        // Bounded and regular files only: a FIFO or a huge file in the rides folder is one warning.
        let data: Data
        do { data = Data(try FileBytes.read(path: path, maxBytes: maxBytes)) } catch {
            switch error {
            case .tooLarge: throw Failure(path: path, reason: "ride log larger than \(maxBytes >> 20) MB")
            case .notFound: throw Failure(path: path, reason: "cannot read the ride log (no such file)")
            case .unreadable(let why): throw Failure(path: path, reason: "cannot read the ride log (\(why))")
            }
        }
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard let first = lines.first,
              let header = try? JSONDecoder().decode(RideLogHeader.self, from: Data(first)) else {
            throw Failure(path: path, reason: "not a ride log (no header line with schema and ride_id)")
        }
        guard header.source != RideLogHeader.simulatedSource else {
            throw Failure(path: path, reason: "a simulated rider's ride (a preview), not counted", simulated: true)
        }
        let elevationMap = (map != nil && !header.map.isEmpty && map!.metadata.name == header.map && map!.metadata.hasElevation) ? map : nil
        var motion = AutoPause()
        var distance = 0.0, crusty = 0.0, maxSpeed = 0.0, lastT = 0.0
        var prev: Coordinate?
        var climb = 0.0, descent = 0.0
        var anchor: Double?
        var summary: JSONNode?
        var badLine: Int?
        for (i, line) in lines.enumerated().dropFirst() {
            guard let obj = JSONNode.parse(line), obj.object != nil else {
                // A cut last line is what a crash leaves; anything else is damage. Either way, stop.
                badLine = i + 1
                break
            }
            if let ev = obj["event"]?.string {
                if ev == "summary" { summary = obj["summary"].flatMap { $0.object == nil ? nil : $0 } }
                continue
            }
            guard let t = obj["t"]?.double, let lat = obj["lat"]?.double, let lon = obj["lon"]?.double else { continue }
            let speed = obj["speed"]?.double ?? 0
            let p = Coordinate(lat: lat, lon: lon)
            if let q = prev {
                let d = Geo.distance(q, p)
                distance += d
                if obj["class"]?.string == RoughnessClass.crusty.name { crusty += d }
            }
            prev = p
            lastT = max(lastT, t)
            maxSpeed = max(maxSpeed, speed)
            motion.update(t: t, speed: speed, rms: obj["rms"]?.double)
            if let m = elevationMap, let e = obj["edge"]?.int, let off = obj["offset_m"]?.double,
               let z = elevation(m, edge: e, way: obj["way"]?.int64, offset: off) {
                if let a = anchor {
                    if z - a >= elevationHysteresis { climb += z - a; anchor = z }
                    else if a - z >= elevationHysteresis { descent += a - z; anchor = z }
                } else { anchor = z }
            }
        }
        var record = RideRecord(rideId: header.rideId, path: path, startEpoch: header.startEpoch, map: header.map, mode: header.mode,
                                distance: distance, duration: lastT, movingTime: motion.movingTime, climb: climb, descent: descent,
                                crustyMetres: crusty, maxSpeed: maxSpeed, complete: summary != nil && badLine == nil)
        if let s = summary {
            // The recorder's own figures where it wrote them (it drops GPS jumps the raw samples keep).
            if let d = s["distance_m"]?.double, d.isFinite { record.distance = d }
            if let d = s["duration_s"]?.double, d.isFinite { record.duration = d }
            if let v = s["max_speed_mps"]?.double, v.isFinite { record.maxSpeed = v }
            if let c = s["metres_by_class"]?[RoughnessClass.crusty.name]?.double { record.crustyMetres = c }
        }
        if let field = record.implausibleField {
            throw Failure(path: path, reason: "ride log's \(field) is out of range (a damaged or hand-made log)")
        }
        var warning: String?
        if let n = badLine {
            warning = "\(path): ride log is cut at line \(n); counted the \(FixedDecimal.string(distance / 1000, decimals: 2)) km before it"
        } else if summary == nil {
            warning = "\(path): ride log has no summary line (the ride did not end cleanly); counted its samples"
        }
        return (record, warning)
    }

    /// Elevation (m) at `offset` metres along edge `e` from its first node, or nil when unknown.
    /// - Parameter way: the logged OSM way; a map imported again numbers its edges anew, so an
    ///   index whose edge lies on another way reads nothing rather than another street's height.
    static func elevation(_ m: SkateMap, edge e: Int, way: Int64?, offset: Double) -> Double? {
        guard e >= 0, e < m.edgeCount, way.map({ m.edgeWayId[e] == $0 }) ?? true else { return nil }
        let prof = m.elevationProfile(ofEdge: e)
        guard !prof.isEmpty else { return nil }
        if prof.count == 1 { return Double(prof[prof.startIndex]) }
        let len = Double(m.edgeLength[e])
        let x = len > 0 ? min(max(offset / len, 0), 1) * Double(prof.count - 1) : 0
        let i = min(Int(x), prof.count - 2)
        let f = x - Double(i)
        let a = Double(prof[prof.startIndex + i]), b = Double(prof[prof.startIndex + i + 1])
        return a + (b - a) * f
    }
}
