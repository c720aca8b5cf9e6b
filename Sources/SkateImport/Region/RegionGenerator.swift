import SkateCore

/// One way the generator added between two neighbouring tiles.
public struct RegionJoin: Sendable, Equatable {
    public var wayId: Int64
    public var fromTile: Int, toTile: Int
    /// Its two ends, in degrees.
    public var from: Coordinate, to: Coordinate
    /// Its two ends as indices of the source's nodes (in `fromTile` and `toTile`).
    public var fromNode: Int, toNode: Int
    /// Shape nodes the generator put between its ends (`RegionGenerator.joinStepMetres`): their
    /// first id (the rest follow one by one) and count.
    public var firstShapeNodeId: Int64 = 0, shapeNodes = 0
    /// Straight-line length in metres.
    public var lengthM: Double { Geo.distance(from, to) }

    /// Its shape nodes' positions in 1e-7 degree, evenly spaced between its ends.
    func shapePoints() -> [(lat: Int64, lon: Int64)] {
        let u = PBFWriter.unitsPerDegree
        let a = (lat: (from.lat * u).rounded(), lon: (from.lon * u).rounded())
        let b = (lat: (to.lat * u).rounded(), lon: (to.lon * u).rounded())
        return (0..<shapeNodes).map { i in
            let f = Double(i + 1) / Double(shapeNodes + 1)
            return (Int64((a.lat + f * (b.lat - a.lat)).rounded()), Int64((a.lon + f * (b.lon - a.lon)).rounded()))
        }
    }
}

/// What `RegionGenerator.write` produced.
public struct RegionSummary: Sendable {
    public var layout: RegionLayout
    public var nodes = 0, ways = 0, relations = 0
    /// Distinct nodes on `highway=*` ways: the source's count × K², plus the joins' shape nodes.
    public var roadNodes = 0
    public var joins: [RegionJoin] = []
    /// The file's size in bytes.
    public var bytes = 0
    /// The region's extent in degrees.
    public var bbox = BoundingBox.empty
}

/// Builds a region from a real extract (issue 31): K × K copies of `RegionSource`, each with its
/// ids shifted by tile index × `RegionLayout.idStride` and its coordinates by the tile's place in
/// the `RegionLayout`, joined to each neighbour by `joinsPerBorder` short residential streets so the
/// street graph is one piece; written as a PBF that `skateroute import` reads like any extract.
public enum RegionGenerator {
    /// Joining ways per shared border: a few, so one closed or one-way street does not split the
    /// region, yet the joins stay a negligible share of the graph.
    public static let joinsPerBorder = 3
    /// The name joining ways carry (with the two tile indices), so a route over one can be told.
    public static let joinName = "Region join"
    /// Longest step between two nodes of a joining way, metres: well under the importer's limit
    /// (`MapCompiler.maxSegmentLength`, which cuts longer steps as broken data), so a join is
    /// never cut however far apart the extract's streets lie on two sides of its box, and a long
    /// join still adds only a few nodes.
    public static let joinStepMetres = 1_000.0

