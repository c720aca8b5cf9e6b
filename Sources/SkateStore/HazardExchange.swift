import FoundationEssentials
import SkateCore

/// Hazards between riders (issue 32): what a shared file holds and how a foreign file is read.
/// Exports carry kind, place, times, severity and confirmations — never a reporter name or a
/// ride trace.
public enum HazardExchange {
    /// Trust of a source when `--trust` is not given: a friend's file weighs less than a rider's
    /// own eyes (a newcomer rider has 0.5) but one file still keeps a report live (logistic of
    /// 0.3 is 0.57, above the live floor of 0.2).
    public static let defaultTrust = 0.3
    /// Trust a source may be given: above 0 (a file of no weight is not worth importing), at most
    /// 1 (a source as trusted as a confirmation by a rider here).
    public static let trustRange: ClosedRange<Double> = 0.001...1
    /// Severity given to a foreign report without one: "notable", the middle of 1…3.
    public static let defaultSeverity = 2
    /// Longest stable id kept from a foreign file (longer ids are hashed to 16 hex digits).
    static let maxExternalIdLength = 128
    /// Property names foreign tools use for a report's time, tried in order.
    static let timeKeys = ["last_confirmed_at", "created_at", "time", "timestamp", "reported_at", "date"]
    /// Member `kind`'s synonyms from other tools' vocabularies, mapped to our kinds.
    static let kindSynonyms: [String: HazardKind] = [
        "glass": .debris, "branch": .debris, "branches": .debris, "leaves": .debris, "sand": .gravel,
        "water": .wet, "puddle": .wet, "ice": .wet, "hole": .pothole, "grate": .rail, "tram": .rail,
        "tracks": .rail, "roadworks": .construction, "works": .construction,
    ]

    /// One report read from a file: its stable id in that file, what, where and when.
    public struct Report: Sendable, Equatable {
        public var externalId: String
        public var kind: HazardKind
        public var position: Coordinate
        /// 1 … 3.
        public var severity: Int
        /// When it was reported, and last confirmed (its lifetime counts from here).
        public var createdAt: Date
        public var lastConfirmedAt: Date
        /// Confirmations the source counted (informational: the source's trust is the weight).
        public var confirmations: Int
    }

    /// What reading a file found: the usable reports and, per reason, how many features were skipped.
    public struct Reading: Sendable, Equatable {
        public var reports: [Report] = []
        public var skipped: [String: Int] = [:]
        public var features = 0
        public var skippedCount: Int { skipped.values.reduce(0, +) }

