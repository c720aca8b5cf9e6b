/// A place's kind in human words for lists and outputs ("cafe", "stop", "street", "town"), from
/// its `PlaceKind` and "key=value" category.
public enum PlaceKindWords {
    /// Category of public-transport stops (tram, bus, platforms), as the importer stores it.
    public static let stopCategory = "public_transport=stop"
    /// Category of a town the search made from the map's town table (no place node of its own).
    public static let townCategory = "place=town"
    /// Category of a district (suburb, quarter) made from the town table.
    public static let districtCategory = "place=suburb"
    /// Category of a house-number candidate.
    public static let houseNumberCategory = "addr:housenumber"

    public static func describe(kind: PlaceKind, category: String) -> String {
        switch category {
        case stopCategory: return "stop"
        case houseNumberCategory: return "house number"
        case "coordinate": return "coordinate"
        default: break
        }
        if kind == .street { return "street" }
        let parts = category.split(separator: "=", maxSplits: 1)
        let key = parts.first.map(String.init) ?? "", value = parts.count > 1 ? String(parts[1]) : ""
        switch (key, value) {
        case ("place", "city"), ("place", "town"), ("place", "village"): return "town"
        case ("place", "suburb"), ("place", "quarter"), ("place", "neighbourhood"): return "district"
        case ("railway", _), ("public_transport", "station"): return "station"
        case ("saved", let v): return "saved " + v
        case (_, ""): return kind.name.replacingUnderscores()
        default: return value.replacingUnderscores()
        }
    }
}

extension String {
    /// "pedestrian_area" → "pedestrian area".
    func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}
