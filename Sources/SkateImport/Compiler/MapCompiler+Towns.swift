import Glibc
import SkateCore

extension MapCompiler {
    /// Title words city-limit signs put before a town's name ("Universitätsstadt Mannheim"), folded.
    static let townTitles: [[Substring]] = ["universitatsstadt", "grosse kreisstadt", "kreisstadt", "landeshauptstadt", "hansestadt",
                                            "stadt", "gemeinde", "markt", "ville de", "commune de", "comune di", "citta di"]
        .map { $0.split(separator: " ") }

    /// A sign's town name without a leading title.
    static func withoutTitle(_ name: String) -> String {
        let words = name.split(separator: " ")
        let folded = PlaceSearch.fold(name).split(separator: " ")
        for t in townTitles where folded.count > t.count && Array(folded.prefix(t.count)) == t && words.count > t.count {
            return words.dropFirst(t.count).joined(separator: " ")
        }
        return name
    }

    /// The position of a located item: its node, or the centroid of its way.
    func locate(lat: Double?, lon: Double?, refs: [Int64]) -> Coordinate? {
        if let lat, let lon { return Coordinate(lat: lat, lon: lon) }
        return position(of: refs).map { Coordinate(lat: $0.0, lon: $0.1) }
    }

    /// Builds the town table from the evidence (see `TownAssigner`).
    func townAssigner() -> TownAssigner {
        var a = TownAssigner()
        let items = townEvidence.items
        let at = items.map { locate(lat: $0.lat, lon: $0.lon, refs: $0.refs) }
        // Municipalities and districts named by place nodes, then names from addresses and signs.
        for (i, it) in items.enumerated() where it.source == .place && TownEvidenceCollector.municipalityWeight(it.placeType) != nil {
            _ = a.addTown(it.name, placeNode: at[i])
        }
        var district = Set<Int>()
        for (i, it) in items.enumerated() where it.source == .place && TownEvidenceCollector.districtWeight(it.placeType) != nil {
            if a.town(named: it.name) == nil { district.insert(a.addTown(it.name, placeNode: at[i])) }
        }
        // Administrative areas: municipalities, then districts (parent: the municipality area
        // holding most of the district's ring points).
        var areaRings: [(name: String, level: Int, rings: [[Coordinate]])] = []
        for area in townEvidence.adminAreas {
            let rings = Self.assembleRings(area.outerWays.compactMap { areaWayRefs[$0] }).map { ring in
                ring.compactMap { r in nodeIndex[r].map { Coordinate(lat: nodeIndex.lat($0), lon: nodeIndex.lon($0)) } }
            }.filter { $0.count >= 4 }
            if !rings.isEmpty { areaRings.append((area.name, area.level, rings)) }
        }
        for r in areaRings where r.level == TownEvidenceCollector.municipalityLevel {
            let t = a.addTown(r.name)
            for ring in r.rings { a.areas.append(.init(town: t, level: r.level, ring: ring)) }
        }
        for r in areaRings where r.level != TownEvidenceCollector.municipalityLevel {
            let points = r.rings.flatMap { $0 }
            var count: [Int: Int] = [:]
            for p in points.prefix(64) { if let m = a.areaTowns(at: p).municipality { count[m, default: 0] += 1 } }
            let parent = count.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key
            let t = a.addTown(r.name, parent: parent)
            if t != parent { district.insert(t) }
            for ring in r.rings { a.areas.append(.init(town: t, level: r.level, ring: ring)) }
        }
        for it in items where it.source == .address || it.source == .isIn { _ = a.addTown(it.name) }
        var itemTown = [Int?](repeating: nil, count: items.count)
        for (i, it) in items.enumerated() {
            if it.source == .sign {
                // "Heidelberg-Kirchheim", "Neckargemünd/Kleingemünd": a district of a known town.
                let clean = Self.withoutTitle(it.name)
                if let cut = clean.firstIndex(where: { $0 == "-" || $0 == "/" }),
                   let m = a.town(named: String(clean[..<cut])), !district.contains(m) {
                    let rest = String(clean[clean.index(after: cut)...])
                    let d = a.addTown(rest.isEmpty ? clean : rest, parent: m)
                    if d != m { district.insert(d) }
                    itemTown[i] = d
                } else {
                    itemTown[i] = a.addTown(clean)
                }
            } else {
                itemTown[i] = a.town(named: it.name)
            }
        }
        // Evidence: municipalities' first, so districts without a parent can be placed in one.
        func add(_ i: Int, _ t: Int, to b: inout TownAssigner) {
            guard let p = at[i] else { return }
            let it = items[i]
            switch it.source {
            case .place:
                b.addEvidence(.init(town: t, at: p, weight: TownEvidenceCollector.municipalityWeight(it.placeType) ?? TownEvidenceCollector.districtWeight(it.placeType) ?? 1))
            case .address, .isIn:
                b.addEvidence(.init(town: t, at: p, weight: TownAssigner.addressWeight))
            case .sign:
                if let (dir, inferred) = signDirection(items: items, index: i) {
                    b.addEvidence(.init(town: t, at: p, weight: inferred ? TownAssigner.onewaySignWeight : TownAssigner.signWeight, inside: dir))
                } else {
                    b.addEvidence(.init(town: t, at: p, weight: TownAssigner.unsidedSignWeight))
                }
            }
        }
        var municipalOnly = a
        for i in items.indices { if let t = itemTown[i], !district.contains(t) { add(i, t, to: &municipalOnly) } }
        for d in district.sorted() where a.towns[d].parent == nil {
            if let p = a.towns[d].placeNode, let m = municipalOnly.town(at: p) { a.towns[d].parent = m }
        }
        for i in items.indices { if let t = itemTown[i] { add(i, t, to: &a) } }
        return a
    }

