import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// Largest hazard file `hazards import` reads (bytes): 10,000 reports take ~3 MB; a city's
/// worth of a club's years fits, a mistaken multi-gigabyte file is refused in one line.
let hazardFileMaxBytes = 64 << 20

/// Parses `--since`: "7d", "12h", "2w", "30m" before `now`, or an ISO 8601 time.
func parseSince(_ text: String, now: Date) -> Date? {
    let t = text.trimmingWhitespace().lowercased()
    let units: [(String, Double)] = [("w", 7 * 86_400), ("d", 86_400), ("h", 3_600), ("m", 60)]
    for (suffix, seconds) in units where t.hasSuffix(suffix) {
        if let n = Double(t.dropLast(suffix.count)), n.isFinite, n >= 0 { return now.addingTimeInterval(-n * seconds) }
    }
    return CLIParse.date(text)
}

/// Parses `--area S,W,N,E` in degrees.
func parseArea(_ text: String) -> (south: Double, west: Double, north: Double, east: Double)? {
    let p = text.split(separator: ",").map { Double($0.trimmingWhitespace()) }
    guard p.count == 4, let s = p[0], let w = p[1], let n = p[2], let e = p[3],
          s < n, w < e, abs(s) <= 90, abs(n) <= 90, abs(w) <= 180, abs(e) <= 180 else { return nil }
    return (s, w, n, e)
}

struct HazardsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a friend's or a club's hazard file (GeoJSON points with a `kind`).",
        discussion: "Each report keeps its origin, merges with ours within \(Int(HazardRules.mergeRadius)) m as a confirmation weighted by --trust, expires by kind and never changes what you filed. Importing the same file again changes nothing."
    )
    @Argument(help: "The GeoJSON file ('-': standard input).") var file: String
    @Option(name: .customLong("from"), help: "Who the file comes from (a name kept on every report).") var origin: String
    @Option(help: "How much the source is trusted, 0…1 (default \(HazardExchange.defaultTrust)).") var trust: Double = HazardExchange.defaultTrust
    @OptionGroup var store: StoreOptions

    func run() throws {
        guard HazardExchange.trustRange.contains(trust) else { throw usageError("--trust \(trust) must be above 0 and at most 1") }
        let now = try store.instant()
        let bytes = try readHazardFile(file)
        let reading: HazardExchange.Reading
        do { reading = try HazardExchange.read(bytes, now: now) } catch let e as HazardExchange.FileError {
            throw fail("\(TerminalSafe.clean(file)): \(e.description); nothing imported")
        }
        let db = try store.open()
        let summary = try CLIParse.store { try db.importHazards(reading.reports, origin: origin, trust: trust, now: now) }
        CLIParse.emit("imported \(reading.reports.count) report\(reading.reports.count == 1 ? "" : "s") from \(TerminalSafe.clean(origin)) (trust \(trust)): \(summary.line)")
        if let line = reading.skippedLine { printError("skateroute: \(TerminalSafe.clean(file)): \(line)") }
    }

    func readHazardFile(_ file: String) throws -> [UInt8] {
        if file == "-" {
            guard let b = StandardStreams.readInput(upTo: hazardFileMaxBytes + 1), b.count <= hazardFileMaxBytes else {
                throw fail("standard input: more than \(hazardFileMaxBytes >> 20) MB or unreadable; nothing imported")
            }
            return b
        }
        do {
            if try InputPath.regularFileSize(file) > hazardFileMaxBytes {
                throw fail("'\(TerminalSafe.clean(file))' is larger than \(hazardFileMaxBytes >> 20) MB; nothing imported")
            }
        } catch let e as InputPathError { throw fail(e.description) }
        guard let data = FileManager.default.contents(atPath: file) else { throw fail("cannot read '\(TerminalSafe.clean(file))'") }
        return [UInt8](data)
    }
}
