import Glibc
import SkateCore

/// Decides which town a point lies in from located town evidence (`TownEvidenceCollector`).
///
/// Each piece of evidence votes for its municipality (a district's evidence for the district and
/// its municipality) with its weight times a Gaussian of the distance; the municipality with the
/// most votes wins, then the best of its districts if any district got enough. A city-limit sign
/// whose front side is known (tagged, or the traffic direction of its one-way road) votes only
/// on the town's side of it; one without a side votes at half weight (the town is on one of its
/// two sides).
struct TownAssigner {
    struct Town {
        var name: String
        /// Index of the municipality for a district, nil for a municipality.
        var parent: Int?
        /// A `place` node's position, when the town has one.
        var placeNode: Coordinate?
    }

    /// Located evidence for town `town`.
    struct Evidence {
        var town: Int
        var at: Coordinate
        var weight: Double
        /// Unit direction (north, east components) pointing into the town from a one-sided sign.
        var inside: (Double, Double)?
    }

    /// Distance scale of a vote in metres: about a village's radius, so evidence speaks for its
    /// surroundings and a neighbouring village's own evidence wins in the village.
    static let sigma = 1500.0
    /// The near scale is `sigma` / this (500 m): a town's own evidence around the point decides
    /// before the wide vote, where a big neighbour's many addresses 1–3 km away would outvote a
    /// village's few. On the Heidelberg test extract, each address's `addr:city` predicted from
    /// the others (leave one out, `scripts/town-vote-check.py`): wide only 684 / 709 (Dossenheim
    /// 0 / 8, Eppelheim 0 / 4, Leimen 2 / 5); near first 704 / 709 (8 / 8, 4 / 4, 5 / 5).
    /// An integer, so the near Gaussian is the wide one to the power `nearRatio²`, no second `exp`.
    static let nearRatio = 3
    /// Least near vote that decides: half an address (or one unsided sign) right at the point,
    /// one address about 590 m away.
    static let minNearVote = 0.5
    /// Votes are summed within this many `sigma` (beyond, a vote is under 1.2 % of its weight).
    static let cutoffSigmas = 3.0
    /// Least vote total for a town to be given: one address or sign about 3.7 km away.
    static let minVote = 0.05
    /// Grid cell side in degrees of latitude for the evidence index (≈ 2.2 km).
    static let cellDegrees = 0.02
    /// Weight of a city-limit sign whose side its tags give, of one whose side only its one-way
    /// road suggests (the back of a two-sided sign is sometimes mapped on the other carriageway),
    /// and of one whose side is unknown.
    static let signWeight = 1.0, onewaySignWeight = 0.75, unsidedSignWeight = 0.5
    /// Least vote for a district: its own evidence within about a kilometre (a sign at a
    /// district's entrance says little about the streets 3 km further on).
    static let minDistrictVote = 0.4
    /// Weight of an addressed object's `addr:city` or an `is_in`.
    static let addressWeight = 1.0

    /// An administrative area's ring: where it holds a point, it decides the town outright.
    struct Area {
        var town: Int
        /// `TownEvidenceCollector.municipalityLevel` or a district level.
        var level: Int
        var lat: [Double], lon: [Double]
        var minLat: Double, maxLat: Double, minLon: Double, maxLon: Double

        init(town: Int, level: Int, ring: [Coordinate]) {
            self.town = town; self.level = level
            lat = ring.map(\.lat); lon = ring.map(\.lon)
            minLat = lat.min() ?? 0; maxLat = lat.max() ?? 0; minLon = lon.min() ?? 0; maxLon = lon.max() ?? 0
        }

        /// Even-odd ray casting.
        func contains(_ p: Coordinate) -> Bool {
            guard p.lat >= minLat, p.lat <= maxLat, p.lon >= minLon, p.lon <= maxLon else { return false }
            var inside = false
            var j = lat.count - 1
            for i in 0..<lat.count {
                if (lat[i] > p.lat) != (lat[j] > p.lat), p.lon < (lon[j] - lon[i]) * (p.lat - lat[i]) / (lat[j] - lat[i]) + lon[i] { inside.toggle() }
                j = i
            }
            return inside
        }
    }

    var towns: [Town] = []
    var evidence: [Evidence] = []
    var areas: [Area] = []
    private var byKey: [String: Int] = [:]
    private var grid: [Int64: [Int32]] = [:]

    /// Folded lookup key of a town name ("Heidelberg" → "heidelberg").
    static func key(_ name: String) -> String { PlaceSearch.fold(name).split(separator: " ").joined(separator: " ") }

    /// The town called `name`, if known.
    func town(named name: String) -> Int? { byKey[Self.key(name)] }

    /// Adds (or finds) a town by name.
    mutating func addTown(_ name: String, parent: Int? = nil, placeNode: Coordinate? = nil) -> Int {
        let k = Self.key(name)
        if let i = byKey[k] {
            if towns[i].placeNode == nil, let placeNode { towns[i].placeNode = placeNode }
            if towns[i].parent == nil, let parent, parent != i { towns[i].parent = parent }
            return i
        }
        towns.append(Town(name: name, parent: parent, placeNode: placeNode))
        byKey[k] = towns.count - 1
        return towns.count - 1
    }

