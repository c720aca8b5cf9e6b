#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials
import SkateCore

/// Reads an ESRI ASCII grid (`.asc`, "AAIGrid" in GDAL) as a `GeoGrid`.
///
/// Format: header lines `key value` (keys case-insensitive, any order) — `ncols`, `nrows`,
/// `xllcorner`|`xllcenter`, `yllcorner`|`yllcenter`, `cellsize` (or GDAL's `dx` and `dy` for
/// non-square cells), optional `NODATA_value` — then `nrows` lines of `ncols` numbers, the first
/// line being the NORTH row.
///
/// Conventions: `xllcorner`/`yllcorner` give the outer south-west corner of the south-west
/// pixel, so its sample sits half a cell inside (GDAL writes corners: an SRTM crop whose samples
/// sit on whole arc-seconds gets `xllcorner` 1.5" west of the first sample). `xllcenter`/
/// `yllcenter` give that sample itself. Coordinates must be WGS84 longitude/latitude: a `.prj`
/// beside the file must name a geographic WGS84 CRS, and without one the grid's extent must at
/// least be valid degrees.
enum ASCIIGridReader {
    /// Largest grid file read (bytes): a 1 m grid of 15 × 15 km written with two decimals is ~450 MB;
    /// a bigger file is refused in one line instead of filling memory.
    static let maxFileBytes = 1 << 30
    /// Largest `.prj` read (bytes): ESRI WKT for a CRS is well under 2 KB.
    static let maxProjectionBytes = 64 << 10

