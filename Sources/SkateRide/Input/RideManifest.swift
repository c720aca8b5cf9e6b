import FoundationEssentials
import Glibc
import SkateCore

/// A ride folder's `ride.json`: which files hold the ride and how it was made. Paths are
/// relative to the folder holding the manifest and may not leave it (an absolute path or one
/// through `..` is refused unless the reader allows paths outside the folder).
public struct RideManifest: Codable, Sendable, Equatable {
    /// Manifest schema version; bump on incompatible changes.
    public static let currentSchemaVersion = 1
    /// File name of the manifest inside a ride folder.
    public static let fileName = "ride.json"

    public var schemaVersion: Int
    /// GPX file with the fixes.
    public var gpx: String
    /// Motion file (CSV or NDJSON), if the ride has one.
    public var motion: String?
    /// Units of the motion file when it does not declare them itself.
    public var motionUnits: MotionUnits?
    /// The planned route (a plan file) the rider meant to follow, if any.
    public var plannedRoute: String?
    /// Human title, e.g. "Smooth seafront".
    public var title: String?
    /// Map the ride belongs to, e.g. "monaco".
    public var map: String?
    /// Ride mode name (e.g. "cruise", "commute").
    public var mode: String?
    /// The exact command that synthesised the ride, if synthetic.
    public var synthCommand: String?
    /// Random seed of the synthesiser, if synthetic.
    public var seed: UInt64?

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case gpx, motion
        case motionUnits = "motion_units"
        case plannedRoute = "planned_route"
        case title, map, mode
        case synthCommand = "synth_command"
        case seed
    }

    public init(gpx: String, motion: String? = nil, motionUnits: MotionUnits? = nil, plannedRoute: String? = nil,
                title: String? = nil, map: String? = nil, mode: String? = nil, synthCommand: String? = nil,
                seed: UInt64? = nil) {
        schemaVersion = Self.currentSchemaVersion
        self.gpx = gpx; self.motion = motion; self.motionUnits = motionUnits; self.plannedRoute = plannedRoute
        self.title = title; self.map = map; self.mode = mode; self.synthCommand = synthCommand; self.seed = seed
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try c.decodeIfPresent(Int.self, forKey: .schemaVersion) ?? Self.currentSchemaVersion
        gpx = try c.decode(String.self, forKey: .gpx)
        motion = try c.decodeIfPresent(String.self, forKey: .motion)
        motionUnits = try c.decodeIfPresent(MotionUnits.self, forKey: .motionUnits)
        plannedRoute = try c.decodeIfPresent(String.self, forKey: .plannedRoute)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        map = try c.decodeIfPresent(String.self, forKey: .map)
        mode = try c.decodeIfPresent(String.self, forKey: .mode)
        synthCommand = try c.decodeIfPresent(String.self, forKey: .synthCommand)
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed)
    }

    /// Stable JSON (sorted keys, pretty-printed, trailing newline): same manifest, same bytes.
    public func encoded() throws -> Data {
        Data((try JSONText.text(of: SchemaTagged("ride_manifest", self), pretty: true) + "\n").utf8)
    }

    /// Writes `ride.json` into `folder` (created if needed).
    public func write(toFolder folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try encoded().write(to: URL(fileURLWithPath: PathText.appending(folder, Self.fileName)))
    }
}

/// Why a ride folder could not be opened. One line naming the file.
public enum RideFolderError: Error, CustomStringConvertible, Equatable {
    case notFound(path: String)
    case badManifest(path: String, reason: String)
    case missingFile(manifest: String, role: String, path: String)
    /// A manifest path that is absolute or leaves the ride folder, without permission to.
    case outsideFolder(manifest: String, role: String, path: String)
    /// A named file that is not a regular file (a device, FIFO, directory).
    case notRegularFile(manifest: String, role: String, path: String, problem: String)

    public var description: String {
        switch self {
        case let .notFound(path): return "\(path): no such ride folder or ride.json"
        case let .badManifest(path, reason): return "\(path): not a valid ride manifest: \(reason)"
        case let .missingFile(manifest, role, path): return "\(manifest): the \(role) file \(path) does not exist"
        case let .outsideFolder(manifest, role, path):
            return "\(manifest): the \(role) path '\(TerminalSafe.quoted(path))' leaves the ride folder; pass --allow-outside-paths to read it anyway"
        case let .notRegularFile(manifest, role, path, problem): return "\(manifest): the \(role) file \(path) \(problem)"
        }
    }
}

