import FoundationEssentials
import Glibc
import SkateCore

/// The DEM file formats `skateroute import --dem` reads.
public enum DEMFormat: String, Sendable, Equatable {
    /// SRTM `.hgt` / `.hgt.zip` tiles (samples on whole arc-seconds, name gives the corner).
    case srtm = "SRTM tile"
    /// ESRI ASCII grid (`.asc`).
    case asciiGrid = "ESRI ASCII grid"
    /// GeoTIFF (`.tif`, `.tiff`), read through libtiff/libgeotiff.
    case geoTIFF = "GeoTIFF"
}

/// Recognises a DEM file by its first bytes (then by its extension) and loads it as a `DEMLayer`.
public enum DEMReader {
    /// Samples kept around the map's box when a grid is cropped on loading: one for bilinear
    /// interpolation, the rest so void filling near the box sees the same neighbours as in the
    /// whole file (SRTM voids in cities are a few cells wide).
    static let windowMargin = 16

    /// The format of the file at `path`, from its content (TIFF and zip magic numbers, an ASCII grid
    /// header), else from its extension; the check `import` makes before reading the OSM file.
    /// - Throws: `ImportError` naming the file when it is missing or in none of the formats.
    public static func format(ofFile path: String) throws(ImportError) -> DEMFormat {
        let file = try InputFile(path: path)
        let probe = ByteBuffer(capacity: 64)
        let n = try file.read(into: probe.base, count: probe.capacity)
        let head = Array(UnsafeBufferPointer(start: probe.bytes, count: n))
        if n == 0 { throw ImportError(path: path, problem: "is empty, not a DEM") }
        let tiffMagics: [[UInt8]] = [[0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B]]
        if tiffMagics.contains(where: { head.starts(with: $0) }) { return .geoTIFF }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .srtm }
        let text = String(decoding: head.drop { $0 == 32 || ($0 >= 9 && $0 <= 13) }.prefix(16), as: UTF8.self).lowercased()
        if ASCIIGridReader.headerKeys.contains(where: { text.hasPrefix($0 + " ") || text.hasPrefix($0 + "\t") }) { return .asciiGrid }
        let name = path.lowercased()
        if name.hasSuffix(".hgt") || name.hasSuffix(".zip") { return .srtm }
        if name.hasSuffix(".asc") { return .asciiGrid }
        if name.hasSuffix(".tif") || name.hasSuffix(".tiff") { return .geoTIFF }
        let size = file.size ?? 0
        if size == 2 * SRTMTile.size3Arcsecond * SRTMTile.size3Arcsecond || size == 2 * SRTMTile.size1Arcsecond * SRTMTile.size1Arcsecond { return .srtm }
        throw ImportError(path: path, problem: "not a DEM: expected an SRTM tile (.hgt, .hgt.zip), an ESRI ASCII grid (.asc) or a GeoTIFF (.tif)")
    }

    /// Loads one DEM file. Grids are cropped to the samples needed around `window` (the map's box)
    /// so a large national DEM costs memory for the city only; SRTM tiles load whole.
    /// - Throws: `ImportError` naming the file and the problem, including a grid that does not
    ///   reach `window` at all.
    public static func load(path: String, window: BoundingBox? = nil) throws -> any DEMLayer {
        switch try format(ofFile: path) {
        case .srtm: try SRTMTile(path: path)
        case .asciiGrid: try ASCIIGridReader.load(path: path, window: window)
        case .geoTIFF: try GeoTIFFReader.load(path: path, window: window)
        }
    }

    /// Refuses a grid whose sample positions are not valid longitude/latitude degrees (a projected
    /// grid in metres read as degrees, or a broken header).
    static func checkDegrees(_ geo: GridGeoreference, width: Int, height: Int, path: String) throws(ImportError) {
        guard geo.isUsable else { throw ImportError(path: path, problem: "georeferencing collapses the grid (zero or non-finite cell size)") }
        let box = geo.bounds(width: width, height: height)
        guard box.minLon >= -180.5, box.maxLon <= 360, box.minLat >= -90.5, box.maxLat <= 90.5 else {
            let fmt = { (v: Double) in String(printf: "%.6g", v) }
            throw ImportError(path: path, problem: "coordinates x \(fmt(box.minLon))…\(fmt(box.maxLon)), y \(fmt(box.minLat))…\(fmt(box.maxLat)) are not WGS84 longitude/latitude degrees (a projected CRS?): reproject with gdalwarp -t_srs EPSG:4326")
        }
    }

    /// The error for a DEM file that has no data anywhere in the map's box.
    /// The columns and rows of a grid to load around `window` (all of them without one).
    /// - Throws: `noOverlap` when the grid has no data near the window.
    static func cropRange(_ geo: GridGeoreference, width: Int, height: Int, window: BoundingBox?, path: String) throws(ImportError) -> (columns: Range<Int>, rows: Range<Int>) {
        guard let window else { return (0..<width, 0..<height) }
        guard let w = geo.window(covering: window, width: width, height: height, margin: windowMargin) else {
            throw noOverlap(path: path, extent: geo.bounds(width: width, height: height), window: window)
        }
        return w
    }

    static func noOverlap(path: String, extent: BoundingBox, window: BoundingBox) -> ImportError {
        ImportError(path: path, problem: "\(noOverlapProblem): the DEM spans \(describe(extent)), the map \(describe(window))")
    }

    /// How `noOverlap` errors begin, so a composite of several files can skip one that lies elsewhere.
    static let noOverlapProblem = "does not cover the map"

    static func isNoOverlap(_ error: ImportError) -> Bool { error.problem.hasPrefix(noOverlapProblem + ":") }

    /// "lat 43.7004…43.7804, lon 7.3500…7.5496".
    static func describe(_ box: BoundingBox) -> String {
        String(printf: "lat %.4f…%.4f, lon %.4f…%.4f", box.minLat, box.maxLat, box.minLon, box.maxLon)
    }
}
