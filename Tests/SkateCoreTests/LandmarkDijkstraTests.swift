@testable import SkateCore
import SkateTestSupport
import Testing

/// The landmark runs read a per-direction arc list and order their heap by cost alone (issue 31,
/// seventh round); every cost must be the former run's bit for bit, so maps stay byte-identical.
@Suite struct LandmarkDijkstraTests {
    /// The run as it was before (a6eed44), verbatim: the map's adjacency, items ordered by (cost, node).
    static func formerDijkstra(map: SkateMap, cost: FlatArray<Float>, source: Int, backward: Bool) -> [Double] {
        struct Item: Comparable {
            var d: Double
            var n: Int
            static func < (a: Item, b: Item) -> Bool { a.d != b.d ? a.d < b.d : a.n < b.n }
        }
        var dist = [Double](repeating: .infinity, count: map.nodeCount)
        var heap = SearchHeap<Item>()
        dist[source] = 0
        heap.insert(Item(d: 0, n: source))
        while let top = heap.popMin() {
            let u = top.n
            guard top.d <= dist[u] else { continue }
            for k in map.adjacencyRange(of: u) {
                let adj = Int(map.adjacency[k])
                let e = adj >> 1, leavesReversed = adj & 1 == 1
                let w = Int(leavesReversed ? map.edgeFrom[e] : map.edgeTo[e])
                let c = Double(cost[e << 1 | ((leavesReversed != backward) ? 1 : 0)])
                guard c < .infinity else { continue }
                let d = top.d + c
                if d < dist[w] { dist[w] = d; heap.insert(Item(d: d, n: w)) }
            }
        }
        return dist
    }

    @Test("costs from and to seeded sources are the former run's bit for bit (Monaco, three modes)")
    func sameCostsAsBefore() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        var rng = SplitMix64(seed: 31)
        var reached = 0
        for mode in [RideMode.smoothest, .fastMildRoughness, .nightSafe] {
            let cost = FlatArray(SkateCosting.computeCosts(map: map, table: EdgeTable(map: map, knowledge: .empty), weights: mode.weights).0)
            for backward in [false, true] {
                let graph = Landmarks.CostGraph(map: map, cost: cost, backward: backward)
                for _ in 0..<4 {
                    let s = Int(rng.next() % UInt64(map.nodeCount))
                    let now = Landmarks.dijkstra(graph: graph, source: s)
                    let before = Self.formerDijkstra(map: map, cost: cost, source: s, backward: backward)
                    #expect(now.count == before.count)
                    let differing = zip(now, before).filter { $0.bitPattern != $1.bitPattern }.count
                    #expect(differing == 0, "\(mode) source \(s) backward \(backward): \(differing) costs differ")
                    reached += now.filter { $0 < .infinity }.count
                }
            }
        }
        #expect(reached > 24 * map.nodeCount / 2, "the runs must reach most of the map")
    }
}
