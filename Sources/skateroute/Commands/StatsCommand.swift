import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateRide
import SkateStore

extension StatsPeriod: EnumerableFlag {}

/// `skateroute stats`: totals, per-week bars, badges and the weekly goal from the ride history.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Ride totals, per-week bars, badges and the weekly goal, from your ride logs.",
        subcommands: [StatsShowCommand.self, StatsGoalCommand.self],
        defaultSubcommand: StatsShowCommand.self
    )
}

/// The store key of the weekly goal (metres, as text).
let weeklyGoalKey = SkateStore.weeklyGoalKey

struct StatsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print totals for the period, the last 8 weeks as bars, and badges.",
        discussion: """
        Every ride log (NDJSON) in --rides (default $XDG_DATA_HOME/skateroute/rides) is indexed in \
        the store once (re-read when the file changes); indexed rides stay when a log is deleted. \
        Weeks start on Monday in the local time zone ($TZ).
        """
    )

    @Flag(help: "Which rides to total (default: all).") var period: StatsPeriod = .all
    @Flag(help: "Print JSON (keys sorted).") var json = false
    @Option(help: "Folder of ride logs (default: the data folder's rides/).") var rides: String?
    @Option(help: "Whose hazard reports count for the reporter badge. Default: $SKATEROUTE_REPORTER or 'local'.") var reporter: String?
    @OptionGroup var mapOption: MapOption
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        let now = try storeOptions.instant()
        let tz = TimeZone.current
        let dir = rides ?? store.dataDir.appendingPathComponent("rides").path
        var warnings = try indexRideLogs(in: dir, store: store, mapPath: mapOption.map)
        let indexed = try CLIParse.store { try store.indexedRidesCheckingRows() }
        warnings += indexed.warnings
        let history = indexed.rides.map(\.record)
        let who = reporter ?? ProcessInfo.processInfo.environment["SKATEROUTE_REPORTER"].flatMap { $0.isEmpty ? nil : $0 } ?? "local"
        let confirmed = try CLIParse.store { try store.hazardsConfirmedByOthers(reporter: who) }
        let totals = RideStats.totals(history, from: RideStats.periodStart(period, now: now, timeZone: tz), to: now)
        let weeks = RideStats.weeks(history, now: now, timeZone: tz)
        let badges = RideStats.badges(history, hazardsConfirmed: confirmed, timeZone: tz)
        let goal = try CLIParse.store { try store.setting(weeklyGoalKey) }.flatMap(Double.init)
            .flatMap { PlausibleRange.holds($0, PlausibleRange.distanceM) ? $0 : nil }
        let thisWeek = weeks.last?.distance ?? 0
        for w in warnings { printError("skateroute: \(TerminalSafe.clean(w))") }
        func day(_ d: Date) -> String { ISO8601Time.formatDate(d.timeIntervalSince1970, offsetSeconds: tz.secondsFromGMT(for: d)) }
        if json {
            var o: JSONObject = [
                "period": .string(period.rawValue),
                "totals": .object(["rides": .int(Int64(totals.rides)), "distance_m": .rounded(totals.distance, 1),
                                   "duration_s": .rounded(totals.duration, 1), "moving_s": .rounded(totals.movingTime, 1),
                                   "climb_m": .rounded(totals.climb, 1), "descent_m": .rounded(totals.descent, 1),
                                   "crusty_m": .rounded(totals.crustyMetres, 1), "max_speed_mps": .rounded(totals.maxSpeed, 2)]),
                "weeks": .array(weeks.map { .object(["week_start": .string(day($0.weekStart)), "distance_m": .rounded($0.distance, 1),
                                                     "rides": .int(Int64($0.rides))]) }),
                "badges": .array(badges.map { b in
                    .object(["id": .string(b.id), "title": .string(b.title), "rule": .string(b.rule),
                             "earned": .string(day(b.earnedAt)), "ride_id": b.rideId.map { .string($0) } ?? .null])
                }),
                "warnings": .array(warnings.map { .string($0) }),
            ]
            if let g = goal { o["goal"] = .object(["weekly_m": .rounded(g, 0), "this_week_m": .rounded(thisWeek, 1)]) }
            CLIParse.emit(DocumentSchema.document("stats", o).text(pretty: true))
            return
        }
        let label = ["week": "this week", "month": "this month", "all": "all time"][period.rawValue]!
        CLIParse.emit("\(label): \(totals.rides) ride\(totals.rides == 1 ? "" : "s"), \(km(totals.distance)), "
                      + "moving \(hm(totals.movingTime)) of \(hm(totals.duration)) elapsed, climb \(UnitFormatter.length(totals.climb)), "
                      + "descent \(UnitFormatter.length(totals.descent)), crusty \(km(totals.crustyMetres)), top speed "
                      + UnitFormatter.speed(totals.maxSpeed, decimals: 1))
        if let g = goal {
            let pct = g > 0 ? Int((100 * thisWeek / g).rounded()) : 0
            CLIParse.emit("weekly goal: \(km(thisWeek)) of \(km(g)) this week (\(pct) %)" + (thisWeek >= g ? " — reached" : ""))
        }
        let top = max(weeks.map(\.distance).max() ?? 0, goal ?? 0, 1)
        for w in weeks {
            let n = Int((Self.barWidth * w.distance / top).rounded())
            let bar = String(repeating: "█", count: n) + String(repeating: "·", count: Int(Self.barWidth) - n)
            CLIParse.emit("week of \(day(w.weekStart))  \(bar)  \(km(w.distance)) (\(w.rides) ride\(w.rides == 1 ? "" : "s"))")
        }
        if badges.isEmpty { CLIParse.emit("badges: none yet (record a ride: `skateroute ride …`)") } else { CLIParse.emit("badges:") }
        for b in badges { CLIParse.emit("  \(day(b.earnedAt))  \(b.title) — \(b.rule)") }
    }

    /// Characters in a full week bar.
    static let barWidth = 20.0

    /// "12.3 km" (or "7.6 mi"): totals always read in the long unit.
    func km(_ m: Double) -> String {
        UnitSystem.active == .imperial ? FixedDecimal.string(m / UnitFormatter.metresPerMile, decimals: 1) + " mi"
            : FixedDecimal.string(m / 1000, decimals: 1) + " km"
    }
    func hm(_ s: Double) -> String {
        let m = Int((s / 60).rounded())
        return m >= 60 ? "\(m / 60) h \(m % 60) min" : "\(m) min"
    }
}