    /// Loads the grid, keeping only the samples needed around `window` (nil: the whole grid).
    /// - Throws: `ImportError` naming `path`: not an ASCII grid, a bad header or value, too few
    ///   values, a projected or non-WGS84 CRS, or no overlap with `window` (`DEMReader.noOverlap`).
    static func load(path: String, window: BoundingBox?) throws(ImportError) -> GeoGrid {
        var bytes = try InputFile.readAll(path: path, maxBytes: Self.maxFileBytes, what: "an ASCII grid")
        bytes.append(0)  // strtod stops at the terminator
        func bad(_ problem: String) -> ImportError { ImportError(path: path, problem: problem) }

        return try bytes.withUnsafeBufferPointer { (buffer) throws(ImportError) -> GeoGrid in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            let end = buffer.count - 1
            var p = 0
            func isSpace(_ c: UInt8) -> Bool { c == 32 || (c >= 9 && c <= 13) }
            func skipSpace() { while p < end, isSpace(buffer[p]) { p += 1 } }
            func token() -> String {
                let start = p
                while p < end, !isSpace(buffer[p]) { p += 1 }
                return String(decoding: buffer[start..<p], as: UTF8.self)
            }

            // Header: `key value` pairs until the first number.
            var header: [String: String] = [:]
            while true {
                skipSpace()
                guard p < end else { break }
                let c = buffer[p]
                let isLetter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
                guard isLetter else { break }
                let key = token().lowercased()
                guard Self.headerKeys.contains(key) else {
                    if header.isEmpty { throw bad("not an ESRI ASCII grid (starts with \"\(TerminalSafe.clean(String(key.prefix(24))))\", expected an ncols/nrows/cellsize header)") }
                    throw bad("ESRI ASCII grid: unknown header key \"\(TerminalSafe.clean(String(key.prefix(24))))\"")
                }
                skipSpace()
                header[key] = token()
            }
            guard !header.isEmpty else { throw bad("not an ESRI ASCII grid (no ncols/nrows/cellsize header)") }

            func number(_ key: String) -> Double? { header[key].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } }
            guard let cols = header["ncols"].flatMap(Int.init), let rows = header["nrows"].flatMap(Int.init) else {
                throw bad("ESRI ASCII grid header lacks a whole-number ncols or nrows")
            }
            let cells = cols.multipliedReportingOverflow(by: rows)
            guard cols >= 2, rows >= 2, !cells.overflow, cells.partialValue <= GeoGrid.maxCells else {
                throw bad("ESRI ASCII grid of \(cols) × \(rows) cells is not a usable DEM (need at least 2 × 2, at most \(GeoGrid.maxCells) cells)")
            }
            let dx: Double, dy: Double
            if let size = number("cellsize") {
                dx = size; dy = size
            } else if let x = number("dx"), let y = number("dy") {
                dx = x; dy = y
            } else {
                throw bad("ESRI ASCII grid header lacks cellsize (or dx and dy)")
            }
            guard dx > 0, dy > 0 else { throw bad("ESRI ASCII grid cell size must be positive (cellsize \(dx) × \(dy))") }
            // The south-west sample's position.
            let west: Double, south: Double
            if let x = number("xllcenter") { west = x } else if let x = number("xllcorner") { west = x + dx / 2 } else {
                throw bad("ESRI ASCII grid header lacks xllcorner or xllcenter")
            }
            if let y = number("yllcenter") { south = y } else if let y = number("yllcorner") { south = y + dy / 2 } else {
                throw bad("ESRI ASCII grid header lacks yllcorner or yllcenter")
            }
            let nodata: Float?
            if let text = header["nodata_value"] {
                guard let v = Double(text) else { throw bad("ESRI ASCII grid NODATA_value \"\(TerminalSafe.clean(String(text.prefix(24))))\" is not a number") }
                nodata = Float(v)
            } else {
                nodata = nil
            }
            let geo = GridGeoreference(lon0: west, lat0: south + Double(rows - 1) * dy, lonPerColumn: dx, latPerRow: -dy)
            try checkProjectionFile(beside: path)  // names the CRS, so before the extent guess
            try DEMReader.checkDegrees(geo, width: cols, height: rows, path: path)

            let (columns, keptRows) = try DEMReader.cropRange(geo, width: cols, height: rows, window: window, path: path)

            var values = [Float](repeating: .nan, count: columns.count * keptRows.count)
            var index = 0
            let total = cols * rows
            while index < total {
                skipSpace()
                guard p < end else {
                    throw bad("ESRI ASCII grid ends after \(index) of \(total) values (\(cols) × \(rows))")
                }
                let r = index / cols, c = index % cols
                if keptRows.contains(r) && columns.contains(c) {
                    var stop: UnsafeMutablePointer<CChar>?
                    let v = strtod(base + p, &stop)
                    let consumed = stop.map { $0 - UnsafeMutablePointer(mutating: base) - p } ?? 0
                    guard consumed > 0, p + consumed >= end || isSpace(buffer[p + consumed]) else {
                        _ = token()
                        throw bad("ESRI ASCII grid: bad value at row \(r + 1), column \(c + 1)")
                    }
                    p += consumed
                    values[(r - keptRows.lowerBound) * columns.count + (c - columns.lowerBound)] = Float(v)
                } else {
                    while p < end, !isSpace(buffer[p]) { p += 1 }
                }
                index += 1
            }
            return GeoGrid(path: path, width: columns.count, height: keptRows.count,
                           georeference: geo.shifted(x: columns.lowerBound, y: keptRows.lowerBound), values: values, nodata: nodata)
        }
    }

    static let headerKeys: Set<String> = [
        "ncols", "nrows", "xllcorner", "xllcenter", "yllcorner", "yllcenter", "cellsize", "dx", "dy", "nodata_value",
    ]

    /// A `.prj` beside the grid (GDAL writes one in ESRI WKT) must describe geographic WGS84.
    static func checkProjectionFile(beside path: String) throws(ImportError) {
        let stem = PathText.deletingExtension(path)
        guard let prj = [stem + ".prj", stem + ".PRJ"].first(where: { FileManager.default.fileExists(atPath: $0) }) else { return }
        // Through the same checks as every input: a FIFO or an endless file named .prj is one line.
        let text = String(decoding: try InputFile.readAll(path: prj, maxBytes: Self.maxProjectionBytes, what: "a .prj file"), as: UTF8.self)
        let upper = text.uppercased()
        let name = PathText.lastComponent(prj)
        if upper.contains("PROJCS") || upper.contains("PROJCRS") || upper.contains("PROJECTION ") && !upper.contains("PROJECTION GEOGRAPHIC") {
            throw ImportError(path: path, problem: "is in a projected CRS (see \(name)); SkateRoute reads WGS84 longitude/latitude (EPSG:4326) only: reproject with gdalwarp -t_srs EPSG:4326")
        }
        let wgs84 = ["WGS_1984", "WGS 84", "WGS84", "EPSG\",\"4326", "EPSG:4326"].contains { upper.contains($0) }
        guard wgs84 else {
            throw ImportError(path: path, problem: "\(name) names a CRS other than WGS84 longitude/latitude (EPSG:4326): reproject with gdalwarp -t_srs EPSG:4326")
        }
    }
}
