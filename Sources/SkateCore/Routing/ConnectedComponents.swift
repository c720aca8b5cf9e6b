/// Connected components of a map's graph (ignoring direction), by union–find.
public struct ConnectedComponents: Sendable {
    /// Component id (its root node) per node.
    public let root: [Int32]
    /// Node count per root (indexed by the root node).
    let sizes: [Int32]
    /// The largest component's root.
    public let mainRoot: Int32
    let map: SkateMap

    /// Components at least this share of the largest count as "main" too (twin networks split by a river).
    public static let mainShare = 0.25

    public init(map: SkateMap) {
        self.map = map
        var parent = (0..<Int32(map.nodeCount)).map { $0 }
        func find(_ x: Int32) -> Int32 {
            var x = x
            while parent[Int(x)] != x { parent[Int(x)] = parent[Int(parent[Int(x)])]; x = parent[Int(x)] }
            return x
        }
        for e in 0..<map.edgeCount where SkateCosting.isAllowed(map: map, edge: e) {
            let a = find(Int32(map.edgeFrom[e])), b = find(Int32(map.edgeTo[e]))
            if a != b { if a < b { parent[Int(b)] = a } else { parent[Int(a)] = b } }
        }
        var r = [Int32](repeating: 0, count: map.nodeCount)
        var s = [Int32](repeating: 0, count: map.nodeCount)
        for n in 0..<map.nodeCount { r[n] = find(Int32(n)); s[Int(r[n])] += 1 }
        root = r
        sizes = s
        var best: Int32 = 0
        for n in 0..<map.nodeCount where s[n] > s[Int(best)] { best = Int32(n) }
        mainRoot = best
    }

    /// Nodes in the component of `node`.
    public func size(ofNode node: Int) -> Int { Int(sizes[Int(root[node])]) }

    /// Whether an edge belongs to the main network.
    public func isMain(edge e: Int) -> Bool {
        let n = size(ofNode: Int(map.edgeFrom[e]))
        return Double(n) >= Self.mainShare * Double(sizes.isEmpty ? 0 : sizes[Int(mainRoot)])
    }
}