    mutating func addEvidence(_ e: Evidence) {
        evidence.append(e)
        grid[cellKey(e.at), default: []].append(Int32(evidence.count - 1))
    }

    func cellKey(_ c: Coordinate) -> Int64 {
        let y = Int64((c.lat / Self.cellDegrees).rounded(.down)), x = Int64((c.lon / (Self.cellDegrees / lonScale(c.lat))).rounded(.down))
        return y << 32 | (x & 0xFFFF_FFFF)
    }

    /// Degrees of longitude per degree of latitude's ground length at `lat`, clamped near the poles.
    func lonScale(_ lat: Double) -> Double { max(0.1, cos(lat * .pi / 180)) }

    /// The municipality of town `t` (itself when it is one).
    func municipality(_ t: Int) -> Int { towns[t].parent ?? t }

    /// The municipality and district areas holding `p` (deepest of each), if any.
    func areaTowns(at p: Coordinate) -> (municipality: Int?, district: Int?) {
        var m: Int?, d: Int?, dLevel = 0
        for a in areas where a.contains(p) {
            if a.level == TownEvidenceCollector.municipalityLevel { m = m ?? a.town }
            else if a.level > dLevel { d = a.town; dLevel = a.level }
        }
        return (m, d)
    }

    /// The town (district if one wins, else municipality) at a point; nil when no evidence is near.
    /// An administrative area holding the point decides outright.
    func town(at p: Coordinate) -> Int? {
        if !areas.isEmpty {
            let (m, d) = areaTowns(at: p)
            if let m {
                if let d, towns[d].parent == m { return d }
                return m
            }
        }
        return voted(at: p)
    }

    /// The town the evidence votes for at `p`.
    func voted(at p: Coordinate) -> Int? {
        // The towns voted for, in the order first seen, and their votes: a handful near any point,
        // so a linear list is cheaper than hashing each vote (a fifth of a region import's town
        // pass went to `Dictionary` hashing here).
        var votedTowns: [Int] = [], votes: [Double] = [], nearVotes: [Double] = []
        let reach = Self.cutoffSigmas * Self.sigma
        let cells = Int((reach / 111_000 / Self.cellDegrees).rounded(.up))
        let cy = Int64((p.lat / Self.cellDegrees).rounded(.down))
        let cx = Int64((p.lon / (Self.cellDegrees / lonScale(p.lat))).rounded(.down))
        let metresPerDegLon = 111_320 * lonScale(p.lat)
        for dy in -cells...cells {
            for dx in -cells...cells {
                guard let list = grid[(cy + Int64(dy)) << 32 | ((cx + Int64(dx)) & 0xFFFF_FFFF)] else { continue }
                for i in list {
                    let e = evidence[Int(i)]
                    let north = (p.lat - e.at.lat) * 110_574, east = (p.lon - e.at.lon) * metresPerDegLon
                    if let (n, ea) = e.inside, north * n + east * ea < 0 { continue }
                    let d2 = north * north + east * east
                    guard d2 < reach * reach else { continue }
                    let g = exp(-d2 / (2 * Self.sigma * Self.sigma))
                    let v = e.weight * g, near = e.weight * Self.nearPower(g)
                    if let k = votedTowns.firstIndex(of: e.town) { votes[k] += v; nearVotes[k] += near } else {
                        votedTowns.append(e.town); votes.append(v); nearVotes.append(near)
                    }
                }
            }
        }
        // Municipality first (a district's votes count for its municipality too), then its districts.
        // The near vote decides when it is strong enough, else the wide one.
        var municipalities: [Int] = [], byMunicipality: [Double] = [], nearByMunicipality: [Double] = []
        for k in votedTowns.indices {
            let m = municipality(votedTowns[k])
            if let j = municipalities.firstIndex(of: m) { byMunicipality[j] += votes[k]; nearByMunicipality[j] += nearVotes[k] } else {
                municipalities.append(m); byMunicipality.append(votes[k]); nearByMunicipality.append(nearVotes[k])
            }
        }
        let best: (key: Int, value: Double)
        if let near = Self.argmax(municipalities, nearByMunicipality), near.value >= Self.minNearVote {
            best = near
        } else {
            guard let wide = Self.argmax(municipalities, byMunicipality), wide.value >= Self.minVote else { return nil }
            best = wide
        }
        var districts: [Int] = [], districtVotes: [Double] = []
        for (t, v) in zip(votedTowns, votes) where towns[t].parent == best.key { districts.append(t); districtVotes.append(v) }
        if let d = Self.argmax(districts, districtVotes), d.value >= Self.minDistrictVote { return d.key }
        return best.key
    }

    /// The near Gaussian from the wide one: g^(nearRatio²) (g⁹ for a ratio of 3).
    @inline(__always) static func nearPower(_ g: Double) -> Double {
        var x = g
        for _ in 1..<(nearRatio * nearRatio) { x *= g }
        return x
    }

    /// The highest vote of `keys[i]` ↦ `values[i]`, lowest key on a tie (deterministic).
    static func argmax(_ keys: [Int], _ values: [Double]) -> (key: Int, value: Double)? {
        var best: (key: Int, value: Double)?
        for (k, x) in zip(keys, values) where best == nil || x > best!.value || (x == best!.value && k < best!.key) { best = (k, x) }
        return best
    }

}
