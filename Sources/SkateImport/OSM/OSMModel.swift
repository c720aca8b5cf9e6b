import SkateCore

/// The tags of one OSM element in file order. Elements carry few tags, so a linear scan beats hashing.
public struct OSMTags: Sendable, Equatable {
    public var pairs: [(key: String, value: String)]

    public init(_ pairs: [(key: String, value: String)] = []) { self.pairs = pairs }

    public subscript(key: String) -> String? {
        for p in pairs where p.key == key { return p.value }
        return nil
    }

    public var isEmpty: Bool { pairs.isEmpty }

    public static func == (a: OSMTags, b: OSMTags) -> Bool {
        a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A member of an OSM relation.
public struct OSMMember: Sendable, Equatable {
    public enum Kind: UInt8, Sendable { case node, way, relation }
    public var kind: Kind
    public var ref: Int64
    public var role: String
    public init(kind: Kind, ref: Int64, role: String) { self.kind = kind; self.ref = ref; self.role = role }
}

/// Receives OSM elements as a reader streams them (PBF and XML deliver nodes, then ways, then relations).
/// A handler that keeps part of an extract (`AreaClipper`) answers `skipsNode`/`skipsWay`, so the
/// PBF reader leaves the tags of the elements it drops undecoded: cutting a city out of a region
/// costs little per element left out. The XML reader does not ask; `node`/`way` drop the same.
public protocol OSMHandler {
    /// The file's header: its bounding box and replication/osmosis timestamp (ISO 8601) when present.
    mutating func header(bbox: BoundingBox?, timestamp: String?)
    /// A node: position in degrees.
    mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags)
    /// A way: its node references in order.
    mutating func way(id: Int64, refs: [Int64], tags: OSMTags)
    /// A relation.
    mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags)
    /// Whether the reader may skip this node's tags and its `node` call: true for a node the
    /// handler drops anyway (it has counted it). Asked by the PBF reader before decoding the
    /// node's tags; the default is false.
    mutating func skipsNode(id: Int64, lat: Double, lon: Double) -> Bool
    /// Whether the reader may skip this way's tags and its `way` call (`refs`: its nodes); the
    /// default is false.
    mutating func skipsWay(id: Int64, refs: [Int64]) -> Bool
}

extension OSMHandler {
    public mutating func header(bbox: BoundingBox?, timestamp: String?) {}
    public mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) {}
    public mutating func skipsNode(id: Int64, lat: Double, lon: Double) -> Bool { false }
    public mutating func skipsWay(id: Int64, refs: [Int64]) -> Bool { false }
}

/// A problem reading an OSM or DEM input file: one line naming the file and the problem.
public struct ImportError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var problem: String
    public init(path: String, problem: String) { self.path = path; self.problem = problem }
    public var description: String { "\(path): \(problem)" }
}
