/// The ids of the nodes an area keeps (`AreaClipper`), asked once per way node of the whole
/// extract. A PBF lists nodes in ascending id order, so the ids go in one `AscendingIds` (8 bytes
/// a kept node), after a range test that rejects at once a way lying wholly below or above the
/// kept ids; ids out of order fall back to a `Set`.
struct KeptNodeIds {
    /// Kept ids while they ascend (emptied when `unordered` takes over).
    private var sorted = AscendingIds()
    /// Every id once one arrived out of order (nil while ids ascend).
    private var unordered: Set<Int64>?
    /// Smallest and largest kept id.
    private var low = Int64.max, high = Int64.min

    /// Ids kept.
    var count: Int { unordered?.count ?? sorted.count }

    mutating func insert(_ id: Int64) {
        low = min(low, id); high = max(high, id)
        if unordered == nil, let last = sorted.last, id <= last {
            if id == last { return }
            unordered = Set(sorted.ids)
            sorted = AscendingIds()
        }
        if unordered != nil { unordered!.insert(id); return }
        sorted.append(id)
    }

    func contains(_ id: Int64) -> Bool {
        guard id >= low, id <= high else { return false }
        if let unordered { return unordered.contains(id) }
        return sorted.index(of: id) != nil
    }

    /// Whether any of `refs` is kept (a way with none is dropped whole).
    func containsAny(_ refs: [Int64]) -> Bool {
        for r in refs where contains(r) { return true }
        return false
    }
}
