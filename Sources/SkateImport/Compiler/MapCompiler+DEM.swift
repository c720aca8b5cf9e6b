import FoundationEssentials
import Glibc
import SkateCore

/// What the importer checks of the DEMs against the ways it kept, before building the map.
extension MapCompiler {
    /// Box of the nodes of the kept ways, degrees (empty when no way node has a position).
    func wayNodeBounds() -> BoundingBox {
        var box = BoundingBox.empty
        for way in keptWays {
            for ref in way.refs {
                if let i = nodeIndex[ref] { box.extend(lat: nodeIndex.lat(i), lon: nodeIndex.lon(i)) }
            }
        }
        return box
    }

    /// How much of the kept ways' nodes `dem` gives a height, and which SRTM tiles hold the rest.
    func coverage(of dem: CompositeDEM) -> DEMCoverage {
        // The distinct way nodes in way order, then their DEM lookups on both cores (pure reads).
        var seen = [Bool](repeating: false, count: nodeIndex.count)
        var nodes: [Int32] = []
        for way in keptWays {
            for ref in way.refs {
                guard let i = nodeIndex[ref], !seen[Int(i)] else { continue }
                seen[Int(i)] = true
                nodes.append(i)
            }
        }
        let covered = ParallelMap.map(nodes.count) { k in
            dem.elevation(lat: nodeIndex.lat(nodes[k]), lon: nodeIndex.lon(nodes[k])) != nil
        }
        var c = DEMCoverage()
        c.total = nodes.count
        var tiles = Set<String>()
        for (k, i) in nodes.enumerated() where !covered[k] {
            c.missing += 1
            if c.firstGap == nil { c.firstGap = Coordinate(lat: nodeIndex.lat(i), lon: nodeIndex.lon(i)) }
            tiles.insert(DEMTiles.name(lat: nodeIndex.lat(i), lon: nodeIndex.lon(i)))
        }
        c.missingTiles = tiles.sorted()
        return c
    }

    /// Refuses DEMs that leave any node of a kept way without a height: a map whose grades are
    /// partly invented (flat where the DEM stops) would hide real descents.
    /// - Throws: `ImportError` naming the DEM file (the first, when several were given), how
    ///   much of the map it covers and the SRTM tiles that hold the rest.
    func checkCoverage(of dem: CompositeDEM, paths: [String]) throws(ImportError) {
        let c = coverage(of: dem)
        guard c.missing > 0, let gap = c.firstGap, let first = paths.first else { return }
        // Name the one file that was used when there is one; else the first given.
        let path = dem.layers.count == 1 ? dem.layers[0].path : first
        let used = dem.layers.count == 1 ? "the DEM spans" : "the \(dem.layers.count) DEM files span"
        let spans = dem.layers.isEmpty ? "" : "; \(used) \(DEMReader.describe(dem.bounds))"
        let skipped = dem.skipped.isEmpty ? "" : "; outside the map: " + dem.skipped.map { PathText.lastComponent($0) }.joined(separator: ", ")
        let map = "the map spans \(DEMReader.describe(wayNodeBounds()))"
        let need = "; " + DEMCoverage.tileAdvice(c.missingTiles)
        if c.missing == c.total {
            let others = paths.count == 1 ? "" : " (nor do the other \(paths.count - 1) DEM files)"
            throw ImportError(path: path, problem: "\(DEMReader.noOverlapProblem)\(others): \(map)\(spans)\(skipped)\(need)")
        }
        throw ImportError(path: path, problem: String(printf: "covers only %.1f %% of the map's %d way nodes (none at %.5f,%.5f): %@%@%@%@",
                                                       c.coveredPercent, c.total, gap.lat, gap.lon, map, spans, skipped, need))
    }
}

/// How much of a map's way nodes the DEMs give a height (`import --allow-partial-dem` reports it).
public struct DEMCoverage: Sendable, Equatable {
    /// Distinct nodes of kept ways, and those without a height.
    public var total = 0, missing = 0
    public var firstGap: Coordinate?
    /// SRTM tile names (`N49E007`) of the nodes without a height, sorted.
    public var missingTiles: [String] = []

    public var coveredPercent: Double { total == 0 ? 100 : 100 * Double(total - missing) / Double(total) }

    /// "missing SRTM tiles N49E007, N49E009 (…naming…; get …): add them with --dem or --dem-dir,
    /// or --allow-partial-dem keeps those ways flat".
    public static func tileAdvice(_ tiles: [String]) -> String {
        "missing SRTM tile\(tiles.count == 1 ? "" : "s") \(DEMTiles.list(tiles)) (1°×1° tiles named by their south-west corner, e.g. \(tiles.first ?? "N49E008").hgt or .hgt.zip; \(DEMTiles.whereToGet)): add them with --dem or --dem-dir, or --allow-partial-dem keeps those ways flat"
    }
}
