import FoundationEssentials
import Glibc

/// A searchable name on the map: a place (POI, square, stop, town…), a street or a house number.
public struct PlaceCandidate: Sendable, Equatable {
    public var name: String
    public var kind: PlaceKind
    /// "amenity=cafe", "highway=residential"…
    public var category: String
    public var at: Coordinate
    /// The town it lies in as shown ("Heidelberg", "Bergheim, Heidelberg"); "" when unknown.
    public var town: String

    public init(name: String, kind: PlaceKind, category: String, at: Coordinate, town: String = "") {
        self.name = name; self.kind = kind; self.category = category; self.at = at; self.town = town
    }

    /// The kind in human words ("cafe", "tram or bus stop", "street", "town", "house number").
    public var kindWords: String { PlaceKindWords.describe(kind: kind, category: category) }
}

/// How a query met a candidate, for outputs that say what a place text resolved to.
public enum PlaceMatchKind: String, Sendable, Equatable {
    /// Every query word equals a word of the name (or its town).
    case exact = "exact"
    /// Every query word matched, some by prefix, typo or inside a word.
    case fuzzy = "fuzzy"
    /// Some query words matched nothing: the candidate is the best of what remained.
    case partial = "partial"
    /// Only the town matched ("Mannheim Hauptbahnhof" with no such station): the town itself.
    case townOnly = "town only"
    /// A street's house number (`addr:street` + `addr:housenumber`).
    case houseNumber = "house number"
    /// A typed "lat,lon".
    case coordinate = "coordinate"
    /// One of the rider's saved places.
    case saved = "saved place"
}

/// One search hit with its score (0…1).
public struct PlaceMatch: Sendable, Equatable {
    public var candidate: PlaceCandidate
    public var score: Double
    public var match: PlaceMatchKind = .exact
    /// Metres from the `near` point, when the search had one.
    public var distance: Double? = nil

    public init(candidate: PlaceCandidate, score: Double, match: PlaceMatchKind = .exact, distance: Double? = nil) {
        self.candidate = candidate; self.score = score; self.match = match; self.distance = distance
    }
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

/// `PlaceResolution` with the match details (score, match kind, distance) of the answer.
public enum PlaceLookup: Sendable, Equatable {
    case found(PlaceMatch)
    /// One best match per distinct place, best first.
    case ambiguous([PlaceMatch])
    case notFound(suggestions: [PlaceMatch])

    public var resolution: PlaceResolution {
        switch self {
        case .found(let m): return .found(m.candidate)
        case .ambiguous(let l): return .ambiguous(l)
        case .notFound(let s): return .notFound(suggestions: s)
        }
    }
}

/// Accent- and case-insensitive, token-based fuzzy search over places, streets, towns and house
/// numbers. Every candidate carries its town, so the same name in two towns is two places and a
/// query may name the town ("Bismarckplatz, Heidelberg", "Mannheim Hauptbahnhof").
public struct PlaceSearch: Sendable {
    public let candidates: [PlaceCandidate]
    /// Folded name tokens per candidate, as UTF-8 bytes (scoring compares bytes, no allocation).
    let tokens: [[[UInt8]]]
    /// Town (index into `towns`) of each candidate, −1 when unknown.
    let candidateTown: [Int32]
    /// Per candidate: its kind prior (`kindPrior`) and whether it is a town from the town table.
    let prior: [Double]
    let isTown: [Bool]
    /// Per candidate: the bytes its name words hold (`PlaceSearch.byteMask`), to skip names a
    /// query word cannot match without comparing words.
    let nameMask: [UInt64]
    /// Per town: its own folded words, and its own plus its municipality's.
    let towns: [(own: [[UInt8]], all: [[UInt8]], municipality: Int32, at: Coordinate, name: String)]
    /// The map, for house numbers (nil for a list of candidates).
    let map: SkateMap?

    /// Score share kept by a name the query covers only partly ("casino" in "Casino de Monte-Carlo").
    static let coverageFloor = 0.93
    /// Chain shops share names across a city (a "Casino" supermarket); landmarks do not, so a shop
    /// yields to a landmark of the same name.
    static let shopPrior = 0.92
    /// A stop is named for the place it serves: it yields to a landmark of that name within the
    /// tie margin (both are listed as one place when near; see `resolve`).
    static let stopPrior = 0.99
    /// Score kept by a candidate outside the town a query names ("Mannheim Hauptbahnhof" → not
    /// Heidelberg's): below `minScore` for any match of two words or fewer.
    static let otherTownFactor = 0.6
    /// Distance (metres) over which a candidate outside a named town still counts as near it: the
    /// import's town vote (`TownAssigner`) weighs its evidence with this σ, so a street closer than
    /// that to the town may carry a neighbour's label where evidence is thin (Eppelheim's
    /// Hauptstraße, 1.7 km from Eppelheim's position, is labelled Heidelberg in the test extract).
    /// Credit falls as exp(−d²/2σ²): 0.6 at 1.5 km, 0.14 at 3 km, nothing that matters by 5 km.
    static let townProximityScale = 1500.0
    /// Largest share a `near` point takes off a far candidate's score, and the distance in metres
    /// at which half of it applies (equal names: the nearer wins by more than `tieMargin`).
    static let nearWeight = 0.1, nearScale = 2000.0

