import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// `skateroute hazards …`: report, list, confirm, retire and export hazards.
struct HazardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hazards",
        abstract: "Report, list, confirm and export hazards (potholes, gravel, rails…).",
        subcommands: [HazardsAddCommand.self, HazardsListCommand.self, HazardsConfirmCommand.self,
                      HazardsGoneCommand.self, HazardsExportCommand.self, HazardsImportCommand.self],
        defaultSubcommand: HazardsListCommand.self
    )
}

// MARK: Options shared by the store commands (hazards, rate, export)

/// `--data-dir DIR` and `--now ISO8601`, accepted by every command that touches the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Store directory. Default: $XDG_DATA_HOME/skateroute or ~/.local/share/skateroute.")
    var dataDir: String?

    @Option(help: "Pretend the time is this ISO 8601 instant (e.g. 2026-05-01T12:00:00Z), for testing expiry.")
    var now: String?

    /// Opens the store or throws an ExitCode after one clear line.
    func open() throws -> SkateStore {
        let dir = dataDir.map { URL(fileURLWithPath: $0) } ?? StorePaths.defaultDataDir()
        do { return try SkateStore(dataDir: dir) } catch let e as StoreError { throw fail(e.description) }
    }

    /// The store for a command that only reads (`hazards list`, `places list`): an existing store
    /// is opened without the lock and read-only when this process may not write it (issue 29 row
    /// 7); a missing one is created as `open()` does.
    func openForReading() throws -> SkateStore {
        let dir = dataDir.map { URL(fileURLWithPath: $0) } ?? StorePaths.defaultDataDir()
        do { return try SkateStore(openingExisting: dir) } catch let e as StoreError { throw fail(e.description) }
    }

    /// The `--now` instant, or the wall clock (the CLI is the only place that reads it).
    func instant() throws -> Date {
        guard let text = now else { return Date() }
        guard let d = CLIParse.date(text) else {
            throw fail("--now '\(TerminalSafe.clean(text))' is not an ISO 8601 time such as 2026-05-01T12:00:00Z")
        }
        return d
    }
}

/// `--reporter NAME`.
struct ReporterOption: ParsableArguments {
    @Option(help: "Who reports (a stable local name). Default: $SKATEROUTE_REPORTER or 'local'.")
    var reporter: String?

    var name: String {
        if let r = reporter { return r }
        if let env = ProcessInfo.processInfo.environment["SKATEROUTE_REPORTER"], !env.isEmpty { return env }
        return "local"
    }
}

/// Parsers and output helpers for the store commands.
enum CLIParse {
    static func date(_ text: String) -> Date? {
        let t = text.trimmingWhitespace()
        return ISO8601Time.parseDateOrDateTime(t).map { Date(timeIntervalSince1970: $0) }
    }

    static func coordinate(_ text: String, option: String) throws -> Coordinate {
        guard let c = Coordinate(parsing: text) else {
            if let problem = outOfRangePosition(text, option: option) { throw usageError(problem) }
            throw usageError("\(option) '\(TerminalSafe.quoted(text, maxLength: 60))' is not \"lat,lon\" in degrees, e.g. \"43.7384,7.4246\"")
        }
        return c
    }

    static func hazardID(_ text: String) throws -> Int64 {
        guard let id = Int64(text.trimmingWhitespace().drop { $0 == "#" }), id > 0 else {
            throw fail("'\(TerminalSafe.clean(text))' is not a hazard id (a positive number from `hazards list`)")
        }
        return id
    }

    static func iso(_ d: Date) -> String {
        ISO8601Time.format(d.timeIntervalSince1970)
    }

    /// Writes a line straight to stdout (unbuffered), so an acknowledgement is out before exit.
    static func emit(_ line: String) {
        StandardStreams.writeOutput(line + "\n")
    }

