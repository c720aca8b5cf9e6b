import FoundationEssentials
import Glibc

/// `PlanBuilder.build` in its stages: geometry, elevation profile and zones, speed, steps, summary.
/// Each stage is a function of the ones before it, so a change to one (a new step flag, another
/// speed model) touches one function.
extension PlanBuilder {
    /// The route's line: points in travel order and where each leg starts (metres).
    struct Line {
        var geometry: [Coordinate]
        var legStart: [Double]
        /// Route length, metres.
        var total: Double
        /// Index into `geometry` of each leg's first and last point (a leg's first point is the
        /// previous leg's last when they meet).
        var legFirstPoint: [Int] = []
        var legLastPoint: [Int] = []
        /// Elevation of each point, metres (gaps filled from the last known; empty without elevation).
        var elevation: [Double] = []
    }

    /// Elevation samples every ≤ `profileSpacing` metres along the legs.
    struct Profile {
        /// Distance of each sample from the start, metres.
        var s: [Double]
        /// Elevation of each sample, metres (gaps filled from the last known; zeros without elevation).
        var elevation: [Double]
        /// The leg each sample lies on.
        var leg: [Int]
        var hasElevation: Bool
        /// Per segment (sample i to i+1): walked (stairs) or ridden standing (lifts).
        var walked: [Bool]
    }

    /// The speed model's result per sample.
    struct Speeds {
        /// Speed reached at each sample, m/s.
        var speed: [Double]
        /// Where gravity, not pushing, takes the rider past the speed cap.
        var braking: [Bool]
        /// Seconds from sample i − 1 to sample i.
        var seconds: [Double]
    }

    public func build(path: RoutePath, mode: RideMode) -> RoutePlan {
        let legs = path.legs
        let shapes = legShapes(legs)
        let line = routeLine(legs, shapes)
        let profile = profile(legs, legStart: line.legStart, total: line.total)
        let zones = Self.brakingZones(distance: profile.s, elevation: profile.elevation, walked: profile.walked)
        let speeds = speeds(legs, profile)
        let tooFast = Self.stretches(distance: profile.s, flagged: speeds.braking)
        let samples = profile.s.indices.map {
            ProfileSample(distance: profile.s[$0], elevation: profile.elevation[$0], speed: speeds.speed[$0], braking: speeds.braking[$0],
                          walked: $0 > 0 && profile.walked[$0 - 1])
        }
        let (steps, metresByClass) = steps(legs, shapes, line, profile, speeds, zones: zones, tooFast: tooFast)
        let duration = steps.reduce(0) { $0 + $1.seconds }
        let summary = gradeSummary(legs, line, profile, steps: steps)
        let ideal = line.total / SkatePhysics.pushSpeed
        let score = path.cost > 0 ? min(100, max(0, 100 * ideal / path.cost)) : 100
        let longest = longestCrustyRun(legs)
        var notes: [String] = []
        if !path.crustyRuleMet {
            notes.append("no line avoids \(FixedDecimal.string(CostingConstants.maxContinuousCrusty, decimals: 0)) m of continuous crusty surface; longest crusty stretch \(FixedDecimal.string(longest, decimals: 0)) m")
        }
        if !profile.hasElevation { notes.append("map has no elevation: grades and braking zones unknown") }
        var plan = withLegality(RoutePlan(mode: mode, path: path, steps: steps, geometry: line.geometry, distance: line.total, duration: duration, score: score,
                         gradeSummary: summary, brakingZones: Self.withSteps(zones, steps), tooFastStretches: Self.withSteps(tooFast, steps),
                         profile: samples, metresByClass: metresByClass, spots: [], notes: notes, alternatives: [],
                         hasElevation: profile.hasElevation, longestCrustyRun: longest, startSnap: nil, endSnap: nil))
        plan.geometryElevation = profile.hasElevation ? line.elevation : []
        plan.details = pathDetails(legs, line)
        for k in plan.steps.indices {
            let r = plan.steps[k].legs
            plan.steps[k].firstPoint = r.isEmpty ? max(0, line.geometry.count - 1) : line.legFirstPoint[r.lowerBound]
        }
        return plan
    }

    // MARK: Stages

