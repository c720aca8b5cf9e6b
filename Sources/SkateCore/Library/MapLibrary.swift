import FoundationEssentials
import Glibc

/// The folders where installed maps live, and how a map name becomes a file.
///
/// A map's name is its file name without `.srmap` (`monaco` for `monaco.srmap`). Folders are
/// searched in this order; the first holding a name wins:
/// 1. `$SKATEROUTE_MAPS` (an explicit override),
/// 2. the user's library `$XDG_DATA_HOME/skateroute/maps` (default `~/.local/share/…`), where
///    `skateroute import` writes,
/// 3. the install's `share/skateroute/maps`, found from the executable's real path
///    (`/proc/self/exe`: `PREFIX/bin/skateroute` → `PREFIX/share/skateroute/maps`),
/// 4. only for a binary that sits in a SwiftPM build folder (`<checkout>/.build*/…`): the
///    checkout's `Maps/`, so `swift run skateroute` works from a clone.
/// Never the current directory: an installed binary must not depend on where it is run.
/// Plain POSIX calls (getenv, access, realpath): this runs on every `skateroute plan`.
public struct MapLibrary: Sendable, Equatable {
    /// Where a folder of maps comes from, for `skateroute maps` and error messages.
    public enum Origin: String, Sendable, Equatable {
        case environment = "$SKATEROUTE_MAPS", user = "library", install = "install", checkout = "checkout"
    }

    /// One folder searched for maps.
    public struct Folder: Sendable, Equatable {
        public var path: String
        public var origin: Origin
        public init(path: String, origin: Origin) { self.path = path; self.origin = origin }
    }

