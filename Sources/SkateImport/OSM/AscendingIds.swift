/// OSM ids that arrive in ascending order, as a PBF lists its nodes (and every extract `osmium` or
/// Geofabrik writes does): one sorted array, 8 bytes an id, searched through a sampled block index
/// so a look-up costs a few cache misses instead of one per halving of millions.
///
/// Shared by the importer's node positions (`NodePositions`) and an area's kept node ids
/// (`KeptNodeIds`); each falls back to a hashed form of its own when an id arrives out of order.
struct AscendingIds {
    /// The ids, strictly ascending.
    private(set) var ids: [Int64] = []
    /// Every `blockSize`-th id: the bisection runs over this small array first, then inside one
    /// block of `ids`.
    private var blockFirst: [Int64] = []
    /// Ids in one block: the second bisection then stays within a few cache lines.
    static let blockSize = 64

    /// Ids held.
    var count: Int { ids.count }
    /// The largest id held.
    var last: Int64? { ids.last }

    /// Appends `id`, which must be greater than `last` (callers check and fall back otherwise).
    mutating func append(_ id: Int64) {
        precondition(ids.last.map { id > $0 } ?? true, "AscendingIds.append: \(id) does not ascend")
        if ids.count % Self.blockSize == 0 { blockFirst.append(id) }
        ids.append(id)
    }

    /// The index of `id` (its rank among the ids), nil when it is not held.
    func index(of id: Int64) -> Int? {
        // The last block starting at or before `id`, then the id inside it.
        var lo = 0, hi = blockFirst.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if blockFirst[mid] <= id { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return nil }
        lo = (lo - 1) * Self.blockSize
        hi = Swift.min(lo + Self.blockSize, ids.count)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < ids.count && ids[lo] == id ? lo : nil
    }
}
