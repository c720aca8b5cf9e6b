import Glibc

/// The street candidates and the folded tokens `MapDerived` stores, so a fresh process does not
/// redo them.
extension PlaceSearch {
    /// Pieces of one street name in one municipality closer than this (metres, between piece
    /// ends) are one place: a street broken by a square, a one-way pair or a footpath gap.
    static let streetPieceJoin = 300.0

    /// The street candidates and the folded tokens of every candidate, places first.
    ///
    /// One candidate per street *place*: rideable edges sharing a name and a municipality
    /// (`SkateMap.edgeTown`), split where they neither touch nor come within `streetPieceJoin`
    /// (the same name in two towns, or twice in one town, is several places). Each sits at the
    /// middle of its longest edge (first such edge on a tie); candidates are in name-table order,
    /// then by first edge.
    static func computeIndex(_ map: SkateMap) -> (streets: [(edge: Int, mid: Coordinate)], tokens: [[[UInt8]]]) {
        // Group edges by name and municipality (−1: none).
        var groups: [Int64: [Int32]] = [:]
        for e in 0..<map.edgeCount where map.edgeName[e] != 0 && map.isRideable(edge: e) {
            let m = map.town(ofEdge: e).map { map.municipality(ofTown: $0) } ?? -1
            groups[Int64(map.edgeName[e]) << 20 | Int64(m + 1), default: []].append(Int32(e))
        }
        var streets: [(name: UInt32, first: Int32, edge: Int, mid: Coordinate)] = []
        for (_, edges) in groups {
            for piece in pieces(map, edges) {
                var best = Int(piece[0])
                for e32 in piece where map.edgeLength[Int(e32)] > map.edgeLength[best] { best = Int(e32) }
                guard let mid = map.snapPoint(edge: best, offset: Double(map.edgeLength[best]) / 2) else { continue }
                streets.append((map.edgeName[best], piece.min()!, best, mid))
            }
        }
        streets.sort { ($0.name, $0.first) < ($1.name, $1.first) }
        let names = placeCandidates(map).map(\.name) + streets.map { map.name(ofEdge: $0.edge) }
        return (streets.map { ($0.edge, $0.mid) }, names.map { tokenBytes(fold($0)) })
    }

    /// Splits edges (ascending) into pieces: edges sharing a node join, then pieces whose end
    /// nodes come within `streetPieceJoin` join. Each piece ascending, pieces by first edge.
    static func pieces(_ map: SkateMap, _ edges: [Int32]) -> [[Int32]] {
        var parent = Array(0..<edges.count)
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        func union(_ a: Int, _ b: Int) { let ra = find(a), rb = find(b); if ra != rb { parent[max(ra, rb)] = min(ra, rb) } }
        var atNode: [UInt32: Int] = [:]
        for (k, e) in edges.enumerated() {
            for n in [map.edgeFrom[Int(e)], map.edgeTo[Int(e)]] {
                if let o = atNode[n] { union(o, k) } else { atNode[n] = k }
            }
        }
        var roots: [Int: [Int]] = [:]
        for k in edges.indices { roots[find(k), default: []].append(k) }
        if roots.count > 1 {
            // Pieces close to each other join (few pieces per name and town: pairwise is cheap).
            let keys = roots.keys.sorted()
            let ends = keys.map { r in roots[r]!.flatMap { k in [Int(map.edgeFrom[Int(edges[k])]), Int(map.edgeTo[Int(edges[k])])] } }
            // Each piece's box once: a pair whose boxes lie apart is never measured node by node.
            let boxes = ends.map { PieceBox(map, $0) }
            for a in 0..<keys.count {
                for b in (a + 1)..<keys.count where boxes[a].mayJoin(boxes[b]) && find(keys[a]) != find(keys[b]) {
                    if close(map, ends[a], ends[b]) { union(keys[a], keys[b]) }
                }
            }
        }
        var out: [Int: [Int32]] = [:]
        for k in edges.indices { out[find(k), default: []].append(edges[k]) }
        return out.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }

