import FoundationEssentials
import Glibc

/// Costing constants shared by all modes.
public enum CostingConstants {
    /// Riding against a one-way street on the carriageway (no sidewalk): legal-ish, unwelcome.
    public static let againstOnewayFactor = 1.5
    /// Effort seconds for any turn sharper than 45° (riders prefer straight lines).
    public static let turnSeconds = 2.0
    /// Effort seconds for turning back on the same edge.
    public static let uTurnSeconds = 30.0
    /// Gentle downhill band (percent) that counts as flow: between these two grades.
    public static let flowGradeMin = -4.0, flowGradeMax = -1.0
    /// Grades (percent) steeper than this downhill start to cost braking risk.
    public static let brakingRiskFromPct = -4.0
    /// Turns sharper than this (degrees) on a downhill cost extra.
    public static let sharpTurnDegrees = 60.0
    /// Downhill grade (percent) below which a sharp turn is dangerous.
    public static let sharpTurnDownhillPct = -4.0
    /// Roughness (g) from which the roughness penalty starts (fresh asphalt costs nothing).
    public static let roughnessFloor = 0.03
    /// RMS at or above which a surface is crusty, for the 100 m rule.
    public static let crustyRMS = RoughnessClass.mehMax
    /// The hard rule: continuous crusty riding this long (metres) is avoided whenever possible.
    public static let maxContinuousCrusty = 100.0
}

/// The skate costing for one ride mode over one map and one knowledge snapshot, shaped as
/// Valhalla shapes a costing: which edges may be used (`allowed`), what traversing one costs
/// (`edgeCost`, effort seconds and travel seconds), what passing a node from one edge to the next
/// costs (`transitionCost`), and a lower bound on cost per metre for an admissible A* heuristic
/// (`minCostPerMetre`). Per-edge costs for both directions are computed once each (on first use
/// for the mode's own weights on a map file, all at once otherwise), so the search's inner loop
/// is array reads.
///
/// There is no `Costing` protocol: the router also reads this costing's crusty flags (the 100 m
/// rule) and its stored ALT landmark table, which the protocol never had, so a protocol with one
/// conforming type only pretended to be a seam. Ride modes differ by `ModeWeights`, not by type.
public final class SkateCosting: Sendable {
    public let map: SkateMap
    public let table: EdgeTable
    public let mode: RideMode
    public let weights: ModeWeights
    /// Per direction: index `e << 1 | reversed`; infinity where the edge may not be used; 0
    /// until computed (`EdgeCostCache`).
    @usableFromInline let cost: EdgeCostCache
    /// The map's ALT landmark table for this mode, when this costing's edge costs are all at
    /// least the stored ones it was computed from (so its bounds stay admissible); else nil.
    let landmarkTable: LandmarkTable?
    public let minCostPerMetre: Double

    /// The legality rules (always `.accessModel` outside `skateroute bench`).
    public let rules: CostRules

    public init(map: SkateMap, table: EdgeTable, mode: RideMode, weights: ModeWeights? = nil, rules: CostRules = .accessModel) {
        self.map = map
        self.table = table
        self.mode = mode
        self.rules = rules
        let w = weights ?? mode.weights
        self.weights = w
        let n = map.edgeCount
        if rules == .beforeAccessModel {
            landmarkTable = nil
            let (c, minPerM) = Self.computeCosts(map: map, table: table, weights: w, rules: rules)
            cost = EdgeCostCache(c)
            minCostPerMetre = minPerM
        } else if table.fromStoredDerived, w.costsAtLeast(mode.weights), let d = map.derived {
            // The map file carries this mode's lowest cost per metre and landmark table for the
            // tag facts; the costs themselves are computed as the search reaches each edge, from
            // the table (which holds the store's patches). The stored minimum and landmark bounds
            // stay lower bounds (admissible) for weights that make no edge cheaper (the detour
            // cap's raised distance weight) unless a patched edge goes lower, which the loop
            // below catches.
            var minPerM = d.modeMinCostPerMetre[mode.ordinal]
            var noneCheaper = true
            let base = table.patchedEdges.isEmpty ? table : EdgeTable(derived: d, edgeCount: n)
            for e in table.patchedEdges where Self.isAllowed(map: map, edge: e) {
                for rev in [false, true] {
                    let cc = Self.compute(map: map, table: table, w: w, edge: e, reversed: rev).0
                    if Float(cc) < Float(Self.compute(map: map, table: base, w: mode.weights, edge: e, reversed: rev).0) { noneCheaper = false }
                    let len = Double(map.edgeLength[e])
                    if len > 1 { minPerM = min(minPerM, cc / len * Self.heuristicMargin) }
                }
            }
            cost = EdgeCostCache(count: 2 * n)
            minCostPerMetre = minPerM
            landmarkTable = noneCheaper ? d.landmarkTable(for: mode, nodeCount: map.nodeCount) : nil
        } else {
            landmarkTable = nil
            let (c, minPerM) = Self.computeCosts(map: map, table: table, weights: w)
            cost = EdgeCostCache(c)
            minCostPerMetre = minPerM
        }
    }

