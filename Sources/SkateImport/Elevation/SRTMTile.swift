import SkateCore

/// One SRTM elevation tile: a square grid of heights in metres covering one degree of latitude
/// and longitude, read from `.hgt` (big-endian Int16) or `.hgt.zip`.
///
/// The name (`N43E007`) gives the south-west corner. Samples sit ON whole arc-seconds: row 0 is
/// the north edge (lat = south + 1), column 0 the west edge, and neighbouring tiles share their
/// edge rows. Voids (−32768) are filled from valid neighbours when the tile is loaded.
public struct SRTMTile: Sendable {
    /// The void marker in SRTM data.
    public static let void: Int16 = -32768
    /// Samples per side of a 3-arc-second (~90 m) tile.
    public static let size3Arcsecond = 1201
    /// Samples per side of a 1-arc-second (~30 m) tile.
    public static let size1Arcsecond = 3601

    /// The tile's name, e.g. `N43E007`.
    public let name: String
    /// Latitude of the south edge, whole degrees.
    public let south: Int
    /// Longitude of the west edge, whole degrees.
    public let west: Int
    /// Samples per side: 1201 (3") or 3601 (1").
    public let size: Int
    /// Heights in metres, row-major from the north-west corner; voids filled where possible.
    public let heights: [Int16]
    /// Void cells (−32768, or a height outside `GeoGrid.plausibleHeights`) found in the file.
    public let voidCount: Int
    /// Void cells given a value from their neighbours (equals `voidCount` unless the tile had no valid cell).
    public let filledCount: Int

    /// Loads a `.hgt` or `.hgt.zip` tile.
    /// - Throws: `ImportError` naming the file: missing, not a tile (wrong size), bad name, corrupt zip.
    public init(path: String) throws {
        let bytes = try InputFile.readAll(path: path, maxBytes: ZipEntryReader.maxEntrySize, what: "an SRTM tile")
        let baseName = String(path.split(separator: "/").last ?? Substring(path))
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {  // "PK\3\4": a zip archive
            let (entry, data) = try ZipEntryReader.extract(bytes, path: path) { $0.lowercased().hasSuffix(".hgt") }
            let entryBase = String(entry.split(separator: "/").last ?? Substring(entry))
            let name = Self.parseName(entryBase) != nil ? entryBase : baseName
            try self.init(name: name, bytes: data, path: path)
        } else {
            try self.init(name: baseName, bytes: bytes, path: path)
        }
    }

    /// A tile from raw `.hgt` bytes; `name` (a file name such as `N43E007.hgt`) gives its corner.
    /// - Throws: `ImportError` naming `path` when the size or the name is wrong.
    public init(name: String, bytes: [UInt8], path: String) throws {
        let samples = bytes.count / 2
        let side: Int
        switch bytes.count {
        case 2 * Self.size3Arcsecond * Self.size3Arcsecond: side = Self.size3Arcsecond
        case 2 * Self.size1Arcsecond * Self.size1Arcsecond: side = Self.size1Arcsecond
        default:
            throw ImportError(path: path, problem: "\(bytes.count) bytes is not an SRTM tile size (expected \(2 * Self.size3Arcsecond * Self.size3Arcsecond) for 3\" or \(2 * Self.size1Arcsecond * Self.size1Arcsecond) for 1\")")
        }
        guard let corner = Self.parseName(name) else {
            throw ImportError(path: path, problem: "tile name \"\(name)\" does not start with a corner like N43E007")
        }
        var grid = [Int16](repeating: 0, count: samples)
        grid.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { src in
                // Heights no land has (32767, a cell of noise) are voids too, as `GeoGrid` treats
                // them: filled from their neighbours, never written into a map (issue 29 row 5).
                let plausible = Int16(GeoGrid.plausibleHeights.lowerBound)...Int16(GeoGrid.plausibleHeights.upperBound)
                for i in 0..<samples {
                    let v = Int16(bitPattern: UInt16(src[2 * i]) << 8 | UInt16(src[2 * i + 1]))
                    out[i] = plausible.contains(v) ? v : Self.void
                }
            }
        }
        let (voids, filled) = VoidFill.fill(&grid, side: side, void: Self.void)
        self.name = String(name.prefix(7)).uppercased()
        south = corner.south
        west = corner.west
        size = side
        heights = grid
        voidCount = voids
        filledCount = filled
    }

    /// The south-west corner from a name like `N43E007…` or `s12w077…`.
    static func parseName(_ name: String) -> (south: Int, west: Int)? {
        let u = Array(name.uppercased().utf8)
        guard u.count >= 7, u[0] == UInt8(ascii: "N") || u[0] == UInt8(ascii: "S"),
              u[3] == UInt8(ascii: "E") || u[3] == UInt8(ascii: "W") else { return nil }
        func digits(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r { guard u[i] >= 48, u[i] <= 57 else { return nil }; v = v * 10 + Int(u[i] - 48) }
            return v
        }
        guard let lat = digits(1..<3), let lon = digits(4..<7), lat <= 90, lon <= 180 else { return nil }
        return (u[0] == UInt8(ascii: "N") ? lat : -lat, u[3] == UInt8(ascii: "E") ? lon : -lon)
    }

    /// The area the tile covers, edges included.
    public var bounds: BoundingBox {
        BoundingBox(minLon: Double(west), minLat: Double(south), maxLon: Double(west + 1), maxLat: Double(south + 1))
    }

    /// True when the point lies within the tile, edges included.
    public func contains(lat: Double, lon: Double) -> Bool {
        lat >= Double(south) && lat <= Double(south + 1) && lon >= Double(west) && lon <= Double(west + 1)
    }

    /// The sample at row `r` (0 = north edge) and column `c` (0 = west edge), metres; nil if void.
    public func sample(row r: Int, column c: Int) -> Int16? {
        guard r >= 0, r < size, c >= 0, c < size else { return nil }
        let v = heights[r * size + c]
        return v == Self.void ? nil : v
    }

    /// Height in metres at a point, bilinear between the four surrounding samples;
    /// nil outside the tile or next to a void that could not be filled.
    public func elevation(lat: Double, lon: Double) -> Double? {
        guard contains(lat: lat, lon: lon) else { return nil }
        let cells = Double(size - 1)
        let y = (Double(south + 1) - lat) * cells  // rows run north to south
        let x = (lon - Double(west)) * cells
        let r = min(Int(y), size - 2), c = min(Int(x), size - 2)
        let fy = y - Double(r), fx = x - Double(c)
        let i = r * size + c
        let a = heights[i], b = heights[i + 1], d = heights[i + size], e = heights[i + size + 1]
        guard a != Self.void, b != Self.void, d != Self.void, e != Self.void else { return nil }
        let top = Double(a) + (Double(b) - Double(a)) * fx
        let bottom = Double(d) + (Double(e) - Double(d)) * fx
        return top + (bottom - top) * fy
    }
}
