import FoundationEssentials

/// The headings a junction's turn is read from (issue 30). A turn read from one segment either
/// side names whatever jog the map has at the node: a 0.3 m leg between two outline nodes read
/// "Turn sharp left", a 1 m kink where a footway meets the next read "Turn right" on a line that
/// runs straight on. As Valhalla reads an edge's heading over its first and last 30 m, and OSRM
/// looks ahead 10 m along a road so that "small mapping errors" do not set the turn angle, a
/// leg's heading out is read over its first `Rules.headingMetres` (its heading in over its last),
/// and a leg shorter than `Rules.sliverMetres` has no heading of its own: the turn across it is
/// read from the leg before it to the leg after it, as across a lift (0 m).
struct RouteChords {
    /// The thresholds, one reason each.
    enum Rules {
        /// Metres of a leg its heading is read over: OSRM's lookahead along a road without lanes
        /// (10 m), long enough to step over a node's jitter, short enough to stay on this way.
        static let headingMetres = 10.0
        /// A leg shorter than this (metres) is a sliver with no heading (a lift is 0 m; the 0.3 m
        /// leg between two nodes of Marsiliusplatz's outline; a 1 m link between two footways).
        static let sliverMetres = 2.0
    }

    /// Each leg's heading in (over its last metres) and out (over its first), degrees; nil for
    /// a sliver.
    private let heads: [(in: Double, out: Double)?]

    /// The headings of legs whose points in travel order are `points[i]` (`PlanBuilder.LegShapes`,
    /// computed once per plan: no leg's points are built again here).
    init(legs: [RouteLeg], points: [[Coordinate]]) {
        var heads: [(in: Double, out: Double)?] = []
        heads.reserveCapacity(legs.count)
        for (i, leg) in legs.enumerated() { heads.append(Self.heads(leg, points[i])) }
        self.heads = heads
    }

    /// A leg's heading in and out (degrees) from its points in travel order; nil for a sliver.
    private static func heads(_ leg: RouteLeg, _ g: [Coordinate]) -> (in: Double, out: Double)? {
        guard leg.length >= Rules.sliverMetres, g.count >= 2 else { return nil }
        return (Geo.bearing(pointFromEnd(g, Rules.headingMetres), g[g.count - 1]),
                Geo.bearing(g[0], point(g, Rules.headingMetres)))
    }

    /// The point `d` metres along `g` (its last point on a shorter line).
    static func point(_ g: [Coordinate], _ d: Double) -> Coordinate {
        var acc = 0.0
        for i in g.indices.dropFirst() {
            let s = Geo.distance(g[i - 1], g[i])
            if acc + s >= d, s > 0 {
                let t = (d - acc) / s
                return Coordinate(lat: g[i - 1].lat + t * (g[i].lat - g[i - 1].lat), lon: g[i - 1].lon + t * (g[i].lon - g[i - 1].lon))
            }
            acc += s
        }
        return g[g.count - 1]
    }

    /// `point(g.reversed(), d)` without the reversed copy: the point `d` metres back from `g`'s
    /// end (its first point on a shorter line). Segment i of the reversed line runs from
    /// `g[n − i]` to `g[n − 1 − i]`, read in that order, so the arithmetic is the same.
    static func pointFromEnd(_ g: [Coordinate], _ d: Double) -> Coordinate {
        let n = g.count
        var acc = 0.0
        for i in 1..<max(1, n) {
            let p = g[n - i], q = g[n - 1 - i]
            let s = Geo.distance(p, q)
            if acc + s >= d, s > 0 {
                let t = (d - acc) / s
                return Coordinate(lat: p.lat + t * (q.lat - p.lat), lon: p.lon + t * (q.lon - p.lon))
            }
            acc += s
        }
        return g[0]
    }

    /// The signed turn (degrees, positive = right) from the heading in of the last leg before
    /// `before` (exclusive) with one, to the heading out of the first leg from `after` with one
    /// (0 when either side has none: the route's ends).
    private func turn(before: Int, after: Int) -> Double {
        var b = before - 1
        while b >= 0 && heads[b] == nil { b -= 1 }
        var a = after
        while a < heads.count && heads[a] == nil { a += 1 }
        guard b >= 0, a < heads.count, let hin = heads[b]?.in, let hout = heads[a]?.out else { return 0 }
        return Geo.turnAngle(from: hin, to: hout)
    }

    /// The turn (degrees) at the start of leg `k`.
    func turn(atLeg k: Int) -> Double { turn(before: k, after: k) }

    /// The turn (degrees) across legs `r`: from the way in before them to the way out after them
    /// (0 at the route's ends).
    func turn(across r: Range<Int>) -> Double {
        guard r.lowerBound > 0, r.upperBound < heads.count else { return 0 }
        return turn(before: r.lowerBound, after: r.upperBound)
    }
}