    /// Unit (north, east) direction into the town from a sign, and whether it was only inferred:
    /// the side its tags give, else the way's one-way direction (a sign faces the traffic that
    /// passes it); nil when neither says.
    func signDirection(items: [TownEvidenceCollector.Item], index i: Int) -> (dir: (Double, Double), inferred: Bool)? {
        let it = items[i]
        guard let nb = townEvidence.signNeighbours[i], let la = it.lat, let lo = it.lon else { return nil }
        let side = it.side != 0 ? it.side : nb.oneway
        guard side != 0 else { return nil }
        // Ahead of the traffic that reads the sign: towards the next node, or away from the previous.
        let ahead = side > 0 ? nb.after : nb.before, behind = side > 0 ? nb.before : nb.after
        let toward: Double
        let ref: Int64
        if let a = ahead { ref = a; toward = 1 } else if let b = behind { ref = b; toward = -1 } else { return nil }
        guard let k = nodeIndex[ref] else { return nil }
        let north = (nodeIndex.lat(k) - la) * 110_574 * toward, east = (nodeIndex.lon(k) - lo) * 111_320 * cos(la * .pi / 180) * toward
        let len = (north * north + east * east).squareRoot()
        return len > 0 ? ((north / len, east / len), it.side == 0) : nil
    }

