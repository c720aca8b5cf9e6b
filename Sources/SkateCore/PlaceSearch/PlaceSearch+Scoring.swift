import Glibc

/// Scoring one candidate against a query, and house numbers.
extension PlaceSearch {
    /// Share of a word's score kept when the candidate's town, not its name, holds it: "Heidelberg
    /// Hauptbahnhof" is the station of that name before the "Hauptbahnhof" car park in Heidelberg.
    static let townWordShare = 0.98
    /// Share kept by a name whose query also asks for a house number the map has no address for
    /// ("Plöck 52": the Heidelberg extract holds 633 addresses, so most numbers are missing). The
    /// number then leaves the score's word count: the street is still what was asked for, but it
    /// ranks under its own address when the map has one (`scoreWithNumbers`), by more than
    /// `tieMargin`.
    static let missingNumberShare = 0.9

    /// How near `at` lies to the nearest of the `named` towns' positions, 0…1:
    /// exp(−d²/2σ²) with σ = `townProximityScale`.
    func townProximity(_ at: Coordinate, _ named: Set<Int32>) -> Double {
        var best = 0.0
        for k in named {
            let d = Geo.distance(at, towns[Int(k)].at) / Self.townProximityScale
            best = max(best, exp(-d * d / 2))
        }
        return best
    }

    /// One candidate's score and what it left unmatched.
    struct Scored {
        var score: Double
        var match: PlaceMatchKind
        var distance: Double?
        /// House-number words no name word matched (a street may have them as addresses).
        var unmatchedNumbers: [[UInt8]]
        /// Score with those numbers counted as matched (for the house-number candidate).
        var scoreWithNumbers: Double
        /// Whether every word left unmatched is a house number: only then may the street's own
        /// address answer ("Avenue de la Costa 12" is no answer on Avenue Saint-Romain).
        var onlyNumbersUnmatched: Bool
    }

    /// Towns whose every word the query names (in the name part or after the comma).
    func townsNamed(_ q: PlaceQuery) -> Set<Int32> {
        var out = Set<Int32>()
        guard !towns.isEmpty else { return out }
        let words = q.name + q.town
        for (k, t) in towns.enumerated() where !t.own.isEmpty && t.own.allSatisfy({ words.contains($0) }) { out.insert(Int32(k)) }
        return out
    }

    /// The score of candidate `i`, nil when no query word matched its name.
    func scored(_ q: PlaceQuery, candidate i: Int, nameTokens: [[UInt8]], named: Set<Int32>, near: Coordinate?) -> Scored? {
        // Most candidates share no word with the query: find out with one pass over the name.
        guard q.name.contains(where: { Self.tokenScore($0, nameTokens) > 0 }) else { return nil }
        let t = Int(candidateTown[i])
        let townWords = t >= 0 ? towns[t].all : []
        var sum = 0.0, nameHits = 0, wordHits = 0, unmatched = 0, inexact = 0
        var numbers: [[UInt8]] = []
        for w in q.name {
            let s = Self.tokenScore(w, nameTokens)
            if s > 0 {
                nameHits += 1; sum += s
                if !PlaceQuery.isNumber(w) { wordHits += 1 }
                if s < Self.exactScore { inexact += 1 }
                continue
            }
            let ts = townWords.isEmpty ? 0 : Self.townTokenScore(w, townWords)
            if ts > 0 { sum += ts * Self.townWordShare; if ts < Self.exactScore { inexact += 1 }; continue }
            unmatched += 1
            if PlaceQuery.isNumber(w) { numbers.append(w) }
        }
        guard nameHits > 0 else { return nil }
        // Name words (not numbers) no name word matched: "Avenue X 12" is no street's address.
        let unmatchedWords = unmatched - numbers.count
        // "Kornmarkt 5": the number is an address, so a name that matches only the query's
        // numbers (a way named "5") is no match when the query has words.
        if wordHits == 0, q.name.contains(where: { !PlaceQuery.isNumber($0) }) { return nil }
        // Outside every town the query names: how near the nearest of them lies (1 at its
        // position, falling with `townProximityScale`), since labels are a vote, not a boundary.
        let outside = !named.isEmpty && !(t >= 0 && (named.contains(Int32(t)) || named.contains(towns[t].municipality)))
            && !named.contains(where: { k in towns[Int(k)].own.allSatisfy { nameTokens.contains($0) } })
        let proximity = outside ? townProximity(candidates[i].at, named) : 0
        // Town words that are themselves words of the name, when every name word matched too:
        // "Hauptbahnhof, Heidelberg" names the station "Heidelberg Hauptbahnhof" whole, before a
        // car park called "Hauptbahnhof" (but "Terrasses de Fontvieille 11, Monaco" is not the post
        // office "Bureau de Monaco Fontvieille").
        var townWordsInName = 0
        for w in q.town {
            if unmatchedWords == 0, Self.tokenScore(w, nameTokens) >= Self.exactScore { sum += Self.exactScore; townWordsInName += 1; continue }
            var ts = townWords.isEmpty ? 0 : Self.townTokenScore(w, townWords)
            // A named town's word counts for a candidate near that town by the nearness.
            if ts == 0, proximity > 0, named.contains(where: { towns[Int($0)].all.contains(w) }) { ts = proximity }
            sum += ts * Self.townWordShare
            if ts == 0 { unmatched += 1 } else if ts < Self.exactScore { inexact += 1 }
        }
        let allWords = Double(q.name.count + q.town.count)
        // Numbers no name word holds are addresses the map may lack: on a street or square whose
        // name matched every other name word they leave the count, at `missingNumberShare` (a cafe
        // has no house numbers: "Plöck 52" is not a typo of "Wine O Clock"; "Avenue X 12" is no
        // answer on North Gettysburg Avenue).
        let missing = wordHits > 0 && unmatchedWords == 0 && Self.hasAddresses(candidates[i].kind) ? Double(numbers.count) : 0
        let words = allWords - missing
        // Prefer names that the query covers fully: "casino" → "Casino" over "Casino Café de Paris".
        let coverage = Double(min(q.name.count + townWordsInName, nameTokens.count)) / Double(nameTokens.count)
        var factor = (Self.coverageFloor + (1 - Self.coverageFloor) * coverage) * prior[i]
        // The query names a town this candidate is not in (and its name does not carry that town):
        // a far one keeps `otherTownFactor`, one beside the town nearly all.
        if outside { factor *= Self.otherTownFactor + (1 - Self.otherTownFactor) * proximity }
        var distance: Double?
        if let near {
            let d = Geo.distance(near, candidates[i].at)
            distance = d
            factor *= 1 - Self.nearWeight * d / (d + Self.nearScale)
        }
        let match: PlaceMatchKind = unmatched > 0 ? (isTown[i] ? .townOnly : .partial) : inexact > 0 ? .fuzzy : .exact
        return Scored(score: sum / words * factor * (missing > 0 ? Self.missingNumberShare : 1), match: match, distance: distance,
                      unmatchedNumbers: numbers, scoreWithNumbers: (sum + Double(numbers.count)) / allWords * factor,
                      onlyNumbersUnmatched: unmatched == numbers.count)
    }