    static func kindPrior(_ c: PlaceCandidate) -> Double {
        if c.kind == .shop { return shopPrior }
        return c.category == PlaceKindWords.stopCategory ? stopPrior : 1
    }

    /// Minimum score for a hit to count.
    public static let minScore = 0.5
    /// Hits within this score of the best are "equally good".
    static let tieMargin = 0.02
    /// Equally good hits closer than this (metres) are the same place.
    static let samePlaceRadius = 250.0
    /// Most matches `resolve` weighs (enough for a name in every town of a region's list).
    static let resolveLimit = 40
    /// With a `near` point, equally good places are settled by distance when the next one is at
    /// least this many times as far as the nearest.
    static let nearWinRatio = 2.0
    /// Longest query text read, in Unicode scalars (`PlaceQuery`: longer text is cut first).
    public static let maxQueryScalars = PlaceQuery.maxScalars
    /// Most places an ambiguous answer lists.
    public static let ambiguousListLimit = 8
    /// Most suggestions a text that matches nothing lists.
    public static let suggestionListLimit = 5

    public init(map: SkateMap) {
        let placeIndexes = Self.placeIndexes(map)
        var c = Self.placeCandidates(map)
        var t = placeIndexes.map { Int32(map.town(ofPlace: $0) ?? -1) }
        var tok: [[[UInt8]]] = []
        if let d = map.derived, d.hasSearchIndex {
            // The map file carries the street candidates and every name's folded tokens.
            for k in 0..<d.streetEdge.count {
                let e = Int(d.streetEdge[k])
                c.append(Self.streetCandidate(map, edge: e, at: Coordinate(lat: d.streetMidLat[k], lon: d.streetMidLon[k])))
                t.append(Int32(map.town(ofEdge: e) ?? -1))
            }
            tok.reserveCapacity(c.count)
            for i in 0..<c.count {
                var words: [[UInt8]] = []
                for w in Int(d.searchCandidateTokenStart[i])..<Int(d.searchCandidateTokenStart[i + 1]) {
                    words.append(Array(d.searchTokenBytes[Int(d.searchTokenStart[w])..<Int(d.searchTokenStart[w + 1])]))
                }
                tok.append(words)
            }
        } else {
            let index = Self.computeIndex(map)
            for s in index.streets {
                c.append(Self.streetCandidate(map, edge: s.edge, at: s.mid))
                t.append(Int32(map.town(ofEdge: s.edge) ?? -1))
            }
            tok = index.tokens
        }
        // Towns are places too ("Mannheim"), unless a place node of that name already is one.
        var townWords: [(own: [[UInt8]], all: [[UInt8]], municipality: Int32, at: Coordinate, name: String)] = []
        for k in 0..<map.townCount {
            let m = map.municipality(ofTown: k)
            let own = Self.tokenBytes(Self.fold(map.townOwnName(k)))
            townWords.append((own, m == k ? own : own + Self.tokenBytes(Self.fold(map.townOwnName(m))), Int32(m), map.townCoordinate(k), map.townOwnName(k)))
        }
        // The place names already listed, once (a region has thousands of towns and a million names).
        var placeTokens = Set(c.indices.lazy.filter { c[$0].kind == .place }.map { tok[$0] })
        for k in 0..<map.townCount {
            let own = townWords[k].own
            guard !own.isEmpty, placeTokens.insert(own).inserted else { continue }
            let isDistrict = map.municipality(ofTown: k) != k
            c.append(PlaceCandidate(name: map.townOwnName(k), kind: .place, category: isDistrict ? PlaceKindWords.districtCategory : PlaceKindWords.townCategory,
                                    at: map.townCoordinate(k)))
            t.append(Int32(k))
            tok.append(own)
        }
        for i in c.indices where t[i] >= 0 { c[i].town = map.townLabel(Int(t[i])) }
        candidates = c
        tokens = tok
        candidateTown = t
        towns = townWords
        (prior, isTown) = Self.priors(c)
        nameMask = tok.map(Self.byteMask)
        self.map = map.addressStreet.isEmpty ? nil : map
    }

