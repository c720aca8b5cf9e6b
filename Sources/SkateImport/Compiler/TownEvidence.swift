import SkateCore

/// What an OSM file says about towns and house numbers, gathered while it streams and turned into
/// the map's town table by `TownAssigner`.
///
/// Sources, most direct first: an object's own `addr:city` / `is_in`; `place=city|town|village`
/// (municipalities) and `place=suburb|quarter` (districts) nodes; the `addr:city` of nearby
/// addressed objects; city-limit signs (`traffic_sign=city_limit`, named for the town they
/// announce). Regional extracts filtered for routing (the Heidelberg test extract) keep only
/// the last two, so all four count.
struct TownEvidenceCollector {
    enum Source: UInt8 { case place, address, isIn, sign }

    /// One piece of evidence: a town name at a node (`lat/lon`) or a way (`refs`, its centroid).
    struct Item {
        var name: String
        var source: Source
        /// The `place` value for `.place` items ("city", "suburb"…), else "".
        var placeType: String = ""
        var refs: [Int64] = []
        var lat: Double?
        var lon: Double?
        /// For a sign: +1 when the town lies ahead in the way's direction (front side tagged
        /// `forward`), −1 behind, 0 unknown.
        var side: Int8 = 0
        var nodeId: Int64 = 0
    }

    /// A house number: `addr:street` + `addr:housenumber`, with the object's `addr:city` if any.
    struct Address {
        var street: String
        var number: String
        var city: String?
        var refs: [Int64] = []
        var lat: Double?
        var lon: Double?
    }

    var items: [Item] = []
    var addresses: [Address] = []
    /// Administrative areas (`boundary=administrative`, `admin_level` 8: municipality, 9–10:
    /// district): name, level and outer member way ids (rings assembled at build).
    var adminAreas: [(name: String, level: Int, outerWays: [Int64])] = []
    /// Signs by node id → item index, until a way shows which way they face.
    var pendingSigns: [Int64: Int] = [:]
    /// For a sign (item index): the node refs before and after it on its first way, and that
    /// way's one-way direction (+1 forward, −1 backward, 0 both ways).
    var signNeighbours: [Int: (before: Int64?, after: Int64?, oneway: Int8)] = [:]

    /// Place types that make a municipality, and each one's evidence weight (a city's node speaks
    /// louder than a village's: it stands for more streets).
    static func municipalityWeight(_ placeType: String) -> Double? {
        switch placeType {
        case "city": return 8
        case "town": return 4
        case "village": return 2
        default: return nil
        }
    }

    /// Place types that make a district of a municipality, and their weights.
    static func districtWeight(_ placeType: String) -> Double? {
        switch placeType {
        case "suburb": return 2
        case "quarter": return 1
        default: return nil
        }
    }

    /// The town an `is_in` value names: its first (most specific) part.
    static func isInTown(_ v: String) -> String? {
        let first = v.split(whereSeparator: { $0 == "," || $0 == ";" }).first.map { $0.trimmingWhitespace() } ?? ""
        return first.isEmpty ? nil : first
    }

    /// Whether a `traffic_sign` value is a city-limit sign's front ("city_limit", "DE:310").
    static func isCityLimit(_ v: String) -> Bool { v.containsText("city_limit") || v.containsText("DE:310") }

    mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {
        if let city = tags["addr:city"], !city.isEmpty {
            items.append(Item(name: city, source: .address, lat: lat, lon: lon))
        } else if let v = tags["is_in"], let t = Self.isInTown(v) {
            items.append(Item(name: t, source: .isIn, lat: lat, lon: lon))
        }
        if let p = tags["place"], let name = tags["name"], !name.isEmpty,
           Self.municipalityWeight(p) != nil || Self.districtWeight(p) != nil {
            items.append(Item(name: name, source: .place, placeType: p, lat: lat, lon: lon))
        }
        if let ts = tags["traffic_sign"], Self.isCityLimit(ts), let name = tags["name"] ?? tags["city_limit:forward"] ?? tags["city_limit:backward"], !name.isEmpty {
            // Which side the town lies on: the front (DE:310) tagged for one direction of the way.
            let fwd = tags["traffic_sign:forward"].map(Self.isCityLimit) ?? false
            let bwd = tags["traffic_sign:backward"].map(Self.isCityLimit) ?? false
            let dir = tags["direction"]
            let side: Int8 = (fwd && !bwd) || dir == "forward" ? 1 : (bwd && !fwd) || dir == "backward" ? -1 : 0
            items.append(Item(name: name, source: .sign, lat: lat, lon: lon, side: side, nodeId: id))
            pendingSigns[id] = items.count - 1
        }
        if let a = Self.address(tags) { addresses.append(Address(street: a.street, number: a.number, city: tags["addr:city"], lat: lat, lon: lon)) }
    }

    mutating func way(refs: [Int64], tags: OSMTags) {
        if !pendingSigns.isEmpty {
            for (k, r) in refs.enumerated() {
                guard let i = pendingSigns[r] else { continue }
                let ow = tags["oneway"]
                let oneway: Int8 = ow == "yes" || ow == "true" || ow == "1" ? 1 : ow == "-1" ? -1 : 0
                signNeighbours[i] = (k > 0 ? refs[k - 1] : nil, k + 1 < refs.count ? refs[k + 1] : nil, oneway)
                pendingSigns[r] = nil
            }
        }
        guard refs.count >= 2, tags["highway"] == nil else { return }
        if let city = tags["addr:city"], !city.isEmpty {
            items.append(Item(name: city, source: .address, refs: refs))
        } else if let v = tags["is_in"], let t = Self.isInTown(v) {
            items.append(Item(name: t, source: .isIn, refs: refs))
        }
        if let a = Self.address(tags) { addresses.append(Address(street: a.street, number: a.number, city: tags["addr:city"], refs: refs)) }
    }

    /// Admin level of a municipality, and the levels of its districts (Germany's Gemeinde and
    /// Stadtteile, France's communes, Monaco's quartiers).
    static let municipalityLevel = 8, districtLevels = 9...10

    mutating func relation(members: [OSMMember], tags: OSMTags) {
        guard tags["boundary"] == "administrative", let name = tags["name"], !name.isEmpty,
              let level = tags["admin_level"].flatMap({ Int($0) }), level == Self.municipalityLevel || Self.districtLevels.contains(level) else { return }
        let outers = members.filter { $0.kind == .way && ($0.role == "outer" || $0.role.isEmpty) }.map(\.ref)
        if !outers.isEmpty { adminAreas.append((name, level, outers)) }
    }

    /// Street and house number of an addressed object.
    static func address(_ tags: OSMTags) -> (street: String, number: String)? {
        guard let n = tags["addr:housenumber"], !n.isEmpty, let s = tags["addr:street"] ?? tags["addr:place"], !s.isEmpty else { return nil }
        return (s, n)
    }
}