    /// Geometry and cumulative leg starts, from the legs' points (`legShapes(legs)`).
    func routeLine(_ legs: [RouteLeg], _ shapes: LegShapes) -> Line {
        var geometry: [Coordinate] = []
        var legStart: [Double] = []
        var firstPoint: [Int] = [], lastPoint: [Int] = []
        var raw: [Double?] = []
        var acc = 0.0
        let elevations = EdgeElevations(map)
        legStart.reserveCapacity(legs.count)
        firstPoint.reserveCapacity(legs.count)
        lastPoint.reserveCapacity(legs.count)
        for (li, leg) in legs.enumerated() {
            legStart.append(acc)
            let g = shapes.points[li], offs = shapes.offsets[li]
            // A leg's first point is dropped when it repeats the line's last.
            var from = 0
            if let last = geometry.last, let first = g.first, Geo.distance(last, first) < 0.5 {
                from = 1
                firstPoint.append(geometry.count - 1)
            } else {
                firstPoint.append(geometry.count)
            }
            geometry.append(contentsOf: g[from...])
            // Elevation at each point; a lift's two ends are its two floors.
            for k in from..<offs.count {
                raw.append(elevations.at(edge: leg.edge, offset: offs[k], entering: k == 0 ? leg.reversed : !leg.reversed))
            }
            lastPoint.append(geometry.count - 1)
            acc += leg.length
        }
        var elev: [Double] = []
        if raw.contains(where: { $0 != nil }) {
            var last = raw.first { $0 != nil }.flatMap { $0 } ?? 0
            elev = raw.map { z in if let z { last = z }; return last }
        }
        return Line(geometry: geometry, legStart: legStart, total: acc, legFirstPoint: firstPoint, legLastPoint: lastPoint, elevation: elev)
    }

    /// Profile samples every ≤ `profileSpacing` metres, per leg, plus the route's end; `legStart`
    /// and `total` (metres) are the line's (`legStarts(legs)`).
    func profile(_ legs: [RouteLeg], legStart: [Double], total: Double) -> Profile {
        var s: [Double] = [], raw: [Double?] = [], legOf: [Int] = []
        // Samples per leg, so that the arrays are allocated once.
        func samples(_ leg: RouteLeg) -> Int { max(1, Int((leg.length / Self.profileSpacing).rounded(.up))) }
        var count = legs.isEmpty ? 0 : 1
        for leg in legs { count += samples(leg) }
        s.reserveCapacity(count); raw.reserveCapacity(count); legOf.reserveCapacity(count)
        let elevations = EdgeElevations(map)
        for (li, leg) in legs.enumerated() {
            let n = samples(leg)
            for k in 0..<n {
                let t = Double(k) / Double(n)
                let off = leg.startOffset + (leg.endOffset - leg.startOffset) * t
                s.append(legStart[li] + leg.length * t)
                raw.append(elevations.at(edge: leg.edge, offset: off, entering: leg.reversed))
                legOf.append(li)
            }
        }
        if let lastLeg = legs.last {
            s.append(total)
            raw.append(elevations.at(edge: lastLeg.edge, offset: lastLeg.endOffset, entering: !lastLeg.reversed))
            legOf.append(legs.count - 1)
        }
        let hasElevation = raw.contains { $0 != nil }
        var elev = raw.map { $0 ?? .nan }
        if hasElevation {
            var last = elev.first { !$0.isNaN } ?? 0
            for i in elev.indices { if elev[i].isNaN { elev[i] = last } else { last = elev[i] } }
        } else {
            elev = elev.map { _ in 0 }
        }
        // Stairs are walked and lifts ridden standing: no zone spans them.
        let walked = s.indices.dropFirst().map { i -> Bool in
            let f = map.flags(ofEdge: legs[legOf[i - 1]].edge)
            return f.contains(.steps) || f.contains(.connector)
        }
        return Profile(s: s, elevation: elev, leg: legOf, hasElevation: hasElevation, walked: walked)
    }

