import FoundationEssentials
import Glibc

/// A searchable name on the map: a place (POI, square, skatepark…) or a street.
public struct PlaceCandidate: Sendable, Equatable {
    public var name: String
    public var kind: PlaceKind
    /// "amenity=cafe", "highway=residential"…
    public var category: String
    public var at: Coordinate

    public init(name: String, kind: PlaceKind, category: String, at: Coordinate) {
        self.name = name; self.kind = kind; self.category = category; self.at = at
    }
}

/// One search hit with its score (0…1).
public struct PlaceMatch: Sendable, Equatable {
    public var candidate: PlaceCandidate
    public var score: Double
}

/// The outcome of resolving a place text.
public enum PlaceResolution: Sendable, Equatable {
    /// One clear answer (or a typed "lat,lon").
    case found(PlaceCandidate)
    /// Several equally good answers far apart: the caller should list them.
    case ambiguous([PlaceMatch])
    /// Nothing matched; the closest suggestions, if any.
    case notFound(suggestions: [PlaceMatch])
}

/// Accent- and case-insensitive, token-based fuzzy search over places and street names.
public struct PlaceSearch: Sendable {
    public let candidates: [PlaceCandidate]
    /// Folded name tokens per candidate, as UTF-8 bytes (scoring compares bytes, no allocation).
    let tokens: [[[UInt8]]]

    /// Score of a token that equals the query token.
    static let exactScore = 1.0
    /// Score of a name token that starts with the query token ("stad" → "stade").
    static let prefixScore = 0.85
    /// Score of a name token one edit away (typos) for tokens of 4+ letters.
    static let typoScore = 0.7
    /// Score when the query token appears inside a name token.
    static let infixScore = 0.5
    /// Score share kept by a name the query covers only partly ("casino" in "Casino de Monte-Carlo").
    static let coverageFloor = 0.93
    /// Chain shops share names across a city (a "Casino" supermarket); landmarks do not, so a shop
    /// yields to a landmark of the same name.
    static let shopPrior = 0.92

    static func kindPrior(_ k: PlaceKind) -> Double { k == .shop ? shopPrior : 1 }

    /// Minimum score for a hit to count.
    public static let minScore = 0.5
    /// Hits within this score of the best are "equally good".
    static let tieMargin = 0.02
    /// Equally good hits closer than this (metres) are the same place.
    static let samePlaceRadius = 250.0
    /// Words ignored when they appear in queries or names (French/Italian/English fillers).
    static let stopwords: [[UInt8]] = ["de", "du", "des", "la", "le", "les", "l", "d", "the", "of", "di", "el", "a", "et", "and"].map { Array($0.utf8) }
    /// Longest stopword in bytes (longer tokens skip the list).
    static let stopwordMaxLength = 3

    public init(map: SkateMap) {
        if let d = map.derived, d.hasSearchIndex {
            // The map file carries the street candidates and every name's folded tokens.
            var c = Self.placeCandidates(map)
            for k in 0..<d.streetEdge.count {
                let e = Int(d.streetEdge[k])
                c.append(Self.streetCandidate(map, edge: e, at: Coordinate(lat: d.streetMidLat[k], lon: d.streetMidLon[k])))
            }
            candidates = c
            var t: [[[UInt8]]] = []
            t.reserveCapacity(c.count)
            for i in 0..<c.count {
                var words: [[UInt8]] = []
                for w in Int(d.searchCandidateTokenStart[i])..<Int(d.searchCandidateTokenStart[i + 1]) {
                    words.append(Array(d.searchTokenBytes[Int(d.searchTokenStart[w])..<Int(d.searchTokenStart[w + 1])]))
                }
                t.append(words)
            }
            tokens = t
            return
        }
        let index = Self.computeIndex(map)
        var c = Self.placeCandidates(map)
        for s in index.streets { c.append(Self.streetCandidate(map, edge: s.edge, at: s.mid)) }
        candidates = c
        tokens = c.map { Self.tokenBytes(Self.fold($0.name)) }
    }

    /// A search over a given list of candidates (e.g. the rider's saved places), in that order.
    public init(candidates: [PlaceCandidate]) {
        self.candidates = candidates
        tokens = candidates.map { Self.tokenBytes(Self.fold($0.name)) }
    }

    /// Named places in place order.
    static func placeCandidates(_ map: SkateMap) -> [PlaceCandidate] {
        var c: [PlaceCandidate] = []
        for i in 0..<map.placeCount {
            let name = map.string(map.placeName[i])
            guard !name.isEmpty else { continue }
            c.append(PlaceCandidate(name: name, kind: PlaceKind(rawValue: map.placeKind[i]) ?? .other,
                                    category: map.string(map.placeCategory[i]),
                                    at: Coordinate(lat: map.placeLat[i], lon: map.placeLon[i])))
        }
        return c
    }

