import FoundationEssentials
import Glibc
import SkateCore

/// SRTM-style tile names and the DEM files of a folder (`import --dem-dir`).
///
/// A tile is one degree of latitude and longitude named by its south-west corner: `N49E008`
/// spans 49–50° N, 8–9° E; `S13W078` spans 13–12° S, 78–77° W.
public enum DEMTiles {
    /// Where public-domain and open tiles come from, for error messages (one line).
    public static let whereToGet = "SRTM 1\"/3\" tiles (public domain, NASA/USGS) from https://earthexplorer.usgs.gov (\"SRTM 1 Arc-Second Global\") or Copernicus GLO-30 GeoTIFFs (free, attribution) from https://registry.opendata.aws/copernicus-dem/"
    /// File name endings `--dem-dir` takes (lower-cased comparison).
    public static let extensions = [".hgt", ".hgt.zip", ".tif", ".tiff", ".asc"]
    /// Most tiles a map may need before the list is cut short in messages.
    static let maxListedTiles = 12

    /// The name of the tile holding a point, e.g. `N49E008` (a point on a tile edge belongs to the
    /// tile north or east of it, as `floor` puts it).
    public static func name(lat: Double, lon: Double) -> String {
        name(south: Int(lat.rounded(.down)), west: Int(lon.rounded(.down)))
    }

    /// The name of the tile with this south-west corner.
    public static func name(south: Int, west: Int) -> String {
        func pad(_ v: Int, _ width: Int) -> String { let s = String(abs(v)); return String(repeating: "0", count: max(0, width - s.count)) + s }
        return (south >= 0 ? "N" : "S") + pad(south, 2) + (west >= 0 ? "E" : "W") + pad(west, 3)
    }

    /// The tiles a box touches, south to north, west to east.
    public static func names(covering box: BoundingBox) -> [String] {
        guard !box.isEmpty else { return [] }
        let s = Int(box.minLat.rounded(.down)), n = Int(box.maxLat.rounded(.down))
        let w = Int(box.minLon.rounded(.down)), e = Int(box.maxLon.rounded(.down))
        var out: [String] = []
        for lat in s...n { for lon in w...e { out.append(name(south: lat, west: lon)) } }
        return out
    }

    /// "N49E007, N49E009" (at most `maxListedTiles`, then "and N more").
    public static func list(_ names: [String]) -> String {
        let shown = names.prefix(maxListedTiles).joined(separator: ", ")
        return names.count > maxListedTiles ? shown + " and \(names.count - maxListedTiles) more" : shown
    }

    /// The SRTM tile name a file name starts with (`n49e008.hgt.zip` → `N49E008`), or nil.
    public static func tileName(ofFile file: String) -> String? {
        let base = PathText.lastComponent(file)
        return SRTMTile.parseName(base).map { name(south: $0.south, west: $0.west) }
    }

    /// The DEM files of `dir` a map spanning `box` can use: every SRTM-named file (`N49E008…`)
    /// whose tile the box touches, and every other DEM file (GeoTIFF, ASCII grid: their extent
    /// is checked when they are read). Hidden files are skipped; the order is by name.
    /// - Throws: `ImportError` when the folder cannot be read or holds no DEM file at all.
    public static func files(in dir: String, for box: BoundingBox) throws(ImportError) -> [String] {
        guard let d = opendir(dir) else {
            throw ImportError(path: dir, problem: "cannot read the folder: \(String(cString: strerror(errno)))")
        }
        defer { closedir(d) }
        var all: [String] = []
        while let e = readdir(d) {
            let name = withUnsafePointer(to: e.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            let lower = name.lowercased()
            guard !name.hasPrefix("."), extensions.contains(where: { lower.hasSuffix($0) }) else { continue }
            all.append(name)
        }
        guard !all.isEmpty else {
            throw ImportError(path: dir, problem: "no DEM files (\(extensions.joined(separator: ", "))) in the folder; tiles are named by their south-west corner, e.g. N49E008.hgt; get \(whereToGet)")
        }
        let wanted = Set(names(covering: box))
        // One file per tile: the first by name (N49E008.hgt before N49E008.hgt.zip).
        var tilesTaken = Set<String>()
        var out: [String] = []
        for name in all.sorted() {
            if let tile = tileName(ofFile: name), name.lowercased().contains(".hgt") {
                guard wanted.contains(tile), tilesTaken.insert(tile).inserted else { continue }
            }
            out.append(PathText.appending(dir, name))
        }
        return out
    }
}