    /// Scales the smallest cost per metre so float rounding never makes the heuristic overestimate.
    static let heuristicMargin = 0.999

    /// Every edge's cost both ways (infinity where not allowed, index `edge << 1 | reversed`) and
    /// the lowest cost per metre, for one set of weights.
    static func computeCosts(map: SkateMap, table: EdgeTable, weights w: ModeWeights, rules: CostRules = .accessModel) -> ([Float], Double) {
        let n = map.edgeCount
        var c = [Float](repeating: .infinity, count: 2 * n)
        var minPerM = Double.infinity
        for e in 0..<n where Self.isAllowed(map: map, edge: e) {
            for rev in [false, true] {
                let cc = rules == .accessModel ? Self.compute(map: map, table: table, w: w, edge: e, reversed: rev).0
                    : Self.computeBeforeAccessModel(map: map, table: table, w: w, edge: e, reversed: rev).0
                c[e << 1 | (rev ? 1 : 0)] = Float(cc)
                let len = Double(map.edgeLength[e])
                if len > 1 { minPerM = min(minPerM, cc / len) }
            }
        }
        return (c, minPerM.isFinite ? minPerM * heuristicMargin : 0)
    }

    /// Whether an edge is usable at all: everything but `smoothness=impassable` (forbidden ways
    /// stay usable at `AccessModel`'s surcharge, so a route still comes when nothing else joins
    /// the ends; escalators refuse their wrong direction in `compute`).
    @inline(__always) static func isAllowed(map: SkateMap, edge e: Int) -> Bool {
        map.smoothness(ofEdge: e) != .impassable
    }

    /// The cost formula. See `ModeWeights` for each weight's meaning, `AccessModel` for the
    /// legality part, `StairsCost` and `ConnectorTiming` for steps and lifts.
    @inline(__always) static func compute(map: SkateMap, table: EdgeTable, w: ModeWeights, edge e: Int, reversed rev: Bool) -> (Double, Double) {
        let len = Double(map.edgeLength[e])
        let f = map.flags(ofEdge: e)
        let secs = table.seconds(e, reversed: rev)
        let access = AccessModel.decision(of: f)
        let against = (f.contains(.oneway) && rev) || (f.contains(.onewayReverse) && !rev)
        if f.contains(.connector) {
            // Lifts and escalators: the wait and the ride; an escalator only in its direction.
            if against { return (.infinity, secs) }
            return (max(secs + AccessModel.forbiddenSurcharge(access, length: len), 0.001), secs)
        }
        if f.contains(.steps) {
            // Walked: the walking time, the penalty per metre (the dismount is a transition cost).
            let share = f.contains(.stepsRamp) ? StairsCost.rampShare : 1
            let flight = StairsCost.flightMetres(length: len, stepCount: map.stepCount(ofEdge: e))
            let walk = len > 0 ? secs * flight / len : secs
            let cost = walk * w.distance + share * StairsCost.secondsPerMetre * flight
                + table.climb(e, reversed: rev) * w.climbSecondsPerMetre + AccessModel.forbiddenSurcharge(access, length: len)
            return (cost, secs)
        }
        var mult = rideMultiplier(map: map, table: table, w: w, edge: e, reversed: rev)
        mult *= AccessModel.costFactor(access.reason, weights: w)
        // nightSafe: tunnels and underpasses not tagged lit count as dark.
        if f.contains(.unlit) || (f.contains(.tunnel) && !f.contains(.lit)) { mult *= w.unlit }
        else if !f.contains(.lit) { mult *= 1 + (w.unlit - 1) / 2 }
        var cost = secs * mult + (w.distance - 1) * len / SkatePhysics.pushSpeed
        cost += table.climb(e, reversed: rev) * w.climbSecondsPerMetre
        cost += Self.steepCost(table: table, w: w, edge: e, reversed: rev)
        cost += Double(map.edgeCrossings[e]) * w.crossingSeconds
        cost += Double(table.hazard[e]) * w.hazardSeconds
        cost += AccessModel.forbiddenSurcharge(access, length: len)
        return (max(cost, 0.001), secs)
    }