    /// A search over a given list of candidates (e.g. the rider's saved places), in that order.
    public init(candidates: [PlaceCandidate]) {
        self.candidates = candidates
        tokens = candidates.map { Self.tokenBytes(Self.fold($0.name)) }
        candidateTown = [Int32](repeating: -1, count: candidates.count)
        towns = []
        (prior, isTown) = Self.priors(candidates)
        nameMask = tokens.map(Self.byteMask)
        map = nil
    }

    static func priors(_ c: [PlaceCandidate]) -> ([Double], [Bool]) {
        (c.map(kindPrior), c.map { $0.category == PlaceKindWords.townCategory || $0.category == PlaceKindWords.districtCategory })
    }

    /// Indexes of the named places, in place order (the candidates `placeCandidates` makes).
    static func placeIndexes(_ map: SkateMap) -> [Int] {
        (0..<map.placeCount).filter { map.placeName[$0] != 0 && !map.string(map.placeName[$0]).isEmpty }
    }

    /// Named places in place order.
    static func placeCandidates(_ map: SkateMap) -> [PlaceCandidate] {
        placeIndexes(map).map { i in
            PlaceCandidate(name: map.string(map.placeName[i]), kind: PlaceKind(rawValue: map.placeKind[i]) ?? .other,
                           category: map.string(map.placeCategory[i]), at: Coordinate(lat: map.placeLat[i], lon: map.placeLon[i]))
        }
    }

    static func streetCandidate(_ map: SkateMap, edge e: Int, at mid: Coordinate) -> PlaceCandidate {
        PlaceCandidate(name: map.name(ofEdge: e), kind: .street, category: "highway=\(map.highway(ofEdge: e).osmValue)", at: mid)
    }

    /// Ranked matches for a query text; with `near`, nearer candidates score higher and carry
    /// their distance.
    public func search(_ query: String, near: Coordinate? = nil, limit: Int = 8) -> [PlaceMatch] {
        let q = PlaceQuery(query)
        guard !q.isEmpty else { return [] }
        let named = townsNamed(q)
        // The best `limit` hits, kept in rank order as the scan goes: a hit below the last kept
        // score costs one comparison (a one-letter query matches thousands of names).
        var top: [PlaceMatch] = []
        top.reserveCapacity(limit + 1)
        func offer(_ m: PlaceMatch) {
            if top.count == limit, let last = top.last, m.score < last.score { return }
            let at = top.firstIndex { Self.ranks(m, $0) } ?? top.count
            guard at < limit else { return }
            top.insert(m, at: at)
            if top.count > limit { top.removeLast() }
        }
        guard limit > 0 else { return [] }
        let wordMasks = q.name.map { Self.byteMask([$0]) }
        let allowsTypo = q.name.map { Self.letterCount($0) >= 4 }
        for (i, nameTokens) in tokens.enumerated() where !nameTokens.isEmpty {
            // A word matches (exactly, by prefix or inside a word) only if the name holds all its
            // bytes, one short for a typo: most names fail this for every word.
            var possible = false
            for k in wordMasks.indices {
                let missing = (wordMasks[k] & ~nameMask[i]).nonzeroBitCount
                if missing == 0 || (missing == 1 && allowsTypo[k]) { possible = true; break }
            }
            guard possible, let s = scored(q, candidate: i, nameTokens: nameTokens, named: named, near: near) else { continue }
            if s.score >= Self.minScore { offer(PlaceMatch(candidate: candidates[i], score: s.score, match: s.match, distance: s.distance)) }
            if !s.unmatchedNumbers.isEmpty, s.onlyNumbersUnmatched, candidates[i].kind == .street, let a = houseNumber(s, candidate: i) { offer(a) }
        }
        return top
    }