    /// Fills the town table, each place's and named edge's town, and the house numbers.
    /// - Parameter placeCities: each place's own `addr:city` / `is_in`, in place order.
    func buildTowns(into map: inout SkateMap, strings: inout StringTable, placeCities: [String?], grain: Int = ParallelMap.minItemsPerThread) {
        let a = townAssigner()
        guard !a.towns.isEmpty else { return buildAddresses(into: &map, strings: &strings, assigner: a) }
        var sumLat = [Double](repeating: 0, count: a.towns.count), sumLon = sumLat, hits = [Int](repeating: 0, count: a.towns.count)
        func note(_ t: Int?, _ c: Coordinate) {
            guard let t else { return }
            sumLat[t] += c.lat; sumLon[t] += c.lon; hits[t] += 1
        }
        var placeTown = [UInt32](repeating: 0, count: map.placeCount)
        for i in 0..<map.placeCount {
            let c = Coordinate(lat: map.placeLat[i], lon: map.placeLon[i])
            let t = placeCities[i].flatMap { a.town(named: $0) } ?? a.town(at: c)
            note(t, c)
            placeTown[i] = t.map { UInt32($0 + 1) } ?? 0
        }
        var edgeTown = [UInt16](repeating: 0, count: map.edgeCount)
        // Each named edge's town on both cores (`town(at:)` is pure: most of the town pass on a
        // region), then noted in edge order as before.
        let named = (0..<map.edgeCount).filter { map.edgeName[$0] != 0 }
        let points = named.map { e in
            let n = map.shapePointCount(ofEdge: e)
            return n == 2 ? Coordinate(lat: (map.nodeLat[Int(map.edgeFrom[e])] + map.nodeLat[Int(map.edgeTo[e])]) / 2,
                                       lon: (map.nodeLon[Int(map.edgeFrom[e])] + map.nodeLon[Int(map.edgeTo[e])]) / 2)
                          : map.shapePoint(ofEdge: e, n / 2)
        }
        let found = ParallelMap.map(named.count, grain: grain) { a.town(at: points[$0]) }
        for (i, e) in named.enumerated() {
            guard let t = found[i], t < Int(UInt16.max) else { continue }
            note(t, points[i])
            edgeTown[e] = UInt16(t + 1)
        }
        for (t, town) in a.towns.enumerated() {
            let at = town.placeNode ?? (hits[t] > 0 ? Coordinate(lat: sumLat[t] / Double(hits[t]), lon: sumLon[t] / Double(hits[t])) : evidenceCentre(a, t))
            map.townName.append(strings.intern(town.name))
            map.townParent.append(town.parent.map { UInt32($0 + 1) } ?? 0)
            map.townLat.append(at.lat); map.townLon.append(at.lon)
        }
        map.placeTown = FlatArray(placeTown)
        map.edgeTown = FlatArray(edgeTown)
        buildAddresses(into: &map, strings: &strings, assigner: a, grain: grain)
    }

    /// The middle of a town's own evidence (a town nothing was assigned to, e.g. a sign's town at
    /// the extract's edge).
    func evidenceCentre(_ a: TownAssigner, _ t: Int) -> Coordinate {
        var la = 0.0, lo = 0.0, n = 0.0
        for e in a.evidence where e.town == t { la += e.at.lat; lo += e.at.lon; n += 1 }
        return n > 0 ? Coordinate(lat: la / n, lon: lo / n) : Coordinate(lat: 0, lon: 0)
    }

    /// House numbers sorted by street name bytes, then number, then position.
    func buildAddresses(into map: inout SkateMap, strings: inout StringTable, assigner a: TownAssigner, grain: Int = ParallelMap.minItemsPerThread) {
        var rows: [(street: [UInt8], number: String, street0: String, at: Coordinate, town: UInt32)] = []
        let addresses = townEvidence.addresses
        let at = addresses.map { locate(lat: $0.lat, lon: $0.lon, refs: $0.refs) }
        // Both cores, as the named edges' towns (`town(at:)` and `town(named:)` are pure).
        let town = ParallelMap.map(addresses.count, grain: grain) { i in
            at[i].flatMap { c in addresses[i].city.flatMap { a.town(named: $0) } ?? (a.towns.isEmpty ? nil : a.town(at: c)) }
        }
        for (i, ad) in addresses.enumerated() {
            guard let c = at[i] else { continue }
            rows.append((Array(ad.street.utf8), ad.number, ad.street, c, town[i].map { UInt32($0 + 1) } ?? 0))
        }
        rows.sort { x, y in
            if x.street != y.street { return x.street.lexicographicallyPrecedes(y.street) }
            if x.number != y.number { return x.number < y.number }
            return (x.at.lat, x.at.lon) < (y.at.lat, y.at.lon)
        }
        for r in rows {
            map.addressStreet.append(strings.intern(r.street0)); map.addressNumber.append(strings.intern(r.number))
            map.addressLat.append(r.at.lat); map.addressLon.append(r.at.lon); map.addressTown.append(r.town)
        }
    }
}
