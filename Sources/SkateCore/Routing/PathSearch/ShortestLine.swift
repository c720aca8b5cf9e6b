import FoundationEssentials
import Glibc
import HeapModule

/// Shortest lines by *distance* (not by a mode's cost) between two snapped points over the
/// edges a filter admits: the references an honest plan compares itself with (`Detour`). Plain
/// A* on metres with the straight-line distance to the target as the bound (admissible: an
/// edge is never shorter than its chord). Pure and independent of any costing.
public enum ShortestLine {
    /// A node on the open list: metres so far plus the bound, the node and metres so far.
    struct Open: Comparable {
        var key: Double
        var node: Int
        var g: Double
        static func < (a: Open, b: Open) -> Bool { a.key < b.key }
    }

    /// The shortest path from `a` to `b` on edges `allowed` admits (the snapped edges are always
    /// admitted: the ends lie on them), or nil when none joins them. Legs are full edges except
    /// the partial first and last.
    public static func path(map: SkateMap, from a: EdgeSnap, to b: EdgeSnap, allowed: (Int) -> Bool) -> RoutePath? {
        let n = map.nodeCount
        var dist = [Double](repeating: .infinity, count: n)
        // How each node was reached: adjacency entry (edge << 1 | leaving through edgeTo→edgeFrom), or −1 for the start edge.
        var via = [Int](repeating: -2, count: n)
        // Each node's bound, computed the first time it is reached (negative: not yet): a node
        // is reached from each of its neighbours, and the great-circle distance (sin, cos, asin)
        // was a third of these searches' time.
        var bound = [Double](repeating: -1, count: n)
        var heap = Heap<Open>()
        func h(_ v: Int) -> Double {
            if bound[v] < 0 { bound[v] = Geo.distance(map.coordinate(ofNode: v), b.point) * 0.999 }
            return bound[v]
        }
        let lenA = Double(map.edgeLength[a.edge]), lenB = Double(map.edgeLength[b.edge])
        for (v, d) in [(Int(map.edgeFrom[a.edge]), a.offset), (Int(map.edgeTo[a.edge]), lenA - a.offset)] where d < dist[v] {
            dist[v] = d; via[v] = -1
            heap.insert(Open(key: d + h(v), node: v, g: d))
        }
        // The best way to finish: straight along the shared edge, or from one of b's end nodes.
        var best = Double.infinity
        var bestEnd = -1  // −1: along the shared edge; else the node the last leg leaves from
        if a.edge == b.edge { best = abs(b.offset - a.offset) }
        let fromB = Int(map.edgeFrom[b.edge]), toB = Int(map.edgeTo[b.edge])
        while let o = heap.popMin() {
            guard o.g <= dist[o.node], o.key < best else { if o.key >= best { break }; continue }
            let v = o.node
            // (Two tests, not a loop over a two-element array: that array was allocated per node.)
            if v == fromB && o.g + b.offset < best { best = o.g + b.offset; bestEnd = v }
            if v == toB && o.g + (lenB - b.offset) < best { best = o.g + (lenB - b.offset); bestEnd = v }
            for k in Int(map.adjStart[v])..<Int(map.adjStart[v + 1]) {
                let entry = Int(map.adjacency[k])
                let e = entry >> 1, rev = entry & 1 == 1
                guard allowed(e) || e == a.edge || e == b.edge else { continue }
                let w = rev ? Int(map.edgeFrom[e]) : Int(map.edgeTo[e])
                let d = o.g + Double(map.edgeLength[e])
                if d < dist[w] {
                    dist[w] = d; via[w] = entry
                    heap.insert(Open(key: d + h(w), node: w, g: d))
                }
            }
        }
        guard best.isFinite else { return nil }
        if bestEnd < 0 {
            return RoutePath(legs: [RouteLeg(edge: a.edge, reversed: b.offset < a.offset, startOffset: a.offset, endOffset: b.offset)],
                             cost: best, crustyRuleMet: true)
        }
        // Last leg: from bestEnd along b's edge to b.
        var legs = [RouteLeg(edge: b.edge, reversed: bestEnd == toB, startOffset: bestEnd == toB ? lenB : 0, endOffset: b.offset)]
        var v = bestEnd
        var guardSteps = n + 1
        while via[v] >= 0 && guardSteps > 0 {
            guardSteps -= 1
            let e = via[v] >> 1, rev = via[v] & 1 == 1
            let len = Double(map.edgeLength[e])
            legs.append(RouteLeg(edge: e, reversed: rev, startOffset: rev ? len : 0, endOffset: rev ? 0 : len))
            v = rev ? Int(map.edgeTo[e]) : Int(map.edgeFrom[e])
        }
        // First leg: from a along its edge to the node the search left it by.
        let forward = v == Int(map.edgeTo[a.edge])
        legs.append(RouteLeg(edge: a.edge, reversed: !forward, startOffset: a.offset, endOffset: forward ? lenA : 0))
        legs.reverse()
        return RoutePath(legs: legs.filter { $0.length > 0 || map.edgeLength[$0.edge] == 0 }, cost: best, crustyRuleMet: true)
    }
}
