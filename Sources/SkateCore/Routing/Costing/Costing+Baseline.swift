import FoundationEssentials
import Glibc

/// Which legality rules a costing applies.
public enum CostRules: Sendable, Equatable {
    /// `AccessModel`, `StairsCost` and connectors: what every plan uses.
    case accessModel
    /// The rules before the access model (issue 12), kept only so that `skateroute bench` can
    /// measure what the access model changed on the same map: ways the old importer dropped
    /// (motorway, trunk, construction, `access=no|private` without foot access) are unusable,
    /// `foot=no` costs ×`illegal`, `bicycle=no` a third of that, primary/secondary roads without
    /// a sidewalk or bike lane ×`arterial`, steps (and escalators, then plain steps) ×2 their
    /// walking time, lifts mapped as nodes were plain junctions (free), lift ways were dropped.
    case beforeAccessModel
}

extension SkateCosting {
    /// `CostRules.beforeAccessModel`: the edge cost as it was computed before the access model.
    static func computeBeforeAccessModel(map: SkateMap, table: EdgeTable, w: ModeWeights, edge e: Int, reversed rev: Bool) -> (Double, Double) {
        let len = Double(map.edgeLength[e])
        let f = map.flags(ofEdge: e)
        let hw = map.highway(ofEdge: e)
        let secs = table.seconds(e, reversed: rev)
        let reason = AccessModel.decision(of: f).reason
        if hw == .motorway || hw == .trunk || hw == .construction || reason == .accessNo { return (.infinity, 0) }
        if f.contains(.footNo) && f.contains(.bicycleNo) { return (.infinity, 0) }
        if f.contains(.connector) {
            if hw == .elevator { return map.edgeWayId[e] < 0 ? (0.001, 0) : (.infinity, 0) }
            let walk = len / SkatePhysics.stepsSpeed
            return (walk * Self.stepsFactorBefore * w.distance, walk)
        }
        if f.contains(.steps) {
            return (secs * Self.stepsFactorBefore * w.distance + table.climb(e, reversed: rev) * w.climbSecondsPerMetre, secs)
        }
        var mult = rideMultiplier(map: map, table: table, w: w, edge: e, reversed: rev)
        if (hw == .primary || hw == .secondary) && !f.contains(.sidewalk) && !f.contains(.bikeLane) { mult *= w.arterial }
        if f.contains(.footNo) { mult *= w.illegal } else if f.contains(.bicycleNo) { mult *= 1 + (w.illegal - 1) / 3 }
        if f.contains(.unlit) { mult *= w.unlit } else if !f.contains(.lit) { mult *= 1 + (w.unlit - 1) / 2 }
        var cost = secs * mult + (w.distance - 1) * len / SkatePhysics.pushSpeed
        cost += table.climb(e, reversed: rev) * w.climbSecondsPerMetre
        cost += Double(map.edgeCrossings[e]) * w.crossingSeconds
        cost += Double(table.hazard[e]) * w.hazardSeconds
        return (max(cost, 0.001), secs)
    }

    /// The old effort multiplier on steps (walking time ×2).
    static let stepsFactorBefore = 2.0
}
