/// The ids of the nodes an area keeps (`AreaClipper`), asked once per way node of the whole
/// extract. A PBF lists nodes in ascending id order, so the ids go in one sorted array (8 bytes
/// a kept node) searched through a sampled block index, after a range test that rejects at once
/// a way lying wholly below or above the kept ids; ids out of order fall back to a `Set`.
struct KeptNodeIds {
    /// Kept ids, ascending while `unordered` is nil.
    private var ids: [Int64] = []
    /// Every `blockSize`-th id: the bisection runs here first, then inside one block of `ids`.
    private var blockFirst: [Int64] = []
    /// Ids in one block: the block's bisection then stays within a few cache lines.
    static let blockSize = 64
    /// Every id once one arrived out of order (nil while ids ascend).
    private var unordered: Set<Int64>?
    /// Smallest and largest kept id.
    private var low = Int64.max, high = Int64.min

    /// Ids kept.
    var count: Int { unordered?.count ?? ids.count }

    mutating func insert(_ id: Int64) {
        low = min(low, id); high = max(high, id)
        if unordered == nil, let last = ids.last, id <= last {
            if id == last { return }
            unordered = Set(ids)
            ids = []; blockFirst = []
        }
        if unordered != nil { unordered!.insert(id); return }
        if ids.count % Self.blockSize == 0 { blockFirst.append(id) }
        ids.append(id)
    }

    func contains(_ id: Int64) -> Bool {
        guard id >= low, id <= high else { return false }
        if let unordered { return unordered.contains(id) }
        var lo = 0, hi = blockFirst.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if blockFirst[mid] <= id { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return false }
        lo = (lo - 1) * Self.blockSize
        hi = Swift.min(lo + Self.blockSize, ids.count)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < ids.count && ids[lo] == id
    }

    /// Whether any of `refs` is kept (a way with none is dropped whole).
    func containsAny(_ refs: [Int64]) -> Bool {
        for r in refs where contains(r) { return true }
        return false
    }
}
