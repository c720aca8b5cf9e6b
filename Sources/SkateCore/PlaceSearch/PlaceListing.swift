/// One line per candidate for lists a person reads (the CLI's ambiguity message, `search`, the
/// TUI's candidate list): name, kind in words, town, distance. Terminal-safe.
public enum PlaceListing {
    /// "Hauptstraße (street, Dossenheim, 4.2 km)"; distance from `from` when given, else the
    /// match's own `distance` (from a `near` point, or a town the text named) when it has one;
    /// `distanceFrom` names what the distance is measured from ("4.4 km from Leimen").
    /// `detail`: words that tell it from a like-named place in the same list
    /// (`PlaceSearch.distinguishing`), after the town.
    public static func line(_ m: PlaceMatch, from: Coordinate? = nil, distanceFrom: String? = nil, detail: String? = nil) -> String {
        var parts = [m.candidate.kindWords]
        if !m.candidate.town.isEmpty { parts.append(m.candidate.town) }
        if let detail { parts.append(detail) }
        if let d = from.map({ Geo.distance($0, m.candidate.at) }) ?? m.distance {
            parts.append(distanceText(d) + (distanceFrom.map { " from " + $0 } ?? ""))
        }
        return TerminalSafe.clean(m.candidate.name) + " (" + TerminalSafe.clean(parts.joinedText(separator: ", ")) + ")"
    }

    /// "350 m", "4.2 km" (imperial: "420 ft", "2.6 mi").
    public static func distanceText(_ metres: Double) -> String { UnitFormatter.distance(metres) }
}
