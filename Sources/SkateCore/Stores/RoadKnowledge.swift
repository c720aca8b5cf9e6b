import FoundationEssentials
import Glibc

/// Where an edge's roughness figure came from, best first.
public enum RoughnessSource: Int, Sendable, Codable, Comparable {
    /// Measured by the roughness engine on a ride.
    case measured = 0
    /// Rated by a rider (butter / okay / crusty).
    case rating
    /// OSM `smoothness=*`.
    case osmSmoothness
    /// OSM `surface=*`.
    case osmSurface
    /// The highway class's default (a guess).
    case highwayDefault
    /// A `surface=*` value outside `SurfaceTable` (typo, `asphalt;sett`, `unknown`): a guess.
    case surfaceGuess

    /// The rider-facing kind of source: `measured`, `rated`, `tag` or `guess`.
    public var evidence: SurfaceEvidence {
        switch self {
        case .measured: return .measured
        case .rating: return .rated
        case .osmSmoothness, .osmSurface: return .tag
        case .highwayDefault, .surfaceGuess: return .guess
        }
    }

    /// 0…1: how likely an estimate from this source has the right class.
    public var confidence: Double {
        switch self {
        case .measured: return 0.9        // an accelerometer on this very edge (aged by the store)
        case .rating: return 0.75         // a rider's word: right class, coarse scale
        case .osmSmoothness: return 0.7   // a mapper judged wheels, bounded by the surface family
        case .osmSurface: return 0.6      // the material alone: its typical feel
        case .highwayDefault: return 0.3  // the road class alone
        case .surfaceGuess: return 0.2    // a surface value nobody can read
        }
    }

    public var name: String {
        switch self {
        case .measured: return "measured"
        case .rating: return "rating"
        case .osmSmoothness: return "osm_smoothness"
        case .osmSurface: return "osm_surface"
        case .highwayDefault: return "highway_default"
        case .surfaceGuess: return "surface_guess"
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// What riders observed about one edge's surface (from the store), already aged.
public struct EdgeObservation: Sendable, Equatable {
    /// Robust (rolling median) RMS vibration in g.
    public var rms: Double
    /// `.measured` or `.rating`.
    public var source: RoughnessSource
    /// 1 for an observation made now, decaying towards 0 with age (half-life ~14 days).
    public var freshness: Double
    /// Number of observations behind the figure.
    public var count: Int

    public init(rms: Double, source: RoughnessSource, freshness: Double, count: Int) {
        self.rms = rms; self.source = source; self.freshness = freshness; self.count = count
    }
}

/// A live hazard snapped to an edge.
public struct EdgeHazard: Sendable, Equatable {
    /// Store id of the report.
    public var id: Int64
    /// Kind name (pothole, crack, gravel, wet, debris, rail, construction, other).
    public var kind: String
    /// 1 (minor) … 3 (severe).
    public var severity: Int
    /// 0…1 after confirmations, "gone" votes and age.
    public var confidence: Double
    /// Where it was reported.
    public var position: Coordinate
    /// Distance along the edge from `edgeFrom`, in metres.
    public var offset: Double
    /// How it reached the store (`HazardSource` name: cli, keyboard, detected…); "" when unknown.
    public var source: String

    public init(id: Int64, kind: String, severity: Int, confidence: Double, position: Coordinate, offset: Double, source: String = "") {
        self.id = id; self.kind = kind; self.severity = severity; self.confidence = confidence
        self.position = position; self.offset = offset; self.source = source
    }
}

/// A snapshot of what riders know about a map's edges at one moment: measured and rated
/// roughness and live hazards, keyed by edge index of that map. The store builds it; the router
/// and the cue engine read it. A value, so a plan is reproducible from (map, knowledge, query).
///
/// The two tables live in one copy-on-write box, so copying a `RoadKnowledge` (every plan hands it
/// to its `PlanBuilder`) is one retain. Copied field by field, the compiler's merged copy helper
/// instantiated `Dictionary<Int, …>` metadata from its mangled name, and the runtime's check of
/// `Int: Hashable` scanned every conformance record: 460 KB of a Monaco plan's peak RSS
/// (`IntKeyedTable`).
public struct RoadKnowledge: Sendable {
    private final class Storage: @unchecked Sendable {
        // Mutated only through `RoadKnowledge`'s accessors, after a uniqueness check.
        var observations: [Int: EdgeObservation]
        var hazards: [Int: [EdgeHazard]]
        init(observations: [Int: EdgeObservation], hazards: [Int: [EdgeHazard]]) {
            self.observations = observations; self.hazards = hazards
        }
    }
    private var storage: Storage

    /// Measured or rated roughness per edge index.
    public var observations: [Int: EdgeObservation] {
        get { storage.observations }
        _modify { makeUnique(); yield &storage.observations }
        set { makeUnique(); storage.observations = newValue }
    }

    /// Live hazards per edge index.
    public var hazards: [Int: [EdgeHazard]] {
        get { storage.hazards }
        _modify { makeUnique(); yield &storage.hazards }
        set { makeUnique(); storage.hazards = newValue }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(observations: storage.observations, hazards: storage.hazards)
        }
    }

    public init(observations: [Int: EdgeObservation] = [:], hazards: [Int: [EdgeHazard]] = [:]) {
        storage = Storage(observations: observations, hazards: hazards)
    }

    /// Nothing known: routing falls back to OSM tags.
    public static let empty = RoadKnowledge()
}
