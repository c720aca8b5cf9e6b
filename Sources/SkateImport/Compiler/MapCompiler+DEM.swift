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
                if let i = nodeIndex[ref] { box.extend(lat: lats[Int(i)], lon: lons[Int(i)]) }
            }
        }
        return box
    }

    /// Refuses DEMs that leave any node of a kept way without a height: a map whose grades are
    /// partly invented (flat where the DEM stops) would hide real descents.
    /// - Throws: `ImportError` naming the DEM file (the first, when several were given) and how
    ///   much of the map it covers.
    func checkCoverage(of dem: CompositeDEM, paths: [String]) throws(ImportError) {
        var seen = [Bool](repeating: false, count: lats.count)
        var total = 0, missing = 0
        var firstGap: (lat: Double, lon: Double)?
        for way in keptWays {
            for ref in way.refs {
                guard let i = nodeIndex[ref].map(Int.init), !seen[i] else { continue }
                seen[i] = true
                total += 1
                if dem.elevation(lat: lats[i], lon: lons[i]) == nil {
                    missing += 1
                    if firstGap == nil { firstGap = (lats[i], lons[i]) }
                }
            }
        }
        guard missing > 0, let gap = firstGap, let first = paths.first else { return }
        // Name the one file that was used when there is one; else the first given.
        let path = dem.layers.count == 1 ? dem.layers[0].path : first
        let used = dem.layers.count == 1 ? "the DEM spans" : "the \(dem.layers.count) DEM files span"
        let spans = dem.layers.isEmpty ? "" : "; \(used) \(DEMReader.describe(dem.bounds))"
        let skipped = dem.skipped.isEmpty ? "" : "; outside the map: " + dem.skipped.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ")
        let map = "the map spans \(DEMReader.describe(wayNodeBounds()))"
        if missing == total {
            let others = paths.count == 1 ? "" : " (nor do the other \(paths.count - 1) DEM files)"
            throw ImportError(path: path, problem: "\(DEMReader.noOverlapProblem)\(others): \(map)\(spans)\(skipped)")
        }
        let share = 100 * Double(total - missing) / Double(total)
        throw ImportError(path: path, problem: String(printf: "covers only %.1f %% of the map's %d way nodes (none at %.5f,%.5f): add a DEM for the rest; %@%@%@",
                                                       share, total, gap.lat, gap.lon, map, spans, skipped))
    }
}
