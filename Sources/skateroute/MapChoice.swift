import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore

/// The bundled default map, found through the map library (never the current directory).
enum BundledMaps {
    /// File name of the bundled default map.
    static let defaultMapName = MapLibrary.bundledName + MapLibrary.fileExtension

    /// The bundled map's file in the first library folder holding it, else where an install
    /// would put it (so the error names a real place).
    static func defaultMapPath() -> String {
        let library = MapLibrary.standard()
        return library.path(named: MapLibrary.bundledName)
            ?? (library.folders.first { $0.origin == .install } ?? library.folders[0]).path + "/" + defaultMapName
    }
}

/// The map a command runs on and how it was chosen (for `skateroute config` and errors).
struct ChosenMap: Equatable {
    /// The `.srmap` file.
    var path: String
    /// Its library name, when it was chosen by name.
    var name: String?
    /// Where the choice came from: "flag", "file <config>:<line>", "last used", "default".
    var origin: String
}

/// Turns `--map` (a library name or a path), the settings file's `map`, the last map chosen by
/// name and the bundled map, in that order, into a file.
enum MapChoice {
    /// The map for a `--map` value (nil: not given). A name that is no installed map throws
    /// after one line listing the installed ones (exit 1). A name chosen with the flag becomes
    /// the last used map.
    /// `remember: false` (`skateroute config`) shows a choice without making it the last used.
    static func choose(_ flag: String?, remember: Bool = true, settings: () throws -> Settings = loadSettings) throws -> ChosenMap {
        let library = MapLibrary.standard()
        if let flag {
            let chosen = try resolve(flag, library: library, origin: "flag", what: "--map")
            if remember, let name = chosen.name { LastUsedMap.record(name) }
            return chosen
        }
        let s = try settings()
        if let value = s.values["map"] {
            return try resolve(value, library: library, origin: s.origin(of: "map") ?? "file", what: "the settings file's map")
        }
        if let last = LastUsedMap.read(), let path = library.path(named: last) {
            return ChosenMap(path: path, name: last, origin: "last used")
        }
        return ChosenMap(path: BundledMaps.defaultMapPath(), name: MapLibrary.bundledName, origin: "default")
    }

    /// A library name or a path as a map file.
    static func resolve(_ text: String, library: MapLibrary, origin: String, what: String) throws -> ChosenMap {
        if MapLibrary.looksLikePath(text) { return ChosenMap(path: text, name: nil, origin: origin) }
        if let entry = library.entry(named: text) { return ChosenMap(path: entry.path, name: entry.name, origin: origin) }
        // A bare file name in the current folder still works as a path (maps made with --out).
        if access(text, F_OK) == 0 { return ChosenMap(path: text, name: nil, origin: origin) }
        throw fail(unknownMapMessage(text, library: library, what: what))
    }

    /// "no map named 'x' (did you mean 'y'?); installed: a, b — see skateroute maps".
    static func unknownMapMessage(_ text: String, library: MapLibrary, what: String) -> String {
        let names = library.names()
        let hint = TextSuggestion.closest(text, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        let installed = names.isEmpty
            ? "no maps are installed (looked in \(library.folders.map(\.path).joined(separator: ", ")))"
            : "installed: \(names.joined(separator: ", "))"
        return "\(what): no map named '\(TerminalSafe.quoted(text, maxLength: 60))'\(hint); \(installed) — see skateroute maps, or give a .srmap path"
    }
}

/// The settings file, or exit 1 with one line naming its bad line.
func loadSettings() throws -> Settings {
    do { return try Settings.load() } catch { throw fail("settings \(error.description)") }
}

/// The `--map` option shared by every command that reads a map: a library name or a path.
struct MapOption: ParsableArguments {
    @Option(name: .long, help: "Map: a name from `skateroute maps` or a .srmap path. Default: the settings file's map, else the last map chosen by name, else the bundled monaco.",
            completion: .file(extensions: ["srmap"]))
    var map: String?

    /// The chosen map's file, or exit 1 with one line (an unknown name lists the installed maps).
    var path: String { get throws { try MapChoice.choose(map).path } }

    /// Loads the map or throws an ExitCode after printing one clear line.
    func load(copying: Bool = false) throws -> SkateMap { try loadMap(map, copying: copying) }

    /// Loads the map for a session that outlives any file mapping (`MapFormat.loadForSession`),
    /// or throws an ExitCode after printing one clear line.
    func loadForSession() throws -> SkateMap {
        let p = try MapChoice.choose(map).path
        announceFirstUseCheck(p)
        do { return try MapFormat.loadForSession(path: p) } catch let e as MapFileError { throw fail(e.description) }
    }
}

/// Loads the map `spec` names (a library name or a path; nil: the default map) or throws an
/// ExitCode after printing one clear line.
/// `copying`: see `MapFormat.load(path:copying:)` (long-running commands copy).
func loadMap(_ spec: String?, copying: Bool = false) throws -> SkateMap {
    let p = try MapChoice.choose(spec).path
    announceFirstUseCheck(p)
    do { return try MapFormat.load(path: p, copying: copying) } catch let e as MapFileError {
        throw fail(e.description)
    }
}

/// A map at least this large is announced on stderr before its first-use check: hashing it
/// takes about a quarter of a second or more (245 ms for the 935 MB K = 7 region, idle; 2.5 s
/// with its pages not yet cached), long enough for a blank terminal to look like a hang.
let firstUseNoticeBytes = 200_000_000

/// Says on stderr (a terminal only: scripts see nothing new) that a large map is checked once
/// before it opens, when its load will hash it (`MapFormat.firstUseHashBytes`).
func announceFirstUseCheck(_ path: String) {
    guard isatty(2) == 1, let size = MapFormat.firstUseHashBytes(path: path), size >= firstUseNoticeBytes else { return }
    let name = TerminalSafe.clean(PathText.lastComponent(path))
    printError("skateroute: checking \(name) (\(size / 1_000_000) MB) once, on its first use here…")
}
