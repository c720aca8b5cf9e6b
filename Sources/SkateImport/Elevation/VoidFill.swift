/// Fills void cells of an elevation grid from their valid neighbours.
///
/// Two stages: (1) onion peeling — layer by layer inward from each void region's rim (a
/// breadth-first sweep, so every void cell is visited once, however large the region), each cell
/// takes the mean of its already-known 8-neighbours; (2) a few relaxation passes over the filled
/// cells only (each becomes the mean of its neighbours, valid cells held fixed), which smooths the
/// terraces that peeling leaves in wide voids.
enum VoidFill {
    /// Relaxation passes after peeling: enough to smooth small SRTM voids, cheap even for large ones.
    static let relaxationPasses = 20

    /// Fills a square SRTM grid of `side` × `side` samples whose voids hold `void`.
    /// - Returns: how many cells were void and how many of them got a value.
    static func fill(_ grid: inout [Int16], side: Int, void: Int16) -> (voids: Int, filled: Int) {
        guard grid.contains(void) else { return (0, 0) }
        var value = grid.map { $0 == void ? Float.nan : Float($0) }
        let (voids, filled) = fill(&value, width: side, height: side)
        guard filled > 0 else { return (voids, filled) }
        for i in grid.indices where grid[i] == void && !value[i].isNaN {
            grid[i] = Int16(clamping: Int(value[i].rounded()))
        }
        return (voids, filled)
    }

    /// Fills a `width` × `height` row-major grid whose voids are NaN (ASCII grids, GeoTIFFs).
    /// - Returns: how many cells were void and how many of them got a value.
    /// - Parameter passes: relaxation passes after peeling (`relaxationPasses`; 0 keeps each
    ///   cell at the mean of its nearest known cells).
    static func fill(_ value: inout [Float], width: Int, height: Int, passes: Int = relaxationPasses) -> (voids: Int, filled: Int) {
        precondition(value.count == width * height)
        let voidCount = value.reduce(0) { $0 + ($1.isNaN ? 1 : 0) }
        guard voidCount > 0 else { return (0, 0) }
        guard voidCount < value.count else { return (voidCount, 0) }  // nothing to fill from

        // 0 = void not yet reached, 1 = queued in the current layer, 2 = known.
        var state = value.map { $0.isNaN ? UInt8(0) : 2 }
        var filled: [Int] = []
        filled.reserveCapacity(voidCount)

        value.withUnsafeMutableBufferPointer { value in
            state.withUnsafeMutableBufferPointer { state in
                @inline(__always) func forEachNeighbour(_ i: Int, _ body: (Int) -> Void) {
                    let r = i / width, c = i % width
                    for rr in max(0, r - 1)...min(height - 1, r + 1) {
                        for cc in max(0, c - 1)...min(width - 1, c + 1) where rr != r || cc != c {
                            body(rr * width + cc)
                        }
                    }
                }
                func knownMean(_ i: Int) -> Float {
                    var sum: Float = 0
                    var n: Float = 0
                    forEachNeighbour(i) { j in if state[j] == 2 { sum += value[j]; n += 1 } }
                    return n > 0 ? sum / n : 0
                }

                // The first layer: void cells touching a valid one.
                var layer: [Int] = []
                for i in 0..<state.count where state[i] == 0 {
                    var touches = false
                    forEachNeighbour(i) { j in if state[j] == 2 { touches = true } }
                    if touches { layer.append(i); state[i] = 1 }
                }
                var means: [Float] = []
                while !layer.isEmpty {
                    means.removeAll(keepingCapacity: true)
                    for i in layer { means.append(knownMean(i)) }  // from earlier layers only
                    for (k, i) in layer.enumerated() { value[i] = means[k]; state[i] = 2 }
                    filled.append(contentsOf: layer)
                    var next: [Int] = []
                    for i in layer {
                        forEachNeighbour(i) { j in if state[j] == 0 { state[j] = 1; next.append(j) } }
                    }
                    layer = next
                }
                for _ in 0..<passes {
                    for i in filled { value[i] = knownMean(i) }
                }
            }
        }
        return (voidCount, filled.count)
    }
}
