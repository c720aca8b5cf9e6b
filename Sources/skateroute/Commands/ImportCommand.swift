import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateImport

/// `skateroute import`: compiles an OSM extract (+ SRTM tiles) into a `.srmap`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Compile an OpenStreetMap extract and elevation (SRTM, GeoTIFF, ASCII grid) into a SkateRoute map.",
        discussion: """
        Example: skateroute import --osm monaco-latest.osm.pbf --dem N43E007.hgt --out Maps/monaco.srmap --name Monaco
        Reads .osm.pbf, .osm and .osm.bz2. DEMs: SRTM .hgt (1" or 3") or .hgt.zip, GeoTIFF (.tif) and ESRI ASCII
        grids (.asc) in WGS84 longitude/latitude (EPSG:4326); repeat --dem to stack several (the finest answers where
        they overlap). The DEMs must cover every street of the map. Without --dem, grades are 0.
        """
    )

    @Option(help: "OpenStreetMap extract: .osm.pbf, .osm or .osm.bz2.", completion: .file(extensions: ["pbf", "osm", "bz2"])) var osm: String
    @Option(help: "Elevation: SRTM tile (.hgt, .hgt.zip), GeoTIFF (.tif) or ESRI ASCII grid (.asc), WGS84 lon/lat; repeat for several.", completion: .file(extensions: ["hgt", "zip", "tif", "tiff", "asc"])) var dem: [String] = []
    @Option(help: "Output map file (.srmap).") var out: String
    @Option(help: "Area name shown in the app.") var name: String?
    @Flag(help: "Print timings and counts.") var verbose = false
    @Flag(help: "One landmark table shared by all ride modes (same as --landmarks shared): the smallest map, slower searches in smoothest, fastMildRoughness and nightSafe.") var compact = false
    @Option(help: ArgumentHelp("Which ride modes share an ALT landmark table: per-mode, shared, or groups such as smoothest+nightSafe,chillFewCrossings+fastMildRoughness+trickSpotCrawl (each mode once). Default: \(LandmarkLayout.standard).", valueName: "layout")) var landmarks: String?

    /// The layout `--compact` / `--landmarks` ask for.
    static func layout(compact: Bool, landmarks: String?) throws -> LandmarkLayout {
        if compact && landmarks != nil { throw usageError("--compact and --landmarks: choose one") }
        if compact { return .shared }
        guard let text = landmarks else { return .standard }
        guard let l = LandmarkLayout(parsing: text) else {
            throw usageError("--landmarks: expected per-mode, shared or groups of modes joined by + and separated by commas, each of \(RideMode.allCases.map(\.rawValue).joined(separator: ", ")) once")
        }
        return l
    }

    func run() throws {
        let layout = try Self.layout(compact: compact, landmarks: landmarks)
        let t0 = Date()
        let areaName = name ?? URL(fileURLWithPath: osm).lastPathComponent.components(separatedBy: ".").first ?? "Map"
        let map: SkateMap, stats: ImportStats
        do {
            (map, stats) = try MapImporter.compile(osmPath: osm, demPaths: dem, options: ImportOptions(name: areaName))
        } catch let e as ImportError {
            throw fail(e.description)
        }
        let t1 = Date()
        do { try MapFormat.write(map, to: out, landmarks: layout) } catch let e as MapFileError { throw fail(e.description) }
        let t2 = Date()
        let size = (try? InputPath.regularFileSize(out)) ?? 0
        print("wrote \(out): \(map.nodeCount) nodes, \(map.edgeCount) edges, \(map.placeCount) places, \(map.zoneCount) no-report zones, \(size / 1024) KiB")
        if verbose {
            print(String(printf: "compile %.3f s, write %.3f s; OSM %d nodes, %d ways (%d highway, %d kept), %d relations; %d missing node refs; %d edges with elevation",
                         t1.timeIntervalSince(t0), t2.timeIntervalSince(t1), stats.osmNodes, stats.osmWays, stats.highwayWays,
                         map.metadata.waysKept, stats.osmRelations, stats.missingNodeRefs, stats.edgesWithElevation))
        }
    }
}
