import SkateCore

/// One GPS fix from a GPX file.
public struct GPXFix: Sendable, Equatable, Codable {
    /// Seconds since 1970-01-01T00:00:00Z, or nil when the file gave no `<time>` (and no speed
    /// was assumed to synthesise one).
    public var time: Double?
    /// Position in WGS84 degrees.
    public var coordinate: Coordinate
    /// Elevation in metres, or nil when the file gave none.
    public var elevation: Double?

    public init(time: Double?, coordinate: Coordinate, elevation: Double? = nil) {
        self.time = time
        self.coordinate = coordinate
        self.elevation = elevation
    }
}

/// A run of fixes in time order (a GPX `<trkseg>` or `<rte>`, or a piece of one split at a
/// backward time jump).
public struct GPXSegment: Sendable, Equatable {
    public var fixes: [GPXFix]
    public init(fixes: [GPXFix]) { self.fixes = fixes }
}

/// What `GPXReader` read: the segments of every track in file order — or of every route when the
/// file has no track — plus warnings about anything repaired on the way (time jumps, bad points,
/// synthesised times, a route left out because a track was there).
public struct GPXTrack: Sendable, Equatable {
    /// Which of a GPX file's point lists the segments come from.
    public enum Source: String, Sendable, Equatable {
        /// `<trk>/<trkseg>/<trkpt>`: a recorded trace (or a plan's full geometry).
        case track
        /// `<rte>/<rtept>`: a route's points (turn points), read only when there is no track.
        case route
    }

    /// The first `<trk>`/`<rte>` `<name>`, if any.
    public var name: String?
    /// Where the segments come from: the tracks, or the routes of a file without tracks. A file
    /// with both (as a plan GPX) is read as its track: joining both would make one trace that
    /// jumps from the last turn point back to the start.
    public var source: Source = .track
    /// Valid points of the kind not read (route points when a track was read).
    public var ignoredPoints: Int = 0
    /// Non-empty segments, each strictly usable in time order.
    public var segments: [GPXSegment]
    /// One line per repair, e.g. "time goes back 5395 s at point 3243 …".
    public var warnings: [String]

    public init(name: String? = nil, segments: [GPXSegment], warnings: [String] = []) {
        self.name = name
        self.segments = segments
        self.warnings = warnings
    }

    /// All fixes of all segments in order.
    public var allFixes: [GPXFix] { segments.flatMap(\.fixes) }

    /// All fixes sorted by time (stable; untimed fixes first), for a replay that needs one
    /// monotone stream even when a backward jump split the file (in the Sa Calobra file the
    /// second segment is the earlier part of the ride).
    public var fixesInTimeOrder: [GPXFix] {
        allFixes.enumerated().sorted { a, b in
            let ta = a.element.time ?? -.infinity, tb = b.element.time ?? -.infinity
            return ta != tb ? ta < tb : a.offset < b.offset
        }.map(\.element)
    }

    /// Number of fixes over all segments.
    public var fixCount: Int { segments.reduce(0) { $0 + $1.fixes.count } }
}

/// Why a GPX file could not be read. Each description is one line naming the file.
public enum GPXError: Error, CustomStringConvertible, Equatable {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// Not well-formed XML (or not XML at all).
    case malformed(path: String, line: Int, reason: String)
    /// Well-formed but no `<trkpt>` or `<rtept>` with a valid position.
    case noTrackPoints(path: String)
    /// Some points have no `<time>` and no speed was assumed.
    case missingTimes(path: String, missing: Int, total: Int)
    /// The assumed speed is not a positive number.
    case badAssumedSpeed(Double)
    /// More points than `GPXReader.maxPoints`: refused as soon as the reader got there.
    case tooManyPoints(path: String, limit: Int)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): return "\(path): cannot read GPX: \(reason)"
        case let .malformed(path, line, reason): return "\(path):\(line): not a valid GPX/XML file: \(reason)"
        case let .noTrackPoints(path): return "\(path): no track points (no <trkpt> or <rtept> with lat/lon)"
        case let .missingTimes(path, missing, total):
            return "\(path): \(missing) of \(total) track points have no <time>; pass an assumed speed (--assume-speed KMH) to synthesise times"
        case let .badAssumedSpeed(v): return "assumed speed must be a positive number of km/h, got \(v)"
        case let .tooManyPoints(path, limit):
            return "\(path): more than \(limit) track points (\(limit / 86_400) days of 1 Hz fixes), not one ride: split it first"
        }
    }
}
