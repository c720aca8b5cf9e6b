import FoundationEssentials
import Glibc

extension SkateMap {
    /// Smallest grid cell edge in metres: ~100 m keeps a 40 m snap query to at most 3×3 cells of
    /// a few dozen edges.
    static let minGridCellMetres: Double = 100

    /// The grid's cell edge in metres for a map's extent: 100 m, or larger where the extent holds
    /// more than one 100 m cell per edge. A sparse extract (the Heidelberg test file spans
    /// 100 km × 20 km for 58 000 edges) otherwise spends 3.6 cells per edge — 0.8 MB of mostly
    /// empty cells — where one per edge keeps a snap to a few cells of a few dozen edges.
    static func gridCellMetres(bbox box: BoundingBox, edgeCount: Int) -> Double {
        guard !box.isEmpty, edgeCount > 0 else { return minGridCellMetres }
        let proj = LocalProjection(origin: box.center)
        let area = (box.maxLon - box.minLon) * proj.mPerDegLon * (box.maxLat - box.minLat) * proj.mPerDegLat
        return max(minGridCellMetres, (area / Double(edgeCount)).squareRoot())
    }

    /// This map's grid cell edge in metres, read back from the grid itself (a map written before
    /// the cells adapted has 100 m cells whatever its extent), to a micrometre.
    var gridCellMetres: Double {
        (grid.cellLat * LocalProjection(origin: grid.bbox.center).mPerDegLat * 1e6).rounded() / 1e6
    }

    /// Rebuilds the adjacency lists and the spatial grid from the node, edge and geometry arrays.
    /// Deterministic: each node's neighbours are listed in OSM order (`edgePrecedesInOSMOrder`).
    public mutating func rebuildIndexes() {
        // Adjacency CSR.
        var degree = [UInt32](repeating: 0, count: nodeCount + 1)
        for e in 0..<edgeCount {
            degree[Int(edgeFrom[e])] += 1
            degree[Int(edgeTo[e])] += 1
        }
        var start = [UInt32](repeating: 0, count: nodeCount + 1)
        var acc: UInt32 = 0
        for n in 0..<nodeCount { start[n] = acc; acc += degree[n] }
        start[nodeCount] = acc
        var fill = start
        var adj = [UInt32](repeating: 0, count: Int(acc))
        for e in 0..<edgeCount {
            let a = Int(edgeFrom[e]), b = Int(edgeTo[e])
            adj[Int(fill[a])] = UInt32(e) << 1; fill[a] += 1
            adj[Int(fill[b])] = UInt32(e) << 1 | 1; fill[b] += 1
        }
        // The search relaxes a node's edges in this order and keeps the first of two equal-cost
        // ways (two ways drawn over one street), so the order must not be the edge numbering.
        for n in 0..<nodeCount where degree[n] > 1 {
            adj[Int(start[n])..<Int(start[n + 1])].sort { a, b in
                a >> 1 != b >> 1 ? edgePrecedesInOSMOrder(Int(a >> 1), Int(b >> 1)) : a < b
            }
        }
        adjStart = FlatArray(start)
        adjacency = FlatArray(adj)

        // Spatial grid.
        var box = BoundingBox.empty
        // Every shape point: the nodes (edge ends) and the via points between them.
        for n in 0..<nodeCount where adjStart[n + 1] > adjStart[n] { box.extend(lat: nodeLat[n], lon: nodeLon[n]) }
        for e in 0..<edgeCount where shapePointCount(ofEdge: e) > 2 {
            for k in 1..<(shapePointCount(ofEdge: e) - 1) { let p = shapePoint(ofEdge: e, k); box.extend(lat: p.lat, lon: p.lon) }
        }
        for i in 0..<placeLat.count { box.extend(lat: placeLat[i], lon: placeLon[i]) }
        if box.isEmpty { grid = .empty; return }
        let proj = LocalProjection(origin: box.center)
        let cellMetres = Self.gridCellMetres(bbox: box, edgeCount: edgeCount)
        let cellLat = cellMetres / proj.mPerDegLat
        let cellLon = cellMetres / proj.mPerDegLon
        let nx = max(1, Int(((box.maxLon - box.minLon) / cellLon).rounded(.down)) + 1)
        let ny = max(1, Int(((box.maxLat - box.minLat) / cellLat).rounded(.down)) + 1)
        var g = SpatialGrid(bbox: box, cellLat: cellLat, cellLon: cellLon, nx: nx, ny: ny, cellStart: [], cellEdges: [])
        // Each edge goes into every cell its segments' bounding boxes touch.
        var pairs: [(cell: Int, edge: UInt32)] = []
        pairs.reserveCapacity(edgeCount * 2)
        var seen = Set<Int>()
        for e in 0..<edgeCount {
            seen.removeAll(keepingCapacity: true)
            let count = shapePointCount(ofEdge: e)
            for i in 0..<(count - 1) {
                let a = shapePoint(ofEdge: e, i), b = shapePoint(ofEdge: e, i + 1)
                let (x0, y0) = g.cell(lat: a.lat, lon: a.lon)
                let (x1, y1) = g.cell(lat: b.lat, lon: b.lon)
                for y in min(y0, y1)...max(y0, y1) {
                    for x in min(x0, x1)...max(x0, x1) where seen.insert(y * nx + x).inserted {
                        pairs.append((y * nx + x, UInt32(e)))
                    }
                }
            }
        }
        pairs.sort { $0.cell != $1.cell ? $0.cell < $1.cell : $0.edge < $1.edge }
        var cs = [UInt32](repeating: 0, count: nx * ny + 1)
        for p in pairs { cs[p.cell + 1] += 1 }
        for c in 0..<(nx * ny) { cs[c + 1] += cs[c] }
        g.cellStart = FlatArray(cs)
        g.cellEdges = FlatArray(pairs.map(\.edge))
        grid = g
    }
}

