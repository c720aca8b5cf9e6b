import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore

/// `skateroute maps …`: the installed maps (the library) — list and remove.
struct MapsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maps",
        abstract: "List the installed maps (the names --map takes) or remove one.",
        discussion: """
        Maps are found in $SKATEROUTE_MAPS, your library $XDG_DATA_HOME/skateroute/maps (where \
        `skateroute import` writes) and the install's share/skateroute/maps. The default map (*) is \
        the settings file's map, else the last map chosen by name, else monaco.
        """,
        subcommands: [MapsListCommand.self, MapsRemoveCommand.self],
        defaultSubcommand: MapsListCommand.self
    )
}

struct MapsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the installed maps (the default).")
    @Flag(help: "Print the list as a JSON document.") var json = false

    func run() throws {
        let library = MapLibrary.standard()
        var maps: [InstalledMap] = []
        var problems: [String] = []
        for entry in library.entries() {
            do { maps.append(try InstalledMap.describe(entry)) } catch { problems.append("\(entry.path): \(error)") }
        }
        let current = try? MapChoice.choose(nil, settings: { (try? Settings.load()) ?? Settings() })
        if json {
            CLIParse.emit(DocumentSchema.document("maps", [
                "maps": .array(maps.map { Self.json($0, isDefault: $0.path == current?.path) }),
                "folders": .array(library.folders.map { .object(["path": .string($0.path), "origin": .string($0.origin.rawValue)]) }),
                "unreadable": .array(problems.map { .string($0) }),
            ]).text(pretty: true))
            return
        }
        if maps.isEmpty {
            print(TerminalSafe.clean("no maps installed (looked in \(library.folders.map(\.path).joined(separator: ", "))); import one with skateroute import --osm EXTRACT"))
        }
        // Columns as wide as the longest name and area (never cut: the name is what --map takes).
        let nameWidth = maps.map(\.name.count).max() ?? 0, areaWidth = maps.map(\.area.count).max() ?? 0
        for m in maps {
            let mark = m.path == current?.path ? "*" : " "
            let b = m.bbox
            let bbox = String(printf: "%.4f,%.4f,%.4f,%.4f", b.minLat, b.minLon, b.maxLat, b.maxLon)
            let dem = m.dem.isEmpty ? "no DEM (flat)" : "DEM " + m.dem.joined(separator: ", ")
            let source = m.source + (m.sourceTimestamp.isEmpty ? "" : " (\(m.sourceTimestamp.prefix(10)))")
            print(TerminalSafe.clean("\(mark) \(m.name.padded(toLength: nameWidth)) \(m.area.padded(toLength: areaWidth)) \(Self.size(m.bytes).padded(toLength: 8)) built \(Self.day(m.built))  bbox \(bbox) (S,W,N,E)"))
            print(TerminalSafe.clean("  \(String(repeating: " ", count: nameWidth)) from \(source); \(dem); \(m.origin.rawValue) \(m.path)"))
        }
        for p in problems { printError("skateroute: skipped unreadable map \(TerminalSafe.clean(p))") }
    }

    static func json(_ m: InstalledMap, isDefault: Bool) -> JSONText {
        .object([
            "name": .string(m.name), "area": .string(m.area), "path": .string(m.path), "origin": .string(m.origin.rawValue),
            "bbox": .array([m.bbox.minLat, m.bbox.minLon, m.bbox.maxLat, m.bbox.maxLon].map { .rounded($0, 6) }),
            "bytes": .int(Int64(m.bytes)), "built": .string(ISO8601Time.format(m.built)),
            "source": .string(m.source), "source_timestamp": .string(m.sourceTimestamp),
            "dem": .array(m.dem.map { .string($0) }), "default": .bool(isDefault),
        ])
    }

    /// A byte count as "1.4 MB" / "820 KB".
    static func size(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? FixedDecimal.string(Double(bytes) / 1e6, decimals: 1) + " MB" : "\(max(1, bytes / 1000)) KB"
    }

    /// The UTC day of a time, "2026-11-26".
    static func day(_ t: Double) -> String { String(ISO8601Time.format(t).prefix(10)) }
}

struct MapsRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove a map from your library ($XDG_DATA_HOME/skateroute/maps).")
    @Argument(help: "The map's name (see skateroute maps).") var name: String

    func run() throws {
        let library = MapLibrary.standard()
        guard let entry = library.entry(named: name) else {
            throw fail(MapChoice.unknownMapMessage(name, library: library, what: "maps rm"))
        }
        guard entry.origin == .user else {
            throw fail("\(entry.name) is not in your library but in the \(entry.origin.rawValue) folder (\(PathText.deletingLastComponent(entry.path))): remove it there (make uninstall removes the bundled maps)")
        }
        guard unlink(entry.path) == 0 else { throw fail("\(entry.path): cannot remove (\(String(cString: strerror(errno))))") }
        print(TerminalSafe.clean("removed \(entry.name) (\(entry.path))"))
    }
}
