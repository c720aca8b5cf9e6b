import FoundationEssentials
import SkateCore

/// Matches a scored line (ours or a peer's) to the map's edges by bearing and continuity, for the
/// braking bench's scorer (issue 26): a small Viterbi over the line's samples, where a sample's
/// candidates are the edges within `searchMetres` whose bearing at the nearest point agrees with
/// the line's within `maxBearingDegrees` (either way along the edge), and the chain prefers
/// staying on one edge or moving to an edge that shares a node with it at the distance the line
/// travelled. A jump to an edge that shares no node is allowed (a way the map lacks) at a high
/// cost, and never between edges whose `bridge`/`tunnel` flags differ — the map's only layer
/// knowledge — so a line in a tunnel cannot take the street above's profile, nor one on a street
/// the profile of the flyover beside it. Independent of the planner's costing: it reads only the
/// map's geometry, adjacency and flags.
///
/// | constant              | value | why                                                                 |
/// |-----------------------|-------|---------------------------------------------------------------------|
/// | `searchMetres`        | 15 m  | the old nearest-edge scorer's snap radius: OSM lines lie on the map's nodes, so this only has to cover drawing differences |
/// | `maxBearingDegrees`   | 30°   | a street beside or across the line at another angle is not the one ridden |
/// | `sigmaMetres`         | 4 m   | distance from the line at which a candidate costs as much as a node change (scale of the emission) |
/// | `nodeChangeCost`      | 0.5   | moving to an edge that shares a node: cheap, but staying wins a tie |
/// | `continuityMetres`    | 5 m   | scale of the mismatch between the network distance and the line's step |
/// | `jumpCost`            | 30    | moving to an edge with no shared node: only where no connected chain fits |
/// | `liftMetres`          | 0.5 m | a lift is drawn as two floors at one spot: such a segment keeps a sample, matched to a zero-length edge |
/// | `connectorMetres`     | 3 m   | a lift drawn a few metres long (Monaco: 1.6 m) is sampled at its ends only and its gap walked, as one at a spot |
/// | `connectorSnapMetres` | 1 m   | the connector's ends and length agree with the segment's within this |
struct LineMatcher {
    static let searchMetres = 15.0
    static let maxBearingDegrees = 30.0
    static let sigmaMetres = 4.0
    static let nodeChangeCost = 0.5
    static let continuityMetres = 5.0
    static let jumpCost = 30.0
    /// Line segments and edges at most this long are a lift's two floors at one spot.
    static let liftMetres = 0.5
    /// Line segments at most this long that follow a connector edge (lift, escalator) are its
    /// two ends (`isShortConnector`); longer connectors are matched like any edge.
    static let connectorMetres = 3.0
    /// How near a short connector's ends and length must be to the segment's, metres.
    static let connectorSnapMetres = 1.0

    let map: SkateMap

    /// One sample's match: the edge, the offset along it from `edgeFrom` (metres) and the
    /// distance from the sample to the edge (metres).
    struct Hit: Equatable {
        var edge: Int
        var offset: Double
        var distance: Double
    }

    /// A line's samples and their matches.
    struct Matched {
        /// The samples (every vertex of the line plus points every ≤ `step` metres between).
        var points: [Coordinate] = []
        /// Metres from the start of each sample.
        var distance: [Double] = []
        /// Each sample's matched edge, or nil where no candidate fits.
        var hits: [Hit?] = []
        /// The edge each gap (sample k to k + 1) lies on, or nil when either end is unmatched.
        var gapEdge: [Int?] = []
        /// Per gap: true where the line rides a lift there (its two floors at one spot, a
        /// zero-length edge beside them), whatever edge the chain put the gap on. The floors'
        /// samples lie on the lift's edge and on the streets at both floors at once, so the chain
        /// may put the gap on a street; the scorer still walks it (never a cliff in a window).
        var liftGap: [Bool] = []

        var matchedMetres: Double { gapMetres { $0 != nil } }
        var unmatchedMetres: Double { gapMetres { $0 == nil } }
        func gapMetres(_ test: (Int?) -> Bool) -> Double {
            var m = 0.0
            for k in gapEdge.indices where test(gapEdge[k]) { m += distance[k + 1] - distance[k] }
            return m
        }
    }

