import SkateCore

/// Graph nodes numbered along a Hilbert curve, edges by their start node.
///
/// Ways come in id order, so the compiler's first-seen numbering scatters a neighbourhood's nodes
/// and edges over the whole file: snapping one point read 15 pages of each shape-point array and
/// a 6 km search touched every page of every edge array. The kernel maps up to 64 KB around each
/// page fault, so a plan on the Heidelberg test map kept ~10 MB of the 15 MB file resident. With
/// near places at near indexes, a search reads the few runs of each array its region covers.
extension SkateMap {
    /// Cells per side of the Hilbert grid over the nodes' bounding box (2^16: finer than a
    /// metre on a city, so only duplicate positions tie; ties keep first-seen order).
    static let hilbertOrder = 16

    /// Renumbers nodes and edges in place, with their shape points and elevation profiles (when
    /// the map has them yet). Runs before the indexes and derived tables are built; the terrain
    /// conditioning, whose chains follow the first-seen edge order, reads the map from before.
    /// - Returns: per new edge index, its index before (the identity when nothing moved).
    @discardableResult
    mutating func orderSpatially() -> [Int] {
        let n = nodeCount, e = edgeCount
        guard n > 1, e > 0 else { return Array(0..<e) }
        var minLat = Double.infinity, maxLat = -Double.infinity, minLon = Double.infinity, maxLon = -Double.infinity
        for i in 0..<n {
            minLat = Swift.min(minLat, nodeLat[i]); maxLat = Swift.max(maxLat, nodeLat[i])
            minLon = Swift.min(minLon, nodeLon[i]); maxLon = Swift.max(maxLon, nodeLon[i])
        }
        let side = 1 << Self.hilbertOrder
        func cell(_ x: Double, _ lo: Double, _ hi: Double) -> Int {
            hi > lo ? Swift.min(side - 1, Int((x - lo) / (hi - lo) * Double(side))) : 0
        }
        let key = (0..<n).map { Self.hilbertIndex(x: cell(nodeLon[$0], minLon, maxLon), y: cell(nodeLat[$0], minLat, maxLat), order: Self.hilbertOrder) }
        let nodeOrder = (0..<n).sorted { (key[$0], $0) < (key[$1], $1) }
        var newIndex = [UInt32](repeating: 0, count: n)
        for (new, old) in nodeOrder.enumerated() { newIndex[old] = UInt32(new) }
        let edgeOrder = (0..<e).sorted { (newIndex[Int(edgeFrom[$0])], $0) < (newIndex[Int(edgeFrom[$1])], $1) }

        nodeLat = DegreeArray(nodeOrder.map { nodeLat[$0] })
        nodeLon = DegreeArray(nodeOrder.map { nodeLon[$0] })
        nodeFlags = FlatArray(nodeOrder.map { nodeFlags[$0] })
        nodeOsmId = FlatArray(nodeOrder.map { nodeOsmId[$0] })

        func permuted<U>(_ a: FlatArray<U>) -> FlatArray<U> { FlatArray(edgeOrder.map { a[$0] }) }
        edgeFrom = FlatArray(edgeOrder.map { newIndex[Int(edgeFrom[$0])] })
        edgeTo = FlatArray(edgeOrder.map { newIndex[Int(edgeTo[$0])] })
        edgeLength = permuted(edgeLength); edgeHighway = permuted(edgeHighway)
        edgeSurface = permuted(edgeSurface); edgeSmoothness = permuted(edgeSmoothness)
        edgeFlags = permuted(edgeFlags); edgeIncline = permuted(edgeIncline)
        edgeCrossings = permuted(edgeCrossings); edgeName = permuted(edgeName)
        edgeWayId = permuted(edgeWayId)
        if edgeStepCount.count == e { edgeStepCount = permuted(edgeStepCount) }
        if edgeSurfaceTag.count == e { edgeSurfaceTag = permuted(edgeSurfaceTag) }
        if edgeSmoothnessTag.count == e { edgeSmoothnessTag = permuted(edgeSmoothnessTag) }
        // Per-edge runs (shape points, elevation samples) in the new edge order, with new offsets.
        func permutedRuns(_ starts: FlatArray<UInt32>) -> (order: [Int], starts: FlatArray<UInt32>) {
            var order: [Int] = [], newStarts: [UInt32] = [0]
            newStarts.reserveCapacity(e + 1)
            for old in edgeOrder {
                order += Int(starts[old])..<Int(starts[old + 1])
                newStarts.append(UInt32(order.count))
            }
            return (order, FlatArray(newStarts))
        }
        let shape = permutedRuns(edgeViaStart)
        viaLat = DegreeArray(shape.order.map { viaLat[$0] }); viaLon = DegreeArray(shape.order.map { viaLon[$0] })
        edgeViaStart = shape.starts
        if edgeElevStart.count == e + 1 {
            let profile = permutedRuns(edgeElevStart)
            elevation = FlatArray(profile.order.map { elevation[$0] }); edgeElevStart = profile.starts
        }
        return edgeOrder
    }

    /// Position of cell (x, y) along the Hilbert curve filling a 2^order × 2^order grid.
    static func hilbertIndex(x: Int, y: Int, order: Int) -> UInt64 {
        let side = 1 << order
        var x = x, y = y, d: UInt64 = 0
        var s = side >> 1
        while s > 0 {
            let rx = (x & s) > 0 ? 1 : 0, ry = (y & s) > 0 ? 1 : 0
            d += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
            // Rotate the quadrant so the curve stays continuous.
            if ry == 0 {
                if rx == 1 { x = side - 1 - x; y = side - 1 - y }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }
}
