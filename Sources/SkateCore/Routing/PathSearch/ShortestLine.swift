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
    ///
    /// Searched from both ends at once (`bidirectional`): on a city map, where every node lies
    /// within `flatBoundLatitudeSpan` of both ends, with each end's own flat bound; on a larger
    /// map (a region) with flat bounds whose east–west scale is taken at the map's most poleward
    /// latitude (`regionScaleLatitude`), which hold for every node of it. Both give the shortest
    /// length the one-way A* (`oneWay`) gives; `ShortestLineTests` compares them.
    ///
    /// A region used to search from `a` alone. When no line exists — a walk whose ends are
    /// joined only over a forbidden way — that search settles every node `a` reaches: on the
    /// K = 7 region (2.3 M nodes) ~550 ms and 240 MB of a plan (`Planner.withDetour`), where
    /// searching from both ends stops as soon as the smaller side runs out (issue 31).
    public static func path(map: SkateMap, from a: EdgeSnap, to b: EdgeSnap, allowed: (Int) -> Bool) -> RoutePath? {
        if bothEndsHold(map: map, from: a, to: b) { return bidirectional(map: map, from: a, to: b, allowed: allowed) }
        guard let lat = regionScaleLatitude(map) else { return oneWay(map: map, from: a, to: b, allowed: allowed) }
        return bidirectional(map: map, from: a, to: b, allowed: allowed, scaleLatitude: lat)
    }

    /// Degrees added poleward of the map's box for a region's flat bounds (room for the box's
    /// own rounding; a hundredth of a degree weakens the bound by about 0.02 % at 50° N).
    static let regionScaleMarginDegrees = 0.01
    /// No flat bound this close to a pole (its east–west scale would vanish): `oneWay` instead.
    static let maxScaleLatitude = 89.0

    /// The latitude (degrees) at which a region's flat bounds take their east–west scale: the
    /// largest |latitude| of the map's box, a little poleward. Every node a search can reach lies
    /// in the box (`SkateMap.bbox` spans every node on an edge), so the scale there is never
    /// larger than the true one at any node, and the bound never exceeds an edge's length along
    /// it (consistent everywhere on the map). Nil for an empty box or one reaching a pole.
    static func regionScaleLatitude(_ map: SkateMap) -> Double? {
        let box = map.bbox
        guard box.minLat <= box.maxLat else { return nil }
        let lat = Swift.max(abs(box.minLat), abs(box.maxLat)) + regionScaleMarginDegrees
        return lat < maxScaleLatitude ? lat : nil
    }

    /// Whether `bidirectional`'s bounds are consistent over the whole map: every node lies within
    /// `flatBoundLatitudeSpan` of both ends.
    static func bothEndsHold(map: SkateMap, from a: EdgeSnap, to b: EdgeSnap) -> Bool {
        let box = map.bbox, span = flatBoundLatitudeSpan * bidirectionalSpanShare
        guard box.minLat <= box.maxLat else { return false }
        return box.minLat >= a.point.lat - span && box.maxLat <= a.point.lat + span
            && box.minLat >= b.point.lat - span && box.maxLat <= b.point.lat + span
    }

    /// The share of `flatBoundLatitudeSpan` the map may span from each end for `bidirectional`
    /// (room for the bounding box's own rounding).
    static let bidirectionalSpanShare = 0.99

    /// Labels node `v` reached at `d` metres, by `via` (an adjacency entry, or −1 for an end's
    /// own edge), when that is less than its label holds, and puts it on the open list keyed by
    /// `d` plus its bound (`bound(v)`, computed the first time the node is labelled; a label's
    /// bound is −1 until then). Returns whether it did.
    @inline(__always) static func label(_ v: Int, at d: Double, via: Int32, labels: SearchLabels<NodeLabel>, heap: inout SearchHeap<Open>,
                                         bound: (Int) -> Double) -> Bool {
        var l = labels[v]
        guard d < l.dist else { return false }
        if l.bound == -1 { l.bound = bound(v) }
        l.dist = d; l.via = via
        labels[v] = l
        heap.insert(Open(key: d + l.bound, node: v, g: d))
        return true
    }

    /// Relaxes the edges out of node `v`, settled at `g` metres, that `allowed` admits (the ends'
    /// edges always): the one relax loop of `oneWay` and both sides of `bidirectional`.
    /// `reached(w, d)` hears of each node labelled anew (the bidirectional meetings).
    @inline(__always) static func relaxEdges(of v: Int, at g: Double, map: SkateMap, a: EdgeSnap, b: EdgeSnap, allowed: (Int) -> Bool,
                                             labels: SearchLabels<NodeLabel>, heap: inout SearchHeap<Open>,
                                             bound: (Int) -> Double, reached: (Int, Double) -> Void) {
        for k in Int(map.adjStart[v])..<Int(map.adjStart[v + 1]) {
            let entry = Int(map.adjacency[k])
            let e = entry >> 1, rev = entry & 1 == 1
            guard allowed(e) || e == a.edge || e == b.edge else { continue }
            let w = rev ? Int(map.edgeFrom[e]) : Int(map.edgeTo[e])
            let d = g + Double(map.edgeLength[e])
            if label(w, at: d, via: Int32(entry), labels: labels, heap: &heap, bound: bound) { reached(w, d) }
        }
    }

    /// A straight-line lower bound (metres) to a point, on the flat projection `oneWay` uses:
    /// consistent for nodes within `flatBoundLatitudeSpan` of the point (an edge is never
    /// shorter than the bound's change along it).
    struct FlatBound {
        let lat: Double, lon: Double, mPerDegLat: Double, mPerDegLon: Double

        /// `scaleLatitude`: where to take the east–west scale (degrees); by default
        /// `flatBoundLatitudeSpan` poleward of `p` (then the bound holds within that span of `p`).
        init(to p: Coordinate, scaleLatitude: Double? = nil) {
            let poleward = (scaleLatitude ?? min(89.0, abs(p.lat) + flatBoundLatitudeSpan)) * Double.pi / 180
            lat = p.lat; lon = p.lon
            mPerDegLat = Geo.earthRadius * Double.pi / 180
            mPerDegLon = mPerDegLat * cos(poleward)
        }

        @inline(__always) func metres(lat nodeLat: Double, lon nodeLon: Double) -> Double {
            let x = (nodeLon - lon) * mPerDegLon, y = (nodeLat - lat) * mPerDegLat
            return (x * x + y * y).squareRoot() * boundMargin
        }
    }

    /// Bidirectional A* with average potentials (Ikeda et al. 1994; Goldberg & Harrelson 2005):
    /// the forward search keys a node by its metres from `a` plus π(v) = (bound to b − bound to
    /// a) / 2, the backward search by its metres from `b` minus π(v). Both then see the same
    /// non-negative reduced edge lengths, so this is a bidirectional Dijkstra on them: it stops
    /// once the two least keys sum to at least the best meeting found, which is then the
    /// shortest (every line's reduced length equals its length). Each side settles about the
    /// half of the one-way search's ellipse nearer its own end. When either side runs out of
    /// nodes first, no line joins the ends.
    ///
    /// `scaleLatitude`: the latitude (degrees) both bounds take their east–west scale at
    /// (`regionScaleLatitude`); nil: each end's own (`FlatBound.init`), for a city map.
    static func bidirectional(map: SkateMap, from a: EdgeSnap, to b: EdgeSnap, allowed: (Int) -> Bool,
                              scaleLatitude: Double? = nil) -> RoutePath? {
        let n = map.nodeCount
        let fwd = SearchLabels<NodeLabel>(count: n), bwd = SearchLabels<NodeLabel>(count: n)
        var heapF = SearchHeap<Open>(), heapB = SearchHeap<Open>()
        let toA = FlatBound(to: a.point, scaleLatitude: scaleLatitude), toB = FlatBound(to: b.point, scaleLatitude: scaleLatitude)
        // `bound` holds π(v) in the forward labels and −π(v) in the backward ones.
        @inline(__always) func potential(_ v: Int) -> Double {
            let lat = map.nodeLat[v], lon = map.nodeLon[v]
            return (toB.metres(lat: lat, lon: lon) - toA.metres(lat: lat, lon: lon)) / 2
        }
        let lenA = Double(map.edgeLength[a.edge]), lenB = Double(map.edgeLength[b.edge])
        var best = Double.infinity
        var meet = -1  // −1: along the shared edge; else the node where the two lines meet
        if a.edge == b.edge { best = abs(b.offset - a.offset) }
        // Seeds: each end's edge to its two nodes (two tests each, no array of pairs).
        @inline(__always) func seed(_ labels: SearchLabels<NodeLabel>, _ heap: inout SearchHeap<Open>, _ v: Int, _ d: Double, sign: Double) {
            _ = label(v, at: d, via: -1, labels: labels, heap: &heap) { sign * potential($0) }
        }
        seed(fwd, &heapF, Int(map.edgeFrom[a.edge]), a.offset, sign: 1)
        seed(fwd, &heapF, Int(map.edgeTo[a.edge]), lenA - a.offset, sign: 1)
        seed(bwd, &heapB, Int(map.edgeFrom[b.edge]), b.offset, sign: -1)
        seed(bwd, &heapB, Int(map.edgeTo[b.edge]), lenB - b.offset, sign: -1)
        // A node both ends' edges share meets at once.
        for v in [Int(map.edgeFrom[a.edge]), Int(map.edgeTo[a.edge])] where fwd[v].dist + bwd[v].dist < best {
            best = fwd[v].dist + bwd[v].dist; meet = v
        }
        // Expands the least open node of one side; the other side's labels give meetings.
        @inline(__always) func step(_ heap: inout SearchHeap<Open>, _ mine: SearchLabels<NodeLabel>, _ other: SearchLabels<NodeLabel>, sign: Double) {
            guard let o = heap.popMin() else { return }
            guard o.g <= mine[o.node].dist else { return }
            relaxEdges(of: o.node, at: o.g, map: map, a: a, b: b, allowed: allowed, labels: mine, heap: &heap,
                       bound: { sign * potential($0) }) { w, d in
                let there = other[w].dist
                if d + there < best { best = d + there; meet = w }
            }
        }
        while let f = heapF.min, let r = heapB.min, f.key + r.key < best {
            if f.key <= r.key { step(&heapF, fwd, bwd, sign: 1) } else { step(&heapB, bwd, fwd, sign: -1) }
        }
        guard best.isFinite else { return nil }
        if meet < 0 {
            return RoutePath(legs: [RouteLeg(edge: a.edge, reversed: b.offset < a.offset, startOffset: a.offset, endOffset: b.offset)],
                             cost: best, crustyRuleMet: true)
        }
        // From the meeting node back to a's edge…
        var (legs, v) = legsBack(from: meet, labels: fwd, map: map)
        let forward = v == Int(map.edgeTo[a.edge])
        legs.append(RouteLeg(edge: a.edge, reversed: !forward, startOffset: a.offset, endOffset: forward ? lenA : 0))
        legs.reverse()
        // …and on to b's: the backward labels lead from the meeting node towards b, each the
        // other way round (the backward search reached w from its parent by entry `e, rev`).
        let towardsB = legsBack(from: meet, labels: bwd, map: map)
        legs += towardsB.legs.map { RouteLeg(edge: $0.edge, reversed: !$0.reversed, startOffset: $0.endOffset, endOffset: $0.startOffset) }
        v = towardsB.reached
        let fromEnd = v == Int(map.edgeTo[b.edge])
        legs.append(RouteLeg(edge: b.edge, reversed: fromEnd, startOffset: fromEnd ? lenB : 0, endOffset: b.offset))
        return RoutePath(legs: legs.filter { $0.length > 0 || map.edgeLength[$0.edge] == 0 }, cost: best, crustyRuleMet: true)
    }

    /// The whole edges of the labels' line from node `start` back to the search's seed, last
    /// first, each leg as travelled towards `start`; and the seed node it reaches. At most one
    /// leg per node, so a corrupt `via` chain cannot loop.
    static func legsBack(from start: Int, labels: SearchLabels<NodeLabel>, map: SkateMap) -> (legs: [RouteLeg], reached: Int) {
        var legs: [RouteLeg] = []
        var v = start
        var guardSteps = map.nodeCount + 1
        while labels[v].via >= 0 && guardSteps > 0 {
            guardSteps -= 1
            let entry = Int(labels[v].via)
            let e = entry >> 1, rev = entry & 1 == 1
            let len = Double(map.edgeLength[e])
            legs.append(RouteLeg(edge: e, reversed: rev, startOffset: rev ? len : 0, endOffset: rev ? 0 : len))
            v = rev ? Int(map.edgeTo[e]) : Int(map.edgeFrom[e])
        }
        return (legs, v)
    }

    /// A* from `a` alone (the search before `bidirectional`, and where its bounds do not hold).
    static func oneWay(map: SkateMap, from a: EdgeSnap, to b: EdgeSnap, allowed: (Int) -> Bool) -> RoutePath? {
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
        // (A label's bound is −1 until computed; `straight` is never negative.)
        _ = label(Int(map.edgeFrom[a.edge]), at: a.offset, via: -1, labels: labels, heap: &heap, bound: straight)
        _ = label(Int(map.edgeTo[a.edge]), at: lenA - a.offset, via: -1, labels: labels, heap: &heap, bound: straight)
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
            relaxEdges(of: v, at: o.g, map: map, a: a, b: b, allowed: allowed, labels: labels, heap: &heap, bound: straight) { _, _ in }
        }
        guard best.isFinite else { return nil }
        if bestEnd < 0 {
            return RoutePath(legs: [RouteLeg(edge: a.edge, reversed: b.offset < a.offset, startOffset: a.offset, endOffset: b.offset)],
                             cost: best, crustyRuleMet: true)
        }
        // Last leg: from bestEnd along b's edge to b.
        let back = legsBack(from: bestEnd, labels: labels, map: map)
        var legs = [RouteLeg(edge: b.edge, reversed: bestEnd == toB, startOffset: bestEnd == toB ? lenB : 0, endOffset: b.offset)] + back.legs
        let v = back.reached
        // First leg: from a along its edge to the node the search left it by.
        let forward = v == Int(map.edgeTo[a.edge])
        legs.append(RouteLeg(edge: a.edge, reversed: !forward, startOffset: a.offset, endOffset: forward ? lenA : 0))
        legs.reverse()
        return RoutePath(legs: legs.filter { $0.length > 0 || map.edgeLength[$0.edge] == 0 }, cost: best, crustyRuleMet: true)
    }
}
