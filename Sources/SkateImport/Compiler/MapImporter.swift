import FoundationEssentials
import Glibc
import SkateCore

/// Reads an OSM file and optional DEM files, compiles and writes a `.srmap` atomically.
public enum MapImporter {
    /// Imports a map in memory.
    /// - Parameters:
    ///   - osmPath: `.osm.pbf`, `.osm` or `.osm.bz2`.
    ///   - demPaths: SRTM `.hgt` / `.hgt.zip` tiles, ESRI ASCII grids (`.asc`) and GeoTIFFs (`.tif`),
    ///     in any mix (`CompositeDEM`: the finest answers where they overlap); empty → no elevation.
    /// - Throws: `ImportError` (one line naming the file and the problem); a DEM that leaves any
    ///   way node without a height is refused.
    public static func compile(osmPath: String, demPaths: [String], options: ImportOptions) throws -> (SkateMap, ImportStats) {
        for path in demPaths { _ = try DEMReader.format(ofFile: path) }  // fail fast, before the OSM read
        var compiler = MapCompiler(options: options)
        try OSMReader.read(path: osmPath, into: &compiler)
        guard compiler.stats.osmNodes > 0 || compiler.stats.osmWays > 0 else {
            throw ImportError(path: osmPath, problem: "no OSM nodes or ways found")
        }
        guard !compiler.keptWays.isEmpty else {
            throw ImportError(path: osmPath, problem: "no ways a skater can use (no highway=* ways)")
        }
        var dem: CompositeDEM?
        if !demPaths.isEmpty {
            let loaded = try CompositeDEM.load(paths: demPaths, window: compiler.wayNodeBounds())
            try compiler.checkCoverage(of: loaded, paths: demPaths)
            dem = loaded
        }
        let names = [osmPath] + demPaths
        let map = compiler.build(dem: dem, sources: names.map { URL(fileURLWithPath: $0).lastPathComponent })
        return (map, compiler.stats)
    }
}

extension DEM: ElevationSource {
    /// North–south sample spacing of the coarsest tile, metres (3″ ≈ 93 m, 1″ ≈ 31 m).
    public var cellSizeMetres: Double {
        tiles.map { Geo.earthRadius * Double.pi / 180 / Double(max(1, $0.size - 1)) }.max() ?? 0
    }
}