    /// Effort seconds for the braking- and caution-grade metres of a ridden traversal: braking
    /// metres cost more on a rough surface (`BrakingGrade.roughnessMultiplier`).
    @inline(__always) static func steepCost(table: EdgeTable, w: ModeWeights, edge e: Int, reversed rev: Bool) -> Double {
        let b = table.brakingMetres(e, reversed: rev), c = table.cautionMetres(e, reversed: rev)
        if b == 0 && c == 0 { return 0 }
        return b * w.brakingSecondsPerMetre * BrakingGrade.roughnessMultiplier(rms: Double(table.rms[e])) + c * w.cautionSecondsPerMetre
    }

    /// The riding multiplier every rule set shares: roughness, flow, braking risk, bike lanes,
    /// riding against a one-way street on the carriageway.
    @inline(__always) static func rideMultiplier(map: SkateMap, table: EdgeTable, w: ModeWeights, edge e: Int, reversed rev: Bool) -> Double {
        let f = map.flags(ofEdge: e)
        let rms = Double(table.rms[e])
        let g = table.grade(e, reversed: rev)
        var mult = 1 + w.roughness * max(0, rms - CostingConstants.roughnessFloor)
        if g >= CostingConstants.flowGradeMin && g <= CostingConstants.flowGradeMax { mult *= 1 - w.flowReward }
        let steep = table.steepestDown(e, reversed: rev)
        if steep < CostingConstants.brakingRiskFromPct {
            mult *= 1 + w.brakingRisk * (CostingConstants.brakingRiskFromPct - steep) * (1 + rms / RoughnessClass.butterMax) / 2
        }
        if f.contains(.bikeLane) { mult *= 1 - w.bikeLaneReward }
        let oneway = f.contains(.oneway) || f.contains(.onewayReverse)
        let against = (f.contains(.oneway) && rev) || (f.contains(.onewayReverse) && !rev)
        if oneway && against && !f.contains(.sidewalk) && !Self.isPathClass(map.highway(ofEdge: e)) { mult *= CostingConstants.againstOnewayFactor }
        return mult
    }

    /// Ways built for people rather than cars, where one-way rules do not bind a skater.
    static func isPathClass(_ hw: HighwayClass) -> Bool {
        switch hw {
        case .footway, .path, .pedestrian, .cycleway, .steps, .corridor, .platform, .bridleway, .track: return true
        default: return false
        }
    }

    /// The cost of a traversal (index `edge << 1 | reversed`), computed and kept on first use.
    @inlinable @inline(__always) func storedCost(_ i: Int) -> Float {
        precondition(UInt(bitPattern: i) < UInt(bitPattern: cost.count), "edge index out of range")
        let c = cost.pointer[i]
        return c != 0 ? c : computeCost(i)
    }

    /// Out of line: the search's loop stays small, and the formula is inlined here (below), so
    /// it reads the map's and table's arrays in place. Called with the map and table as arguments
    /// it copied both structs (2.3 KB, three `memcpy`s) per edge cost: 12 % of a cold
    /// `skateroute plan` on Heidelberg (callgrind), where every search with new weights costs
    /// the edges it reaches.
    @usableFromInline @inline(never) func computeCost(_ i: Int) -> Float {
        let e = i >> 1
        let c: Float = Self.isAllowed(map: map, edge: e)
            ? Float(Self.compute(map: map, table: table, w: weights, edge: e, reversed: i & 1 == 1).0) : .infinity
        cost.pointer[i] = c
        return c
    }

    @inlinable public func allowed(edge: Int, reversed: Bool) -> Bool { storedCost(edge << 1 | (reversed ? 1 : 0)) < .infinity }