    static func streetCandidate(_ map: SkateMap, edge e: Int, at mid: Coordinate) -> PlaceCandidate {
        PlaceCandidate(name: map.name(ofEdge: e), kind: .street, category: "highway=\(map.highway(ofEdge: e).osmValue)", at: mid)
    }

    /// The street candidates (one per name, at the middle of its longest rideable edge, first
    /// such edge on a tie, in name-table order) and the folded tokens of every candidate, places
    /// first: what `MapDerived` stores so a fresh process does not redo it.
    static func computeIndex(_ map: SkateMap) -> (streets: [(edge: Int, mid: Coordinate)], tokens: [[[UInt8]]]) {
        // A slot per name id: no hashing set-up.
        var longest = [Int32](repeating: -1, count: map.stringCount)
        for e in 0..<map.edgeCount where map.edgeName[e] != 0 && map.isRideable(edge: e) {
            let n = Int(map.edgeName[e])
            if longest[n] < 0 || map.edgeLength[e] > map.edgeLength[Int(longest[n])] { longest[n] = Int32(e) }
        }
        var streets: [(edge: Int, mid: Coordinate)] = []
        for e32 in longest where e32 >= 0 {
            let e = Int(e32)
            guard let mid = map.snapPoint(edge: e, offset: Double(map.edgeLength[e]) / 2) else { continue }
            streets.append((e, mid))
        }
        let names = placeCandidates(map).map(\.name) + streets.map { map.name(ofEdge: $0.edge) }
        return (streets, names.map { tokenBytes(fold($0)) })
    }

