import SkateCore

/// Words for the rider instead of code identifiers: place kinds, ride modes, unnamed map points,
/// and ASCII spellings of accented letters (issue 34 items 4 and 7).
enum HumanText {
    /// "plaza" for `pedestrianArea`, "facility" for `amenity`: what a rider calls the kind.
    static func kind(_ k: PlaceKind) -> String {
        switch k {
        case .amenity: return "facility"
        case .shop: return "shop"
        case .tourism: return "sight"
        case .leisure: return "park"
        case .skatepark: return "skatepark"
        case .square: return "square"
        case .pedestrianArea: return "plaza"
        case .place: return "locality"
        case .street: return "street"
        case .other: return "place"
        }
    }

    /// A kind given as text (spots list): the OSM spelling turned into words.
    static func kind(named raw: String) -> String {
        if let k = PlaceKind.allCases.first(where: { $0.name == raw }) { return kind(k) }
        return raw.replacing("_", with: " ")
    }

    /// "chill, few crossings" for `chillFewCrossings`: a mode as words.
    static func mode(_ m: RideMode) -> String {
        switch m {
        case .smoothest: return "smoothest"
        case .chillFewCrossings: return "chill, few crossings"
        case .fastMildRoughness: return "fast, mild roughness"
        case .nightSafe: return "night safe"
        case .trickSpotCrawl: return "trick-spot crawl"
        }
    }

    /// Farthest a street may be from a map point to name it.
    static let nameRadius: Double = 60

    /// A map point named by the street under it ("near Rue Grimaldi"), or by its coordinate when
    /// no named street is within `nameRadius` metres.
    static func pointName(_ c: Coordinate, map: SkateMap) -> String {
        if let snap = map.nearestEdge(to: c, maxDistance: nameRadius, where: { !map.name(ofEdge: $0).isEmpty }) {
            return "near " + TerminalSafe.clean(map.name(ofEdge: snap.edge))
        }
        return "map point " + c.description
    }

    /// ASCII spellings of letters outside ASCII (é → e, ß → ss, Œ → OE); nil for characters
    /// without one (they are drawn as "?").
    static func ascii(_ ch: Character) -> String? {
        if ch.isASCII { return String(ch) }
        if let s = special[ch] { return s }
        // Letters with marks: the base letter of the canonical decomposition.
        let base = String(ch).decomposedBase
        return base.isEmpty ? nil : base
    }

    /// Letters whose ASCII spelling is not their base letter.
    static let special: [Character: String] = [
        "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
        "ł": "l", "Ł": "L", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i", "’": "'", "‘": "'", "“": "\"", "”": "\"",
        "–": "-", "—": "-", "…": "...", "«": "\"", "»": "\"", "·": "-", "×": "x", "→": "->", "←": "<-", "°": "o",
        "\u{00A0}": " ",
    ]

    /// Text spelled in ASCII (see `ascii(_:)`), "?" for what has no spelling.
    static func ascii(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s }
        return s.map { ascii($0) ?? "?" }.joined()
    }
}

extension String {
    /// The ASCII letters left when combining marks are taken off (NFD by table for Latin-1 and
    /// Latin Extended-A, the letters of European street names).
    var decomposedBase: String {
        var out = ""
        for u in unicodeScalars {
            if u.isASCII { out.unicodeScalars.append(u); continue }
            if (0x0300...0x036F).contains(u.value) { continue }  // a combining mark
            if let b = latinBase[u.value] { out.unicodeScalars.append(b) }
        }
        return out
    }
}

/// Base letters of precomposed Latin letters (U+00C0…U+017F).
private let latinBase: [UInt32: Unicode.Scalar] = {
    var t: [UInt32: Unicode.Scalar] = [:]
    let groups: [(String, Character)] = [
        ("ÀÁÂÃÄÅĀĂĄ", "A"), ("àáâãäåāăą", "a"), ("ÇĆĈĊČ", "C"), ("çćĉċč", "c"), ("ĎĐ", "D"), ("ďđ", "d"),
        ("ÈÉÊËĒĔĖĘĚ", "E"), ("èéêëēĕėęě", "e"), ("ĜĞĠĢ", "G"), ("ĝğġģ", "g"), ("ĤĦ", "H"), ("ĥħ", "h"),
        ("ÌÍÎÏĨĪĬĮİ", "I"), ("ìíîïĩīĭį", "i"), ("Ĵ", "J"), ("ĵ", "j"), ("Ķ", "K"), ("ķ", "k"), ("ĹĻĽĿ", "L"), ("ĺļľŀ", "l"),
        ("ÑŃŅŇ", "N"), ("ñńņň", "n"), ("ÒÓÔÕÖŌŎŐ", "O"), ("òóôõöōŏő", "o"), ("ŔŖŘ", "R"), ("ŕŗř", "r"),
        ("ŚŜŞŠ", "S"), ("śŝşš", "s"), ("ŢŤŦ", "T"), ("ţťŧ", "t"), ("ÙÚÛÜŨŪŬŮŰŲ", "U"), ("ùúûüũūŭůűų", "u"),
        ("Ŵ", "W"), ("ŵ", "w"), ("ÝŸŶ", "Y"), ("ýÿŷ", "y"), ("ŹŻŽ", "Z"), ("źżž", "z"),
    ]
    for (letters, base) in groups {
        for ch in letters { for u in ch.unicodeScalars { t[u.value] = base.unicodeScalars.first! } }
    }
    return t
}()
