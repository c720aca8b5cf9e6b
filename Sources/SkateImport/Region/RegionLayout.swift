import SkateCore

/// Where the K × K copies of a source extract lie in a generated region (issue 31): a grid of
/// `rows` × `columns` tiles, each the size of the source's box, abutting, filled column by column
/// from the south-west corner of the SRTM tiles kept in `../shared/data` so as many tiles as
/// possible get real heights. A tile is named by its index (ids are shifted by index × `idStride`)
/// or by its (row, column) in the grid; row 0 is the southernmost.
public struct RegionLayout: Sendable, Equatable {
    /// South-west corner and north edge of the SRTM tiles in shared data (N47–N50, E007–E010, 15 of
    /// the 16 tiles; N50E010 is missing), in degrees: the tiles are stacked inside it first.
    public static let demSouth = 47.0, demWest = 7.0, demNorth = 51.0
    /// The largest K: 12 × 12 tiles of Heidelberg are ~32 M nodes, more than any machine here imports.
    public static let maxK = 12

    /// Copies per side: the region holds K × K copies of the source.
    public let k: Int
    public let rows: Int
    public let columns: Int
    /// One tile's height and width in 1e-7 degree (the source's box).
    public let tileHeight: Int64, tileWidth: Int64
    /// Shift from the source to tile (0, 0), in 1e-7 degree.
    let baseLat: Int64, baseLon: Int64
    /// The step between two tiles' id ranges: a power of ten above twice the largest |id|, so shifted ids never collide.
    public let idStride: Int64

    public var tileCount: Int { k * k }

    /// - Parameters:
    ///   - k: copies per side (1…`maxK`).
    ///   - columns: grid columns; default as few as keep every tile's rows inside the DEM's 4° of latitude.
    init(k: Int, source: RegionSource, columns: Int? = nil) {
        self.k = k
        let u = PBFWriter.unitsPerDegree
        tileHeight = source.tileHeight
        tileWidth = source.tileWidth
        let rowsThatFit = max(1, Int(((Self.demNorth - Self.demSouth) * u) / Double(tileHeight)))
        let n = k * k
        let c = max(1, min(n, columns ?? (n + rowsThatFit - 1) / rowsThatFit))
        self.columns = c
        rows = (n + c - 1) / c
        baseLat = Int64((Self.demSouth * u).rounded()) - source.minLat
        baseLon = Int64((Self.demWest * u).rounded()) - source.minLon
        var stride: Int64 = 10
        let need = source.maxAbsId.multipliedReportingOverflow(by: 2).partialValue + 2
        while stride < need { stride *= 10 }
        idStride = stride
    }

    /// The (row, column) of tile `index`; tiles fill columns first.
    public func position(ofTile index: Int) -> (row: Int, column: Int) { (index % rows, index / rows) }

    /// The tile at (row, column), or nil where the grid has none.
    public func tile(row: Int, column: Int) -> Int? {
        guard row >= 0, row < rows, column >= 0, column < columns else { return nil }
        let i = column * rows + row
        return i < tileCount ? i : nil
    }

    /// The shift of tile `index` from the source, in 1e-7 degree.
    public func shift(ofTile index: Int) -> (lat: Int64, lon: Int64) {
        let (r, c) = position(ofTile: index)
        return (baseLat + Int64(r) * tileHeight, baseLon + Int64(c) * tileWidth)
    }

    /// Tile `index`'s box in degrees.
    public func box(ofTile index: Int, source: RegionSource) -> BoundingBox {
        let s = shift(ofTile: index), u = PBFWriter.unitsPerDegree
        return BoundingBox(minLon: Double(source.minLon + s.lon) / u, minLat: Double(source.minLat + s.lat) / u,
                           maxLon: Double(source.maxLon + s.lon) / u, maxLat: Double(source.maxLat + s.lat) / u)
    }

    /// Where a source position (degrees) lies in tile `index`.
    public func coordinate(_ c: Coordinate, inTile index: Int) -> Coordinate {
        let s = shift(ofTile: index), u = PBFWriter.unitsPerDegree
        return Coordinate(lat: c.lat + Double(s.lat) / u, lon: c.lon + Double(s.lon) / u)
    }
}
