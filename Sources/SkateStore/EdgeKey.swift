import SkateCore

/// A map edge named by OSM ids, stable across map rebuilds (edge indices are not): the way it
/// belongs to and the OSM nodes at its two ends, in drawing direction.
public struct EdgeKey: Hashable, Sendable, Codable, CustomStringConvertible {
    public var wayId: Int64
    /// OSM id of the node at `edgeFrom`.
    public var fromNode: Int64
    /// OSM id of the node at `edgeTo`.
    public var toNode: Int64

    public init(wayId: Int64, fromNode: Int64, toNode: Int64) {
        self.wayId = wayId; self.fromNode = fromNode; self.toNode = toNode
    }

    /// The key of edge `e` of `map`.
    public init(map: SkateMap, edge e: Int) {
        wayId = map.edgeWayId[e]
        fromNode = map.nodeOsmId[Int(map.edgeFrom[e])]
        toNode = map.nodeOsmId[Int(map.edgeTo[e])]
    }

    public var description: String { "way \(wayId) (\(fromNode)→\(toNode))" }

    /// Edge indices of `map` by key (a key can, rarely, name two edges, e.g. parallel pieces of a
    /// closed way between the same nodes; both get the knowledge).
    public static func index(of map: SkateMap) -> [EdgeKey: [Int]] {
        var out: [EdgeKey: [Int]] = [:]
        out.reserveCapacity(map.edgeCount)
        for e in 0..<map.edgeCount { out[EdgeKey(map: map, edge: e), default: []].append(e) }
        return out
    }
}
