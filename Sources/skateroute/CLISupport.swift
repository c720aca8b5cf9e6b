import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// Writes one line to standard error, through the terminal sanitizer (line breaks kept).
func printError(_ message: String) {
    StandardStreams.writeError(TerminalSafe.cleanLines(message) + "\n")
}

/// Exit status when standard output could not be written (EX_IOERR, sysexits.h).
let outputFailedStatus: Int32 = 74

/// Exits with `code` once standard output is flushed; when it could not be written (disk full,
/// EIO, `> /dev/full`) says so in one line and exits `outputFailedStatus` instead of 0 (issue 29 row 6).
func exitCheckingOutput(_ code: Int32) -> Never {
    if let reason = StandardStreams.outputFailure() {
        printError("skateroute: cannot write the output: \(reason)")
        Glibc.exit(code == 0 ? outputFailedStatus : code)
    }
    Glibc.exit(code)
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
        let store = try SkateStore(openingExisting: dir)  // read-only when the store is (issue 29 row 7)
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
