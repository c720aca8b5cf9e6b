import FoundationEssentials
import Glibc
import SkateCore

/// What one import reads: the extract, the DEMs (files and/or a folder of tiles), the part of the
/// extract to keep, and whether DEM gaps are allowed.
public struct ImportRequest: Sendable {
    /// `.osm.pbf`, `.osm`, `.osm.bz2` or `.osm.gz`.
    public var osmPath: String
    /// SRTM `.hgt` / `.hgt.zip` tiles, ESRI ASCII grids (`.asc`) and GeoTIFFs (`.tif`), in any mix
    /// (`CompositeDEM`: the finest answers where they overlap).
    public var demPaths: [String]
    /// A folder of DEM files: the SRTM tiles the map touches and every other DEM file in it.
    public var demDirectory: String?
    /// Keep only this part of the extract (`--bbox`, `--poly`); nil keeps all of it.
    public var area: ImportArea?
    /// Build even when the DEMs leave some way nodes without a height: those ways stay flat.
    public var allowPartialDEM: Bool
    public var options: ImportOptions

    public init(osmPath: String, demPaths: [String] = [], demDirectory: String? = nil, area: ImportArea? = nil,
                allowPartialDEM: Bool = false, options: ImportOptions) {
        self.osmPath = osmPath; self.demPaths = demPaths; self.demDirectory = demDirectory
        self.area = area; self.allowPartialDEM = allowPartialDEM; self.options = options
    }
}

/// What an import found besides the map, for the CLI's summary.
public struct ImportReport: Sendable, Equatable {
    public var stats = ImportStats()
    /// The DEM files used (given ones and those taken from the folder).
    public var demFiles: [String] = []
    /// How much of the way nodes the DEMs cover (nil without DEMs).
    public var coverage: DEMCoverage?
    /// SRTM tiles the map touches (for a note when no DEM was given).
    public var neededTiles: [String] = []
    /// Nodes read and kept by `--bbox` / `--poly` (equal without an area).
    public var nodesRead = 0, nodesKept = 0
    /// What `GroundModel` changed in the DEMs (nil without DEMs).
    public var ground: GroundReport?
    /// Seconds reading the extract (wall and this process's CPU time): with `--bbox`/`--poly`,
    /// the part of a cut that grows with the file rather than with what is kept.
    public var readSeconds = 0.0, readCPUSeconds = 0.0
}

/// One step of an import, for progress lines: a phase and, when known, the fraction done (0…1).
public typealias ImportProgress = (_ phase: String, _ fraction: Double?) -> Void

/// Reads an OSM file and optional DEM files, compiles and writes a `.srmap` atomically.
public enum MapImporter {
    /// Imports a map in memory (the form most tests use).
    /// - Throws: `ImportError` (one line naming the file and the problem); a DEM that leaves any
    ///   way node without a height is refused.
    public static func compile(osmPath: String, demPaths: [String], options: ImportOptions) throws -> (SkateMap, ImportStats) {
        let (map, report) = try compile(ImportRequest(osmPath: osmPath, demPaths: demPaths, options: options))
        return (map, report.stats)
    }

