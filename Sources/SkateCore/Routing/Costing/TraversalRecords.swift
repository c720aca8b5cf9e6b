#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a turn cost reads of a traversal besides its heading (`SkateCosting.transitionCost`),
/// and whether it counts for the 100 m crusty rule, as bits.
struct TurnBits: OptionSet, Sendable {
    let rawValue: UInt8
    /// A way built for people (`SkateCosting.isPathClass`) or a crossing.
    static let onFoot = TurnBits(rawValue: 1 << 0)
    static let majorRoad = TurnBits(rawValue: 1 << 1)
    static let steps = TurnBits(rawValue: 1 << 2)
    static let stepsRamp = TurnBits(rawValue: 1 << 3)
    static let connector = TurnBits(rawValue: 1 << 4)
    /// `SkateCosting.isCrusty` (only in `TraversalRecord`s; turn costs never read it).
    static let crusty = TurnBits(rawValue: 1 << 5)
}

/// One adjacency slot's traversal as the search's inner loop reads it, packed in 16 bytes.
/// Indexed like `SkateMap.adjacency`, so the ways out of a node lie side by side: one or two
/// cache lines per settled state, where the loop read seven edge-indexed arrays (end nodes,
/// length, highway class, flags twice, bearings, roughness) at scattered edges per relaxation.
struct TraversalRecord {
    /// The node the traversal leads to (`edgeFrom` when reversed, else `edgeTo`).
    var head: UInt32
    /// The edge's length, metres (`SkateMap.edgeLength`, the same Float).
    var length: Float
    /// The stored bearing (degrees) `EdgeTable.headingOut` starts from: `bearingEnd` when
    /// reversed (it takes the opposite), else `bearingStart`.
    var bearing: Float
    var bits: TurnBits
}

/// The `TraversalRecord` of every adjacency slot of a map under one edge table. It depends on
/// the map and the table only, never on a mode's weights, so a planner's costings share one
/// (`CostingCache.records`). 16 bytes per adjacency slot (32 per edge), built in one pass.
final class TraversalRecords: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<TraversalRecord>
    let count: Int

    init(map: SkateMap, table: EdgeTable) {
        count = map.adjacency.count
        pointer = .allocate(capacity: Swift.max(count, 1))
        for k in 0..<count {
            let adj = Int(map.adjacency[k])
            let e = adj >> 1, rev = adj & 1 == 1
            var bits = SkateCosting.turnBits(map: map, edge: e)
            if SkateCosting.isCrusty(map: map, table: table, edge: e) { bits.insert(.crusty) }
            (pointer + k).initialize(to: TraversalRecord(head: rev ? map.edgeFrom[e] : map.edgeTo[e], length: map.edgeLength[e],
                                                         bearing: rev ? table.bearingEnd[e] : table.bearingStart[e], bits: bits))
        }
    }

    deinit {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }

    /// The heading (degrees) leaving the start of slot `k`'s traversal: `EdgeTable.headingOut`.
    @inline(__always) static func headingOut(_ r: TraversalRecord, reversed: Bool) -> Double {
        reversed ? EdgeTable.opposite(Double(r.bearing)) : Double(r.bearing)
    }
}
