import FoundationEssentials

extension PlanBuilder {
    /// Every leg's points in travel order with their offsets along the edge (`legPoints`),
    /// computed once per plan: the line, the turns (`RouteChords`), each step's geometry, its
    /// heading and the middle point its text is read at all take them from here. Recomputed per
    /// reader, `legPoints` ran ~4.5 times per leg, 9 % of a chill plan's instructions on
    /// Heidelberg (callgrind, issue 30 tenth round).
    struct LegShapes {
        /// Points of leg i in travel order, degrees.
        var points: [[Coordinate]]
        /// Offset of each of those points along the leg's edge, metres from its `edgeFrom` end.
        var offsets: [[Double]]
    }

    /// `legPoints` of every leg, in leg order.
    func legShapes(_ legs: [RouteLeg]) -> LegShapes {
        var points: [[Coordinate]] = [], offsets: [[Double]] = []
        points.reserveCapacity(legs.count)
        offsets.reserveCapacity(legs.count)
        for leg in legs {
            let (p, o) = legPoints(leg)
            points.append(p)
            offsets.append(o)
        }
        return LegShapes(points: points, offsets: offsets)
    }

    /// Where each leg starts (metres from the route's start) and the route's length, metres: all
    /// `profile` reads of the line. The same sums as `routeLine`'s, without the leg geometry that
    /// `climb` and `lineProfile` never read (a whole `routeLine` per walk line, 3 % of a chill plan).
    func legStarts(_ legs: [RouteLeg]) -> (legStart: [Double], total: Double) {
        var legStart: [Double] = []
        legStart.reserveCapacity(legs.count)
        var acc = 0.0
        for leg in legs {
            legStart.append(acc)
            acc += leg.length
        }
        return (legStart, acc)
    }
}
