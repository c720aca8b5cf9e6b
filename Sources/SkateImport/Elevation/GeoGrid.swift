import FoundationEssentials
import Glibc
import SkateCore

/// One DEM input the importer can stack with others: an elevation source that knows its extent
/// and sample spacing, so a composite can let the finest one answer where several overlap.
public protocol DEMLayer: ElevationSource, Sendable {
    /// The area with data in degrees: the hull of the sample points (interpolation needs a sample
    /// on each side, so a point between the outermost samples and the pixel edge is outside).
    var bounds: BoundingBox { get }
    /// Typical distance between neighbouring samples in metres: the geometric mean of the spacing
    /// along a row and along a column, at the layer's centre.
    var resolutionMetres: Double { get }
    /// The posts around `box` for `GroundModel`; nil for a layer without posts (the default).
    func postWindow(covering box: BoundingBox) -> PostWindow?
}

/// Where a grid's samples sit: an affine map from sample indices (column `x`, row `y`) to WGS84
/// longitude/latitude in degrees.
///
/// Convention: index (0, 0) is the *sample point* of the first stored value — the centre of the
/// first pixel for pixel-is-area data (ESRI `xllcorner`, GeoTIFF `RasterPixelIsArea`, what GDAL
/// reports as the corner is half a pixel further out), the grid point itself for pixel-is-point
/// data (ESRI `xllcenter`, GeoTIFF `RasterPixelIsPoint`, SRTM `.hgt`). Heights are interpolated
/// bilinearly between sample points, exactly as `SRTMTile` does.
public struct GridGeoreference: Sendable, Equatable {
    /// Longitude and latitude of sample (0, 0), degrees.
    public var lon0: Double, lat0: Double
    /// Degrees of longitude and latitude per column step (x + 1).
    public var lonPerColumn: Double, latPerColumn: Double
    /// Degrees of longitude and latitude per row step (y + 1); negative latitude for north-up grids.
    public var lonPerRow: Double, latPerRow: Double

    public init(lon0: Double, lat0: Double, lonPerColumn: Double, latPerColumn: Double = 0, lonPerRow: Double = 0, latPerRow: Double) {
        self.lon0 = lon0; self.lat0 = lat0
        self.lonPerColumn = lonPerColumn; self.latPerColumn = latPerColumn
        self.lonPerRow = lonPerRow; self.latPerRow = latPerRow
    }

    /// Determinant of the linear part; 0 when the grid collapses onto a line.
    var determinant: Double { lonPerColumn * latPerRow - lonPerRow * latPerColumn }

    /// True when every coefficient is finite and the grid spans an area.
    public var isUsable: Bool {
        [lon0, lat0, lonPerColumn, latPerColumn, lonPerRow, latPerRow].allSatisfy(\.isFinite) && determinant != 0
    }

    /// The position of sample (x, y), degrees.
    public func location(x: Double, y: Double) -> (lat: Double, lon: Double) {
        (lat0 + latPerColumn * x + latPerRow * y, lon0 + lonPerColumn * x + lonPerRow * y)
    }

    /// Fractional sample indices of a point (inverse of `location`).
    public func indices(lat: Double, lon: Double) -> (x: Double, y: Double) {
        let dLon = lon - lon0, dLat = lat - lat0, det = determinant
        return ((latPerRow * dLon - lonPerRow * dLat) / det, (lonPerColumn * dLat - latPerColumn * dLon) / det)
    }

    /// The same georeference for the sub-grid starting at column `x`, row `y`.
    func shifted(x: Int, y: Int) -> GridGeoreference {
        let p = location(x: Double(x), y: Double(y))
        return GridGeoreference(lon0: p.lon, lat0: p.lat, lonPerColumn: lonPerColumn, latPerColumn: latPerColumn,
                                lonPerRow: lonPerRow, latPerRow: latPerRow)
    }

    /// Box of the sample points of a `width` × `height` grid, degrees.
    func bounds(width: Int, height: Int) -> BoundingBox {
        var box = BoundingBox.empty
        for (x, y) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)] {
            let p = location(x: Double(x), y: Double(y))
            box.extend(lat: p.lat, lon: p.lon)
        }
        return box
    }

    /// The columns and rows of a `width` × `height` grid needed to interpolate anywhere in `box`,
    /// widened by `margin` samples on each side; nil when the box misses the grid.
    func window(covering box: BoundingBox, width: Int, height: Int, margin: Int) -> (columns: Range<Int>, rows: Range<Int>)? {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for (lat, lon) in [(box.minLat, box.minLon), (box.minLat, box.maxLon), (box.maxLat, box.minLon), (box.maxLat, box.maxLon)] {
            let p = indices(lat: lat, lon: lon)
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
        let x0 = max(0, Int(max(-1e9, minX.rounded(.down))) - margin), x1 = min(width - 1, Int(min(1e9, maxX.rounded(.up))) + margin)
        let y0 = max(0, Int(max(-1e9, minY.rounded(.down))) - margin), y1 = min(height - 1, Int(min(1e9, maxY.rounded(.up))) + margin)
        guard x0 < x1, y0 < y1 else { return nil }
        return (x0..<(x1 + 1), y0..<(y1 + 1))
    }
}

