import Synchronization

/// Connected components of a map's graph (ignoring direction), by union–find (precomputed in `MapDerived`).
///
/// Building one costs nothing per node (issue 31): a planner is made at every start of the CLI
/// and the TUI, and finding the largest component by a pass over every node's count was 44 % of
/// the first TUI frame on a 2.3 M-node region. A map file's derived block already says which
/// component is the largest: its first ALT landmark lies on it (`MapDerived` picks landmarks on
/// the largest component, by the same pass). Maps without landmarks (tiny or in-memory ones)
/// make the pass, and in-memory maps the union–find, on first use.
public struct ConnectedComponents: Sendable {
    /// The tables, computed on first use when the map file does not carry them.
    private let tables: LazyComponentTables
    /// The map's edge start nodes (all `isMain` needs; not the whole map, which is costly to copy).
    let edgeFrom: FlatArray<UInt32>

    /// Components at least this share of the largest count as "main" too (twin networks split by a river).
    public static let mainShare = 0.25

    public init(map: SkateMap) {
        edgeFrom = map.edgeFrom
        tables = LazyComponentTables(map: map)
    }

    /// Component id (its root node) per node.
    public var root: FlatArray<Int32> { tables.value.root }
    /// The largest component's root (the lowest-numbered root among equally large ones).
    public var mainRoot: Int32 { tables.value.mainRoot }

    /// Nodes in the component of `node`.
    public func size(ofNode node: Int) -> Int {
        let t = tables.value
        return Int(t.sizes[Int(t.root[node])])
    }

    /// Whether an edge belongs to the main network.
    public func isMain(edge e: Int) -> Bool {
        let t = tables.value
        let n = t.sizes[Int(t.root[Int(edgeFrom[e])])]
        return Double(n) >= Self.mainShare * Double(t.mainSize)
    }

    /// The largest component's root by a pass over every node's count: the first root of the
    /// largest size (what `MapDerived` picks landmarks on).
    static func scannedMainRoot(sizes: FlatArray<Int32>) -> Int32 {
        var best: Int32 = 0
        for n in 0..<sizes.count where sizes[n] > sizes[Int(best)] { best = Int32(n) }
        return best
    }
}

/// `ConnectedComponents`' tables, read from the map file's derived block or computed once on
/// first use. Safe to read from any thread.
final class LazyComponentTables: Sendable {
    struct Tables: Sendable {
        /// Component id (its root node) per node, and node count per root (indexed by the root).
        var root: FlatArray<Int32>
        var sizes: FlatArray<Int32>
        /// The largest component's root and its node count (0 on an empty map).
        var mainRoot: Int32
        var mainSize: Int32
    }

    private let map: SkateMap
    private let state = Mutex<Tables?>(nil)

    init(map: SkateMap) {
        self.map = map
        // A map file's tables and its first landmark: nothing to compute.
        if let d = map.derived, !d.componentRoot.isEmpty, let first = d.landmarks.first {
            let main = d.componentRoot[Int(first)]
            state.withLock { $0 = Tables(root: d.componentRoot, sizes: d.componentSize, mainRoot: main, mainSize: d.componentSize[Int(main)]) }
        }
    }

    var value: Tables {
        state.withLock { v in
            if let v { return v }
            let t = Self.compute(map)
            v = t
            return t
        }
    }

    static func compute(_ map: SkateMap) -> Tables {
        let root: FlatArray<Int32>, sizes: FlatArray<Int32>
        if let d = map.derived, !d.componentRoot.isEmpty {
            root = d.componentRoot; sizes = d.componentSize
        } else {
            let (r, s) = MapDerived.components(map: map)
            root = FlatArray(r); sizes = FlatArray(s)
        }
        let main = ConnectedComponents.scannedMainRoot(sizes: sizes)
        return Tables(root: root, sizes: sizes, mainRoot: main, mainSize: sizes.isEmpty ? 0 : sizes[Int(main)])
    }
}
