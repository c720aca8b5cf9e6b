import FoundationEssentials
import Glibc
import SkateCore

/// The ends and mode of a saved plan, to plan it again on the current map: a plan JSON written by
/// `skateroute plan --format json` (or a ride folder's `plan.json`), or a GPX route/track (first
/// and last point). Plans are deterministic for a map and store, so re-planning between the saved
/// geometry's ends gives the saved route back on the same map.
public struct PlanFile: Sendable, Equatable {
    public var from: Coordinate
    public var to: Coordinate
    /// The saved mode, if the file names one.
    public var mode: RideMode?
    /// The saved length in metres, if known (to notice a changed map).
    public var distance: Double?

    /// Largest plan file read, in bytes (a plan JSON of a 100 km route is a few MB).
    public static let maxFileBytes = 64 << 20

    /// Reads a plan file.
    /// - Throws: `SynthError` (one line naming the file) when it is neither a plan JSON nor a GPX with points.
    public static func load(path: String) throws -> PlanFile {
        let data: Data
        do { data = Data(try FileBytes.read(path: path, maxBytes: Self.maxFileBytes)) } catch {
            switch error {
            case .notFound: throw SynthError(message: "\(path): no such plan file")
            case let .unreadable(reason): throw SynthError(message: "\(path): cannot read the plan file: \(reason)")
            case .tooLarge: throw SynthError(message: "\(path): over the \(Self.maxFileBytes >> 20) MB limit for a plan file")
            }
        }
        if path.lowercased().hasSuffix(".gpx") {
            let track: GPXTrack
            do { track = try GPXReader(assumedSpeedKmh: 12).read(path: path) } catch { throw SynthError(message: "\(error)") }
            let all = track.allFixes
            guard let a = all.first, let b = all.last, all.count >= 2 else {
                throw SynthError(message: "\(path): a plan needs at least two points")
            }
            return PlanFile(from: a.coordinate, to: b.coordinate, mode: nil, distance: nil)
        }
        if let problem = PlanDocumentLimit.problem(data) { throw SynthError(message: "\(path): \(problem)") }
        if let plain = Fields.plainPlan(data) { return plain }
        return try treePlan(data, path: path)
    }

    /// Reads a plan JSON as a `JSONNode` tree: any well-formed plan, and the errors of the others.
    static func treePlan(_ data: Data, path: String) throws -> PlanFile {
        guard let obj = JSONNode.parse(data), obj.object != nil else {
            throw SynthError(message: "\(path): not a plan (expected the JSON of 'skateroute plan --format json' or a GPX)")
        }
        guard let geometry = obj["geometry"]?.doubleRows, let first = geometry.first, let last = geometry.last,
              (2...3).contains(first.count), (2...3).contains(last.count), geometry.count >= 2 else {
            // Plans carry [lon, lat, ele] since path details (issue 26); older ones [lon, lat].
            throw SynthError(message: "\(path): the plan has no 'geometry' of [lon, lat] or [lon, lat, ele] points")
        }
        let mode = obj["mode"]?.string.flatMap(RideMode.init(rawValue:))
        return PlanFile(from: Coordinate(lat: first[1], lon: first[0]), to: Coordinate(lat: last[1], lon: last[0]), mode: mode,
                        distance: obj["distance_m"]?.double)
    }

    /// The three members a plan file is read for, decoded straight to their types. A plan JSON
    /// read as a `JSONNode` tree first (every value tried as bool, integer, number, string, array,
    /// each failure a thrown error) was 6 % of a headless replay; this reads the same file in a
    /// fraction of that.
    struct Fields: Decodable {
        var geometry: [[Double]]
        var mode: String?
        var distance: Double?

        enum CodingKeys: String, CodingKey {
            case geometry, mode
            case distance = "distance_m"
        }

        /// The plan when the file is a well-formed plan JSON whose members all have their usual
        /// types and whose ends hold no zero (the tree reads a "-0" as the integer 0, this
        /// decoder as −0.0); nil sends the file to the tree-based reading, its errors and its
        /// leniency (a mode that is not a string is ignored there), which gives the same plan
        /// for every file this accepts.
        static func plainPlan(_ data: Data) -> PlanFile? {
            guard let f = try? JSONDecoder().decode(Fields.self, from: data), let first = f.geometry.first,
                  let last = f.geometry.last, f.geometry.count >= 2,
                  (2...3).contains(first.count), (2...3).contains(last.count),
                  !first.contains(0), !last.contains(0), f.distance != 0 else { return nil }
            return PlanFile(from: Coordinate(lat: first[1], lon: first[0]), to: Coordinate(lat: last[1], lon: last[0]),
                            mode: f.mode.flatMap(RideMode.init(rawValue:)), distance: f.distance)
        }
    }
}
