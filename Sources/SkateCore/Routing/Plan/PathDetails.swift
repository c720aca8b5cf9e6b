import FoundationEssentials
import Glibc

/// One value of a path detail: a number, a text, or nothing (an untagged way's surface).
public enum PathDetailValue: Sendable, Equatable {
    case integer(Int64)
    case number(Double)
    case text(String)
    case none
}

/// Points `from…to` of a plan's geometry (indices, both included) share `value`, as in
/// GraphHopper's path details: one interval's `to` is the next one's `from`.
public struct PathDetailInterval: Sendable, Equatable {
    public var from: Int
    public var to: Int
    public var value: PathDetailValue

    public init(from: Int, to: Int, value: PathDetailValue) { self.from = from; self.to = to; self.value = value }
}

/// What lets anyone check a route against the OSM tags (issue 26, item 6): per key, intervals
/// over the geometry's point indices, in order, from point 0 to the last.
public struct PathDetails: Sendable, Equatable {
    /// The keys every plan carries, in output order.
    public static let keys = ["way_id", "surface", "smoothness", "roughness_class", "roughness_source", "grade_pct", "legality"]

    /// Intervals per key, parallel to `keys`.
    public var intervals: [[PathDetailInterval]]

    public init(intervals: [[PathDetailInterval]] = Self.keys.map { _ in [] }) { self.intervals = intervals }

    /// The intervals of one key (empty for an unknown key).
    public subscript(key: String) -> [PathDetailInterval] {
        guard let i = Self.keys.firstIndex(of: key), i < intervals.count else { return [] }
        return intervals[i]
    }
}

extension PlanBuilder {
    /// Grades in path details are rounded to this many decimals (per cent), so equal grades on
    /// neighbouring legs of one way merge into one interval.
    static let detailGradeDecimals = 1.0

    /// Where an edge's roughness estimate comes from, in the words of issue 26: `measured` (the
    /// roughness engine on a ride), `rated` (a rider's rating), `tag` (OSM surface or smoothness),
    /// `guess` (the highway class's default, or a surface value outside the table).
    func roughnessSourceName(edge e: Int) -> String {
        costing.table.surfaceEstimate(ofEdge: e).evidence.rawValue
    }

    /// The path details of a route line: each leg's values over its points, equal neighbours merged.
    func pathDetails(_ legs: [RouteLeg], _ line: Line) -> PathDetails {
        var out = PathDetails()
        let scale = pow(10, Self.detailGradeDecimals)
        for (li, leg) in legs.enumerated() where li < line.legFirstPoint.count {
            let e = leg.edge
            let from = line.legFirstPoint[li], to = line.legLastPoint[li]
            var grade = 0.0
            if !line.elevation.isEmpty, leg.length > 0 {
                grade = EdgeTable.clampGrade((line.elevation[to] - line.elevation[from]) / leg.length * 100)
            }
            let surface = map.surfaceTag(ofEdge: e), smoothness = map.smoothnessTag(ofEdge: e)
            let values: [PathDetailValue] = [
                .integer(map.edgeWayId[e]),
                surface.isEmpty ? .none : .text(surface),
                smoothness.isEmpty ? .none : .text(smoothness),
                .text(RoughnessClass(rms: Double(costing.table.rms[e])).name),
                .text(roughnessSourceName(edge: e)),
                .number((grade * scale).rounded() / scale),
                .text(AccessModel.decision(of: map.flags(ofEdge: e)).accessClass.name),
            ]
            for (k, v) in values.enumerated() {
                if let last = out.intervals[k].last, last.value == v, last.to == from {
                    out.intervals[k][out.intervals[k].count - 1].to = to
                } else {
                    out.intervals[k].append(PathDetailInterval(from: from, to: to, value: v))
                }
            }
        }
        return out
    }
}