    /// Lower-cases and strips accents and punctuation: "Stade Louis-II" → "stade louis ii".
    public static func fold(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if u.value < 0x80 {
                // ASCII fast path: most OSM names are mostly ASCII.
                let v = UInt8(u.value)
                if (v >= 0x41 && v <= 0x5A) { out.append(Unicode.Scalar(v + 32)) }
                else if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) { out.append(u) }
                else { out.append(" ") }
                continue
            }
            if (0x300...0x36F).contains(u.value) { continue }  // stray combining marks
            if let base = LatinFold.table[u.value] { out.append(contentsOf: base.unicodeScalars); continue }
            let p = u.properties
            if p.isAlphabetic || p.numericType != nil {
                out.append(contentsOf: p.lowercaseMapping.unicodeScalars)
            } else {
                out.append(" ")
            }
        }
        return String(out)
    }

    /// The words of a folded text as UTF-8 bytes, stopwords dropped (one pass over the bytes).
    static func tokenBytes(_ folded: String) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var cur: [UInt8] = []
        func flush() {
            if !cur.isEmpty && !(cur.count <= stopwordMaxLength && stopwords.contains(cur)) { out.append(cur) }
            cur.removeAll(keepingCapacity: true)
        }
        for b in folded.utf8 { if b == 0x20 { flush() } else { cur.append(b) } }
        flush()
        return out
    }

    static func editDistanceAtMostOne(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        if abs(x.count - y.count) > 1 { return false }
        var i = 0, j = 0, edits = 0
        while i < x.count && j < y.count {
            if x[i] == y[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count { i += 1 } else if y.count > x.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }

    static func hasPrefix(_ t: [UInt8], _ q: [UInt8]) -> Bool {
        guard t.count >= q.count else { return false }
        for k in 0..<q.count where t[k] != q[k] { return false }
        return true
    }

    static func containsBytes(_ t: [UInt8], _ q: [UInt8]) -> Bool {
        guard t.count >= q.count, !q.isEmpty else { return false }
        outer: for start in 0...(t.count - q.count) {
            for k in 0..<q.count where t[start + k] != q[k] { continue outer }
            return true
        }
        return false
    }

    /// Letters in a UTF-8 token (for the typo and infix minimum lengths).
    static func letterCount(_ q: [UInt8]) -> Int { q.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }

    static func tokenScore(_ q: [UInt8], _ name: [[UInt8]]) -> Double {
        var best = 0.0
        let n = letterCount(q)
        for t in name {
            if t == q { return exactScore }
            if hasPrefix(t, q) { best = max(best, prefixScore) }
            else if n >= 4 && editDistanceAtMostOne(q, t) { best = max(best, typoScore) }
            else if n >= 3 && containsBytes(t, q) { best = max(best, infixScore) }
        }
        return best
    }

    /// Ranked matches for a query text.
    public func search(_ query: String, limit: Int = 8) -> [PlaceMatch] {
        let q = Self.tokenBytes(Self.fold(query))
        guard !q.isEmpty else { return [] }
        var hits: [PlaceMatch] = []
        for (i, nameTokens) in tokens.enumerated() where !nameTokens.isEmpty {
            var sum = 0.0
            for qt in q { sum += Self.tokenScore(qt, nameTokens) }
            var score = sum / Double(q.count)
            // Prefer names that the query covers fully: "casino" → "Casino" over "Casino Café de Paris".
            let coverage = Double(min(q.count, nameTokens.count)) / Double(nameTokens.count)
            score *= Self.coverageFloor + (1 - Self.coverageFloor) * coverage
            score *= Self.kindPrior(candidates[i].kind)
            if score >= Self.minScore { hits.append(PlaceMatch(candidate: candidates[i], score: score)) }
        }
        hits.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.candidate.kind != b.candidate.kind { return Self.kindRank(a.candidate.kind) < Self.kindRank(b.candidate.kind) }
            if a.candidate.name != b.candidate.name { return a.candidate.name < b.candidate.name }
            return (a.candidate.at.lat, a.candidate.at.lon) < (b.candidate.at.lat, b.candidate.at.lon)
        }
        return Array(hits.prefix(limit))
    }

    /// Places come before streets of the same score; skate spots first.
    static func kindRank(_ k: PlaceKind) -> Int {
        switch k {
        case .skatepark: return 0
        case .square, .pedestrianArea: return 1
        case .tourism, .leisure, .amenity, .place: return 2
        case .shop, .other: return 3
        case .street: return 4
        }
    }

    /// Resolves a text: "lat,lon", or the best name match, or ambiguity / suggestions.
    public func resolve(_ text: String) -> PlaceResolution {
        if let c = Coordinate(parsing: text) {
            return .found(PlaceCandidate(name: c.description, kind: .other, category: "coordinate", at: c))
        }
        let hits = search(text)
        guard let top = hits.first else {
            // Suggestions: any token at a lower bar.
            let loose = looseSuggestions(text)
            return .notFound(suggestions: loose)
        }
        let ties = hits.filter { top.score - $0.score <= Self.tieMargin }
        let distinct = ties.filter { Geo.distance($0.candidate.at, top.candidate.at) > Self.samePlaceRadius }
        if distinct.isEmpty || ties.count == 1 { return .found(top.candidate) }
        // Same name at several far places (e.g. a chain shop): ambiguous.
        return .ambiguous(ties)
    }

    func looseSuggestions(_ text: String) -> [PlaceMatch] {
        let q = Self.tokenBytes(Self.fold(text))
        guard !q.isEmpty else { return [] }
        var hits: [PlaceMatch] = []
        for (i, nameTokens) in tokens.enumerated() {
            var best = 0.0
            for qt in q {
                for t in nameTokens {
                    let common = zip(qt, t).prefix { $0 == $1 }.count
                    best = max(best, Double(common) / Double(max(qt.count, t.count)))
                }
            }
            if best >= 0.34 { hits.append(PlaceMatch(candidate: candidates[i], score: best)) }
        }
        hits.sort { $0.score != $1.score ? $0.score > $1.score : $0.candidate.name < $1.candidate.name }
        return Array(hits.prefix(5))
    }
}

extension SkateMap {
    /// The position at an offset (metres) along an edge's drawing direction.
    public func snapPoint(edge e: Int, offset: Double) -> Coordinate? {
        let g = geometry(ofEdge: e)
        var cum = 0.0
        let scaleTotal = Double(edgeLength[e])
        var raw: [Double] = []
        for i in 0..<(g.count - 1) {
            raw.append(Geo.distance(lat1: g[i].lat, lon1: g[i].lon, lat2: g[i + 1].lat, lon2: g[i + 1].lon))
        }
        let sum = raw.reduce(0, +)
        let target = sum > 0 ? min(max(offset, 0), scaleTotal) * sum / max(scaleTotal, 1e-9) : 0
        for (k, d) in raw.enumerated() {
            if cum + d >= target || k == raw.count - 1 {
                let t = d > 0 ? min(1, max(0, (target - cum) / d)) : 0
                return Coordinate(lat: g[k].lat + t * (g[k + 1].lat - g[k].lat), lon: g[k].lon + t * (g[k + 1].lon - g[k].lon))
            }
            cum += d
        }
        return nil
    }
}
