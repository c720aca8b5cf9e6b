import FoundationEssentials
import Glibc

/// Shortest lines by *distance* (not by a mode's cost) between two snapped points over the
/// edges a filter admits: the references an honest plan compares itself with (`Detour`). Plain
/// A* on metres with the straight-line distance to the target as the bound (admissible: an
/// edge is never shorter than its chord). Pure and independent of any costing.
public enum ShortestLine {
    /// A node on the open list: metres so far plus the bound, then the node (a total order, so
    /// the line found does not depend on the heap's layout), and metres so far.
    struct Open: Comparable {
        var key: Double
        var node: Int
        var g: Double
        static func < (a: Open, b: Open) -> Bool { a.key != b.key ? a.key < b.key : a.node < b.node }
    }

    /// One node's label: metres from the start, the bound to the target (negative: not computed
    /// yet) and how it was reached (adjacency entry `edge << 1 | leaving through edgeTo→edgeFrom`,
    /// −1 for the start edge, −2 not reached). Stamped (`SearchLabels`): a search starts without
    /// filling three node-sized arrays, which on Heidelberg (two searches per plan, `withDetour`)
    /// was a fill of 2 × 3 × 8 bytes per node.
    struct NodeLabel: StampedLabel {
        var dist: Double
        var bound: Double
        var via: Int32
        var stamp: UInt16 = 0
        static var unreached: NodeLabel { NodeLabel(dist: .infinity, bound: -1, via: -2) }
    }

    /// The bound's margin: the flat-earth distance below (`boundScale`) against the great-circle
    /// edge lengths (within 0.01 % over a city), and Float edge lengths (1e-7), with room to spare.
    static let boundMargin = 0.995
    /// How far (degrees of latitude) a node may lie from the target for the flat bound; farther,
    /// the great-circle distance is used (its cosines were a third of these searches' time).
    static let flatBoundLatitudeSpan = 1.0

    /// The shortest path from `a` to `b` on edges `allowed` admits (the snapped edges are always
    /// admitted: the ends lie on them), or nil when none joins them. Legs are full edges except
    /// the partial first and last.
    public static func path(map: SkateMap, from a: EdgeSnap, to b: EdgeSnap, allowed: (Int) -> Bool) -> RoutePath? {
        let n = map.nodeCount
        let labels = SearchLabels<NodeLabel>(count: n)
        var heap = SearchHeap<Open>()
        // Straight-line metres to `b`, on a flat projection whose east–west scale is taken at the
        // latitude `flatBoundLatitudeSpan` poleward of `b`: a lower bound on the great-circle
        // distance of every node within that span (the scale shrinks poleward), so an edge's
        // length is never less than the bound's drop along it (admissible and consistent).
        let poleward = min(89.0, abs(b.point.lat) + flatBoundLatitudeSpan) * Double.pi / 180
        let mPerDegLat = Geo.earthRadius * Double.pi / 180
        let mPerDegLon = mPerDegLat * cos(poleward)
        @inline(__always) func straight(_ v: Int) -> Double {
            let lat = map.nodeLat[v], lon = map.nodeLon[v]
            guard abs(lat - b.point.lat) <= flatBoundLatitudeSpan else { return Geo.distance(map.coordinate(ofNode: v), b.point) * 0.999 }
            let x = (lon - b.point.lon) * mPerDegLon, y = (lat - b.point.lat) * mPerDegLat
            return (x * x + y * y).squareRoot() * boundMargin
        }
        let lenA = Double(map.edgeLength[a.edge]), lenB = Double(map.edgeLength[b.edge])
        for (v, d) in [(Int(map.edgeFrom[a.edge]), a.offset), (Int(map.edgeTo[a.edge]), lenA - a.offset)] {
            var l = labels[v]
            guard d < l.dist else { continue }
            if l.bound < 0 { l.bound = straight(v) }
            l.dist = d; l.via = -1
            labels[v] = l
            heap.insert(Open(key: d + l.bound, node: v, g: d))
        }
        // The best way to finish: straight along the shared edge, or from one of b's end nodes.
        var best = Double.infinity
        var bestEnd = -1  // −1: along the shared edge; else the node the last leg leaves from
        if a.edge == b.edge { best = abs(b.offset - a.offset) }
        let fromB = Int(map.edgeFrom[b.edge]), toB = Int(map.edgeTo[b.edge])
        while let o = heap.popMin() {
            guard o.g <= labels[o.node].dist, o.key < best else { if o.key >= best { break }; continue }
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
                var l = labels[w]
                if d < l.dist {
                    if l.bound < 0 { l.bound = straight(w) }
                    l.dist = d; l.via = Int32(entry)
                    labels[w] = l
                    heap.insert(Open(key: d + l.bound, node: w, g: d))
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
        while labels[v].via >= 0 && guardSteps > 0 {
            guardSteps -= 1
            let entry = Int(labels[v].via)
            let e = entry >> 1, rev = entry & 1 == 1
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