    /// Samples `line` every ≤ `step` metres (keeping every vertex) and matches each sample.
    func match(_ line: [Coordinate], step: Double) -> Matched {
        var out = Matched()
        guard line.count >= 2 else { return out }
        // Samples with the bearing of the segment they lie on; a vertex also carries the bearing
        // of the segment leaving it (a junction's sample may lie on either edge).
        var pts: [Coordinate] = [line[0]], dist: [Double] = [0], bearings: [[Double]] = [[]], lift: [Bool] = []
        for (p, q) in zip(line, line.dropFirst()) {
            let d = Geo.distance(p, q)
            guard d > Self.liftMetres, !isShortConnector(p, q, metres: d) else {
                // A lift (two floors at one spot, or a few metres apart): a sample of its own, any
                // bearing, so the lift edge is matched and its gap is walked, not read as a cliff.
                if d > Self.liftMetres || map.nearestEdge(to: q, maxDistance: 1, where: { Double(map.edgeLength[$0]) <= Self.liftMetres }) != nil {
                    pts.append(q); dist.append(dist.last! + max(d, 1e-3)); bearings.append([]); lift.append(true)
                }
                continue
            }
            let b = Geo.bearing(p, q)
            bearings[bearings.count - 1].append(b)
            let k = max(1, Int((d / step).rounded(.up)))
            for i in 1...k {
                let t = Double(i) / Double(k)
                pts.append(Coordinate(lat: p.lat + (q.lat - p.lat) * t, lon: p.lon + (q.lon - p.lon) * t))
                dist.append(dist.last! + d / Double(k))
                bearings.append([b])
                lift.append(false)
            }
        }
        out.points = pts
        out.distance = dist
        out.liftGap = lift
        let n = pts.count
        guard n >= 2 else { out.points = []; out.distance = []; out.liftGap = []; return out }
        let cands = (0..<n).map { candidates(pts[$0], bearings: bearings[$0]) }
        out.hits = viterbi(cands, dist: dist)
        out.gapEdge = (0..<(n - 1)).map { k -> Int? in
            guard let a = out.hits[k], let b = out.hits[k + 1] else { return nil }
            if a.edge == b.edge { return a.edge }
            // The gap lies on the edge both ends lie on (a change of edge happens at a vertex).
            if let s = map.snap(pts[k], toEdge: b.edge), s.distance <= 1 { return b.edge }
            return a.edge
        }
        return out
    }

    /// True when the segment `p`–`q` (`metres` long, at most `connectorMetres`) is a lift or
    /// escalator drawn a few metres long: a connector edge of about that length lies within
    /// `connectorSnapMetres` of both ends. Its ends lie on the streets of both floors too, so only
    /// the segment itself says which floor a sample is on.
    func isShortConnector(_ p: Coordinate, _ q: Coordinate, metres d: Double) -> Bool {
        guard d <= Self.connectorMetres else { return false }
        return map.nearestEdge(to: q, maxDistance: Self.connectorSnapMetres, where: { e in
            map.flags(ofEdge: e).contains(.connector) && abs(Double(map.edgeLength[e]) - d) <= Self.connectorSnapMetres
                && (map.snap(p, toEdge: e)?.distance ?? .infinity) <= Self.connectorSnapMetres
        }) != nil
    }

    /// A candidate state: the hit and its emission cost.
    struct Candidate {
        var hit: Hit
        var cost: Double
    }

    /// Edges within `searchMetres` of `c` whose bearing at the nearest point agrees with one of
    /// `bearings` (either direction along the edge).
    func candidates(_ c: Coordinate, bearings: [Double]) -> [Candidate] {
        var seen = Set<Int>()
        // `nearestEdge` visits every edge in the grid cells within the radius; the filter
        // collects them and never accepts, so the whole radius is seen.
        _ = map.nearestEdge(to: c, maxDistance: Self.searchMetres) { e in seen.insert(e); return false }
        let proj = LocalProjection(origin: c)
        var out: [Candidate] = []
        for e in seen.sorted() {
            guard let s = map.snap(c, toEdge: e, projection: proj), s.distance <= Self.searchMetres else { continue }
            let lift = Double(map.edgeLength[e]) <= Self.liftMetres
            guard let eb = edgeBearing(e, offset: s.offset) ?? (lift ? 0 : nil) else { continue }
            let fits = bearings.isEmpty || lift || bearings.contains { b in
                let d = abs(Geo.turnAngle(from: b, to: eb))
                return d <= Self.maxBearingDegrees || 180 - d <= Self.maxBearingDegrees
            }
            guard fits else { continue }
            let z = s.distance / Self.sigmaMetres
            out.append(Candidate(hit: Hit(edge: e, offset: s.offset, distance: s.distance), cost: z * z / 2))
        }
        return out
    }