    /// One installed map: its name, its file and the folder it was found in.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var path: String
        public var origin: Origin
    }

    /// Name of the bundled default map (`Maps/monaco.srmap`).
    public static let bundledName = "monaco"
    /// File extension of compiled maps.
    public static let fileExtension = ".srmap"
    /// Longest map name accepted (a file name, with room for the extension and a temporary suffix).
    public static let maxNameLength = 64

    /// The folders searched, in order (existing or not).
    public var folders: [Folder]
    /// The user's library, where imports are written (`$XDG_DATA_HOME/skateroute/maps`).
    public var userFolder: String

    public init(folders: [Folder], userFolder: String) {
        self.folders = folders; self.userFolder = userFolder
    }

    /// The library of this process: environment variables and the executable's location.
    public static func standard() -> MapLibrary {
        standard(environment: XDGPaths.process, executablePath: executablePath())
    }

    /// The library seen from `environment` by an executable at `executablePath` (its real path;
    /// nil when unknown). For tests and for the standard one.
    public static func standard(environment: (String) -> String?, executablePath: String?) -> MapLibrary {
        func env(_ k: String) -> String? { environment(k).flatMap { $0.isEmpty ? nil : $0 } }
        var folders: [Folder] = []
        if let dir = env("SKATEROUTE_MAPS") { folders.append(Folder(path: dir, origin: .environment)) }
        let user = (XDGPaths.dataHome(environment) ?? "/nonexistent") + "/skateroute/maps"
        folders.append(Folder(path: user, origin: .user))
        if let exe = executablePath {
            let prefix = PathText.deletingLastComponent(PathText.deletingLastComponent(exe))
            folders.append(Folder(path: PathText.appending(prefix, "share/skateroute/maps"), origin: .install))
            if let checkout = checkoutRoot(ofBuildProduct: exe) {
                folders.append(Folder(path: checkout + "/Maps", origin: .checkout))
            }
        }
        return MapLibrary(folders: folders, userFolder: user)
    }

    /// The real path of the running executable (`/proc/self/exe`), or nil.
    public static func executablePath() -> String? {
        guard let p = realpath("/proc/self/exe", nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// The source checkout a build product belongs to: the folder above the first `.build…`
    /// component of its path, when that folder holds `Package.swift` (nil for an installed binary).
    static func checkoutRoot(ofBuildProduct path: String) -> String? {
        var dir = path
        while true {
            let parent = PathText.deletingLastComponent(dir)
            if parent.isEmpty || parent == dir { return nil }
            if PathText.lastComponent(dir).hasPrefix(".build") {
                return access(parent + "/Package.swift", F_OK) == 0 ? parent : nil
            }
            dir = parent
        }
    }

    /// Whether `text` names a file rather than a library map: it holds a slash or ends in `.srmap`.
    public static func looksLikePath(_ text: String) -> Bool {
        text.contains("/") || text.hasSuffix(fileExtension)
    }

    /// The file of the map called `name` in the first folder that holds it (exact file name
    /// first, then a case-insensitive match), or nil.
    public func path(named name: String) -> String? {
        guard Self.isValidName(name) else { return nil }
        for folder in folders {
            let p = folder.path + "/" + name + Self.fileExtension
            if access(p, R_OK) == 0 { return p }
        }
        let lower = name.lowercased()
        return entries().first { $0.name.lowercased() == lower }?.path
    }

    /// Every installed map, one per name (the first folder's copy), sorted by name.
    public func entries() -> [Entry] {
        var seen = Set<String>()
        var out: [Entry] = []
        for folder in folders {
            for file in Self.listFiles(folder.path) where file.hasSuffix(Self.fileExtension) && !file.hasPrefix(".") {
                let name = String(file.dropLast(Self.fileExtension.count))
                guard !name.isEmpty, seen.insert(name).inserted else { continue }
                out.append(Entry(name: name, path: folder.path + "/" + file, origin: folder.origin))
            }
        }
        return out.sorted { $0.name < $1.name }
    }

    /// The entry called `name` (exact, then case-insensitive), or nil.
    public func entry(named name: String) -> Entry? {
        let all = entries()
        // Then the name as the rider gave it to `import --name` ("Valparaíso Sur" is installed as
        // `valparaíso-sur`): the same slug the import made of it.
        return all.first { $0.name == name } ?? all.first { $0.name.lowercased() == name.lowercased() }
            ?? all.first { $0.name == Self.slug(name) }
    }

    /// The names of the installed maps, for "installed: …" lists.
    public func names() -> [String] { entries().map(\.name) }

    /// Whether `name` can be a map's file name: 1…64 letters, digits, `-`, `_` or `.`, not
    /// starting with a dot.
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maxNameLength, !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) && $0 != "/" }
    }

    /// A library name for an extract or area name: lower case, spaces and other marks as `-`,
    /// the usual extract suffixes dropped (`baden-wuerttemberg-latest.osm.pbf` → `baden-wuerttemberg`).
    public static func name(fromExtract file: String) -> String { slug(extractStem(file)) }

    /// An extract file's stem: its last path component before the first dot, without the usual
    /// download suffixes (`-latest`, `_latest`).
    static func extractStem(_ file: String) -> String {
        var stem = PathText.lastComponent(file)
        if let dot = stem.firstIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
        for suffix in ["-latest", "_latest"] where stem.hasSuffix(suffix) && stem.count > suffix.count {
            stem = String(stem.dropLast(suffix.count))
        }
        return stem
    }

    /// A map's display name for an extract imported without `--name`: the file's stem without the
    /// usual suffixes, `_` as a space, and — when the stem is all lower case, as download names are —
    /// each word capitalised (`heidelberg.test.pbf` → "Heidelberg", `baden-wuerttemberg-latest.osm.pbf`
    /// → "Baden-Wuerttemberg"); the TUI's title and `maps` show it.
    public static func displayName(fromExtract file: String) -> String {
        let stem = String(extractStem(file).map { $0 == "_" ? " " : $0 })
        if stem.isEmpty { return "Map" }
        guard stem == stem.lowercased() else { return stem }
        var out = "", startOfWord = true
        for ch in stem {
            out += startOfWord ? ch.uppercased() : String(ch)
            startOfWord = ch == " " || ch == "-"
        }
        return out
    }

    /// `text` as a map name: lower case, runs of anything but letters and digits as one `-`.
    public static func slug(_ text: String) -> String {
        var out = ""
        for s in text.lowercased().unicodeScalars {
            if s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "_" { out.unicodeScalars.append(s) } else if !out.hasSuffix("-") { out += "-" }
        }
        while out.hasSuffix("-") { out.removeLast() }
        while out.hasPrefix("-") { out.removeFirst() }
        return String(out.prefix(maxNameLength))
    }

    /// File names in a folder (empty when it cannot be read).
    static func listFiles(_ dir: String) -> [String] {
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafePointer(to: e.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// The XDG Base Directory folders, from an environment lookup (relative values are ignored, as
/// the specification asks).
public enum XDGPaths {
    /// `$XDG_DATA_HOME`, else `$HOME/.local/share`; nil without either.
    public static func dataHome(_ environment: (String) -> String?) -> String? {
        home("XDG_DATA_HOME", ".local/share", environment)
    }

    /// `$XDG_CONFIG_HOME`, else `$HOME/.config`.
    public static func configHome(_ environment: (String) -> String?) -> String? {
        home("XDG_CONFIG_HOME", ".config", environment)
    }

    /// `$XDG_STATE_HOME`, else `$HOME/.local/state`.
    public static func stateHome(_ environment: (String) -> String?) -> String? {
        home("XDG_STATE_HOME", ".local/state", environment)
    }

    /// The process environment through getenv (no Foundation: this runs on every plan).
    public static let process: @Sendable (String) -> String? = { name in getenv(name).map { String(cString: $0) } }

    static func home(_ variable: String, _ fallback: String, _ environment: (String) -> String?) -> String? {
        if let v = environment(variable), v.hasPrefix("/") { return v }
        guard let h = environment("HOME"), !h.isEmpty else { return nil }
        return PathText.appending(h, fallback)
    }
}
