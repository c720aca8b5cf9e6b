import FoundationEssentials
import Glibc
import SkateCore

/// A plan's geometry prepared for matching: segments in local metres, each with its distance
/// along the route (the plan's own metres, so step starts, braking zones and the speed profile
/// line up), plus the lookups a ride needs (step, edge, profile time, hazards by route distance).
///
/// Distances come from the steps: each step's polyline is scaled so its drawn length equals the
/// step's planned length, so a position on segment `i` at fraction `t` is
/// `segStart[i] + t × segLength[i]` metres from the route start.
public struct RouteLine: Sendable {
    /// Local projection (metres) around the route's first point.
    public let projection: LocalProjection
    /// Segment start/end points in projected metres.
    let ax: [Double], ay: [Double], bx: [Double], by: [Double]
    /// Route distance at each segment's start, metres.
    let segStart: [Double]
    /// Route metres per segment.
    let segLength: [Double]
    /// Bearing of each segment in degrees (0 = north, clockwise).
    let segBearing: [Double]
    /// Step index of each segment.
    let segStep: [Int]
    /// Total planned length in metres.
    public let length: Double
    /// Cumulative start of each path leg (metres) and its edge, for edge lookups.
    let legStart: [Double]
    let legEdge: [Int]
    let legStartOffset: [Double]
    let legReversed: [Bool]
    /// Profile distance (m) and cumulative seconds from the start at that distance.
    let profileS: [Double]
    let profileT: [Double]
    let profileElev: [Double]
    /// Step start distances (metres), one per step.
    let stepStart: [Double]