    /// Farthest (metres) an address point may lie from a way of its street for the house number
    /// to stand on that way: a building's outline centre sits 10–40 m back from its street, a
    /// courtyard building further; beyond this the address point itself is kept.
    public static let addressToStreetRadius = 80.0

    /// Kinds of place a house number may be on: streets and the squares named like streets.
    static func hasAddresses(_ k: PlaceKind) -> Bool { k == .street || k == .square || k == .pedestrianArea }

    /// The house-number candidate of a street match whose unmatched words include a number the
    /// map has an address for, on that street, in the street's municipality (or with no town).
    func houseNumber(_ street: Scored, candidate i: Int) -> PlaceMatch? {
        guard let map, street.scoreWithNumbers >= Self.minScore, let number = street.unmatchedNumbers.first else { return nil }
        let name = Array(candidates[i].name.utf8)
        let n = map.addressStreet.count
        // First address of this street (addresses are sorted by street name bytes).
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if Array(map.string(map.addressStreet[mid]).utf8).lexicographicallyPrecedes(name) { lo = mid + 1 } else { hi = mid }
        }
        let t = candidateTown[i]
        let m = t >= 0 ? towns[Int(t)].municipality : -1
        var k = lo
        while k < n, map.string(map.addressStreet[k]) == candidates[i].name {
            defer { k += 1 }
            guard Self.tokenBytes(Self.fold(map.string(map.addressNumber[k]))) == [number] else { continue }
            let at = map.townIndex(reference: Int(map.addressTown[k]))
            if m >= 0, let at, Int32(map.municipality(ofTown: at)) != m { continue }
            let label = map.townLabel(at).isEmpty ? candidates[i].town : map.townLabel(at)
            let address = Coordinate(lat: map.addressLat[k], lon: map.addressLon[k])
            // The door on the street: the nearest point of a way of that name, so a plan starts on
            // the street, not on a building's entrance flight that happens to be nearer.
            let door = map.nearestEdge(to: address, maxDistance: Self.addressToStreetRadius, where: { map.name(ofEdge: $0) == candidates[i].name })?.point
            let c = PlaceCandidate(name: candidates[i].name + " " + map.string(map.addressNumber[k]), kind: .other,
                                   category: PlaceKindWords.houseNumberCategory, at: door ?? address, town: label)
            return PlaceMatch(candidate: c, score: street.scoreWithNumbers, match: .houseNumber, distance: street.distance)
        }
        return nil
    }
}
