import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// Writes one line to standard error, through the terminal sanitizer (line breaks kept).
func printError(_ message: String) {
    StandardStreams.writeError(TerminalSafe.cleanLines(message) + "\n")
}

/// Prints `skateroute: <message>` on stderr and exits 1: the one-line error every bad input gets.
/// The message goes through the one terminal sanitizer (`TerminalSafe`): error messages quote
/// file contents and paths, and those must not drive the terminal.
func fail(_ message: String) -> ExitCode {
    printError("skateroute: \(TerminalSafe.clean(message))")
    return ExitCode(1)
}

/// Prints `skateroute: <message>` on stderr and exits 64 (EX_USAGE, as ArgumentParser does for
/// the errors it finds): a value on the command line is unusable (unknown mode, out-of-range
/// number or position).
func usageError(_ message: String) -> ExitCode {
    printError("skateroute: \(TerminalSafe.clean(message))")
    return ExitCode.validationFailure
}

/// A place text that is two numbers separated by a comma but not a position on the globe
/// (e.g. "91,7"): the usage error to give instead of searching place names for it.
func outOfRangePosition(_ text: String, option: String) -> String? {
    // A good position first, without Foundation: its string trimming bridged through NSString
    // and cost 6 % of a whole Monaco plan process.
    if Coordinate(parsing: text) != nil { return nil }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        .map { $0.trimmingWhitespace() }
    guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
    let quoted = TerminalSafe.quoted(text, maxLength: 60)
    if !(lat.isFinite && abs(lat) <= 90) { return "\(option) '\(quoted)': latitude \(parts[0]) is outside -90…90 (give \"lat,lon\")" }
    if !(lon.isFinite && abs(lon) <= 180) { return "\(option) '\(quoted)': longitude \(parts[1]) is outside -180…180 (give \"lat,lon\")" }
    return "\(option) '\(quoted)' is not a position (give \"lat,lon\")"
}

/// Where the bundled maps live: next to the executable's package (development), or
/// `$SKATEROUTE_MAPS`, or the current directory's `Maps/`.
enum BundledMaps {
    static let defaultMapName = "monaco.srmap"

    /// The first existing candidate: `$SKATEROUTE_MAPS/`, `./Maps/`, `Maps/` up to five folders above
    /// the executable, then the source tree this binary was built from. Plain POSIX calls: this
    /// runs on every `skateroute plan`.
    static func defaultMapPath() -> String {
        var candidates: [String] = []
        if let env = getenv("SKATEROUTE_MAPS"), env.pointee != 0 {
            candidates.append(String(cString: env) + "/" + defaultMapName)
        }
        candidates.append("Maps/" + defaultMapName)
        if let exe = realpath(CommandLine.arguments[0], nil) ?? realpath("/proc/self/exe", nil) {
            var dir = String(cString: exe)
            free(exe)
            for _ in 0..<6 {
                guard let slash = dir.lastIndex(of: "/") else { break }
                dir = String(dir[..<slash])
                candidates.append(dir + "/Maps/" + defaultMapName)
            }
        }
        // The source tree this binary was built from (…/Sources/skateroute/CLISupport.swift).
        var src = #filePath
        for _ in 0..<3 { if let slash = src.lastIndex(of: "/") { src = String(src[..<slash]) } }
        candidates.append(src + "/Maps/" + defaultMapName)
        return candidates.first { access($0, R_OK) == 0 } ?? candidates[0]
    }
}

/// The `--map PATH` option shared by every command that reads a map.
struct MapOption: ParsableArguments {
    @Option(name: .long, help: "Compiled map (.srmap). Default: the bundled Maps/monaco.srmap.", completion: .file(extensions: ["srmap"]))
    var map: String?

    var path: String { map ?? BundledMaps.defaultMapPath() }

    /// Loads the map or throws an ExitCode after printing one clear line.
    func load(copying: Bool = false) throws -> SkateMap { try loadMap(map, copying: copying) }
}

/// Loads the map at `path` (nil: the bundled default) or throws an ExitCode after printing one clear line.
/// `copying`: see `MapFormat.load(path:copying:)` (long-running commands copy).
func loadMap(_ path: String?, copying: Bool = false) throws -> SkateMap {
    let p = path ?? BundledMaps.defaultMapPath()
    do { return try MapFormat.load(path: p, copying: copying) } catch let e as MapFileError {
        throw fail(e.description)
    }
}

/// Parses `--now` (ISO 8601, with or without fractional seconds) or returns the current time.
func parseNow(_ text: String?) throws -> Date {
    guard let text else { return Date() }
    if let t = ISO8601Time.parseDateOrDateTime(text) { return Date(timeIntervalSince1970: t) }
    throw fail("--now '\(TerminalSafe.clean(text))' is not an ISO 8601 time (e.g. 2026-11-22T10:00:00Z)")
}

/// What the store knows about the map's edges, or nothing when the store is off or was never created
/// (planning never creates a database).
func loadKnowledge(map: SkateMap, dataDir: String?, disabled: Bool, now: String?) throws -> RoadKnowledge {
    if disabled { return .empty }
    let dir = dataDir.map { URL(fileURLWithPath: $0) } ?? StorePaths.defaultDataDir()
    guard FileManager.default.fileExists(atPath: StorePaths.databaseURL(in: dir).path) else { return .empty }
    let date = try parseNow(now)
    do {
        let store = try SkateStore(dataDir: dir)
        return try store.loadKnowledge(for: map, now: date)
    } catch {
        throw fail("store \(dir.path): \(error)")
    }
}

/// Phase timings on stderr when `SKATEROUTE_TIMING=1` (for profiling whole-process runs).
struct PhaseTimer {
    let enabled = getenv("SKATEROUTE_TIMING").map { String(cString: $0) } == "1"
    var last = PhaseTimer.now()
    var phases: [(String, Double)] = []

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    mutating func mark(_ name: String) {
        guard enabled else { return }
        let t = Self.now()
        phases.append((name, t - last))
        last = t
    }

    func report() {
        guard enabled else { return }
        printError(phases.map { "\($0.0) \(FixedDecimal.string($0.1 * 1000, decimals: 2)) ms" }.joined(separator: ", "))
    }
}
