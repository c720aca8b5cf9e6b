import SkateCore
import SkateImport

/// An `OSMHandler` that folds everything it receives (ids, exact coordinate bits, refs, members,
/// tags in order) into FNV-1a digests per element kind, and counts highway ways, so two readers
/// can be compared element for element.
struct OSMDigest: OSMHandler {
    var nodes = 0, ways = 0, relations = 0, highways = 0
    var nodeHash: UInt64 = 0xcbf2_9ce4_8422_2325
    var wayHash: UInt64 = 0xcbf2_9ce4_8422_2325
    var relationHash: UInt64 = 0xcbf2_9ce4_8422_2325
    var headerCalls = 0
    var bbox: BoundingBox?
    var timestamp: String?
    /// A few elements kept whole for readable failures.
    var sampleWays: [Int64: ([Int64], OSMTags)] = [:]
    var sampleNodes: [Int64: (Double, Double, OSMTags)] = [:]
    /// Ids of elements kept in the samples.
    static let sampleWayIds: Set<Int64> = [4_097_656, 585_654_714, 1_531_921_256, 49_209_503, 214_635_114]
    /// Element kinds must arrive nodes, then ways, then relations.
    var orderViolations = 0

    private static func mix(_ h: inout UInt64, _ v: UInt64) {
        var x = v
        for _ in 0..<8 {
            h ^= x & 0xFF
            h = h &* 0x100_0000_01B3
            x >>= 8
        }
    }

    private static func mix(_ h: inout UInt64, _ s: String) {
        for b in s.utf8 { h ^= UInt64(b); h = h &* 0x100_0000_01B3 }
        mix(&h, UInt64(s.utf8.count))
    }

    private static func mix(_ h: inout UInt64, _ tags: OSMTags) {
        mix(&h, UInt64(tags.pairs.count))
        for p in tags.pairs { mix(&h, p.key); mix(&h, p.value) }
    }

    mutating func header(bbox: BoundingBox?, timestamp: String?) {
        headerCalls += 1
        self.bbox = bbox
        self.timestamp = timestamp
    }

    mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {
        if ways > 0 || relations > 0 { orderViolations += 1 }
        nodes += 1
        Self.mix(&nodeHash, UInt64(bitPattern: id))
        Self.mix(&nodeHash, lat.bitPattern)
        Self.mix(&nodeHash, lon.bitPattern)
        Self.mix(&nodeHash, tags)
        if nodes % 5000 == 1 { sampleNodes[id] = (lat, lon, tags) }
    }

    mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {
        if relations > 0 { orderViolations += 1 }
        ways += 1
        if tags["highway"] != nil { highways += 1 }
        Self.mix(&wayHash, UInt64(bitPattern: id))
        Self.mix(&wayHash, UInt64(refs.count))
        for r in refs { Self.mix(&wayHash, UInt64(bitPattern: r)) }
        Self.mix(&wayHash, tags)
        if Self.sampleWayIds.contains(id) || ways % 1000 == 1 { sampleWays[id] = (refs, tags) }
    }

    mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) {
        relations += 1
        Self.mix(&relationHash, UInt64(bitPattern: id))
        for m in members {
            Self.mix(&relationHash, UInt64(m.kind.rawValue))
            Self.mix(&relationHash, UInt64(bitPattern: m.ref))
            Self.mix(&relationHash, m.role)
        }
        Self.mix(&relationHash, tags)
    }
}