    /// Writes K × K tiles of `source` to `path`.
    /// - Parameters:
    ///   - k: copies per side, 1…`RegionLayout.maxK`.
    ///   - columns: grid columns (default: as few as keep the rows inside the DEM's latitudes).
    ///   - progress: called with the fraction of tiles written.
    /// - Throws: `ImportError` for a bad K or a failed write.
    public static func write(_ source: RegionSource, k: Int, columns: Int? = nil, to path: String,
                             progress: ((Double) -> Void)? = nil) throws -> RegionSummary {
        guard k >= 1, k <= RegionLayout.maxK else {
            throw ImportError(path: path, problem: "region scale K = \(k) is outside 1…\(RegionLayout.maxK)")
        }
        let layout = RegionLayout(k: k, source: source, columns: columns)
        var summary = RegionSummary(layout: layout)
        for t in 0..<layout.tileCount {
            let b = layout.box(ofTile: t, source: source)
            summary.bbox.extend(lat: b.minLat, lon: b.minLon)
            summary.bbox.extend(lat: b.maxLat, lon: b.maxLon)
        }
        let writer = try PBFWriter(path: path, bbox: summary.bbox, program: "skateroute region K=\(k)")
        let n = layout.tileCount
        let steps = Double(3 * n)
        summary.joins = joins(source: source, layout: layout)
        // Nodes, then ways, then relations, each tile after the other: ids ascend within each kind.
        for t in 0..<n {
            let shift = layout.shift(ofTile: t), idShift = Int64(t) * layout.idStride
            for i in 0..<source.nodeCount {
                let ti = source.nodeTagIndex[i]
                try writer.node(id: source.nodeIds[i] + idShift, lat: source.lats[i] + shift.lat, lon: source.lons[i] + shift.lon,
                                tags: ti < 0 ? [] : source.nodeTagSets[Int(ti)])
            }
            progress?(Double(t + 1) / steps)
        }
        // The joins' shape nodes, after every tile's (their ids follow the last tile's range).
        for j in summary.joins {
            for (i, p) in j.shapePoints().enumerated() {
                try writer.node(id: j.firstShapeNodeId + Int64(i), lat: p.lat, lon: p.lon, tags: [])
            }
        }
        for t in 0..<n {
            let idShift = Int64(t) * layout.idStride
            for w in source.ways {
                try writer.way(id: w.id + idShift, refs: w.refs.map { $0 + idShift }, tags: w.tags)
            }
            progress?(Double(n + t + 1) / steps)
        }
        for j in summary.joins {
            let a = j.fromNode, b = j.toNode
            let shape = (0..<Int64(j.shapeNodes)).map { j.firstShapeNodeId + $0 }
            try writer.way(id: j.wayId,
                           refs: [source.nodeIds[a] + Int64(j.fromTile) * layout.idStride] + shape + [source.nodeIds[b] + Int64(j.toTile) * layout.idStride],
                           tags: [("highway", "residential"), ("surface", "asphalt"), ("name", "\(joinName) \(j.fromTile)-\(j.toTile)")])
        }
        for t in 0..<n {
            let idShift = Int64(t) * layout.idStride
            for r in source.relations {
                let members = r.members.map { OSMMember(kind: $0.kind, ref: $0.ref + idShift, role: $0.role) }
                try writer.relation(id: r.id + idShift, members: members, tags: r.tags)
            }
            progress?(Double(2 * n + t + 1) / steps)
        }
        try writer.finish()
        let shapeNodes = summary.joins.reduce(0) { $0 + $1.shapeNodes }
        summary.nodes = source.nodeCount * n + shapeNodes
        summary.ways = source.wayCount * n + summary.joins.count
        summary.relations = source.relationCount * n
        summary.roadNodes = source.roadNodeCount * n + shapeNodes
        summary.bytes = writer.bytesWritten
        return summary
    }

    /// The joins between every pair of neighbouring tiles: north edge of the southern tile to the
    /// south edge of the northern one, east edge of the western tile to the west edge of the
    /// eastern one (`RegionSource.findBorderNodes`), with shape nodes every `joinStepMetres` at most.
    static func joins(source: RegionSource, layout: RegionLayout) -> [RegionJoin] {
        var out: [RegionJoin] = []
        let u = PBFWriter.unitsPerDegree
        var nextId = Int64(layout.tileCount) * layout.idStride + 1
        var nextNodeId = nextId
        func at(_ i: Int, _ tile: Int) -> Coordinate {
            let s = layout.shift(ofTile: tile)
            return Coordinate(lat: Double(source.lats[i] + s.lat) / u, lon: Double(source.lons[i] + s.lon) / u)
        }
        for t in 0..<layout.tileCount {
            let (r, c) = layout.position(ofTile: t)
            let neighbours: [(Int?, RegionSource.Side, RegionSource.Side)] = [
                (layout.tile(row: r + 1, column: c), .north, .south),
                (layout.tile(row: r, column: c + 1), .east, .west),
            ]
            for (other, mySide, theirSide) in neighbours {
                guard let other else { continue }
                let mine = source.borderNodes[mySide] ?? [], theirs = source.borderNodes[theirSide] ?? []
                for (a, b) in zip(mine, theirs) {
                    var j = RegionJoin(wayId: nextId, fromTile: t, toTile: other, from: at(a, t), to: at(b, other), fromNode: a, toNode: b)
                    j.shapeNodes = max(0, Int((j.lengthM / joinStepMetres).rounded(.up)) - 1)
                    j.firstShapeNodeId = nextNodeId
                    nextNodeId += Int64(j.shapeNodes)
                    out.append(j)
                    nextId += 1
                }
            }
        }
        return out
    }
}
