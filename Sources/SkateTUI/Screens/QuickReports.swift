import FoundationEssentials
import Glibc
import SkateCore
import SkateStore

/// Two-keystroke reports: `h` then a digit files a hazard, `r`/`s` then b/o/c rates the surface,
/// `u` retracts the last hazard within `undoWindow` seconds.
enum QuickReports {
    /// Seconds a new hazard report can be undone.
    public static let undoWindow: Double = 10
    /// Severity of keyboard reports: the middle of 1…3 (no time to grade it while rolling).
    public static let keyboardSeverity = 2
    /// A rating applies to the nearest street within this many metres of the position.
    public static let rateRadius: Double = 30

    /// Hazard kinds by digit, 1…8.
    public static let hazardKeys: [Character: HazardKind] = [
        "1": .pothole, "2": .crack, "3": .gravel, "4": .wet, "5": .debris, "6": .rail, "7": .construction, "8": .other,
    ]
    /// Ratings by key.
    public static let ratingKeys: [Character: SurfaceRating] = ["b": .butter, "o": .okay, "c": .crusty]

    /// The prompt shown while the second key is awaited: the longest wording that fits in
    /// `width` columns, so every kind (up to "8 other") stays visible on an 80-column screen.
    public static func prompt(_ p: PendingReport, width: Int = .max) -> String {
        let variants: [String]
        switch p {
        case .hazard:
            variants = ["Hazard: 1 pothole  2 crack  3 gravel  4 wet  5 debris  6 rail  7 construction  8 other   Esc cancel",
                        "Hazard: 1 pothole 2 crack 3 gravel 4 wet 5 debris 6 rail 7 construction 8 other  Esc cancel",
                        "1 pothole 2 crack 3 gravel 4 wet 5 debris 6 rail 7 works 8 other  Esc",
                        "1 pothole 2 crack 3 gravel 4 wet 5 debris 6 rail 7 works 8 other"]
        case .rate:
            variants = ["Surface here: b butter  o okay  c crusty   Esc cancel", "b butter o okay c crusty  Esc"]
        }
        return variants.first { $0.count <= width } ?? variants.last!
    }

    /// The command for the second key, or nil (cancelled) for any other key.
    /// - Parameter simulated: the rider is watching a replay or a simulation (every ride the TUI
    ///   plays), so a hazard is stored as simulated.
    public static func command(for key: Key, pending: PendingReport, at position: Coordinate, simulated: Bool = false) -> AppCommand? {
        guard case .char(let c) = key else { return nil }
        switch pending {
        case .hazard: return hazardKeys[c].map { .fileHazard(kind: $0, at: position, simulated: simulated) }
        case .rate: return ratingKeys[Character(c.lowercased())].map { .rateSurface($0, at: position, simulated: simulated) }
        }
    }

    // MARK: Effects (run by the app loop, never by update)

    /// Files a hazard; refuses inside no-report zones; says why when there is no store.
    /// Reporter suffix of reports made while watching a replay or simulation.
    public static let simulatedReporterSuffix = "-sim"

    /// Files a hazard; refuses inside no-report zones; says why when there is no store. A
    /// simulated report goes in with source `simulated` and reporter "<reporter>-sim", is not
    /// used for routing until confirmed, and the toast says so.
    static func fileHazard(_ kind: HazardKind, at p: Coordinate, simulated: Bool = false, services: TUIServices) -> ReportResult {
        if let z = services.zones.zone(containing: p) {
            return ReportResult(text: StoreError.noReportZone(kind: z.kind, name: z.name).description, isError: true)
        }
        guard let store = services.store else {
            return ReportResult(text: "reports not saved: \(services.storeProblem)", isError: true)
        }
        do {
            let r = HazardReport(kind: kind, position: p, severity: keyboardSeverity, source: simulated ? .simulated : .keyboard,
                                 reporter: services.reporter + (simulated ? simulatedReporterSuffix : ""))
            let change = try store.addHazard(r, zones: services.zones, now: services.now())
            let id = change.state.hazard.id
            let note = simulated ? " (simulated: not routed on unless confirmed)" : ""
            let who = r.reporter
            switch change.outcome {
            case .added: return ReportResult(text: "Reported \(kind.rawValue) #\(id)\(note), u to undo", undoableID: id, position: p, reporter: who)
            case .confirmed: return ReportResult(text: "Confirmed \(kind.rawValue) #\(id)")
            case .refreshed: return ReportResult(text: "Refreshed your \(kind.rawValue) #\(id)")
            case .debounced: return ReportResult(text: "Already reported: \(kind.rawValue) #\(id)")
            case .votedGone: return ReportResult(text: "Voted gone #\(id)")
            }
        } catch {
            return ReportResult(text: "reports not saved: " + TerminalSafe.clean("\(error)"), isError: true)
        }
    }

    /// Rates the street nearest `p`.
    static func rate(_ rating: SurfaceRating, at p: Coordinate, services: TUIServices, map: SkateMap) -> ReportResult {
        guard let snap = map.nearestEdge(to: p, maxDistance: rateRadius) else {
            return ReportResult(text: "No street within \(Int(rateRadius)) m to rate", isError: true)
        }
        if let z = services.zones.zone(containing: p) {
            return ReportResult(text: StoreError.noReportZone(kind: z.kind, name: z.name).description, isError: true)
        }
        guard let store = services.store else {
            return ReportResult(text: "reports not saved: \(services.storeProblem)", isError: true)
        }
        let name = TerminalSafe.clean(map.name(ofEdge: snap.edge))
        do {
            try store.rate(EdgeKey(map: map, edge: snap.edge), rating: rating, reporter: services.reporter, now: services.now())
            return ReportResult(text: "Rated " + (name.isEmpty ? "this street" : name) + " \(rating.rawValue)")
        } catch {
            return ReportResult(text: "rating not saved: " + TerminalSafe.clean("\(error)"), isError: true)
        }
    }

    /// Retracts a hazard this session added (the reporter's own "gone" vote).
    static func undo(id: Int64, reporter: String? = nil, services: TUIServices) -> ReportResult {
        guard let store = services.store else { return ReportResult(text: "nothing saved to undo", isError: true) }
        do {
            _ = try store.voteGone(id: id, reporter: reporter ?? services.reporter, now: services.now())
            return ReportResult(text: "Undone: hazard #\(id) withdrawn", undone: id)
        } catch {
            return ReportResult(text: "undo failed: " + TerminalSafe.clean("\(error)"), isError: true)
        }
    }
}
