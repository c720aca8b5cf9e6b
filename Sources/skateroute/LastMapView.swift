import FoundationEssentials
import Glibc
import SkateCore
import SkateTUI

/// Where the TUI's map was when the rider left it, per map file, kept in
/// `$XDG_STATE_HOME/skateroute/map-views` (one `lat lon metres-per-dot path` line per map): the
/// next TUI on that map opens there when the rider has no home on it (issue 27).
enum LastMapView {
    /// Largest file read (a line per map; far more maps than anyone installs).
    static let maxBytes = 65_536
    /// Most maps remembered (the oldest views are dropped).
    static let maxEntries = 64

    static func filePath(environment: (String) -> String? = XDGPaths.process) -> String? {
        XDGPaths.stateHome(environment).map { $0 + "/skateroute/map-views" }
    }

    /// Every remembered view, newest last; malformed lines are skipped.
    static func all(environment: (String) -> String? = XDGPaths.process) -> [(path: String, view: MapView)] {
        guard let file = filePath(environment: environment), let bytes = RawFile.readPrefix(of: file, count: maxBytes) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            guard parts.count == 4, let lat = Double(parts[0]), let lon = Double(parts[1]), let mpd = Double(parts[2]),
                  let view = MapView(center: Coordinate(lat: lat, lon: lon), metresPerDot: mpd) else { return nil }
            return (String(parts[3]), view)
        }
    }

    /// The view remembered for the map file `path`, if any.
    static func read(path: String, environment: (String) -> String? = XDGPaths.process) -> MapView? {
        all(environment: environment).last { $0.path == path }?.view
    }

    /// Remembers `view` for `path`. Failures are silent: remembering a view must never fail a session.
    static func record(_ view: MapView, path: String, environment: (String) -> String? = XDGPaths.process) {
        guard let file = filePath(environment: environment), !path.contains("\n") else { return }
        var entries = all(environment: environment).filter { $0.path != path }
        entries.append((path, view))
        let text = entries.suffix(maxEntries).map {
            "\($0.view.center.lat) \($0.view.center.lon) \($0.view.metresPerDot) \($0.path)"
        }.joined(separator: "\n") + "\n"
        try? FileManager.default.createDirectory(atPath: PathText.deletingLastComponent(file), withIntermediateDirectories: true)
        let tmp = file + ".\(getpid()).tmp"
        guard let f = RawFile(writingTo: tmp) else { return }
        let ok = f.write(Array(text.utf8))
        f.close()
        if !ok || rename(tmp, file) != 0 { unlink(tmp) }
    }
}
