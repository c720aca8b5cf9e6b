import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateImport

/// `skateroute import`: compiles an OSM extract (+ elevation) into a map in the library, or a `.srmap` file.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Compile an OpenStreetMap extract and elevation (SRTM, GeoTIFF, ASCII grid) into a SkateRoute map.",
        discussion: """
        Example: skateroute import --osm heidelberg.osm.pbf --dem-dir ~/srtm   (then: skateroute plan --map heidelberg …)
        Without --out the map goes into your library ($XDG_DATA_HOME/skateroute/maps) under a name from --name or \
        the extract's file name (heidelberg-latest.osm.pbf → heidelberg); an existing name is refused unless --replace.
        Reads .osm.pbf, .osm and .osm.bz2. DEMs: SRTM .hgt (1" or 3") or .hgt.zip, GeoTIFF (.tif) and ESRI ASCII \
        grids (.asc) in WGS84 longitude/latitude (EPSG:4326); repeat --dem to stack several (the finest answers where \
        they overlap), or give a folder with --dem-dir. The DEMs must cover every street of the map (a missing tile is \
        named, e.g. N49E009) unless --allow-partial-dem. Without any DEM, grades are 0.
        --bbox S,W,N,E or --poly FILE (osmosis .poly) keeps one city of a regional extract while reading it.
        """
    )

    @Option(help: "OpenStreetMap extract: .osm.pbf, .osm or .osm.bz2 ('-': standard input; then give --name or --out).", completion: .file(extensions: ["pbf", "osm", "bz2"])) var osm: String
    @Option(help: "Elevation: SRTM tile (.hgt, .hgt.zip), GeoTIFF (.tif) or ESRI ASCII grid (.asc), WGS84 lon/lat; repeat for several.", completion: .file(extensions: ["hgt", "zip", "tif", "tiff", "asc"])) var dem: [String] = []
    @Option(help: "A folder of DEM files: the SRTM tiles the map touches (N49E008.hgt[.zip]) and every .tif/.asc in it.", completion: .directory) var demDir: String?
    @Flag(help: "Build even when the DEMs leave some streets without a height (reports the share; those ways stay flat).") var allowPartialDem = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Keep only this box of the extract: south,west,north,east in degrees.", valueName: "S,W,N,E")) var bbox: String?
    @Option(help: "Keep only the area of this osmosis polygon file (.poly).", completion: .file(extensions: ["poly"])) var poly: String?
    @Option(help: "Output map file (.srmap). Default: your map library, under the map's name.") var out: String?
    @Option(help: "Area name shown in the app; also the library name (lower-cased, spaces as -). Default: from the extract's file name.") var name: String?
    @Flag(help: "Replace a library map of the same name.") var replace = false
    @Flag(help: "Print timings and counts.") var verbose = false
    @Flag(help: "One landmark table shared by all ride modes (same as --landmarks shared): the smallest map, slower searches in smoothest, fastMildRoughness and nightSafe.") var compact = false
    @Option(help: ArgumentHelp("Which ride modes share an ALT landmark table: per-mode, shared, or groups such as smoothest+nightSafe,chillFewCrossings+fastMildRoughness+trickSpotCrawl (each mode once). Default: \(LandmarkLayout.importDefault) (96 bytes per node more than fastMildRoughness,smoothest+chillFewCrossings+nightSafe+trickSpotCrawl, for the fastest searches).", valueName: "layout")) var landmarks: String?

    /// The layout `--compact` / `--landmarks` ask for.
    static func layout(compact: Bool, landmarks: String?) throws -> LandmarkLayout {
        if compact && landmarks != nil { throw usageError("--compact and --landmarks: choose one") }
        if compact { return .shared }
        guard let text = landmarks else { return .importDefault }
        guard let l = LandmarkLayout(parsing: text) else {
            throw usageError("--landmarks: expected per-mode, shared or groups of modes joined by + and separated by commas, each of \(RideMode.allCases.map(\.rawValue).joined(separator: ", ")) once")
        }
        return l
    }

    /// The area `--bbox` / `--poly` keep, or nil; one line and exit 1 when unusable.
    func area() throws -> ImportArea? {
        switch (bbox, poly) {
        case (nil, nil): return nil
        case (.some, .some): throw usageError("--bbox and --poly: choose one")
        case (let b?, nil):
            switch ImportArea.parseBox(b) {
            case .success(let box): return .box(box)
            case .failure(let e): throw usageError(e.description)
            }
        case (nil, let p?):
            do { return .polygon(try OsmosisPolygon.load(path: p)) } catch { throw fail(error.description) }
        }
    }

    /// Where the map goes: `--out`, else the library under its name (refused when taken, unless --replace).
    func destination(areaName: String) throws -> (path: String, libraryName: String?) {
        if let out { return (out, nil) }
        let libName = name.map(MapLibrary.slug) ?? MapLibrary.name(fromExtract: osm)
        guard MapLibrary.isValidName(libName) else {
            throw fail("cannot make a map name from '\(TerminalSafe.quoted(name ?? osm, maxLength: 60))': give --name with letters or digits, or --out FILE")
        }
        let library = MapLibrary.standard()
        if let existing = library.entry(named: libName), !replace {
            throw fail("a map named \(existing.name) is already installed (\(existing.path)): add --replace to replace it, or choose another --name")
        }
        return (library.userFolder + "/" + libName + MapLibrary.fileExtension, libName)
    }

    /// The note an import without any DEM prints: which SRTM tiles the area needs, and the command
    /// that adds them. A library import must say `--replace` too, or running it again as told is
    /// refused (the map of that name now exists).
    static func noDEMNote(neededTiles: [String], library: Bool) -> String {
        let tiles = "SRTM tile\(neededTiles.count == 1 ? "" : "s") \(DEMTiles.list(neededTiles))"
        return "skateroute: note: no --dem or --dem-dir: every grade is 0; this area needs \(tiles): put \(neededTiles.count == 1 ? "it" : "them") in one folder and run the same import again with --dem-dir FOLDER\(library ? " --replace" : "")"
    }

    func run() throws {
        let layout = try Self.layout(compact: compact, landmarks: landmarks)
        if osm == "-" && name == nil && out == nil { throw usageError("--osm -: give --name (the map's name) or --out FILE") }
        let area = try area()
        let t0 = Date()
        let areaName = name ?? MapLibrary.displayName(fromExtract: osm)
        let (outPath, libraryName) = try destination(areaName: areaName)
        // `-`: standard input, streamed to a temporary file (the readers tell the format from the bytes).
        let osmPath = try StdinInput.path(for: osm, suffix: ".osm", limit: Int.max)
        let request = ImportRequest(osmPath: osmPath, demPaths: dem, demDirectory: demDir, area: area,
                                    allowPartialDEM: allowPartialDem, options: ImportOptions(name: areaName))
        let progress = ProgressLine.standardError()
        let map: SkateMap, report: ImportReport
        do {
            (map, report) = try MapImporter.compile(request, progress: progress.map { p in { phase, fraction in p.show(phase, fraction) } })
        } catch let e as ImportError {
            progress?.clear()
            throw fail(e.description)
        }
        let t1 = Date()
        let writing = "writing \(PathText.lastComponent(outPath))"
        progress?.show(writing, 0)
        if libraryName != nil {
            try? FileManager.default.createDirectory(atPath: PathText.deletingLastComponent(outPath), withIntermediateDirectories: true)
        }
        do {
            let onWrite: (@Sendable (Double) -> Void)? = progress.map { p in { @Sendable f in p.show(writing, f) } }
            try MapFormat.write(map, to: outPath, landmarks: layout, progress: onWrite, stampVerified: true)
        } catch let e as MapFileError {
            progress?.clear()
            throw fail(e.description)
        }
        progress?.clear()
        let t2 = Date()
        let size = (try? InputPath.regularFileSize(outPath)) ?? 0
        let label = libraryName.map { "map \($0) (\(outPath))" } ?? outPath
        print(TerminalSafe.clean("wrote \(label): \(map.nodeCount) nodes, \(map.edgeCount) edges, \(map.placeCount) places, \(map.zoneCount) no-report zones, \(size / 1024) KiB"))
        if let c = report.coverage, c.missing > 0 {
            printError(TerminalSafe.clean(String(printf: "skateroute: warning: the DEMs cover %.1f %% of the way nodes; %d nodes in %@ have no height and their ways stay flat (--allow-partial-dem)",
                                                 c.coveredPercent, c.missing, DEMTiles.list(c.missingTiles))))
        } else if report.demFiles.isEmpty {
            printError(Self.noDEMNote(neededTiles: report.neededTiles, library: libraryName != nil))
        }
        if report.stats.absurdSegments > 0 {
            let n = report.stats.absurdSegments
            printError("skateroute: warning: cut \(n) way step\(n == 1 ? "" : "s") longer than \(Int(MapCompiler.maxSegmentLength / 1000)) km between two nodes out of the map (first in way \(report.stats.firstAbsurdWay)): a broken extract?")
        }
        if let libraryName { print("plan on it with: skateroute plan --map \(libraryName) --from … --to …") }
        if verbose {
            let stats = report.stats
            print(String(printf: "compile %.3f s, write %.3f s; OSM %d nodes, %d ways (%d highway, %d kept), %d relations; %d missing node refs; %d edges with elevation",
                         t1.timeIntervalSince(t0), t2.timeIntervalSince(t1), stats.osmNodes, stats.osmWays, stats.highwayWays,
                         map.metadata.waysKept, stats.osmRelations, stats.missingNodeRefs, stats.edgesWithElevation))
            if area != nil { print("area kept \(report.nodesKept) of \(report.nodesRead) nodes") }
            print(String(printf: "read the extract in %.3f s (%.3f s CPU)", report.readSeconds, report.readCPUSeconds))
            if !report.demFiles.isEmpty { print("DEM files: " + report.demFiles.map { PathText.lastComponent($0) }.joined(separator: ", ")) }
            if let g = report.ground { print(g.summary) }
        }
    }
}
