/// A search's per-edge cost multipliers (alternatives, smoothest's steep-line rounds, loops'
/// reuse penalty), read once per relaxed traversal of a penalised search.
///
/// The callers hand a `[Int: Double]`; a `Dictionary` lookup hashes the edge id with SipHash
/// on every relaxation. This open-addressing table (`IntKeyedTable`: Fibonacci hashing, load at
/// most one half) holds the same multipliers for the few hundred edges a penalty names, so a
/// miss — almost every lookup — ends at the first or second slot. The multiplier is the same
/// `Double`, applied the same way, so the costs are bit for bit the dictionary's.
struct EdgePenalties {
    private var table = IntKeyedTable<Double>()
    /// No edge is penalised (most searches): the lookup is skipped.
    let isEmpty: Bool

    init(_ penalty: [Int: Double]) {
        isEmpty = penalty.isEmpty
        for (e, p) in penalty where e >= 0 { table[e] = p }
    }

    /// The multiplier of edge `e`, or nil when it has none.
    @inline(__always) subscript(e: Int) -> Double? { isEmpty ? nil : table[e] }
}