/// The nearest point on an edge to a query position.
public struct EdgeSnap: Sendable, Equatable {
    /// Edge index.
    public var edge: Int
    /// Distance from the query to the edge in metres.
    public var distance: Double
    /// Distance along the edge from `edgeFrom` to the snapped point, in metres.
    public var offset: Double
    /// The snapped position.
    public var point: Coordinate
}

extension SkateMap {
    /// The nearest edge to `c` within `maxDistance` metres that passes `filter`, or nil.
    /// Searches grid rings outward, so cost grows with the radius, not the map.
    /// - Parameters:
    ///   - c: the query position.
    ///   - maxDistance: search radius in metres.
    ///   - filter: which edges qualify (e.g. rideable ones).
    public func nearestEdge(to c: Coordinate, maxDistance: Double = 500, where filter: (Int) -> Bool = { _ in true }) -> EdgeSnap? {
        guard grid.nx > 0 else { return nil }
        let proj = LocalProjection(origin: c)
        let (cx, cy) = grid.cell(lat: c.lat, lon: c.lon)
        let cellMetres = gridCellMetres
        let maxRing = Int((maxDistance / cellMetres).rounded(.up)) + 1
        var best: EdgeSnap?
        // No visited set: an edge seen again in a neighbouring cell snaps to the same point and
        // cannot replace itself (`edgePrecedesInOSMOrder` is strict), and a set would cost more than
        // it saves. Ties (a point on a junction is on all its edges) go by OSM order.
        for ring in 0...maxRing {
            // Cells at Chebyshev distance `ring` from the centre cell.
            if let b = best, Double(ring - 1) * cellMetres > b.distance { break }
            for y in (cy - ring)...(cy + ring) {
                for x in (cx - ring)...(cx + ring) where max(abs(x - cx), abs(y - cy)) == ring {
                    for e32 in grid.edges(inCellX: x, y: y) {
                        let e = Int(e32)
                        guard filter(e) else { continue }
                        if let s = snap(c, toEdge: e, projection: proj), s.distance <= maxDistance,
                           best == nil || s.distance < best!.distance || (s.distance == best!.distance && edgePrecedesInOSMOrder(e, best!.edge)) {
                            best = s
                        }
                    }
                }
            }
        }
        return best
    }

    /// Whether edge `a` comes before edge `b` in OSM order: by way id, then by the ids of the
    /// end nodes, then by index. What breaks ties between edges (which one a point on a junction
    /// snaps to, which of two equal-cost ways a search keeps, which pairs `bench` draws), so that
    /// no answer depends on how the importer numbers edges (`orderSpatially`). Way ids first
    /// repeat the first-seen numbering's choices, whose edges came in way id order.
    @inlinable public func edgePrecedesInOSMOrder(_ a: Int, _ b: Int) -> Bool {
        let ka = (edgeWayId[a], nodeOsmId[Int(edgeFrom[a])], nodeOsmId[Int(edgeTo[a])])
        let kb = (edgeWayId[b], nodeOsmId[Int(edgeFrom[b])], nodeOsmId[Int(edgeTo[b])])
        return ka != kb ? ka < kb : a < b
    }

    /// Projects `c` onto edge `e` and returns the snap (distance, offset along the edge).
    public func snap(_ c: Coordinate, toEdge e: Int, projection proj: LocalProjection? = nil) -> EdgeSnap? {
        let p = proj ?? LocalProjection(origin: c)
        let count = shapePointCount(ofEdge: e)
        let (px, py) = p.project(c)
        var bestD = Double.infinity, bestOff = 0.0, bestPt = c
        var along = 0.0
        let first = shapePoint(ofEdge: e, 0)
        var (ax, ay) = p.project(lat: first.lat, lon: first.lon)
        for i in 0..<(count - 1) {
            let next = shapePoint(ofEdge: e, i + 1)
            let (bx, by) = p.project(lat: next.lat, lon: next.lon)
            let sp = LocalProjection.projectPoint(px: px, py: py, ax: ax, ay: ay, bx: bx, by: by)
            let segLen = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
            if sp.distance < bestD {
                bestD = sp.distance
                bestOff = along + sp.t * segLen
                bestPt = p.unproject(x: ax + sp.t * (bx - ax), y: ay + sp.t * (by - ay))
            }
            along += segLen
            ax = bx; ay = by
        }
        // Scale the offset from projected metres to the stored geodesic length.
        let stored = Double(edgeLength[e])
        if along > 0 { bestOff *= stored / along }
        return EdgeSnap(edge: e, distance: bestD, offset: bestOff, point: bestPt)
    }
}
