import FoundationEssentials
import Glibc

/// Rerouting a rider who left the plan: the planner's job, so a ride session never builds plans.
extension Planner {
    /// A reroute may ride on in the direction of travel for up to this many extra metres rather
    /// than ask for a U-turn (riders turning around mid-street is the worse cue).
    public static let forwardRerouteSlack: Double = 600
    /// A new plan whose first metres bear more than this (degrees) from the rider's heading turns them round.
    public static let backwardsAngle: Double = 120
    /// Cost multiplier on the edge being ridden when looking for a route that carries on forward.
    static let backtrackPenalty: Double = 50
    /// Metres of a new plan used to judge its starting direction.
    static let startDirectionLength: Double = 15

    /// A new plan from where the rider is to `destination`. With a heading (degrees from north), a
    /// best route that starts backwards is replaced by one that rides on along the current street
    /// first, when that costs at most `forwardRerouteSlack` extra metres.
    /// - Throws: `RoutingError` when the rider or the destination has no street nearby, or they are not connected.
    public func reroute(from position: Coordinate, heading: Double?, to destination: Coordinate, mode: RideMode) throws -> RoutePlan {
        let best = try plan(from: position, to: destination, mode: mode)
        guard let h = heading, Self.startsBackwards(best, heading: h),
              let forward = forwardPlan(from: position, heading: h, to: destination, mode: mode),
              forward.distance <= best.distance + Self.forwardRerouteSlack else { return best }
        return forward
    }

    /// Whether `plan`'s first `startDirectionLength` metres bear more than `backwardsAngle` from `heading`.
    public static func startsBackwards(_ plan: RoutePlan, heading: Double) -> Bool {
        guard let a = plan.geometry.first else { return false }
        guard let b = plan.geometry.first(where: { Geo.distance(a, $0) >= startDirectionLength }) ?? plan.geometry.last,
              Geo.distance(a, b) > 1 else { return false }
        return abs(Geo.turnAngle(from: heading, to: Geo.bearing(a, b))) > backwardsAngle
    }

    /// A plan that starts along the rider's heading: on along the nearest edge to its end ahead, then
    /// the best route from there; nil when none exists or it still starts backwards.
    func forwardPlan(from c: Coordinate, heading: Double, to dest: Coordinate, mode: RideMode) -> RoutePlan? {
        let router = router(for: mode)
        guard let snap = try? router.snap(c) else { return nil }
        let e = snap.edge
        let len = Double(map.edgeLength[e])
        let fwdBearing = table.headingOut(e, reversed: false)
        let reversed = abs(Geo.turnAngle(from: heading, to: fwdBearing)) > 90
        guard router.costing.allowed(edge: e, reversed: reversed) else { return nil }
        let node = Int(reversed ? map.edgeFrom[e] : map.edgeTo[e])
        guard let target = try? router.snap(dest) else { return nil }
        // Leave the node by any other edge (the one ridden is penalised so the route does not come back on it).
        var best: RoutePath?
        for nb in map.neighbours(of: node) {
            let e2 = Int(nb >> 1), r2 = nb & 1 == 1
            guard e2 != e, router.costing.allowed(edge: e2, reversed: r2),
                  let start = map.snap(map.coordinate(ofNode: node), toEdge: e2),
                  let p = router.bestRoute(from: start, to: target, penalty: [e: Self.backtrackPenalty]) else { continue }
            if best == nil || p.cost < best!.cost { best = p }
        }
        guard var path = best else { return nil }
        let lead = RouteLeg(edge: e, reversed: reversed, startOffset: snap.offset, endOffset: reversed ? 0 : len)
        path.legs = (lead.length > 0.5 ? [lead] : []) + path.legs
        let built = PlanBuilder(map: map, costing: router.costing, knowledge: knowledge).build(path: path, mode: mode)
        return Self.startsBackwards(built, heading: heading) ? nil : built
    }
}
