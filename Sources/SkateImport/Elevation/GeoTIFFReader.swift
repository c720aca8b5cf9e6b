import CGeoTIFF
import FoundationEssentials
import Glibc
import SkateCore

/// libtiff/libgeotiff set-up shared by every user in the process.
public enum GeoTIFFLibrary {
    /// Loads libtiff and libgeotiff (dlopen, once per process; `shim.h` says why they are not
    /// linked) and registers the GeoTIFF tags; nil when ready, else a one-line reason.
    @discardableResult
    public static func prepare() -> String? {
        guard let reason = skr_geotiff_load() else { return nil }
        return String(cString: reason)
    }
}

/// Reads a single-band GeoTIFF DEM through Debian's libtiff and libgeotiff as a `GeoGrid`.
///
/// Supported: what GDAL writes for a DEM — strips or tiles, any compression libtiff decodes
/// (DEFLATE, LZW, …, with or without a predictor), 8/16/32-bit integers (signed or not) and
/// 32/64-bit floats, the GDAL_NODATA tag (42113), georeferencing by ModelTiepoint + ModelPixelScale
/// or by ModelTransformation (converted by libgeotiff's `GTIFImageToPCS`).
///
/// Conventions: GeoTIFF raster space puts (0, 0) at the outer corner of the first pixel. With
/// `RasterPixelIsArea` (the default) a value describes its pixel, so its sample point is the
/// pixel centre, raster (i + ½, j + ½); with `RasterPixelIsPoint` the value sits on raster (i, j)
/// itself — which is how GDAL writes a crop of an SRTM `.hgt` (samples on whole arc-seconds).
/// Only geographic WGS84 (EPSG:4326, or a user-defined geographic CRS on the WGS84 datum) in
/// degrees is accepted; anything else is refused with the reprojection command to run.
enum GeoTIFFReader {
    // GeoKey values (GeoTIFF 1.0 spec, §6.3).
    static let modelTypeProjected: UInt16 = 1, modelTypeGeographic: UInt16 = 2
    static let rasterPixelIsArea: UInt16 = 1, rasterPixelIsPoint: UInt16 = 2
    static let gcsWGS84: UInt16 = 4326, datumWGS84: UInt16 = 6326, userDefined: UInt16 = 32767
    static let angularDegree: UInt16 = 9102

