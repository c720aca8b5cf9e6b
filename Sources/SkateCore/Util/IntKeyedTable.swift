/// A hash table from non-negative Int keys to values, for the searches' sparse state (labels of
/// states beyond a node's first run bucket, the quick crusty-rule proof's reached nodes).
///
/// Why not `Dictionary`: each `Dictionary<Int, …>` or `Set<Int>` the plan path builds is a
/// generic type with a `Hashable` requirement, and the Swift runtime checks that requirement the
/// first time it instantiates the type's metadata — a scan of every protocol-conformance record
/// in the binary, which made 460 KB of a Monaco plan's 8.4 MB peak resident (README, *Where a
/// plan's memory goes*). This table is generic over its value only: no requirement, no scan.
/// (swift-collections' `OrderedDictionary` and `TreeDictionary` require `Hashable` keys too.)
/// Open addressing with linear probing; the load stays at most one half. Keys are never removed.
struct IntKeyedTable<Value> {
    /// Keys per slot; `empty` where free.
    private var keys: [Int]
    private var values: [Value?]
    /// Entries stored.
    private(set) var count = 0
    /// Marks a free slot (keys are ≥ 0).
    private static var empty: Int { -1 }
    /// Slots of a new table (a power of two).
    static var initialSlots: Int { 16 }

    init() {
        keys = [Int](repeating: Self.empty, count: Self.initialSlots)
        values = [Value?](repeating: nil, count: Self.initialSlots)
    }

    var isEmpty: Bool { count == 0 }

    /// Fibonacci hashing: consecutive node numbers spread over the table.
    @inline(__always) private func slot(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (keys.count - 1)
    }

    @inline(__always) private func find(_ key: Int) -> Int {
        var i = slot(key)
        while keys[i] != key && keys[i] != Self.empty { i = (i + 1) & (keys.count - 1) }
        return i
    }

    /// The value stored for `key` (nil when none). Setting nil is not supported.
    subscript(key: Int) -> Value? {
        get {
            precondition(key >= 0, "keys are non-negative")
            let i = find(key)
            return keys[i] == key ? values[i] : nil
        }
        set {
            precondition(key >= 0, "keys are non-negative")
            guard let v = newValue else { preconditionFailure("IntKeyedTable keeps its keys") }
            var i = find(key)
            if keys[i] != key {
                if 2 * (count + 1) > keys.count { grow(); i = find(key) }
                keys[i] = key
                count += 1
            }
            values[i] = v
        }
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = [Int](repeating: Self.empty, count: oldKeys.count * 2)
        values = [Value?](repeating: nil, count: oldKeys.count * 2)
        for j in oldKeys.indices where oldKeys[j] != Self.empty {
            let i = find(oldKeys[j])
            keys[i] = oldKeys[j]; values[i] = oldValues[j]
        }
    }
}
