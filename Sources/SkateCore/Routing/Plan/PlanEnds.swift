/// What a plan's start and destination texts resolved to, for every plan output (text, JSON,
/// GeoJSON, GPX), so a script can check that "Bismarckplatz" meant Heidelberg's.
public struct PlanEnd: Sendable, Equatable {
    /// The resolved place's name ("Bismarckplatz", "43.73410, 7.41490" for a typed position).
    public var name: String
    /// Its town as shown ("Heidelberg", "Bergheim, Heidelberg"); "" when unknown.
    public var town: String
    public var at: Coordinate
    /// How the text met it (`PlaceMatchKind` raw value: "exact", "town only", "coordinate"…).
    public var match: String
    /// The place's kind in words ("stop", "street", "town").
    public var kind: String

    public init(name: String, town: String, at: Coordinate, match: String, kind: String) {
        self.name = name; self.town = town; self.at = at; self.match = match; self.kind = kind
    }

    /// The end a search match stands for.
    public init(_ m: PlaceMatch) {
        self.init(name: m.candidate.name, town: m.candidate.town, at: m.candidate.at, match: m.match.rawValue, kind: m.candidate.kindWords)
    }

    /// `{name, town, lat, lon, match, kind}` for JSON and GeoJSON.
    public var json: JSONText {
        .object(["name": .string(name), "town": .string(town), "lat": .number(PlanFormats.r(at.lat, 7)), "lon": .number(PlanFormats.r(at.lon, 7)),
                 "match": .string(match), "kind": .string(kind)])
    }

    /// "Bismarckplatz (stop, Heidelberg) at 49.40937, 8.69317, exact match".
    public var text: String {
        let what = town.isEmpty ? kind : kind + ", " + town
        return "\(name) (\(what)) at \(FixedDecimal.string(at.lat, decimals: 5)), \(FixedDecimal.string(at.lon, decimals: 5)), \(match) match"
    }
}

/// Both ends of a plan.
public struct PlanEnds: Sendable, Equatable {
    public var from: PlanEnd
    public var to: PlanEnd
    public init(from: PlanEnd, to: PlanEnd) { self.from = from; self.to = to }

    /// `from` and `to` members for a JSON or GeoJSON object.
    public var jsonMembers: JSONObject { ["from": from.json, "to": to.json] }

    /// Two text lines, "from: …" and "to: …".
    public var textLines: String { "from: \(from.text)\nto:   \(to.text)\n" }

    /// Two GPX 1.1 waypoints (`<type>from</type>`, `<type>to</type>`), each named for its place
    /// and described by kind, town and match.
    public var gpxWaypoints: String {
        [("from", from), ("to", to)].map { role, e in
            let desc = [e.kind, e.town, e.match + " match"].filter { !$0.isEmpty }.joinedText(separator: ", ")
            return "  <wpt lat=\"\(FixedDecimal.string(e.at.lat, decimals: 7))\" lon=\"\(FixedDecimal.string(e.at.lon, decimals: 7))\"><name>\(PlanFormats.xmlEscape(e.name))</name>"
                + "<desc>\(PlanFormats.xmlEscape(desc))</desc><type>\(role)</type></wpt>\n"
        }.joinedText(separator: "")
    }
}
