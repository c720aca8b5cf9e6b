import CGeoTIFF
import Foundation
import SkateImport

/// Writes small DEM files for tests: GeoTIFFs through libtiff/libgeotiff (the same libraries the
/// reader uses, but the GeoTIFF spec's conventions spelled out here independently) and ESRI ASCII grids.
public enum TestDEMFiles {
    /// How raster space maps onto the model (GTRasterTypeGeoKey).
    public enum RasterType: UInt16, Sendable { case pixelIsArea = 1, pixelIsPoint = 2 }
    /// Stored sample type.
    public enum SampleType: Sendable { case int16, float32, uint8 }
    /// The georeferencing tags written.
    public enum Georeference: Sendable {
        /// ModelTiepoint (raster 0,0 → lon, lat) + ModelPixelScale (degrees per pixel, y positive = north-up).
        case tiepoint(lon: Double, lat: Double, scaleX: Double, scaleY: Double)
        /// ModelTransformation: a 4 × 4 row-major matrix from raster (i, j, 0, 1) to model (lon, lat, 0, 1).
        case transformation([Double])
        /// No georeferencing tags.
        case none
    }

    /// One GeoTIFF to write.
    public struct GeoTIFF: Sendable {
        public var width: Int, height: Int
        /// Row-major from the first (north) row; NaN writes `nodataValue`.
        public var values: [Float]
        public var sampleType: SampleType = .int16
        public var rasterType: RasterType = .pixelIsArea
        public var georeference: Georeference
        /// GTModelTypeGeoKey (2 geographic, 1 projected); nil writes no GeoKeys at all.
        public var modelType: UInt16? = 2
        /// GeographicTypeGeoKey (4326 = WGS84) for geographic models.
        public var geographicType: UInt16? = 4326
        /// ProjectedCSTypeGeoKey for projected models (e.g. 32632 = UTM 32N).
        public var projectedType: UInt16? = nil
        /// GDAL_NODATA text, e.g. "-32768".
        public var nodata: String? = nil
        public var nodataValue: Float = -32768
        public var deflate = true
        /// Tile side in pixels (a multiple of 16), or nil for strips.
        public var tileSize: Int? = nil
        public var rowsPerStrip = 17

        public init(width: Int, height: Int, values: [Float], georeference: Georeference) {
            self.width = width; self.height = height; self.values = values; self.georeference = georeference
        }
    }

    public struct WriteError: Error, CustomStringConvertible { public var description: String }