    @inlinable public func edgeCost(edge: Int, reversed: Bool) -> (cost: Double, seconds: Double) {
        let i = edge << 1 | (reversed ? 1 : 0)
        let c = storedCost(i)
        return c < .infinity ? (Double(c), table.seconds(edge, reversed: reversed)) : (Double(c), 0)
    }

    public func transitionCost(from a: Int, fromReversed ar: Bool, node: Int, to b: Int, toReversed br: Bool) -> Double {
        if a == b && ar != br { return CostingConstants.uTurnSeconds }
        var c = 0.0
        let nf = map.flags(ofNode: node)
        let ha = map.highway(ofEdge: a), hb = map.highway(ofEdge: b)
        let fa = map.flags(ofEdge: a), fb = map.flags(ofEdge: b)
        let onFoot = Self.isPathClass(ha) || Self.isPathClass(hb) || fa.contains(.isCrossing) || fb.contains(.isCrossing)
        if nf.contains(.crossing) && onFoot { c += weights.crossingSeconds }
        if nf.contains(.trafficSignals) { c += weights.signalSeconds }
        if nf.contains(.touchesMajorRoad) && !nf.contains(.crossing) && !ha.isMajorRoad && !hb.isMajorRoad && !onFoot {
            c += weights.majorJunctionSeconds
        }
        // Getting off the board for a flight of steps (once per flight, not per edge of it).
        if fb.contains(.steps) && !fa.contains(.steps) && rules == .accessModel {
            c += fb.contains(.stepsRamp) ? StairsCost.dismountSeconds * StairsCost.rampShare : StairsCost.dismountSeconds
        }
        // No turn cost into or out of a lift: its doors face any way.
        if fa.contains(.connector) || fb.contains(.connector) { return c }
        let turn = abs(Geo.turnAngle(from: table.headingIn(a, reversed: ar), to: table.headingOut(b, reversed: br)))
        if turn > 45 { c += CostingConstants.turnSeconds }
        if turn > CostingConstants.sharpTurnDegrees && table.grade(a, reversed: ar) < CostingConstants.sharpTurnDownhillPct {
            c += weights.sharpDownhillTurnSeconds
        }
        return c
    }

    /// An upper bound, in seconds, of how much more a turn at `node` can cost coming in by one
    /// edge than by another onto the same way out: the parts of `transitionCost` that depend on
    /// the edge a rider came in by (a crossing on foot, an unmarked major junction, getting off
    /// for steps, the turn and the sharp downhill turn). The search uses it to drop a way into a
    /// node that two cheaper ways in already beat by more than this (`Search.relax`).
    public func transitionSlack(node: Int) -> Double {
        let nf = map.flags(ofNode: node)
        var d = CostingConstants.turnSeconds + Swift.max(0, weights.sharpDownhillTurnSeconds)
        if nf.contains(.crossing) { d += Swift.max(0, weights.crossingSeconds) }
        if nf.contains(.touchesMajorRoad) && !nf.contains(.crossing) { d += Swift.max(0, weights.majorJunctionSeconds) }
        if rules == .accessModel {
            for k in map.adjacencyRange(of: node) where map.flags(ofEdge: Int(map.adjacency[k] >> 1)).contains(.steps) {
                d += StairsCost.dismountSeconds
                break
            }
        }
        return d
    }

    /// The least `transitionSlack` of any node.
    public static let minimumTransitionSlack = CostingConstants.turnSeconds

    /// Cost and seconds of a part of an edge (fraction of its length), for the snapped ends.
    public func partialCost(edge: Int, reversed: Bool, fraction: Double) -> (cost: Double, seconds: Double) {
        let (c, s) = edgeCost(edge: edge, reversed: reversed)
        let fr = min(1, max(0, fraction))
        return (c * fr, s * fr)
    }

    /// True when the edge counts as crusty for the 100 m rule.
    @inlinable public func isCrusty(edge: Int) -> Bool {
        Double(table.rms[edge]) >= CostingConstants.crustyRMS && map.flags(ofEdge: edge).isDisjoint(with: [.steps, .connector])
    }

    /// Longest continuous crusty run of `legs`, metres (what the 100 m rule limits).
    public func longestCrustyRun(_ legs: [RouteLeg]) -> Double {
        var run = 0.0, longest = 0.0
        for leg in legs {
            if isCrusty(edge: leg.edge) { run += leg.length; longest = max(longest, run) } else { run = 0 }
        }
        return longest
    }
}