/// A ride folder: its manifest with every path resolved to an absolute one.
public struct RideFolder: Sendable {
    /// The folder holding `ride.json`.
    public var folder: String
    public var manifest: RideManifest
    public var gpxPath: String
    public var motionPath: String?
    public var plannedRoutePath: String?

    /// Largest `ride.json` read, in bytes: a manifest is a few hundred bytes.
    public static let maxManifestBytes = 1 << 20

    /// Opens a ride from a folder or a path to its `ride.json`, checking the named files are
    /// regular files inside the folder (anywhere when `allowOutsidePaths`).
    /// - Throws: `RideFolderError` naming the file.
    public static func open(_ path: String, allowOutsidePaths: Bool = false) throws -> RideFolder {
        var isDir = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw RideFolderError.notFound(path: path) }
        let manifestPath = isDir ? PathText.appending(path, RideManifest.fileName) : path
        let folder = PathText.deletingLastComponent(manifestPath)
        let data: Data
        do { data = Data(try FileBytes.read(path: manifestPath, maxBytes: maxManifestBytes)) } catch {
            switch error {
            case .notFound: throw RideFolderError.notFound(path: manifestPath)
            case let .unreadable(reason): throw RideFolderError.badManifest(path: manifestPath, reason: reason)
            case .tooLarge: throw RideFolderError.badManifest(path: manifestPath, reason: "over \(maxManifestBytes >> 20) MB")
            }
        }
        let manifest: RideManifest
        do { manifest = try JSONDecoder().decode(RideManifest.self, from: data) } catch {
            throw RideFolderError.badManifest(path: manifestPath, reason: Self.describe(error))
        }
        func resolve(_ p: String, _ role: String) throws -> String {
            if !allowOutsidePaths, !Self.staysInside(p) {
                throw RideFolderError.outsideFolder(manifest: manifestPath, role: role, path: p)
            }
            let full = p.hasPrefix("/") ? p : PathText.appending(folder.isEmpty ? "." : folder, p)
            do { try InputPath.checkRegularFile(full) } catch {
                if error.problem == "no such file" { throw RideFolderError.missingFile(manifest: manifestPath, role: role, path: full) }
                throw RideFolderError.notRegularFile(manifest: manifestPath, role: role, path: full, problem: error.problem)
            }
            // The textual check cannot see symbolic links: `etc/passwd` with `etc` → /etc, or
            // `link/..`, climb out of the folder. Compare the resolved paths as well.
            if !allowOutsidePaths, !Self.resolvesInside(full, folder: folder.isEmpty ? "." : folder) {
                throw RideFolderError.outsideFolder(manifest: manifestPath, role: role, path: p)
            }
            return full
        }
        return RideFolder(folder: folder.isEmpty ? "." : folder, manifest: manifest,
                          gpxPath: try resolve(manifest.gpx, "gpx"),
                          motionPath: try manifest.motion.map { try resolve($0, "motion") },
                          plannedRoutePath: try manifest.plannedRoute.map { try resolve($0, "planned route") })
    }

    /// True when the manifest path `p` names something inside the manifest's folder: relative,
    /// and no `..` climbing above where it started. Symbolic links are checked after this, on
    /// the resolved path (`resolvesInside`): a link that stays inside the folder is followed.
    static func staysInside(_ p: String) -> Bool {
        if p.isEmpty || p.hasPrefix("/") || p.hasPrefix("~") { return false }
        var depth = 0
        for part in p.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            depth += part == ".." ? -1 : 1
            if depth < 0 { return false }
        }
        return true
    }

    /// True when `path`, with every symbolic link and `..` resolved, lies inside `folder`
    /// (also resolved). A path that cannot be resolved counts as outside.
    static func resolvesInside(_ path: String, folder: String) -> Bool {
        guard let real = realPath(path), let base = realPath(folder) else { return false }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return real.hasPrefix(prefix)
    }

    /// The canonical absolute path of an existing file or folder (`realpath(3)`), or nil.
    private static func realPath(_ p: String) -> String? {
        guard let c = realpath(p, nil) else { return nil }
        defer { free(c) }
        return String(cString: c)
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing key '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let ctx), DecodingError.valueNotFound(_, let ctx):
            return "wrong type at '\(ctx.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let ctx):
            let at = ctx.codingPath.map(\.stringValue).joined(separator: ".")
            return at.isEmpty ? "not JSON" : "bad value at '\(at)'"
        default: return "\(error)"
        }
    }
}