    /// The speed model along the samples (`SkatePhysics`): push to the target speed, coast
    /// downhill up to the comfort cap, walk stairs and grades beyond the walk limits.
    func speeds(_ legs: [RouteLeg], _ p: Profile) -> Speeds {
        let n = p.s.count
        var speeds = [Double](repeating: 0, count: n)
        var brakingAt = [Bool](repeating: false, count: n)
        var seconds = [Double](repeating: 0, count: n)
        var v = 1.0  // rolling start after the first push, m/s
        for i in 0..<n {
            if i == 0 { speeds[0] = v; continue }
            let ds = p.s[i] - p.s[i - 1]
            let e = legs[p.leg[i - 1]].edge
            let rms = Double(costing.table.rms[e])
            let grade = ds > 0 ? EdgeTable.clampGrade((p.elevation[i] - p.elevation[i - 1]) / ds * 100) : 0
            let walk = map.flags(ofEdge: e).contains(.steps) || grade >= SkatePhysics.walkGradePct || grade <= SkatePhysics.walkDownGradePct
            var next: Double
            if walk {
                next = map.flags(ofEdge: e).contains(.steps) ? SkatePhysics.stepsSpeed : SkatePhysics.walkSpeed
            } else {
                let target = SkatePhysics.pushSpeed(gradePct: grade, rms: rms)
                var a = SkatePhysics.coastAcceleration(v: v, gradePct: grade, rms: rms)
                if v < target { a += SkatePhysics.pushPower / max(v, 0.5) / SkatePhysics.mass }
                let v2 = v * v + 2 * a * ds
                next = v2 > 0 ? v2.squareRoot() : SkatePhysics.walkSpeed
                if v < target { next = min(next, target) }
                let cap = SkatePhysics.appliedCap(rms: rms)
                if next > cap {
                    // Only a braking flag when gravity (not pushing) takes the rider past the cap.
                    if SkatePhysics.gravityBeatsCap(gradePct: grade, rms: rms) && next > SkatePhysics.speedCap { brakingAt[i] = true }
                    next = cap
                }
                next = max(next, SkatePhysics.walkSpeed)
            }
            speeds[i] = next
            seconds[i] = ds > 0 ? ds / ((v + next) / 2) : 0
            v = next
        }
        return Speeds(speed: speeds, braking: brakingAt, seconds: seconds)
    }

    /// Steps with their contexts, timing and zone marks, then the arrive step; metres per class.
    func steps(_ legs: [RouteLeg], _ shapes: LegShapes, _ line: Line, _ p: Profile, _ speeds: Speeds,
               zones: [BrakingZone], tooFast: [Stretch]) -> ([RouteStep], ClassLengths) {
        var steps = makeSteps(legs: legs, legStart: line.legStart, shapes: shapes)
        var metresByClass = ClassLengths()
        let sPos = p.s, elev = p.elevation
        let sorted = Self.isNonDecreasing(sPos)
        // The zones of each level and the too-fast stretches, once (they were filtered per step).
        let braking = zones.filter { $0.level == .braking }.map { ($0.start, $0.end) }
        let caution = zones.filter { $0.level == .caution }.map { ($0.start, $0.end) }
        let fastStretches = tooFast.map { ($0.start, $0.end) }
        for k in steps.indices {
            let st = steps[k]
            let a = st.startDistance, b = a + st.context.distance
            let (idx, before) = Self.stepSamples(after: a, through: b, in: sPos, sorted: sorted)
            steps[k].seconds = idx.reduce(0) { $0 + speeds.seconds[$1] }
            // The step's end is the first sample at its end distance (after a lift, the next one
            // at the same distance is already on the other floor).
            if let i0 = before, let i1 = idx.first(where: { sPos[$0] >= b - 1e-9 }) ?? idx.last, sPos[i1] > sPos[i0] {
                steps[k].context.gradePct = EdgeTable.clampGrade((elev[i1] - elev[i0]) / (sPos[i1] - sPos[i0]) * 100)
            }
            // A step is marked only where a zone (or a too-fast stretch) covers enough of it.
            let need = min(Self.brakingStepOverlap, b - a) - 1e-6
            let brk = Self.coverage(a, b, braking)
            let cau = Self.coverage(a, b, caution)
            if brk.covered >= need && b > a {
                steps[k].context.braking = .braking
                steps[k].context.brakeFromM = brk.firstOffset; steps[k].context.brakeLengthM = brk.firstLength
            } else if cau.covered >= need && b > a {
                steps[k].context.braking = .caution
                steps[k].context.brakeFromM = cau.firstOffset; steps[k].context.brakeLengthM = cau.firstLength
            }
            steps[k].context.zoneSpans = Self.zoneSpans(a, b, zones)
            let fast = Self.coverage(a, b, fastStretches)
            steps[k].context.tooFast = b > a && fast.covered >= need
            if steps[k].context.tooFast { steps[k].context.tooFastMetres = fast.covered; steps[k].context.tooFastFromM = fast.firstOffset }
            for li in st.legs {
                metresByClass[RoughnessClass(rms: Double(costing.table.rms[legs[li].edge]))] += legs[li].length
            }
            steps[k].context.roughSpans = roughSpans(legs, st.legs, stepClass: st.context.roughnessClass)
        }
        if let last = steps.last, let end = line.geometry.last {
            var ctx = last.context
            ctx.distance = 0; ctx.crossingsPerKm = 0; ctx.tooFast = false; ctx.braking = .none; ctx.gradePct = 0; ctx.hazardScore = 0
            ctx.roughSpans = []
            steps.append(RouteStep(index: steps.count, maneuver: .arrive, instruction: "Arrive at destination", street: last.street,
                                   context: ctx, geometry: [end], startDistance: line.total, seconds: 0, legs: legs.count..<legs.count))
        }
        return (steps, metresByClass)
    }