    /// Runs a store call, turning its errors into one clear line and exit 1.
    static func store<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as StoreError { throw fail(e.description) }
    }

    /// "2 confirmations, confidence 0.63": a count of votes and the confidence they leave.
    static func tally(_ n: Int, _ noun: String, confidence: Double) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s"), confidence \(String(printf: "%.2f", confidence))"
    }

    /// A human summary of a hazard for terminals (names sanitised).
    static func describe(_ s: HazardState, now: Date) -> String {
        let h = s.hazard
        let live = s.isLive ? "live until \(iso(s.expiresAt))" : "expired"
        return "#\(h.id) \(h.kind.rawValue) severity \(h.severity) at \(h.position) [\(h.geohash)] " +
            "confidence \(String(printf: "%.2f", s.confidence)), \(h.confirmations) confirmation\(h.confirmations == 1 ? "" : "s"), " +
            "\(h.goneVotes) gone, by \(TerminalSafe.clean(h.reporter)), \(live)"
    }
}

// MARK: Subcommands

struct HazardsAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Report a hazard (merged with a nearby report of the same kind).")
    @Option(help: "Kind: \(HazardKind.namesList).") var kind: String
    @Option(parsing: .unconditional, help: "Position \"lat,lon\" in degrees.") var at: String
    @Option(help: "1 (minor) … 3 (severe).") var severity: Int = 2
    @Option(help: "How it was reported: cli, keyboard or ride_detected.") var source: String = "cli"
    @OptionGroup var reporter: ReporterOption
    @OptionGroup var store: StoreOptions
    @OptionGroup var mapOption: MapOption

    func run() throws {
        guard let k = HazardKind(name: kind) else {
            throw fail("unknown hazard kind '\(TerminalSafe.clean(kind))': use one of \(HazardKind.namesList)")
        }
        guard let src = HazardSource(rawValue: source) else {
            throw fail("unknown source '\(TerminalSafe.clean(source))': use cli, keyboard or ride_detected")
        }
        let position = try CLIParse.coordinate(at, option: "--at")
        let zones = NoReportZones(map: try mapOption.load())
        let change = try store.change { db, now in
            try db.addHazard(HazardReport(kind: k, position: position, severity: severity, source: src, reporter: reporter.name),
                             zones: zones, now: now)
        }
        let s = change.state, h = s.hazard
        switch change.outcome {
        case .added:
            CLIParse.emit("added hazard #\(h.id): \(h.kind.rawValue) severity \(h.severity) at \(h.position) [\(h.geohash)], live until \(CLIParse.iso(s.expiresAt))")
        case .debounced:
            CLIParse.emit("hazard #\(h.id) (\(h.kind.rawValue)) was just reported by \(TerminalSafe.clean(reporter.name)): nothing added (debounced)")
        case .confirmed:
            CLIParse.emit("confirmed hazard #\(h.id) (\(h.kind.rawValue)) within \(Int(HazardRules.mergeRadius)) m: \(CLIParse.tally(h.confirmations, "confirmation", confidence: s.confidence)), live until \(CLIParse.iso(s.expiresAt))")
        case .refreshed, .votedGone:
            CLIParse.emit("refreshed your hazard #\(h.id) (\(h.kind.rawValue)): live until \(CLIParse.iso(s.expiresAt))")
        }
    }
}

