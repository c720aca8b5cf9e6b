import FoundationEssentials
import Glibc

/// The library map the rider chose last (by name), kept in `$XDG_STATE_HOME/skateroute/last-map`
/// (default `~/.local/state/…`): the default map when neither `--map` nor the settings file
/// names one. Only names are kept: a path given once (a test's temporary map) must not become
/// every later command's map.
public enum LastUsedMap {
    /// Longest content read: one map name (`MapLibrary.maxNameLength`) and a newline, with room.
    static let maxBytes = 256

    /// The state file for this environment, or nil without `$XDG_STATE_HOME` and `$HOME`.
    public static func filePath(environment: (String) -> String? = XDGPaths.process) -> String? {
        XDGPaths.stateHome(environment).map { $0 + "/skateroute/last-map" }
    }

    /// The name recorded last, or nil (no file, unreadable, or not a valid name).
    public static func read(environment: (String) -> String? = XDGPaths.process) -> String? {
        guard let path = filePath(environment: environment), let bytes = RawFile.readPrefix(of: path, count: maxBytes) else { return nil }
        let name = String(decoding: bytes, as: UTF8.self).trimmingWhitespaceAndNewlines()
        return MapLibrary.isValidName(name) ? name : nil
    }

    /// Records `name` as the last map chosen (nothing when it already is). Failures are silent:
    /// remembering a choice must never fail the command that made it.
    public static func record(_ name: String, environment: (String) -> String? = XDGPaths.process) {
        guard MapLibrary.isValidName(name), read(environment: environment) != name,
              let path = filePath(environment: environment) else { return }
        let dir = PathText.deletingLastComponent(path)
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let tmp = path + ".\(getpid()).tmp"
        guard let f = RawFile(writingTo: tmp) else { return }
        let ok = f.write(Array((name + "\n").utf8))
        f.close()
        if !ok || rename(tmp, path) != 0 { unlink(tmp) }
    }
}