    /// Imports a map in memory.
    /// - Throws: `ImportError` naming the file and the problem: an unreadable extract or DEM, an
    ///   extract (or area of it) without highways, DEMs that leave way nodes without a height
    ///   (unless `allowPartialDEM`; the message names the SRTM tiles missing).
    public static func compile(_ request: ImportRequest, progress: ImportProgress? = nil) throws -> (SkateMap, ImportReport) {
        for path in request.demPaths { _ = try DEMReader.format(ofFile: path) }  // fail fast, before the OSM read
        let osmPath = request.osmPath
        let base = PathText.lastComponent(osmPath)
        var report = ImportReport()
        let reading = "reading \(base)"
        var lastPercent = -1
        let onBytes: ((Int, Int) -> Void)? = progress.map { p in
            { done, total in
                let percent = total > 0 ? done * 100 / total : 0
                if percent != lastPercent { lastPercent = percent; p(reading, Double(done) / Double(max(1, total))) }
            }
        }
        var compiler: MapCompiler
        let readStart = ContinuousClock.now, readCPUStart = Self.cpuSeconds()
        if let area = request.area {
            var clipper = AreaClipper(area: area, inner: MapCompiler(options: request.options))
            try OSMReader.read(path: osmPath, into: &clipper, progress: onBytes)
            compiler = clipper.inner
            report.nodesRead = clipper.nodesSeen
            report.nodesKept = clipper.nodesKept
            guard clipper.nodesKept > 0 || clipper.nodesSeen == 0 else {
                throw ImportError(path: osmPath, problem: "the area selects no node of the extract (the area spans \(DEMReader.describe(area.bounds)); the extract spans \(DEMReader.describe(clipper.extractBounds)))")
            }
        } else {
            compiler = MapCompiler(options: request.options)
            try OSMReader.read(path: osmPath, into: &compiler, progress: onBytes)
            report.nodesRead = compiler.stats.osmNodes
            report.nodesKept = compiler.stats.osmNodes
        }
        let readTime = ContinuousClock.now - readStart
        report.readSeconds = Double(readTime.components.seconds) + Double(readTime.components.attoseconds) / 1e18
        report.readCPUSeconds = Self.cpuSeconds() - readCPUStart
        progress?(reading, 1)
        guard compiler.stats.osmNodes > 0 || compiler.stats.osmWays > 0 else {
            throw ImportError(path: osmPath, problem: "no OSM nodes or ways found")
        }
        guard !compiler.keptWays.isEmpty else {
            let inArea = request.area == nil ? "" : " in the area kept"
            throw ImportError(path: osmPath, problem: "no ways a skater can use\(inArea) (no highway=* ways)")
        }
        let bounds = compiler.wayNodeBounds()
        report.neededTiles = DEMTiles.names(covering: bounds)
        var demPaths = request.demPaths
        if let dir = request.demDirectory {
            let found = try DEMTiles.files(in: dir, for: bounds)
            let present = Set(found.compactMap { DEMTiles.tileName(ofFile: $0) })
            // Only SRTM tiles, and none the map needs: say which ones, before reading any.
            if !found.contains(where: { DEMTiles.tileName(ofFile: $0) == nil }) && present.isEmpty && demPaths.isEmpty {
                throw ImportError(path: dir, problem: "holds none of the tiles the map needs: \(DEMCoverage.tileAdvice(report.neededTiles))")
            }
            demPaths += found
        }
        var dem: CompositeDEM?
        if !demPaths.isEmpty {
            progress?("loading \(demPaths.count) DEM file\(demPaths.count == 1 ? "" : "s")", nil)
            for path in demPaths where !request.demPaths.contains(path) { _ = try DEMReader.format(ofFile: path) }
            let loaded = try CompositeDEM.load(paths: demPaths, window: bounds)
            if request.allowPartialDEM {
                report.coverage = compiler.coverage(of: loaded)
            } else {
                try compiler.checkCoverage(of: loaded, paths: demPaths)
                report.coverage = DEMCoverage(total: 0, missing: 0)
            }
            // Ground, not roofs: posts under buildings re-interpolated from open posts.
            let (ground, groundReport) = GroundModel.apply(to: loaded, footprints: compiler.buildingFootprints(), box: bounds)
            report.ground = groundReport
            dem = ground
        }
        report.demFiles = demPaths
        progress?("building the map", 0)
        let names = [osmPath] + demPaths
        let map = compiler.build(dem: dem, sources: names.map { PathText.lastComponent($0) },
                                 progress: progress.map { p in { p("building the map", $0) } })
        report.stats = compiler.stats
        return (map, report)
    }
}

extension MapImporter {
    /// This process's CPU time in seconds (all threads).
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

extension DEM: ElevationSource {
    /// North–south sample spacing of the coarsest tile, metres (3″ ≈ 93 m, 1″ ≈ 31 m).
    public var cellSizeMetres: Double {
        tiles.map { Geo.earthRadius * Double.pi / 180 / Double(max(1, $0.size - 1)) }.max() ?? 0
    }
}
