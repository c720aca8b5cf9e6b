import FoundationEssentials

/// Where the store keeps its database.
public enum StorePaths {
    /// File name of the SQLite database inside the data directory.
    public static let databaseFileName = "skateroute.sqlite"

    /// `$XDG_DATA_HOME/skateroute`, or `~/.local/share/skateroute` when `XDG_DATA_HOME` is unset
    /// or empty (the XDG Base Directory default).
    public static func defaultDataDir(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty, xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("skateroute")
        }
        // Without HOME: the account's home directory from the password database.
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/skateroute")
    }

    /// The database file inside `dataDir`.
    public static func databaseURL(in dataDir: URL) -> URL {
        dataDir.appendingPathComponent(databaseFileName)
    }
}