    /// The edge's drawing-direction bearing at `offset` metres from `edgeFrom` (nil for a
    /// zero-length edge).
    func edgeBearing(_ e: Int, offset: Double) -> Double? {
        let count = map.shapePointCount(ofEdge: e)
        var along = 0.0
        let total = (1..<count).reduce(0.0) { $0 + Geo.distance(map.shapePoint(ofEdge: e, $1 - 1), map.shapePoint(ofEdge: e, $1)) }
        guard total > 0 else { return nil }
        let target = offset * total / max(Double(map.edgeLength[e]), 1e-9)
        var last: Double?
        for i in 0..<(count - 1) {
            let a = map.shapePoint(ofEdge: e, i), b = map.shapePoint(ofEdge: e, i + 1)
            let d = Geo.distance(a, b)
            guard d > 0 else { continue }
            last = Geo.bearing(a, b)
            if along + d >= target { return last }
            along += d
        }
        return last
    }

    /// Metres along the network from `a` to `b` when they lie on the same edge or on edges that
    /// share a node (through the nearest shared node), else nil.
    func networkMetres(_ a: Hit, _ b: Hit) -> Double? {
        if a.edge == b.edge { return abs(b.offset - a.offset) }
        let af = Int(map.edgeFrom[a.edge]), at = Int(map.edgeTo[a.edge])
        let bf = Int(map.edgeFrom[b.edge]), bt = Int(map.edgeTo[b.edge])
        let la = Double(map.edgeLength[a.edge]), lb = Double(map.edgeLength[b.edge])
        var best: Double?
        for (na, da) in [(af, a.offset), (at, la - a.offset)] {
            for (nb, db) in [(bf, b.offset), (bt, lb - b.offset)] where na == nb {
                let d = max(0, da) + max(0, db)
                if best == nil || d < best! { best = d }
            }
        }
        return best
    }

    /// The least-cost chain of candidates (nil where a sample has none; the chain restarts after).
    func viterbi(_ cands: [[Candidate]], dist: [Double]) -> [Hit?] {
        let n = cands.count
        var out = [Hit?](repeating: nil, count: n)
        let layerFlags: EdgeFlags = [.bridge, .tunnel]
        var start = 0
        while start < n {
            guard !cands[start].isEmpty else { start += 1; continue }
            var end = start
            while end + 1 < n && !cands[end + 1].isEmpty { end += 1 }
            // Forward pass over [start, end].
            var cost = cands[start].map(\.cost)
            var costs = [cost]
            var back: [[Int]] = [[Int](repeating: -1, count: cands[start].count)]
            for k in (start + 1)..<(end + 1) where end > start {
                let step = dist[k] - dist[k - 1]
                var next = [Double](repeating: .infinity, count: cands[k].count)
                var from = [Int](repeating: -1, count: cands[k].count)
                for (j, b) in cands[k].enumerated() {
                    for (i, a) in cands[k - 1].enumerated() where cost[i].isFinite {
                        var t: Double
                        if let net = networkMetres(a.hit, b.hit) {
                            let z = (net - step) / Self.continuityMetres
                            t = (a.hit.edge == b.hit.edge ? 0 : Self.nodeChangeCost) + z * z
                        } else {
                            guard map.flags(ofEdge: a.hit.edge).intersection(layerFlags) == map.flags(ofEdge: b.hit.edge).intersection(layerFlags) else { continue }
                            t = Self.jumpCost
                        }
                        let c = cost[i] + t + b.cost
                        if c < next[j] { next[j] = c; from[j] = i }
                    }
                }
                // Every way into sample k crosses a layer: restart the chain here.
                if next.allSatisfy({ !$0.isFinite }) {
                    next = cands[k].map(\.cost)
                }
                cost = next
                costs.append(cost)
                back.append(from)
            }
            // Trace back.
            var j = cost.indices.min { cost[$0] < cost[$1] }!
            var k = end
            while true {
                out[k] = cands[k][j].hit
                guard k > start else { break }
                let i = back[k - start][j]
                if i < 0 {
                    // A restart: the best end of the chain before it.
                    k -= 1
                    let c = costs[k - start]
                    j = c.indices.min { c[$0] < c[$1] }!
                    continue
                }
                j = i
                k -= 1
            }
            start = end + 1
        }
        return out
    }
}
