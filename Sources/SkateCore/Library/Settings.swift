import FoundationEssentials
import Glibc

/// The rider's settings file, `$XDG_CONFIG_HOME/skateroute/config` (default `~/.config/…`):
/// one `key = value` a line, `#` starts a comment, blank lines ignored.
///
/// ```
/// map = heidelberg      # default map (a library name or a .srmap path)
/// mode = chillFewCrossings
/// palette = colorblind
/// units = imperial
/// speed = 4             # ride replay speed, × real time
/// ```
/// Values are checked where they are used (the CLI knows the modes and palettes); this type only
/// reads the file and says which line holds what.
public struct Settings: Sendable, Equatable {
    /// The keys the file may hold, in the order `skateroute config` prints them.
    public static let keys = ["map", "mode", "palette", "units", "speed"]
    /// Largest settings file read, bytes (a handful of short lines; a bigger file is a mistake).
    public static let maxFileBytes = 16_384

    /// Values from the file, by key.
    public var values: [String: String]
    /// Line number of each value in the file (1-based), for error messages.
    public var lines: [String: Int]
    /// The file read (nil when there is none to read).
    public var path: String?

    public init(values: [String: String] = [:], lines: [String: Int] = [:], path: String? = nil) {
        self.values = values; self.lines = lines; self.path = path
    }

    /// The settings file's path for this environment, or nil without `$XDG_CONFIG_HOME` and `$HOME`.
    public static func filePath(environment: (String) -> String? = XDGPaths.process) -> String? {
        XDGPaths.configHome(environment).map { $0 + "/skateroute/config" }
    }

    /// Reads the process's settings file; an absent file gives empty settings.
    /// - Throws: `SettingsError` naming the file and line of an unknown key or a malformed line.
    public static func load(environment: (String) -> String? = XDGPaths.process) throws(SettingsError) -> Settings {
        guard let path = filePath(environment: environment) else { return Settings() }
        return try load(path: path)
    }

    /// Reads `path`; an absent file gives empty settings.
    /// - Throws: `SettingsError` for an unreadable or oversized file, an unknown key or a line without `=`.
    public static func load(path: String) throws(SettingsError) -> Settings {
        guard access(path, F_OK) == 0 else { return Settings(path: nil) }
        guard let bytes = RawFile.readPrefix(of: path, count: maxFileBytes + 1) else {
            throw SettingsError(path: path, line: 0, problem: "cannot read the file")
        }
        guard bytes.count <= maxFileBytes else {
            throw SettingsError(path: path, line: 0, problem: "larger than \(maxFileBytes) bytes; a settings file holds a few key = value lines")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// Parses settings text (see the type's description).
    /// - Throws: `SettingsError` for an unknown key, an empty value or a line without `=`.
    public static func parse(_ text: String, path: String) throws(SettingsError) -> Settings {
        var s = Settings(path: path)
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw SettingsError(path: path, line: i + 1, problem: "expected key = value, got '\(TerminalSafe.quoted(trimmed, maxLength: 40))'")
            }
            let key = trimmed[..<eq].trimmingWhitespace().lowercased()
            let value = trimmed[trimmed.index(after: eq)...].trimmingWhitespace()
            guard keys.contains(key) else {
                let hint = TextSuggestion.closest(key, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
                throw SettingsError(path: path, line: i + 1, problem: "unknown key '\(TerminalSafe.quoted(key, maxLength: 40))'\(hint); keys: \(keys.joined(separator: ", "))")
            }
            guard !value.isEmpty else { throw SettingsError(path: path, line: i + 1, problem: "\(key) has no value") }
            s.values[key] = value
            s.lines[key] = i + 1
        }
        return s
    }

    /// Where a value given in the file came from, e.g. "file ~/.config/skateroute/config:3".
    public func origin(of key: String) -> String? {
        guard values[key] != nil, let path, let line = lines[key] else { return nil }
        return "file \(path):\(line)"
    }
}

/// A settings file the CLI cannot use: one line naming the file, the line and the problem.
public struct SettingsError: Error, CustomStringConvertible, Equatable, Sendable {
    public var path: String
    /// 1-based line number; 0 for the whole file.
    public var line: Int
    public var problem: String
    public init(path: String, line: Int, problem: String) { self.path = path; self.line = line; self.problem = problem }
    public var description: String { "\(TerminalSafe.quoted(path))\(line > 0 ? ":\(line)" : ""): \(problem)" }
}

/// "Did you mean …" for mistyped words: the closest known word by edit distance.
public enum TextSuggestion {
    /// Most edits (insertions, deletions, substitutions, adjacent swaps) a suggestion may be
    /// away, per this many characters of the typed word: a third keeps "pln" → "plan" and
    /// "smoothst" → "smoothest" but not unrelated short words.
    public static let editsPerCharacter = 1.0 / 3.0

    /// The known word closest to `word` (case-insensitive), or nil when none is close enough.
    /// A known word that starts with `word` (3+ characters) counts as close.
    public static func closest(_ word: String, among known: [String]) -> String? {
        let w = Array(word.lowercased())
        guard !w.isEmpty else { return nil }
        let limit = max(1, Int((Double(w.count) * editsPerCharacter).rounded()))
        var best: (String, Int)?
        for k in known {
            let kk = Array(k.lowercased())
            var d = distance(w, kk)
            if w.count >= 3 && kk.starts(with: w) { d = min(d, 1) }
            if d <= limit, best == nil || d < best!.1 { best = (k, d) }
        }
        return best?.0
    }

    /// Optimal string alignment distance between two words.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