    /// The box of a street piece's end nodes, degrees: a filter before `close` that never turns
    /// away a pair within `streetPieceJoin`. Without it, pieces of one name lying on the same
    /// latitude (a region's same-named streets with no municipality) were measured node against
    /// node: 6 % of a K = 7 region's import CPU, on the path to its landmark runs (issue 31).
    struct PieceBox {
        var minLat = Double.infinity, maxLat = -Double.infinity
        var minLon = Double.infinity, maxLon = -Double.infinity

        init(_ map: SkateMap, _ nodes: [Int]) {
            self.init(nodes.map { map.coordinate(ofNode: $0) })
        }

        init(_ points: [Coordinate]) {
            for p in points {
                minLat = min(minLat, p.lat); maxLat = max(maxLat, p.lat)
                minLon = min(minLon, p.lon); maxLon = max(maxLon, p.lon)
            }
        }

        /// Degrees of latitude `streetPieceJoin` can span at most (a degree is ≥ 110,574 m).
        static let joinLat = streetPieceJoin / 110_574
        /// Boxes further apart in longitude than this are not tested near the antimeridian or the
        /// poles, where degrees of longitude wrap or shrink to nothing.
        static let maxTestedLon = 179.0, minTestedCos = 0.01

        /// False only when no point of one box lies within `streetPieceJoin` of the other. Across
        /// longitude: the haversine distance is at least 2R·√(cos φ1·cos φ2)·sin(Δλ/2) ≥
        /// (2/π)·R·c·Δλ, c the cosine of the most poleward latitude, so pieces further apart than
        /// (π/2)·join/(R·c) radians of longitude are never within `streetPieceJoin`.
        func mayJoin(_ o: PieceBox) -> Bool {
            let dLat = Self.joinLat
            if minLat - dLat > o.maxLat || o.minLat - dLat > maxLat { return false }
            let poleward = Swift.max(abs(minLat), abs(maxLat), abs(o.minLat), abs(o.maxLat))
            let c = cos(Swift.min(90, poleward) * Double.pi / 180)
            guard c >= Self.minTestedCos,
                  Swift.max(abs(minLon), abs(maxLon), abs(o.minLon), abs(o.maxLon)) <= Self.maxTestedLon else { return true }
            let dLon = (Double.pi / 2) * streetPieceJoin / (Geo.earthRadius * c) * 180 / Double.pi
            return !(minLon - dLon > o.maxLon || o.minLon - dLon > maxLon)
        }
    }

    /// Whether any node of `a` lies within `streetPieceJoin` of any node of `b`.
    /// Called only for pairs whose boxes may join (`PieceBox.mayJoin`, which holds the coarse
    /// latitude test this did itself), so it measures node against node straight away.
    static func close(_ map: SkateMap, _ a: [Int], _ b: [Int]) -> Bool {
        for x in a {
            for y in b where Geo.distance(map.coordinate(ofNode: x), map.coordinate(ofNode: y)) <= streetPieceJoin { return true }
        }
        return false
    }
}

extension SkateMap {
    /// The position at an offset (metres) along an edge's drawing direction.
    public func snapPoint(edge e: Int, offset: Double) -> Coordinate? {
        let g = geometry(ofEdge: e)
        var cum = 0.0
        let scaleTotal = Double(edgeLength[e])
        var raw: [Double] = []
        for i in 0..<(g.count - 1) {
            raw.append(Geo.distance(lat1: g[i].lat, lon1: g[i].lon, lat2: g[i + 1].lat, lon2: g[i + 1].lon))
        }
        let sum = raw.reduce(0, +)
        let target = sum > 0 ? min(max(offset, 0), scaleTotal) * sum / max(scaleTotal, 1e-9) : 0
        for (k, d) in raw.enumerated() {
            if cum + d >= target || k == raw.count - 1 {
                let t = d > 0 ? min(1, max(0, (target - cum) / d)) : 0
                return Coordinate(lat: g[k].lat + t * (g[k + 1].lat - g[k].lat), lon: g[k].lon + t * (g[k + 1].lon - g[k].lon))
            }
            cum += d
        }
        return nil
    }
}