    /// Climb, descent, mean |grade| and the steepest grades over `EdgeTable.sustainWindow` windows
    /// (the router's braking window, so one DEM spike does not set the maximum); windows holding a
    /// lift ride say nothing about a street's grade and are skipped.
    func gradeSummary(_ legs: [RouteLeg], _ line: Line, _ p: Profile, steps: [RouteStep]) -> GradeSummary {
        let sPos = p.s, elev = p.elevation, n = sPos.count
        var maxG = 0.0, minG = 0.0, absSum = 0.0, climb = 0.0, descent = 0.0
        for i in 1..<max(1, n) {
            let d = elev[i] - elev[i - 1]
            if d > 0 { climb += d } else { descent -= d }
            if sPos[i] - sPos[i - 1] > 0 { absSum += abs(d) }
        }
        var liftsBefore = [Int](repeating: 0, count: n)
        for i in sPos.indices.dropFirst() {
            liftsBefore[i] = liftsBefore[i - 1] + (map.flags(ofEdge: legs[p.leg[i - 1]].edge).contains(.connector) ? 1 : 0)
        }
        var j = 0
        for i in sPos.indices {
            while j < n && sPos[j] - sPos[i] < EdgeTable.sustainWindow { j += 1 }
            guard j < n else { break }
            if liftsBefore[j] != liftsBefore[i] { continue }
            let g = EdgeTable.clampGrade((elev[j] - elev[i]) / (sPos[j] - sPos[i]) * 100)
            maxG = max(maxG, g); minG = min(minG, g)
        }
        let meanAbs = line.total > 0 ? absSum / line.total * 100 : 0
        let brakingSteps = steps.filter { $0.context.braking != .none }.map(\.index)
        return GradeSummary(maxGradePct: maxG, minGradePct: minG, meanGradePct: meanAbs, climbM: climb, descentM: descent, brakingSteps: brakingSteps)
    }

    /// The parts of `zones` inside the step `[a, b)` (metres from the start), in order, each as
    /// long as `zoneSpanMinMetres` at least.
    static func zoneSpans(_ a: Double, _ b: Double, _ zones: [BrakingZone]) -> [StepZoneSpan] {
        var out: [StepZoneSpan] = []
        for (i, z) in zones.enumerated() {
            let o = min(b, z.end) - max(a, z.start)
            guard o >= Self.zoneSpanMinMetres else { continue }
            out.append(StepZoneSpan(level: z.level, fromM: max(a, z.start) - a, lengthM: o, zone: i))
        }
        return out
    }

    /// Longest continuous crusty run of the legs, metres.
    func longestCrustyRun(_ legs: [RouteLeg]) -> Double { costing.longestCrustyRun(legs) }

    /// Zones or stretches with the indices of the steps they overlap.
    static func withSteps<Z: RouteStretch>(_ stretches: [Z], _ steps: [RouteStep]) -> [Z] {
        stretches.map { z in
            var z = z
            z.stepIndices = steps.filter { $0.context.distance > 0 && $0.startDistance < z.end && $0.startDistance + $0.context.distance > z.start }.map(\.index)
            return z
        }
    }
}
