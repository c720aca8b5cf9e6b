import FoundationEssentials
import Glibc
import SkateCore

/// The k nearest edges to a position within a radius, found through the map's spatial grid
/// (only the cells the radius's square touches), each with the position projected onto it.
/// Reuses its buffers between queries, so a whole trace allocates almost nothing.
struct TraceCandidateFinder {
    let map: SkateMap
    /// Search radius in metres.
    let radius: Double
    /// Most candidates returned per query.
    let maxCount: Int
    /// `edgeStamp[e] == generation` when edge `e` was already looked at in this query.
    private var edgeStamp: [UInt32]
    private var generation: UInt32 = 0
    private var found: [EdgeSnap] = []

    init(map: SkateMap, radius: Double, maxCount: Int) {
        self.map = map
        self.radius = max(0, radius)
        self.maxCount = max(1, maxCount)
        edgeStamp = [UInt32](repeating: 0, count: map.edgeCount)
    }

    /// Appends the candidates near `c` to `out`, nearest first (ties by edge index), and returns
    /// how many were appended (0 when no edge lies within the radius).
    mutating func candidates(near c: Coordinate, into out: inout [EdgeSnap]) -> Int {
        let grid = map.grid
        guard grid.nx > 0, map.edgeCount > 0, c.lat.isFinite, c.lon.isFinite else { return 0 }
        let proj = LocalProjection(origin: c)
        let dLat = radius / proj.mPerDegLat
        let dLon = radius / max(proj.mPerDegLon, 1e-9)
        let box = grid.bbox
        guard c.lat + dLat >= box.minLat, c.lat - dLat <= box.maxLat,
              c.lon + dLon >= box.minLon, c.lon - dLon <= box.maxLon else { return 0 }
        generation &+= 1
        if generation == 0 {  // wrapped: clear the stamps once every 4 billion queries
            for i in edgeStamp.indices { edgeStamp[i] = 0 }
            generation = 1
        }
        found.removeAll(keepingCapacity: true)
        let (x0, y0) = grid.cell(lat: c.lat - dLat, lon: c.lon - dLon)
        let (x1, y1) = grid.cell(lat: c.lat + dLat, lon: c.lon + dLon)
        for y in y0...y1 {
            for x in x0...x1 {
                for e32 in grid.edges(inCellX: x, y: y) {
                    let e = Int(e32)
                    guard edgeStamp[e] != generation else { continue }
                    edgeStamp[e] = generation
                    if let s = map.snap(c, toEdge: e, projection: proj), s.distance <= radius { found.append(s) }
                }
            }
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.edge < $1.edge }
        let count = min(maxCount, found.count)
        out.append(contentsOf: found[0..<count])
        return count
    }
}
