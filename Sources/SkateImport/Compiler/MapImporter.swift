import Foundation
import SkateCore

/// Reads an OSM file and optional DEM tiles, compiles and writes a `.srmap` atomically.
public enum MapImporter {
    /// Imports a map in memory.
    /// - Parameters:
    ///   - osmPath: `.osm.pbf`, `.osm` or `.osm.bz2`.
    ///   - demPaths: SRTM `.hgt` / `.hgt.zip` tiles; empty → no elevation.
    /// - Throws: `ImportError` (one line naming the file and the problem).
    public static func compile(osmPath: String, demPaths: [String], options: ImportOptions) throws -> (SkateMap, ImportStats) {
        var dem: DEM?
        if !demPaths.isEmpty { dem = try DEM(paths: demPaths) }
        var compiler = MapCompiler(options: options)
        try OSMReader.read(path: osmPath, into: &compiler)
        guard compiler.stats.osmNodes > 0 || compiler.stats.osmWays > 0 else {
            throw ImportError(path: osmPath, problem: "no OSM nodes or ways found")
        }
        guard !compiler.keptWays.isEmpty else {
            throw ImportError(path: osmPath, problem: "no ways a skater can use (no highway=* ways)")
        }
        let names = [osmPath] + demPaths
        let map = compiler.build(dem: dem, sources: names.map { URL(fileURLWithPath: $0).lastPathComponent })
        if let dem, let first = demPaths.first, !dem.covers(map.bbox) {
            if map.metadata.hasElevation && compiler.stats.edgesWithElevation == 0 {
                throw ImportError(path: first, problem: "DEM does not cover the map area \(map.bbox)")
            }
        }
        return (map, compiler.stats)
    }
}

extension DEM: ElevationSource {
    /// North–south sample spacing of the coarsest tile, metres (3″ ≈ 93 m, 1″ ≈ 31 m).
    public var cellSizeMetres: Double {
        tiles.map { Geo.earthRadius * Double.pi / 180 / Double(max(1, $0.size - 1)) }.max() ?? 0
    }
}
