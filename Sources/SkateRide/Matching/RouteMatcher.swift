import FoundationEssentials
import Glibc
import SkateCore

/// Where one fix lies relative to the planned route.
public struct RouteMatch: Sendable, Equatable {
    /// True when the fix snapped to a route segment within `RouteMatcher.matchRadius`.
    public var matched: Bool
    /// Step of the match, or of the last match when this fix matched nothing (nil before any).
    public var stepIndex: Int?
    /// Progress along the route in metres (monotone; the last progress when unmatched).
    public var distanceAlong: Double
    /// Distance from the fix to the route (nearest segment inside the search window), metres.
    public var distanceToRoute: Double
    /// Context of `stepIndex`'s step, if any.
    public var context: StepContext?
    /// Map edge under the progress, if the plan has legs.
    public var edge: Int?
}

/// Snaps fixes to a plan's segments (perpendicular projection, not vertices) and keeps a
/// monotone progress along the route.
///
/// For each fix the matcher looks at segments from `backTolerance` behind the last progress to a
/// window ahead that grows with the time since the last match (`windowBase` + `windowSpeed` × Δt),
/// so a parallel street or a returning leg of the same route further on is never considered.
/// Among segments within `matchRadius`, the cost is the perpendicular distance, plus
/// `headingPenalty` when the fix-to-fix bearing (moving riders only) differs from the
/// segment's by more than `maxHeadingDifference`, plus `aheadWeight` per metre of progress jump.
/// Progress never goes back: a projection up to `backTolerance` behind keeps the old progress (GPS
/// jitter), one further behind is not considered.
public struct RouteMatcher: Sendable {
    /// A fix farther than this (metres) from every route segment matches nothing.
    public static let matchRadius: Double = 40
    /// Metres behind the last progress still accepted as jitter (σ of consumer GPS is 3–5 m).
    public static let backTolerance: Double = 12
    /// Search window ahead of the last progress, metres, at the moment of a match: GPS jitter
    /// plus a coarse vertex spacing, no more (an outlier must not drag progress ahead).
    public static let windowBase: Double = 30
    /// Growth of the window per second since the last match (m/s): faster than any skater (54 km/h).
    public static let windowSpeed: Double = 15
    /// Largest window ahead (m): beyond that, only a reroute finds the rider again.
    public static let windowMax: Double = 1500
    /// Bearing difference (degrees) beyond which a segment is heading the wrong way for this rider.
    public static let maxHeadingDifference: Double = 75
    /// Cost (metres) added for a wrong-way segment: stronger than jitter, weaker than a real match.
    public static let headingPenalty: Double = 30
    /// Cost per metre of progress jump ahead of the expected position: prefers the nearer leg.
    public static let aheadWeight: Double = 0.05
    /// Fix-to-fix displacement (m) below which the bearing is noise and not checked.
    public static let minHeadingMove: Double = 3

    public let line: RouteLine
    private let steps: [RouteStep]
    /// Last progress along the route, metres (nil before the first match).
    public private(set) var progress: Double?
    private var lastMatchTime: Double?
    private var lastStep: Int?

    public init(plan: RoutePlan) {
        line = RouteLine(plan: plan)
        steps = plan.steps
    }

    /// Matches one fix.
    /// - Parameters:
    ///   - coordinate: the fix.
    ///   - time: ride time in seconds.
    ///   - heading: the rider's bearing in degrees from the previous fix, or nil when not moving.
    public mutating func match(_ coordinate: Coordinate, time: Double, heading: Double?) -> RouteMatch {
        let p = line.projection.project(coordinate)
        var lo = 0, hi = line.segmentCount
        if let s = progress {
            let dt = max(0, time - (lastMatchTime ?? time))
            let ahead = min(Self.windowMax, Self.windowBase + Self.windowSpeed * dt)
            lo = line.segmentIndex(atDistance: s - Self.backTolerance)
            hi = min(line.segmentCount, line.segmentIndex(atDistance: s + ahead) + 1)
        }
        var best = -1, bestCost = Double.infinity, bestS = 0.0, bestD = 0.0
        var nearest = Double.infinity
        for i in lo..<hi {
            let pr = LocalProjection.projectPoint(px: p.x, py: p.y, ax: line.ax[i], ay: line.ay[i], bx: line.bx[i], by: line.by[i])
            if pr.distance < nearest { nearest = pr.distance }
            guard pr.distance <= Self.matchRadius else { continue }
            let s = line.segStart[i] + pr.t * line.segLength[i]
            var cost = pr.distance
            if let h = heading, abs(Geo.turnAngle(from: h, to: line.segBearing[i])) > Self.maxHeadingDifference {
                cost += Self.headingPenalty
            }
            if let last = progress {
                if s < last - Self.backTolerance { continue }
                cost += Self.aheadWeight * max(0, s - last)
            }
            if cost < bestCost { best = i; bestCost = cost; bestS = s; bestD = pr.distance }
        }
        guard best >= 0 else {
            let s = progress ?? 0
            return RouteMatch(matched: false, stepIndex: lastStep, distanceAlong: s, distanceToRoute: nearest,
                              context: lastStep.map { steps[$0].context }, edge: progress == nil ? nil : line.edge(atDistance: s))
        }
        let s = max(progress ?? bestS, bestS)
        progress = s
        lastMatchTime = time
        let step = line.stepIndex(atDistance: s)
        lastStep = step
        return RouteMatch(matched: true, stepIndex: step, distanceAlong: s, distanceToRoute: bestD,
                          context: steps.indices.contains(step) ? steps[step].context : nil, edge: line.edge(atDistance: s))
    }
}
