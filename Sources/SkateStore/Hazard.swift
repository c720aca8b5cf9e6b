import FoundationEssentials
import SkateCore

/// A new hazard report as a rider makes it.
public struct HazardReport: Sendable, Equatable {
    public var kind: HazardKind
    /// Where the rider was, in degrees.
    public var position: Coordinate
    /// 1 (minor) … 3 (severe).
    public var severity: Int
    public var source: HazardSource
    /// Who reported: a stable local name or device id.
    public var reporter: String

    public init(kind: HazardKind, position: Coordinate, severity: Int = 2, source: HazardSource = .cli, reporter: String) {
        self.kind = kind; self.position = position; self.severity = severity; self.source = source; self.reporter = reporter
    }
}

/// A stored hazard report (one row), with its merged confirmations and "gone" votes.
public struct Hazard: Sendable, Equatable {
    public var id: Int64
    public var kind: HazardKind
    public var position: Coordinate
    /// Geohash of `position`, precision 8.
    public var geohash: String
    /// 1 (minor) … 3 (severe): the highest severity anyone reported.
    public var severity: Int
    public var source: HazardSource
    public var reporter: String
    public var createdAt: Date
    /// When it was reported or last confirmed; its lifetime counts from here.
    public var lastConfirmedAt: Date
    /// Distinct other reporters who confirmed it.
    public var confirmations: Int
    /// Distinct reporters who said it is gone.
    public var goneVotes: Int

    /// From a `hazard` row (`SELECT *`). - Throws: `SQLiteError` for a cell of the wrong type.
    init(row: Row) throws {
        id = try row["id"]
        kind = try HazardKind(rawValue: row["kind"]) ?? .other
        position = try Coordinate(lat: row["lat"], lon: row["lon"])
        geohash = try row["geohash"]
        severity = try row["severity"]
        source = try HazardSource(rawValue: row["source"]) ?? .cli
        reporter = try row["reporter"]
        createdAt = try Date(timeIntervalSince1970: row["createdAt"])
        lastConfirmedAt = try Date(timeIntervalSince1970: row["lastConfirmedAt"])
        confirmations = try row["confirmations"]
        goneVotes = try row["goneVotes"]
    }
}

/// A hazard as seen at one moment: its confidence, whether it is live and when it expires.
public struct HazardState: Sendable, Equatable {
    public var hazard: Hazard
    /// 0…1, see `HazardRules`.
    public var confidence: Double
    /// Trust of the hazard's reporter at that moment, 0…1.
    public var reporterTrust: Double
    /// Age below the kind's lifetime and confidence at or above the floor.
    public var isLive: Bool
    /// When the lifetime runs out if nobody confirms it again.
    public var expiresAt: Date

    /// Σ trust of the files that reported it (one per origin, `hazards import`); 0 for a
    /// hazard no file confirmed.
    public var importedEvidence: Double = 0

    /// Where an imported hazard came from (the `--from` name of its file); "" for our own.
    public var origin: String { hazard.source == .imported ? hazard.reporter : "" }

    /// Evaluates `hazard` at `now` for a reporter of the given trust; `importedEvidence` adds the
    /// trust of the files that reported it. An imported hazard's own evidence is its files'
    /// trust only (its "reporter" is a file, not a rider with a track record).
    public init(hazard: Hazard, reporterTrust: Double, now: Date, importedEvidence: Double = 0) {
        self.hazard = hazard
        self.reporterTrust = reporterTrust
        self.importedEvidence = importedEvidence
        let age = now.timeIntervalSince(hazard.lastConfirmedAt)
        let lifetime = hazard.kind.lifetime
        let own = hazard.source == .imported ? 0 : reporterTrust
        confidence = HazardRules.confidence(trust: own + importedEvidence, confirmations: hazard.confirmations,
                                            goneVotes: hazard.goneVotes, age: age, lifetime: lifetime)
        expiresAt = hazard.lastConfirmedAt.addingTimeInterval(lifetime)
        isLive = age < lifetime && confidence >= HazardRules.liveConfidenceFloor && hazard.createdAt <= now
    }
}

/// What a hazard write did.
public enum HazardOutcome: String, Sendable, Equatable {
    /// A new hazard row.
    case added
    /// A repeat by the same reporter within the debounce interval: nothing written.
    case debounced
    /// Another reporter's report or confirmation: counted once per reporter, life extended.
    case confirmed
    /// The original reporter reported or confirmed it again after the debounce interval: life
    /// extended, but a reporter cannot vouch for themselves, so no confirmation is counted.
    case refreshed
    /// A "gone" vote.
    case votedGone
}

/// The result of a hazard write: what happened and the hazard's state afterwards.
public struct HazardChange: Sendable, Equatable {
    public var outcome: HazardOutcome
    public var state: HazardState
}