/// A rectangular grid of heights read from an ESRI ASCII grid or a GeoTIFF: row-major Float
/// metres, NaN where the file had no data and no valid neighbour could fill it.
///
/// Voids (the file's NODATA value, NaN, or anything outside `plausibleHeights`) are filled from
/// their valid neighbours when the grid is built (`VoidFill`, as for SRTM tiles).
public struct GeoGrid: DEMLayer {
    /// Heights outside this range are treated as no data, whatever the file says: the lowest dry
    /// land is the Dead Sea shore (−430 m), the highest Everest (8,849 m); a float DEM without a
    /// NODATA tag often marks voids with −3.4e38 or −9999.
    public static let plausibleHeights: ClosedRange<Float> = -500...9_000
    /// Most cells a grid (the part of a file kept around the map) may hold: 2^31 floats are 8 GiB,
    /// far more than a city at 1 m; a bigger claim is a corrupt header or a file to crop first.
    static let maxCells = 1 << 31

    /// The file the grid came from.
    public let path: String
    /// Columns (west → east for north-up grids) and rows (north → south for north-up grids).
    public let width: Int, height: Int
    /// Sample positions.
    public let georeference: GridGeoreference
    /// Heights in metres, row-major; NaN where unknown.
    public let heights: [Float]
    /// Cells without data in the file (within the loaded window) and how many of them were filled.
    public let voidCount: Int, filledCount: Int
    public let bounds: BoundingBox
    public let resolutionMetres: Double

    /// A grid from raw values; `nodata` (if any), NaN and implausible heights become voids, then
    /// voids are filled from their neighbours.
    public init(path: String, width: Int, height: Int, georeference: GridGeoreference, values: [Float], nodata: Float?) {
        precondition(values.count == width * height && width >= 2 && height >= 2)
        var grid = values
        for i in grid.indices {
            let v = grid[i]
            if v == nodata || !Self.plausibleHeights.contains(v) { grid[i] = .nan }  // NaN fails `contains` too
        }
        let (voids, filled) = VoidFill.fill(&grid, width: width, height: height)
        self.path = path
        self.width = width
        self.height = height
        self.georeference = georeference
        heights = grid
        voidCount = voids
        filledCount = filled
        bounds = georeference.bounds(width: width, height: height)
        let centre = georeference.location(x: Double(width - 1) / 2, y: Double(height - 1) / 2)
        let m = LocalProjection(origin: Coordinate(lat: centre.lat, lon: centre.lon))
        let alongRow = hypot(georeference.lonPerColumn * m.mPerDegLon, georeference.latPerColumn * m.mPerDegLat)
        let alongColumn = hypot(georeference.lonPerRow * m.mPerDegLon, georeference.latPerRow * m.mPerDegLat)
        resolutionMetres = (alongRow * alongColumn).squareRoot()
    }

    /// The height stored at column `x`, row `y`, metres; nil outside the grid or where unknown.
    public func sample(x: Int, y: Int) -> Float? {
        guard x >= 0, x < width, y >= 0, y < height else { return nil }
        let v = heights[y * width + x]
        return v.isNaN ? nil : v
    }

    /// Height in metres at a point, bilinear between the four surrounding samples; nil outside the
    /// sample hull or next to an unfilled void.
    public func elevation(lat: Double, lon: Double) -> Double? {
        guard lat.isFinite, lon.isFinite else { return nil }
        let p = georeference.indices(lat: lat, lon: lon)
        // A hair of slack so a point computed exactly on the outer samples is inside.
        let slack = 1e-9
        guard p.x >= -slack, p.y >= -slack, p.x <= Double(width - 1) + slack, p.y <= Double(height - 1) + slack else { return nil }
        let x = min(max(p.x, 0), Double(width - 1)), y = min(max(p.y, 0), Double(height - 1))
        let c = min(Int(x), width - 2), r = min(Int(y), height - 2)
        let fx = x - Double(c), fy = y - Double(r)
        let i = r * width + c
        let a = heights[i], b = heights[i + 1], d = heights[i + width], e = heights[i + width + 1]
        guard !a.isNaN, !b.isNaN, !d.isNaN, !e.isNaN else { return nil }
        let top = Double(a) + (Double(b) - Double(a)) * fx
        let bottom = Double(d) + (Double(e) - Double(d)) * fx
        return top + (bottom - top) * fy
    }
}

extension SRTMTile: DEMLayer {
    /// Spacing of a tile's samples: 3" (1201 per side) or 1" (3601), in metres at the tile's centre.
    public var resolutionMetres: Double {
        let m = LocalProjection(origin: bounds.center)
        let degrees = 1 / Double(size - 1)
        return (degrees * m.mPerDegLat * degrees * m.mPerDegLon).squareRoot()
    }
}
