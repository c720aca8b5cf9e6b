import SkateCore

/// A digital elevation model made of SRTM tiles.
public struct DEM: Sendable {
    /// The loaded tiles, in the order given.
    public let tiles: [SRTMTile]
    /// Tile index by south-west corner, for constant-time look-up.
    private let index: [Corner: Int]

    private struct Corner: Hashable, Sendable { var south: Int; var west: Int }

    /// Loads `.hgt` / `.hgt.zip` tiles. A later tile with the same corner as an earlier one is ignored.
    /// - Throws: `ImportError` naming the first file that cannot be read.
    public init(paths: [String]) throws {
        self.init(tiles: try paths.map { try SRTMTile(path: $0) })
    }

    public init(tiles: [SRTMTile]) {
        self.tiles = tiles
        var index: [Corner: Int] = [:]
        for (i, t) in tiles.enumerated() where index[Corner(south: t.south, west: t.west)] == nil {
            index[Corner(south: t.south, west: t.west)] = i
        }
        self.index = index
    }

    /// Terrain height in metres at a point (bilinear between samples); nil outside the tiles.
    public func elevation(lat: Double, lon: Double) -> Double? {
        guard lat.isFinite, lon.isFinite else { return nil }
        if let i = index[Corner(south: Int(lat.rounded(.down)), west: Int(lon.rounded(.down)))],
           let h = tiles[i].elevation(lat: lat, lon: lon) {
            return h
        }
        // On a tile's north or east edge the point belongs to the tile below/left as well.
        for t in tiles where t.contains(lat: lat, lon: lon) {
            if let h = t.elevation(lat: lat, lon: lon) { return h }
        }
        return nil
    }

    /// True when every point of `box` lies on a loaded tile. An empty box is not covered.
    public func covers(_ box: BoundingBox) -> Bool {
        guard !box.isEmpty, box.minLat.isFinite, box.maxLat.isFinite, box.minLon.isFinite, box.maxLon.isFinite else { return false }
        let s = Int(box.minLat.rounded(.down)), w = Int(box.minLon.rounded(.down))
        // A box ending exactly on a whole degree needs no tile beyond that line.
        let n = max(s + 1, Int(box.maxLat.rounded(.up))), e = max(w + 1, Int(box.maxLon.rounded(.up)))
        for south in s..<n {
            for west in w..<e where index[Corner(south: south, west: west)] == nil { return false }
        }
        return true
    }
}
