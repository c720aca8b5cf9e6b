extension Router {
    /// A lower bound (effort seconds) on the cost of every line from `a` to `b` under this
    /// router's costing, with or without the crusty rule and without penalties: every line leaves
    /// `a`'s edge at one of its end nodes (or stays on it, when both ends share the edge: then
    /// 0), and from that node the A* heuristic's two admissible bounds hold — straight-line
    /// distance × the cheapest cost per metre, and the ALT landmark bound. Cheap (no search), so
    /// `trickSpotCrawl` can skip spots that cannot beat the best spot line found so far.
    func costLowerBound(from a: EdgeSnap, to b: EdgeSnap) -> Double {
        if a.edge == b.edge { return 0 }
        let proj = LocalProjection(origin: b.point)
        let landmarks = costing.landmarkTable.map {
            LandmarkBound(table: $0, targetNodes: (Int(map.edgeFrom[b.edge]), Int(map.edgeTo[b.edge])))
        }
        var least = Double.infinity
        for u in [Int(map.edgeFrom[a.edge]), Int(map.edgeTo[a.edge])] {
            let (x, y) = proj.project(lat: map.nodeLat[u], lon: map.nodeLon[u])
            var h = (x * x + y * y).squareRoot() * costing.minCostPerMetre
            if let lm = landmarks { h = Swift.max(h, lm.bound(u)) }
            least = Swift.min(least, h)
        }
        return least
    }
}