/// Indexes new or changed ride logs in `dir` (see `SkateStore.indexRideLogs`), store errors as one line.
func indexRideLogs(in dir: String, store: SkateStore, mapPath: String?) throws -> [String] {
    try CLIParse.store { try store.indexRideLogs(in: dir) { try? MapFormat.load(path: (try? MapChoice.choose(mapPath).path) ?? BundledMaps.defaultMapPath()) } }
}

struct StatsGoalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "goal", abstract: "Set the weekly distance goal (e.g. 20km, 5000m; 0 clears it).")
    @Argument(help: "Distance per week: a number with km or m.") var distance: String
    @OptionGroup var storeOptions: StoreOptions

    /// Largest weekly goal accepted (metres): far beyond any rider, small enough to catch typos of units.
    static let maxGoal = 2_000_000.0

    static func parse(_ text: String) -> Double? {
        let t = text.lowercased().replacing(" ", with: "")
        let (num, scale): (Substring, Double) = t.hasSuffix("km") ? (t.dropLast(2), 1000) : t.hasSuffix("m") ? (t.dropLast(1), 1) : (Substring(t), 1000)
        guard let v = Double(num), v.isFinite, v >= 0 else { return nil }
        return v * scale
    }

    func run() throws {
        guard let m = Self.parse(distance), m <= Self.maxGoal else {
            throw fail("weekly goal '\(TerminalSafe.clean(String(distance.prefix(40))))' is not a distance such as 20km or 5000m (at most \(Int(Self.maxGoal / 1000)) km)")
        }
        let store = try storeOptions.open()
        try CLIParse.store { try store.setSetting(weeklyGoalKey, m == 0 ? "" : String(m)) }
        CLIParse.emit(m == 0 ? "weekly goal cleared" : "weekly goal: \(FixedDecimal.string(m / 1000, decimals: 1)) km")
    }
}
