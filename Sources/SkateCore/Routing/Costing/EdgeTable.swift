import FoundationEssentials
import Glibc

/// Mode-independent facts per edge, computed once per (map, knowledge): roughness with its source,
/// grades and climbs in the drawing direction, steepest sustained descents each way, hazards,
/// and end bearings for turn angles.
public struct EdgeTable: Sendable {
    /// Window in metres over which a descent must be sustained to count as steep (the caution rule).
    public static let sustainWindow: Double = 30

    /// The map's derived facts the store does not change, read from here: grades, climbs and
    /// descents, steepest sustained descents, braking and caution metres, end bearings
    /// (`MapDerived` states their units). Its tag roughness and tag travel times are the start of
    /// `rms` and `secondsFwd`/`secondsBwd`, which the store patches.
    public var derived: MapDerived
    /// Roughness RMS (g) per edge and its source: the tags', or the store's measured or rated figure.
    public var rms: FlatArray<Float>
    public var rmsSource: FlatArray<UInt8>
    /// 1 for an observation made now, decaying towards 0 with age; 0 where the store knows nothing.
    public var freshness: FlatArray<Float>
    /// Σ severity² × confidence of live hazards on the edge: a severe (3) pothole throws riders,
    /// a minor (1) crack is a bump, so danger grows faster than the severity number.
    public var hazard: FlatArray<Float>
    /// Travel time in seconds along / against the drawing direction from the skate speed model
    /// (mode-independent, so every mode's costing reuses it).
    public var secondsFwd: FlatArray<Float>
    public var secondsBwd: FlatArray<Float>

    /// Edges whose roughness, travel time or hazard differ from the map's derived facts (the
    /// store knows them), in increasing order; costings built on the map's precomputed mode costs
    /// recompute exactly these.
    public private(set) var patchedEdges: [Int] = []
    /// True when the table started from the map file's derived block (so its mode costs apply).
    public let fromStoredDerived: Bool

    /// Largest |grade| in percent the router believes from a DEM; steeper figures are noise or stairs.
    public static let maxGradePct: Float = 30

    /// A grade in percent clamped to ±`maxGradePct` (the one place the clamp is applied).
    @inlinable public static func clampGrade(_ g: Double) -> Double {
        let m = Double(maxGradePct)
        return max(-m, min(m, g))
    }

    /// The map's precomputed facts (from the `.srmap`, or computed now for an in-memory map),
    /// patched with what the store knows: measured or rated roughness, freshness, hazards.
    public init(map: SkateMap, knowledge: RoadKnowledge) {
        self.init(derived: map.derived ?? MapDerived(map: map, routingTables: false), edgeCount: map.edgeCount,
                  fromStoredDerived: map.derived != nil)
        let n = map.edgeCount
        for (e, o) in knowledge.observations where e >= 0 && e < n {
            rms[e] = Float(o.rms); rmsSource[e] = UInt8(o.source.rawValue); freshness[e] = Float(o.freshness)
            (secondsFwd[e], secondsBwd[e]) = MapDerived.travelSeconds(map: map, edge: e, grade: derived.grade[e], rms: rms[e])
        }
        for (e, hs) in knowledge.hazards where e >= 0 && e < n {
            hazard[e] = Float(hs.reduce(0) { $0 + Double($1.severity * $1.severity) * $1.confidence })
        }
        var touched = Array(knowledge.observations.keys) + Array(knowledge.hazards.keys)
        touched.removeAll { $0 < 0 || $0 >= n }
        if !touched.isEmpty {
            touched.sort()
            patchedEdges = touched.enumerated().filter { $0.offset == 0 || touched[$0.offset - 1] != $0.element }.map(\.element)
        }
    }

    /// The table of a map's derived facts alone, with no store knowledge (also used while
    /// computing the derived block's mode costs).
    init(derived d: MapDerived, edgeCount n: Int, fromStoredDerived: Bool = false) {
        self.fromStoredDerived = fromStoredDerived
        derived = d
        rms = d.tagRMS; rmsSource = d.tagRMSSource
        secondsFwd = d.tagSecondsFwd; secondsBwd = d.tagSecondsBwd
        freshness = .init(repeating: 0, count: n)
        hazard = .init(repeating: 0, count: n)
    }

    /// Grade (percent) travelling the edge in the given direction.
    @inlinable public func grade(_ e: Int, reversed: Bool) -> Double { Double(reversed ? -derived.grade[e] : derived.grade[e]) }
    /// Seconds to travel the edge in the given direction.
    @inlinable public func seconds(_ e: Int, reversed: Bool) -> Double { Double(reversed ? secondsBwd[e] : secondsFwd[e]) }
    /// Metres climbed travelling the edge in the given direction.
    @inlinable public func climb(_ e: Int, reversed: Bool) -> Double { Double(reversed ? derived.descent[e] : derived.climb[e]) }
    /// Steepest sustained descent (percent, ≤ 0) travelling the edge in the given direction.
    @inlinable public func steepestDown(_ e: Int, reversed: Bool) -> Double { Double(reversed ? derived.steepestDownBwd[e] : derived.steepestDownFwd[e]) }
    /// Metres at braking grade travelling the edge in the given direction.
    @inlinable public func brakingMetres(_ e: Int, reversed: Bool) -> Double { Double(reversed ? derived.brakingMetresBwd[e] : derived.brakingMetresFwd[e]) }
    /// Metres at caution grade (not braking) travelling the edge in the given direction.
    @inlinable public func cautionMetres(_ e: Int, reversed: Bool) -> Double { Double(reversed ? derived.cautionMetresBwd[e] : derived.cautionMetresFwd[e]) }
    /// Heading leaving the start of a traversal, degrees.
    @inlinable public func headingOut(_ e: Int, reversed: Bool) -> Double {
        reversed ? Self.opposite(Double(derived.bearingEnd[e])) : Double(derived.bearingStart[e])
    }
    /// Heading arriving at the end of a traversal, degrees.
    @inlinable public func headingIn(_ e: Int, reversed: Bool) -> Double {
        reversed ? Self.opposite(Double(derived.bearingStart[e])) : Double(derived.bearingEnd[e])
    }
    /// The opposite of a bearing in 0..<360 (no fmod: this runs for every edge the router relaxes).
    @inlinable static func opposite(_ b: Double) -> Double { b >= 180 ? b - 180 : b + 180 }
}