    /// - Parameter plan: the plan to follow.
    public init(plan: RoutePlan) {
        let origin = plan.geometry.first ?? plan.steps.first?.geometry.first ?? Coordinate(lat: 0, lon: 0)
        let proj = LocalProjection(origin: origin)
        projection = proj
        var ax: [Double] = [], ay: [Double] = [], bx: [Double] = [], by: [Double] = []
        var s0: [Double] = [], sl: [Double] = [], br: [Double] = [], st: [Int] = []
        for step in plan.steps where step.geometry.count >= 2 {
            let pts = step.geometry.map { proj.project($0) }
            var drawn = 0.0
            for i in 1..<pts.count { drawn += hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y) }
            let scale = drawn > 0 ? step.context.distance / drawn : 0
            var s = step.startDistance
            for i in 1..<pts.count {
                let d = hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y)
                guard d > 1e-6 else { continue }
                ax.append(pts[i - 1].x); ay.append(pts[i - 1].y); bx.append(pts[i].x); by.append(pts[i].y)
                s0.append(s); sl.append(d * scale)
                br.append(Geo.bearing(step.geometry[i - 1], step.geometry[i]))
                st.append(step.index)
                s += d * scale
            }
        }
        self.ax = ax; self.ay = ay; self.bx = bx; self.by = by
        segStart = s0; segLength = sl; segBearing = br; segStep = st
        length = plan.distance
        var ls: [Double] = [], le: [Int] = []
        var acc = 0.0
        var lo: [Double] = [], lr: [Bool] = []
        for leg in plan.path.legs {
            ls.append(acc); le.append(leg.edge); acc += leg.length
            lo.append(leg.startOffset); lr.append(leg.reversed)
        }
        legStart = ls; legEdge = le; legStartOffset = lo; legReversed = lr
        var ps: [Double] = [], pt: [Double] = [], pe: [Double] = []
        var t = 0.0
        for (i, p) in plan.profile.enumerated() {
            if i > 0 {
                let prev = plan.profile[i - 1]
                let v = (prev.speed + p.speed) / 2
                t += v > 0 ? (p.distance - prev.distance) / v : 0
            }
            ps.append(p.distance); pt.append(t); pe.append(p.elevation)
        }
        profileS = ps; profileT = pt; profileElev = pe
        stepStart = plan.steps.map(\.startDistance)
    }

    /// Number of segments.
    public var segmentCount: Int { segStart.count }

    /// The first segment whose end lies beyond `s` metres (binary search).
    func segmentIndex(atDistance s: Double) -> Int {
        var lo = 0, hi = segStart.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if segStart[mid] + segLength[mid] < s { lo = mid + 1 } else { hi = mid }
        }
        return min(lo, max(0, segStart.count - 1))
    }

    /// The step under route distance `s` metres (the last step starting at or before it, arrive excluded
    /// unless `s` reaches the end).
    public func stepIndex(atDistance s: Double) -> Int {
        guard !stepStart.isEmpty else { return 0 }
        var lo = 0, hi = stepStart.count - 1
        // Last index with stepStart <= s, but never the arrive step before the very end.
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if stepStart[mid] <= s { lo = mid } else { hi = mid - 1 }
        }
        if lo == stepStart.count - 1, lo > 0, s < length - 0.5 { return lo - 1 }
        return lo
    }

    /// The map edge under route distance `s` metres, or nil for a plan without legs.
    public func edge(atDistance s: Double) -> Int? {
        guard let k = legIndex(atDistance: s) else { return nil }
        return legEdge[k]
    }

    /// The map edge under route distance `s` metres and the offset along it from its `edgeFrom`
    /// node (metres), or nil for a plan without legs.
    public func edgeOffset(atDistance s: Double) -> (edge: Int, offset: Double)? {
        guard let k = legIndex(atDistance: s) else { return nil }
        let into = max(0, s - legStart[k])
        return (legEdge[k], max(0, legReversed[k] ? legStartOffset[k] - into : legStartOffset[k] + into))
    }

    private func legIndex(atDistance s: Double) -> Int? {
        guard !legStart.isEmpty else { return nil }
        var lo = 0, hi = legStart.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if legStart[mid] <= s { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Planned seconds from the start to route distance `s` (speed profile), interpolated.
    public func plannedSeconds(atDistance s: Double) -> Double {
        interpolate(profileT, at: s)
    }

    /// Elevation in metres at route distance `s` (0 when the map has none).
    public func elevation(atDistance s: Double) -> Double {
        interpolate(profileElev, at: s)
    }

    /// Grade in percent around route distance `s`, over ± `gradeHalfWindow` metres.
    public func grade(atDistance s: Double) -> Double {
        let a = max(0, s - Self.gradeHalfWindow), b = min(length, s + Self.gradeHalfWindow)
        guard b - a > 1 else { return 0 }
        return EdgeTable.clampGrade((elevation(atDistance: b) - elevation(atDistance: a)) / (b - a) * 100)
    }

    /// Half-width in metres of the window the local grade is taken over: long enough to smooth DEM steps.
    public static let gradeHalfWindow: Double = 15

    private func interpolate(_ ys: [Double], at s: Double) -> Double {
        guard let first = profileS.first, !ys.isEmpty else { return 0 }
        if s <= first { return ys[0] }
        if s >= profileS[profileS.count - 1] { return ys[ys.count - 1] }
        var lo = 0, hi = profileS.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if profileS[mid] <= s { lo = mid } else { hi = mid }
        }
        let span = profileS[hi] - profileS[lo]
        let f = span > 0 ? (s - profileS[lo]) / span : 0
        return ys[lo] + f * (ys[hi] - ys[lo])
    }

    /// The position at route distance `s` metres.
    public func coordinate(atDistance s: Double) -> Coordinate {
        guard !segStart.isEmpty else { return projection.origin }
        let i = segmentIndex(atDistance: s)
        let t = segLength[i] > 0 ? min(1, max(0, (s - segStart[i]) / segLength[i])) : 0
        return projection.unproject(x: ax[i] + t * (bx[i] - ax[i]), y: ay[i] + t * (by[i] - ay[i]))
    }

    /// Route positions (metres from the start) of the hazards on the plan's legs.
    /// - Parameters:
    ///   - plan: the plan this line was built from.
    ///   - knowledge: hazards per edge with offsets along the edge.
    public static func hazardPositions(plan: RoutePlan, knowledge: RoadKnowledge) -> [(distance: Double, hazard: EdgeHazard)] {
        guard !knowledge.hazards.isEmpty else { return [] }
        var out: [(Double, EdgeHazard)] = []
        var acc = 0.0
        for leg in plan.path.legs {
            if let hs = knowledge.hazards[leg.edge] {
                let lo = min(leg.startOffset, leg.endOffset), hi = max(leg.startOffset, leg.endOffset)
                for h in hs where h.offset >= lo - hazardSlack && h.offset <= hi + hazardSlack {
                    let along = min(leg.length, max(0, abs(h.offset - leg.startOffset)))
                    out.append((acc + along, h))
                }
            }
            acc += leg.length
        }
        return out.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.id < $1.1.id }
    }

    /// Metres beyond a leg's ends a hazard may lie and still count as on it (snapping slop).
    public static let hazardSlack: Double = 1
}