    /// Loads band 1, keeping only the samples needed around `window` (nil: the whole image).
    /// - Throws: `ImportError` naming `path`: not a TIFF, no georeferencing, a CRS other than
    ///   WGS84 lon/lat, an unsupported sample layout, a corrupt strip or tile, or no overlap with
    ///   `window`.
    static func load(path: String, window: BoundingBox?) throws(ImportError) -> GeoGrid {
        func bad(_ problem: String) -> ImportError { ImportError(path: path, problem: problem) }
        _ = try InputFile(path: path)  // the same "no such file" / "is a directory" lines as other inputs
        let errors = UnsafeMutablePointer<skr_tiff_errors>.allocate(capacity: 1)
        errors.initialize(to: skr_tiff_errors())
        defer { errors.deallocate() }
        func libtiffSays() -> String {
            let text = withUnsafeBytes(of: errors.pointee.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return TerminalSafe.clean(text.isEmpty ? "no detail" : text)
        }

        if let missing = GeoTIFFLibrary.prepare() { throw bad(missing) }
        guard let tif = skr_tiff_open(path, "r", errors) else {
            throw bad("not a TIFF file (libtiff: \(libtiffSays()))")
        }
        defer { skr_XTIFFClose(tif) }
        guard let gtif = skr_GTIFNew(UnsafeMutableRawPointer(tif)) else {
            throw bad("cannot read GeoTIFF keys (libgeotiff refused the file)")
        }
        defer { skr_GTIFFree(gtif) }

        // Size and sample layout.
        var width: UInt32 = 0, height: UInt32 = 0
        var samplesPerPixel: UInt16 = 1, bits: UInt16 = 1, format: UInt16 = UInt16(SAMPLEFORMAT_UINT)
        guard skr_tiff_get_u32(tif, UInt32(TIFFTAG_IMAGEWIDTH), &width) != 0,
              skr_tiff_get_u32(tif, UInt32(TIFFTAG_IMAGELENGTH), &height) != 0 else {
            throw bad("TIFF without an image size")
        }
        _ = skr_tiff_get_u16(tif, UInt32(TIFFTAG_SAMPLESPERPIXEL), &samplesPerPixel)
        _ = skr_tiff_get_u16(tif, UInt32(TIFFTAG_BITSPERSAMPLE), &bits)
        _ = skr_tiff_get_u16(tif, UInt32(TIFFTAG_SAMPLEFORMAT), &format)
        guard samplesPerPixel == 1 else { throw bad("TIFF has \(samplesPerPixel) samples per pixel; a DEM has one band of heights") }
        guard let kind = SampleKind(bits: bits, format: format) else {
            throw bad("TIFF sample type (\(bits)-bit, SampleFormat \(format)) is not a supported DEM type (8/16/32-bit integers, 32/64-bit floats)")
        }
        guard width >= 2, height >= 2 else { throw bad("TIFF of \(width) × \(height) pixels is not a usable DEM") }
        let w = Int(width), h = Int(height)

        // Georeferencing and CRS.
        func key(_ k: geokey_t) -> UInt16? {
            var v: UInt16 = 0
            return skr_GTIFKeyGetSHORT(gtif, k, &v, 0, 1) == 1 ? v : nil
        }
        var probeX = 0.0, probeY = 0.0
        let hasTransform = skr_GTIFImageToPCS(gtif, &probeX, &probeY) != 0
        guard let model = key(GTModelTypeGeoKey) else {
            throw bad(hasTransform
                ? "GeoTIFF has a raster-to-model transform but no GeoKeys naming its CRS; expected WGS84 longitude/latitude (EPSG:4326)"
                : "TIFF has no GeoTIFF georeferencing (no GeoKeys, tie points or transformation): a plain image, not a DEM")
        }
        let reproject = "SkateRoute reads WGS84 longitude/latitude (EPSG:4326) only: reproject with gdalwarp -t_srs EPSG:4326"
        switch model {
        case modelTypeGeographic:
            let gcs = key(GeographicTypeGeoKey)
            let datum = key(GeogGeodeticDatumGeoKey)
            let isWGS84 = gcs == gcsWGS84 || ((gcs == nil || gcs == userDefined) && datum == datumWGS84)
            guard isWGS84 else {
                let name = gcs.map { $0 == userDefined ? "a user-defined geographic CRS (datum \(datum.map(String.init) ?? "unknown"))" : "EPSG:\($0)" } ?? "an unnamed geographic CRS"
                throw bad("GeoTIFF is in \(name), not WGS84; \(reproject)")
            }
            if let units = key(GeogAngularUnitsGeoKey), units != angularDegree {
                throw bad("GeoTIFF measures angles in unit \(units), not degrees (9102); \(reproject)")
            }
        case modelTypeProjected:
            let pcs = key(ProjectedCSTypeGeoKey).map { $0 == userDefined ? "a user-defined projected CRS" : "projected CRS EPSG:\($0)" } ?? "a projected CRS"
            throw bad("GeoTIFF is in \(pcs); \(reproject)")
        default:
            throw bad("GeoTIFF model type \(model) is not geographic longitude/latitude; \(reproject)")
        }
        guard hasTransform else {
            throw bad("GeoTIFF has no georeferencing (no ModelTiepoint + ModelPixelScale and no ModelTransformation)")
        }
        // Sample (i, j) sits at raster (i + offset, j + offset).
        let offset = key(GTRasterTypeGeoKey) == rasterPixelIsPoint ? 0.0 : 0.5
        func toModel(_ x: Double, _ y: Double) -> (lon: Double, lat: Double) {
            var mx = x + offset, my = y + offset
            _ = skr_GTIFImageToPCS(gtif, &mx, &my)
            return (mx, my)
        }
        let o = toModel(0, 0), c1 = toModel(1, 0), r1 = toModel(0, 1)
        let geo = GridGeoreference(lon0: o.lon, lat0: o.lat, lonPerColumn: c1.lon - o.lon, latPerColumn: c1.lat - o.lat,
                                   lonPerRow: r1.lon - o.lon, latPerRow: r1.lat - o.lat)
        try DEMReader.checkDegrees(geo, width: w, height: h, path: path)

        let (columns, rows) = try DEMReader.cropRange(geo, width: w, height: h, window: window, path: path)
        guard columns.count * rows.count <= GeoGrid.maxCells else {
            throw bad("GeoTIFF area needed holds \(columns.count) × \(rows.count) pixels, more than \(GeoGrid.maxCells): crop it to the map first (gdal_translate -projwin)")
        }

        let nodata: Float? = skr_tiff_get_ascii(tif, UInt32(TIFFTAG_GDAL_NODATA)).flatMap { text in
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(text, &end)
            return end == UnsafeMutablePointer(mutating: text) ? nil : Float(v)
        }

        // Pixels, one strip or tile at a time, only those crossing the window.
        var values = [Float](repeating: .nan, count: columns.count * rows.count)
        func store(_ buffer: UnsafeRawBufferPointer, blockX: Int, blockY: Int, blockWidth: Int, blockHeight: Int) {
            for y in max(blockY, rows.lowerBound)..<min(blockY + blockHeight, rows.upperBound) {
                for x in max(blockX, columns.lowerBound)..<min(blockX + blockWidth, columns.upperBound) {
                    let i = ((y - blockY) * blockWidth + (x - blockX)) * kind.size
                    values[(y - rows.lowerBound) * columns.count + (x - columns.lowerBound)] = kind.load(buffer, at: i)
                }
            }
        }
        if skr_TIFFIsTiled(tif) != 0 {
            var tileWidth: UInt32 = 0, tileHeight: UInt32 = 0
            _ = skr_tiff_get_u32(tif, UInt32(TIFFTAG_TILEWIDTH), &tileWidth)
            _ = skr_tiff_get_u32(tif, UInt32(TIFFTAG_TILELENGTH), &tileHeight)
            let tw = Int(tileWidth), th = Int(tileHeight), size = Int(skr_TIFFTileSize(tif))
            guard tw > 0, th > 0, size >= tw * th * kind.size else { throw bad("corrupt GeoTIFF: bad tile size \(tw) × \(th)") }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
            defer { buffer.deallocate() }
            for ty in stride(from: rows.lowerBound / th * th, to: rows.upperBound, by: th) {
                for tx in stride(from: columns.lowerBound / tw * tw, to: columns.upperBound, by: tw) {
                    let tile = skr_TIFFComputeTile(tif, UInt32(tx), UInt32(ty), 0, 0)
                    guard skr_TIFFReadEncodedTile(tif, tile, buffer.baseAddress, tmsize_t(size)) >= 0 else {
                        throw bad("corrupt GeoTIFF: tile at pixel \(tx),\(ty) cannot be decoded (libtiff: \(libtiffSays()))")
                    }
                    store(UnsafeRawBufferPointer(buffer), blockX: tx, blockY: ty, blockWidth: tw, blockHeight: th)
                }
            }
        } else {
            var rowsPerStrip: UInt32 = 0
            _ = skr_tiff_get_u32(tif, UInt32(TIFFTAG_ROWSPERSTRIP), &rowsPerStrip)
            let rps = max(1, min(h, Int(rowsPerStrip))), size = Int(skr_TIFFStripSize(tif))
            guard size >= rps * w * kind.size else { throw bad("corrupt GeoTIFF: bad strip size") }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
            defer { buffer.deallocate() }
            for sy in stride(from: rows.lowerBound / rps * rps, to: rows.upperBound, by: rps) {
                let strip = skr_TIFFComputeStrip(tif, UInt32(sy), 0)
                let got = Int(skr_TIFFReadEncodedStrip(tif, strip, buffer.baseAddress, tmsize_t(size)))
                let stripRows = min(rps, h - sy)
                guard got >= stripRows * w * kind.size else {
                    throw bad("corrupt GeoTIFF: strip at row \(sy) cannot be decoded (libtiff: \(libtiffSays()))")
                }
                store(UnsafeRawBufferPointer(buffer), blockX: 0, blockY: sy, blockWidth: w, blockHeight: stripRows)
            }
        }
        return GeoGrid(path: path, width: columns.count, height: rows.count,
                       georeference: geo.shifted(x: columns.lowerBound, y: rows.lowerBound), values: values, nodata: nodata)
    }

    /// A TIFF sample type a DEM may use, decoded to Float metres.
    enum SampleKind {
        case u8, i8, u16, i16, u32, i32, f32, f64

        init?(bits: UInt16, format: UInt16) {
            switch (Int32(format), bits) {
            case (SAMPLEFORMAT_UINT, 8): self = .u8
            case (SAMPLEFORMAT_INT, 8): self = .i8
            case (SAMPLEFORMAT_UINT, 16): self = .u16
            case (SAMPLEFORMAT_INT, 16): self = .i16
            case (SAMPLEFORMAT_UINT, 32): self = .u32
            case (SAMPLEFORMAT_INT, 32): self = .i32
            case (SAMPLEFORMAT_IEEEFP, 32): self = .f32
            case (SAMPLEFORMAT_IEEEFP, 64): self = .f64
            default: return nil
            }
        }

        /// Bytes per sample.
        var size: Int {
            switch self {
            case .u8, .i8: 1
            case .u16, .i16: 2
            case .u32, .i32, .f32: 4
            case .f64: 8
            }
        }

        /// The sample at byte `i` (libtiff has already converted it to host byte order).
        func load(_ b: UnsafeRawBufferPointer, at i: Int) -> Float {
            switch self {
            case .u8: Float(b.load(fromByteOffset: i, as: UInt8.self))
            case .i8: Float(b.load(fromByteOffset: i, as: Int8.self))
            case .u16: Float(b.loadUnaligned(fromByteOffset: i, as: UInt16.self))
            case .i16: Float(b.loadUnaligned(fromByteOffset: i, as: Int16.self))
            case .u32: Float(b.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            case .i32: Float(b.loadUnaligned(fromByteOffset: i, as: Int32.self))
            case .f32: b.loadUnaligned(fromByteOffset: i, as: Float.self)
            case .f64: Float(b.loadUnaligned(fromByteOffset: i, as: Double.self))
            }
        }
    }
}
