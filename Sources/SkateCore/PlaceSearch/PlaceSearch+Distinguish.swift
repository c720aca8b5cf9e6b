/// Words that tell apart places a list would otherwise show alike: two streets of one name in one
/// town (Bammental's two Hauptstraßen, 2.1 km apart: the extract has no place node for the second
/// village, so both carry Bammental, and "add the town" cannot separate them).
extension PlaceSearch {
    /// Metres within which another named street says where a candidate lies ("near Bahnhofstraße").
    public static let crossStreetRadius = 250.0

    /// Per match: nil when no other match in `matches` shows the same name, kind and town; else
    /// the words that tell it apart — the nearest street of another name within
    /// `crossStreetRadius`, and its position as "lat,lon" (five decimals: about a metre), which
    /// `plan --from`/`--to` take as they are.
    public func distinguishing(_ matches: [PlaceMatch]) -> [String?] {
        func key(_ m: PlaceMatch) -> String { m.candidate.name + "\u{1F}" + m.candidate.kindWords + "\u{1F}" + m.candidate.town }
        var seen: [String: Int] = [:]
        for m in matches { seen[key(m), default: 0] += 1 }
        return matches.map { m in
            guard seen[key(m), default: 0] > 1 else { return nil }
            var words: [String] = []
            if let street = crossStreet(near: m.candidate.at, otherThan: m.candidate.name) { words.append("near " + street) }
            words.append(String(printf: "%.5f,%.5f", m.candidate.at.lat, m.candidate.at.lon))
            return words.joined(separator: ", ")
        }
    }

    /// The name of the nearest street within `crossStreetRadius` of `c` whose name is not `name`
    /// (nil without a map or such a street).
    func crossStreet(near c: Coordinate, otherThan name: String) -> String? {
        guard let map else { return nil }
        let snap = map.nearestEdge(to: c, maxDistance: Self.crossStreetRadius) { e in
            let n = map.name(ofEdge: e)
            return !n.isEmpty && n != name
        }
        return snap.map { map.name(ofEdge: $0.edge) }
    }
}