    /// Writes `spec` to `path`.
    public static func write(_ spec: GeoTIFF, to path: String) throws {
        if let missing = GeoTIFFLibrary.prepare() { throw ImportError(path: path, problem: missing) }
        // libtiff keeps the pointer for the handle's whole life: it must not be a temporary.
        let errors = UnsafeMutablePointer<skr_tiff_errors>.allocate(capacity: 1)
        errors.initialize(to: skr_tiff_errors())
        defer { errors.deallocate() }
        guard let tif = skr_tiff_open(path, "w", errors) else { throw WriteError(description: "cannot create \(path)") }
        func set16(_ tag: Int32, _ v: Int) { _ = skr_tiff_set_u16(tif, UInt32(tag), UInt16(v)) }
        func set32(_ tag: Int32, _ v: Int) { _ = skr_tiff_set_u32(tif, UInt32(tag), UInt32(v)) }
        set32(TIFFTAG_IMAGEWIDTH, spec.width)
        set32(TIFFTAG_IMAGELENGTH, spec.height)
        set16(TIFFTAG_SAMPLESPERPIXEL, 1)
        set16(TIFFTAG_PHOTOMETRIC, Int(PHOTOMETRIC_MINISBLACK))
        set16(TIFFTAG_PLANARCONFIG, Int(PLANARCONFIG_CONTIG))
        let size: Int
        switch spec.sampleType {
        case .int16: set16(TIFFTAG_BITSPERSAMPLE, 16); set16(TIFFTAG_SAMPLEFORMAT, Int(SAMPLEFORMAT_INT)); size = 2
        case .float32: set16(TIFFTAG_BITSPERSAMPLE, 32); set16(TIFFTAG_SAMPLEFORMAT, Int(SAMPLEFORMAT_IEEEFP)); size = 4
        case .uint8: set16(TIFFTAG_BITSPERSAMPLE, 8); set16(TIFFTAG_SAMPLEFORMAT, Int(SAMPLEFORMAT_UINT)); size = 1
        }
        if spec.deflate {
            set16(TIFFTAG_COMPRESSION, Int(COMPRESSION_ADOBE_DEFLATE))
            set16(TIFFTAG_PREDICTOR, spec.sampleType == .float32 ? Int(PREDICTOR_FLOATINGPOINT) : Int(PREDICTOR_HORIZONTAL))
        } else {
            set16(TIFFTAG_COMPRESSION, Int(COMPRESSION_NONE))
        }
        if let t = spec.tileSize { set32(TIFFTAG_TILEWIDTH, t); set32(TIFFTAG_TILELENGTH, t) } else { set32(TIFFTAG_ROWSPERSTRIP, spec.rowsPerStrip) }
        if let nodata = spec.nodata { _ = skr_tiff_set_ascii(tif, UInt32(TIFFTAG_GDAL_NODATA), nodata) }
        switch spec.georeference {
        case let .tiepoint(lon, lat, sx, sy):
            _ = skr_tiff_set_doubles(tif, UInt32(TIFFTAG_GEOTIEPOINTS), 6, [0, 0, 0, lon, lat, 0])
            _ = skr_tiff_set_doubles(tif, UInt32(TIFFTAG_GEOPIXELSCALE), 3, [sx, sy, 0])
        case let .transformation(m):
            _ = skr_tiff_set_doubles(tif, UInt32(TIFFTAG_GEOTRANSMATRIX), 16, m)
        case .none:
            break
        }
        if let model = spec.modelType, let gtif = skr_GTIFNew(UnsafeMutableRawPointer(tif)) {
            _ = skr_gtif_set_short(gtif, GTModelTypeGeoKey, model)
            _ = skr_gtif_set_short(gtif, GTRasterTypeGeoKey, spec.rasterType.rawValue)
            if let g = spec.geographicType, model == 2 { _ = skr_gtif_set_short(gtif, GeographicTypeGeoKey, g) }
            if let p = spec.projectedType, model == 1 { _ = skr_gtif_set_short(gtif, ProjectedCSTypeGeoKey, p) }
            _ = skr_GTIFWriteKeys(gtif)
            skr_GTIFFree(gtif)
        }

        func encode(_ v: Float, into b: UnsafeMutableRawBufferPointer, at i: Int) {
            let x = v.isNaN ? spec.nodataValue : v
            switch spec.sampleType {
            case .int16: b.storeBytes(of: Int16(x.rounded()), toByteOffset: i * 2, as: Int16.self)
            case .float32: b.storeBytes(of: x, toByteOffset: i * 4, as: Float.self)
            case .uint8: b.storeBytes(of: UInt8(max(0, min(255, x.rounded()))), toByteOffset: i, as: UInt8.self)
            }
        }
        var ok = true
        if let t = spec.tileSize {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: t * t * size, alignment: 8)
            defer { buffer.deallocate() }
            for ty in stride(from: 0, to: spec.height, by: t) {
                for tx in stride(from: 0, to: spec.width, by: t) {
                    for y in 0..<t {
                        for x in 0..<t {
                            let v = (ty + y < spec.height && tx + x < spec.width) ? spec.values[(ty + y) * spec.width + tx + x] : spec.nodataValue
                            encode(v, into: buffer, at: y * t + x)
                        }
                    }
                    let tile = skr_TIFFComputeTile(tif, UInt32(tx), UInt32(ty), 0, 0)
                    ok = ok && skr_TIFFWriteEncodedTile(tif, tile, buffer.baseAddress, tmsize_t(t * t * size)) >= 0
                }
            }
        } else {
            let rps = spec.rowsPerStrip
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: rps * spec.width * size, alignment: 8)
            defer { buffer.deallocate() }
            for sy in stride(from: 0, to: spec.height, by: rps) {
                let rows = min(rps, spec.height - sy)
                for i in 0..<(rows * spec.width) { encode(spec.values[sy * spec.width + i], into: buffer, at: i) }
                ok = ok && skr_TIFFWriteEncodedStrip(tif, skr_TIFFComputeStrip(tif, UInt32(sy), 0), buffer.baseAddress, tmsize_t(rows * spec.width * size)) >= 0
            }
        }
        skr_XTIFFClose(tif)
        guard ok else { throw WriteError(description: "libtiff could not write \(path)") }
    }

    /// Writes an ESRI ASCII grid with `xllcorner`/`yllcorner` (corner: true) or `xllcenter`/`yllcenter`.
    public static func writeASCIIGrid(to path: String, width: Int, height: Int, values: [Float], west: Double, south: Double,
                                      cellSize: Double, corner: Bool = true, nodata: Float = -9999) throws {
        var text = "ncols \(width)\nnrows \(height)\n"
        text += corner ? "xllcorner \(west)\nyllcorner \(south)\n" : "xllcenter \(west)\nyllcenter \(south)\n"
        text += "cellsize \(cellSize)\nNODATA_value \(nodata)\n"
        for r in 0..<height {
            text += (0..<width).map { c in
                let v = values[r * width + c]
                return v.isNaN ? "\(nodata)" : "\(v)"
            }.joined(separator: " ") + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