struct HazardsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List live hazards (optionally near a point).")
    /// Default search radius around --near (metres): a couple of blocks.
    static let defaultRadius: Double = 200
    @Option(parsing: .unconditional, help: "Only hazards near \"lat,lon\".") var near: String?
    @Option(help: "Radius around --near in metres (default 200).") var radius: Double?
    @Flag(help: "Also list expired and voted-gone hazards.") var all = false
    @Flag(help: "Print JSON (keys sorted).") var json = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        let center = try near.map { try CLIParse.coordinate($0, option: "--near") }
        if radius != nil && center == nil { throw fail("--radius needs --near \"lat,lon\"") }
        let radius = self.radius ?? Self.defaultRadius
        guard radius.isFinite, radius > 0 else { throw fail("--radius \(radius) must be a positive number of metres") }
        let now = try store.instant()
        let db = try store.openForReading()
        let list = try CLIParse.store { try db.hazards(now: now, near: center, radius: radius, includeExpired: all) }
        if json {
            CLIParse.emit(DocumentSchema.document("hazards", ["hazards": .array(list.map { StoreExports.json($0) })]).text(pretty: true))
            return
        }
        if list.isEmpty {
            CLIParse.emit(center == nil ? "no live hazards" : "no live hazards within \(Int(radius)) m")
            return
        }
        for s in list {
            var line = CLIParse.describe(s, now: now)
            if let c = center { line += ", " + UnitFormatter.length(Geo.distance(c, s.hazard.position)) + " away" }
            CLIParse.emit(line)
        }
    }
}

struct HazardsConfirmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "confirm", abstract: "Confirm a hazard is still there (extends its life).")
    @OptionGroup var vote: HazardVoteOptions

    func run() throws {
        let (hid, change) = try vote.cast { db, id, who, now in try db.confirmHazard(id: id, reporter: who, now: now) }
        let s = change.state
        switch change.outcome {
        case .debounced: CLIParse.emit("hazard #\(hid) was just confirmed by \(TerminalSafe.clean(vote.reporter.name)): nothing changed (debounced)")
        case .refreshed: CLIParse.emit("refreshed your hazard #\(hid): live until \(CLIParse.iso(s.expiresAt))")
        default: CLIParse.emit("confirmed hazard #\(hid): \(CLIParse.tally(s.hazard.confirmations, "confirmation", confidence: s.confidence)), live until \(CLIParse.iso(s.expiresAt))")
        }
    }
}

struct HazardsGoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "gone", abstract: "Vote that a hazard is gone.")
    @OptionGroup var vote: HazardVoteOptions

    func run() throws {
        let (hid, change) = try vote.cast { db, id, who, now in try db.voteGone(id: id, reporter: who, now: now) }
        let s = change.state
        CLIParse.emit("voted hazard #\(hid) gone: \(CLIParse.tally(s.hazard.goneVotes, "gone vote", confidence: s.confidence)), \(s.isLive ? "still live" : "no longer live")")
    }
}

struct HazardsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export hazards as GeoJSON to share (without reporter names or rides).",
        discussion: "Without --all: your own live reports (kind, place, times, severity, confirmations, a stable id), which `hazards import` reads; imported ones are not sent back.")
    @Flag(help: "GeoJSON FeatureCollection of points (the only format; the flag documents it).") var geojson = false
    @Flag(help: "Every hazard the store holds, expired and imported ones too (the store's view, with local ids).") var all = false
    @Option(help: "Only reports confirmed since: 7d, 12h, 2w or an ISO 8601 time.") var since: String?
    @Option(help: "Only reports inside S,W,N,E (degrees).") var area: String?
    @OptionGroup var store: StoreOptions

    func run() throws {
        let now = try store.instant()
        let since = try self.since.map { text in
            guard let d = parseSince(text, now: now) else { throw usageError("--since '\(TerminalSafe.quoted(text, maxLength: 40))' is not 7d, 12h, 2w or an ISO 8601 time") }
            return d
        }
        let area = try self.area.map { text in
            guard let a = parseArea(text) else { throw usageError("--area '\(TerminalSafe.quoted(text, maxLength: 60))' is not S,W,N,E in degrees (south < north, west < east)") }
            return a
        }
        let db = try store.openForReading()
        if all {
            let list = try CLIParse.store { try db.hazards(now: now, includeExpired: true) }
            CLIParse.emit(StoreExports.hazardsGeoJSON(list).text(pretty: true))
            return
        }
        let list = try CLIParse.store { try db.shareableHazards(now: now, since: since, area: area) }
        CLIParse.emit(HazardExchange.geoJSON(list, exportedAt: now).text(pretty: true))
    }
}
