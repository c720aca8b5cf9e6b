/// Connected components of a map's graph (ignoring direction), by union–find (precomputed in `MapDerived`).
public struct ConnectedComponents: Sendable {
    /// Component id (its root node) per node.
    public let root: FlatArray<Int32>
    /// Node count per root (indexed by the root node).
    let sizes: FlatArray<Int32>
    /// The largest component's root.
    public let mainRoot: Int32
    /// The map's edge start nodes (all `isMain` needs; not the whole map, which is costly to copy).
    let edgeFrom: FlatArray<UInt32>

    /// Components at least this share of the largest count as "main" too (twin networks split by a river).
    public static let mainShare = 0.25

    public init(map: SkateMap) {
        edgeFrom = map.edgeFrom
        if let d = map.derived {
            root = d.componentRoot; sizes = d.componentSize
        } else {
            let (r, s) = MapDerived.components(map: map)
            root = FlatArray(r); sizes = FlatArray(s)
        }
        var best: Int32 = 0
        for n in 0..<map.nodeCount where sizes[n] > sizes[Int(best)] { best = Int32(n) }
        mainRoot = best
    }

    /// Nodes in the component of `node`.
    public func size(ofNode node: Int) -> Int { Int(sizes[Int(root[node])]) }

    /// Whether an edge belongs to the main network.
    public func isMain(edge e: Int) -> Bool {
        let n = size(ofNode: Int(edgeFrom[e]))
        return Double(n) >= Self.mainShare * Double(sizes.isEmpty ? 0 : sizes[Int(mainRoot)])
    }
}