    /// Best first: score, then kind (places before streets), name, position.
    static func ranks(_ a: PlaceMatch, _ b: PlaceMatch) -> Bool {
        if a.score != b.score { return a.score > b.score }
        if a.candidate.kind != b.candidate.kind { return kindRank(a.candidate.kind) < kindRank(b.candidate.kind) }
        if a.candidate.name != b.candidate.name { return a.candidate.name < b.candidate.name }
        return (a.candidate.at.lat, a.candidate.at.lon) < (b.candidate.at.lat, b.candidate.at.lon)
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
    public func resolve(_ text: String, near: Coordinate? = nil) -> PlaceResolution { lookup(text, near: near).resolution }

    /// `resolve` with the match details. Equally good matches at distinct places are ambiguous
    /// unless one place is of the best tier (`tier`) and no other town has more than a street of
    /// that name (a bare "Bismarckplatz" is the square served by Heidelberg's stops, not
    /// Mannheim's street; "Marktplatz", a square in one village and a stop in another, stays
    /// ambiguous); a `near` point breaks
    /// ties by distance.
    public func lookup(_ text: String, near: Coordinate? = nil) -> PlaceLookup {
        if let c = Coordinate(parsing: text) {
            return .found(PlaceMatch(candidate: PlaceCandidate(name: c.description, kind: .other, category: "coordinate", at: c), score: 1, match: .coordinate,
                                     distance: near.map { Geo.distance($0, c) }))
        }
        let hits = search(text, near: near, limit: Self.resolveLimit)
        guard let top = hits.first else { return .notFound(suggestions: looseSuggestions(text)) }
        let ties = hits.filter { top.score - $0.score <= Self.tieMargin }
        // One entry per distinct place (best first): hits within `samePlaceRadius` of a kept one
        // join it, and the place takes the best tier among them.
        var places: [PlaceMatch] = []
        var placeTier: [Int] = []
        for h in ties {
            if let k = places.firstIndex(where: { Geo.distance($0.candidate.at, h.candidate.at) <= Self.samePlaceRadius }) {
                placeTier[k] = min(placeTier[k], Self.tier(h.candidate))
            } else {
                places.append(h); placeTier.append(Self.tier(h.candidate))
            }
        }
        if places.count == 1 { return .found(top) }
        // With a near point, the nearest place wins when the next is at least twice as far.
        if near != nil {
            let byDistance = places.sorted { ($0.distance ?? 0) < ($1.distance ?? 0) }
            if let d0 = byDistance[0].distance, let d1 = byDistance[1].distance, d0 * Self.nearWinRatio <= d1 { return .found(byDistance[0]) }
        }
        // One place of the best tier wins, unless another town has a place of that name that is
        // more than a street ("Marktplatz": one village's square, another's stop).
        let best = placeTier.min()!
        let winners = places.indices.filter { placeTier[$0] == best }
        if winners.count == 1, best < Self.streetTier {
            let w = winners[0]
            // The winner's own best-tier member (a station rather than the car park beside it).
            let answer = ties.first { Self.tier($0.candidate) == best && Geo.distance($0.candidate.at, places[w].candidate.at) <= Self.samePlaceRadius } ?? places[w]
            let town = Self.municipalityLabel(answer.candidate.town)
            let rivals = places.indices.filter { $0 != w && placeTier[$0] < Self.streetTier && Self.municipalityLabel(places[$0].candidate.town) != town }
            if rivals.isEmpty { return .found(answer) }
        }
        return .ambiguous(Array(places.prefix(Self.ambiguousListLimit)))
    }

    /// Tier of streets and house numbers (`tier`).
    static let streetTier = 2

    /// What a bare name most likely means: a landmark, square or town (0), a stop or shop (1: a
    /// station's stops spread past `samePlaceRadius`), a street or house number (2).
    static func tier(_ c: PlaceCandidate) -> Int {
        if c.kind == .street || c.category == PlaceKindWords.houseNumberCategory { return streetTier }
        return c.kind == .shop || c.category == PlaceKindWords.stopCategory ? 1 : 0
    }

    /// The municipality part of a town label ("Bergheim, Heidelberg" → "Heidelberg").
    static func municipalityLabel(_ town: String) -> Substring {
        guard let comma = town.lastIndex(of: ",") else { return town[...] }
        return town[town.index(after: comma)...].drop { $0 == " " }
    }

    /// The towns a text names ("Hauptstraße, Eppelheim" → ["Eppelheim"]), as the map spells them.
    public func namedTowns(_ text: String) -> [String] {
        townsNamed(PlaceQuery(text)).sorted().map { towns[Int($0)].name }
    }

    func looseSuggestions(_ text: String) -> [PlaceMatch] {
        let query = PlaceQuery(text)
        let q = query.name
        guard !q.isEmpty else { return [] }
        // A town the text names: suggestions carry their distance from it, nearest first.
        let townAt = townsNamed(query).map { towns[Int($0)].at }
        var hits: [PlaceMatch] = []
        for (i, nameTokens) in tokens.enumerated() {
            var best = 0.0
            for qt in q {
                for t in nameTokens {
                    let common = zip(qt, t).prefix { $0 == $1 }.count
                    best = max(best, Double(common) / Double(max(qt.count, t.count)))
                }
            }
            if best >= 0.34 {
                hits.append(PlaceMatch(candidate: candidates[i], score: best, match: .partial,
                                       distance: townAt.lazy.map { Geo.distance($0, self.candidates[i].at) }.min()))
            }
        }
        hits.sort {
            if $0.score != $1.score { return $0.score > $1.score }
            if let a = $0.distance, let b = $1.distance, a != b { return a < b }
            return $0.candidate.name < $1.candidate.name
        }
        // The same name in the same town once (a long street is several candidates).
        var seen = Set<String>(), out: [PlaceMatch] = []
        for h in hits where out.count < Self.suggestionListLimit && seen.insert(h.candidate.name + "\u{1F}" + h.candidate.town).inserted {
            out.append(h)
        }
        return out
    }
}