        /// "skipped 3 of 120 features: 2 not a Point, 1 without a kind" (nil when none was skipped).
        public var skippedLine: String? {
            guard skippedCount > 0 else { return nil }
            let reasons = skipped.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) \($0.key)" }
            return "skipped \(skippedCount) of \(features) feature\(features == 1 ? "" : "s"): " + reasons.joined(separator: ", ")
        }
    }

    /// Why a file cannot be read at all (one line; nothing is imported).
    public enum FileError: Error, CustomStringConvertible, Equatable {
        case notJSON
        case notFeatureCollection
        public var description: String {
            switch self {
            case .notJSON: return "not a JSON document"
            case .notFeatureCollection: return "not a GeoJSON FeatureCollection (no \"features\" array)"
            }
        }
    }

    /// Reads a GeoJSON FeatureCollection of Point features with a `kind` property (ours or
    /// another tool's). Features that are not usable are counted by reason, never half-read.
    /// - Parameter now: the time given to a report without one.
    public static func read(_ bytes: [UInt8], now: Date) throws -> Reading {
        guard let doc = JSONNode.parse(bytes) else { throw FileError.notJSON }
        guard let features = doc["features"]?.array else { throw FileError.notFeatureCollection }
        var out = Reading()
        out.features = features.count
        for f in features {
            switch report(f, now: now) {
            case .success(let r): out.reports.append(r)
            case .failure(let why): out.skipped[why.reason, default: 0] += 1
            }
        }
        return out
    }

    struct Skip: Error { let reason: String }

    static func report(_ f: JSONNode, now: Date) -> Result<Report, Skip> {
        guard f["type"]?.string == "Feature" else { return .failure(Skip(reason: "not a Feature")) }
        guard let g = f["geometry"], g["type"]?.string == "Point" else { return .failure(Skip(reason: "not a Point")) }
        guard let xy = g["coordinates"]?.array, xy.count >= 2, let lon = xy[0].double, let lat = xy[1].double,
              lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
            return .failure(Skip(reason: "without a valid position"))
        }
        let props = f["properties"]
        guard let kindText = props?["kind"]?.string else { return .failure(Skip(reason: "without a kind")) }
        let folded = kindText.lowercased().trimmingWhitespace()
        let kind = HazardKind(name: folded) ?? kindSynonyms[folded] ?? .other
        var severity = defaultSeverity
        if let s = props?["severity"] {
            guard let v = s.int, HazardRules.severityRange.contains(v) else { return .failure(Skip(reason: "with a severity outside 1…3")) }
            severity = v
        }
        var created: Date?, confirmed: Date?
        for key in timeKeys {
            guard let text = props?[key]?.string else { continue }
            guard let t = ISO8601Time.parseDateOrDateTime(text) else { return .failure(Skip(reason: "with an unreadable time")) }
            let d = Date(timeIntervalSince1970: t)
            if key == "last_confirmed_at" { confirmed = d } else if created == nil { created = d }
        }
        let createdAt = created ?? confirmed ?? now
        let lastConfirmedAt = max(confirmed ?? createdAt, createdAt)
        let position = Coordinate(lat: lat, lon: lon)
        let id = externalId(f, kind: kind, position: position, time: created ?? confirmed)
        return .success(Report(externalId: id, kind: kind, position: position, severity: severity,
                               createdAt: createdAt, lastConfirmedAt: lastConfirmedAt,
                               confirmations: max(0, props?["confirmations"]?.int ?? 0)))
    }

    /// The report's stable id: ours (`report_id`), the feature's `id` or `properties.id`, else a
    /// digest of kind, position and the file's time (when it gives one), so a file without ids
    /// still re-imports to nothing.
    static func externalId(_ f: JSONNode, kind: HazardKind, position: Coordinate, time: Date?) -> String {
        let props = f["properties"]
        for node in [props?["report_id"], f["id"], props?["id"]] {
            guard let node else { continue }
            let text: String? = node.string ?? node.int64.map { String($0) }
            if let t = text, !t.isEmpty {
                return t.utf8.count <= maxExternalIdLength && TerminalSafe.clean(t) == t ? t : "h" + digest(t)
            }
        }
        return "h" + digest(stableKey(kind: kind, position: position, createdAt: time))
    }

    /// Kind, position to 7 decimals and time to the second: what makes a report itself.
    static func stableKey(kind: HazardKind, position: Coordinate, createdAt: Date?) -> String {
        "\(kind.rawValue)|\(FixedDecimal.string(position.lat, decimals: 7))|\(FixedDecimal.string(position.lon, decimals: 7))|"
            + (createdAt.map { String(Int64($0.timeIntervalSince1970.rounded())) } ?? "")
    }

    /// 16 hex digits of XXH64.
    static func digest(_ text: String) -> String {
        let h = Array(text.utf8).withUnsafeBytes { XXHash64.hash($0) }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The stable id an exported report carries (`report_id`): the same hazard exports the same
    /// id every time, so a friend's second import of a newer file changes nothing for it.
    public static func reportId(_ h: Hazard) -> String {
        "sr-" + digest(stableKey(kind: h.kind, position: h.position, createdAt: h.createdAt))
    }

    /// Our hazards as a shareable GeoJSON FeatureCollection: kind, place, times, severity,
    /// confirmations and the stable id; no reporter, no trust, no local row id.
    public static func geoJSON(_ states: [HazardState], exportedAt: Date) -> JSONValue {
        .object([
            "type": .string("FeatureCollection"),
            DocumentSchema.key: .string(DocumentSchema.name("hazards.geojson")),
            "exported_at": .string(ISO8601Time.format(exportedAt.timeIntervalSince1970)),
            "features": .array(states.map { s in
                let h = s.hazard
                return .object([
                    "type": .string("Feature"),
                    "id": .string(reportId(h)),
                    "geometry": .object(["type": .string("Point"), "coordinates": .array([
                        JSONValue.rounded(h.position.lon, 7), JSONValue.rounded(h.position.lat, 7)])]),
                    "properties": .object([
                        "report_id": .string(reportId(h)), "kind": .string(h.kind.rawValue), "severity": .int(Int64(h.severity)),
                        "created_at": .string(ISO8601Time.format(h.createdAt.timeIntervalSince1970)),
                        "last_confirmed_at": .string(ISO8601Time.format(h.lastConfirmedAt.timeIntervalSince1970)),
                        "expires_at": .string(ISO8601Time.format(s.expiresAt.timeIntervalSince1970)),
                        "confirmations": .int(Int64(h.confirmations)),
                    ]),
                ])
            }),
        ])
    }
}

/// What an import did, counted per report.
public struct HazardImportSummary: Sendable, Equatable {
    /// New hazards (nobody here had reported them).
    public var added = 0
    /// Merged with a hazard already here (ours or an earlier file's) as a confirmation.
    public var confirmed = 0
    /// Already imported from this origin (same stable id): nothing changed.
    public var unchanged = 0
    /// Past their kind's lifetime: not imported.
    public var expired = 0

    /// "3 new, 1 confirmed ours, 2 already imported, 0 expired".
    public var line: String {
        "\(added) new, \(confirmed) merged as confirmation\(confirmed == 1 ? "" : "s"), \(unchanged) already imported, \(expired) expired"
    }
}
