import Foundation
import SkateCore
import SkateRide
import SkateTestSupport
import Testing

/// Whole-trace HMM map matching (Newson & Krumm style) on the shipped rides, on a 40 m outlier,
/// on degenerate traces, and on two parallel streets drawn in ASCII.
@Suite("Trace matcher (HMM)")
struct TraceMatcherTests {
    static let noMap: Comment = "bundled Maps/monaco.srmap is absent: trace-matching test on Monaco skipped"
    /// Naive snapping radius for the comparison: the HMM's own candidate radius.
    static let naiveRadius = TraceMatcher.defaultSearchRadius

    /// Shipped ride folders that follow their plan (the detour one leaves it on purpose).
    static let followingRides: [String] = RideFixtures.shippedRides.filter { !$0.contains("detour") }

    struct RideCheck {
        var onPlanFraction: Double
        var hmmWrong: Int
        var naiveWrong: Int
        var result: TraceMatchResult
    }

    /// Matches a shipped ride, re-plans its plan.json, and counts fixes put on edges off the plan.
    func check(_ folder: String) throws -> RideCheck {
        let map = try #require(RideFixtures.map)
        let planner = try #require(RideFixtures.planner)
        let source = try RideSource.open(folder)
        let pf = try PlanFile.load(path: try #require(source.plannedRoutePath))
        let plan = try planner.plan(from: pf.from, to: pf.to, mode: pf.mode ?? .smoothest)
        let planned = Set(plan.path.legs.map(\.edge))
        let result = TraceMatcher(map: map).match(source.fixes)
        #expect(result.fixes.count == source.fixes.count)
        let on = result.path.filter { planned.contains($0.edge) }.reduce(0) { $0 + $1.length }
        var hmmWrong = 0, naiveWrong = 0
        for (fix, m) in zip(source.fixes, result.fixes) {
            if let e = m.edge, !planned.contains(e) { hmmWrong += 1 }
            if let s = map.nearestEdge(to: fix.coordinate, maxDistance: Self.naiveRadius), !planned.contains(s.edge) { naiveWrong += 1 }
        }
        return RideCheck(onPlanFraction: result.pathLength > 0 ? on / result.pathLength : 0, hmmWrong: hmmWrong, naiveWrong: naiveWrong, result: result)
    }

    @Test("shipped rides: ≥ 90 % of the matched path on the planned edges, fewer wrong edges than nearest-edge snapping",
          .enabled(if: RideFixtures.mapAvailable, noMap))
    func shippedRidesFollowTheirPlan() throws {
        try #require(!Self.followingRides.isEmpty, "no shipped rides in Rides/")
        var totalHMM = 0, totalNaive = 0
        for folder in Self.followingRides {
            let c = try check(folder)
            let name = (folder as NSString).lastPathComponent
            #expect(c.onPlanFraction >= 0.9, "\(name): only \(Int(100 * c.onPlanFraction)) % of the matched path on the plan")
            #expect(c.result.matchedFraction >= 0.95, "\(name): matched \(c.result.matchedFraction)")
            #expect(c.result.chainStarts.count == 1, "\(name): the path broke into \(c.result.chainStarts.count) chains")
            #expect(c.hmmWrong <= c.naiveWrong, "\(name): HMM \(c.hmmWrong) wrong fixes, nearest edge \(c.naiveWrong)")
            totalHMM += c.hmmWrong; totalNaive += c.naiveWrong
            print("trace matcher \(name): \(String(format: "%.1f", 100 * c.onPlanFraction)) % of \(Int(c.result.pathLength)) m on plan; wrong edges HMM \(c.hmmWrong), nearest \(c.naiveWrong) of \(c.result.fixes.count) fixes")
        }
        #expect(totalHMM < totalNaive, "HMM \(totalHMM) wrong fixes vs nearest-edge \(totalNaive) over all rides")
    }

    @Test("the detour ride matches end to end as one continuous path", .enabled(if: RideFixtures.mapAvailable, noMap))
    func detourRideStaysContinuous() throws {
        let folder = try #require(RideFixtures.shippedRides.first { $0.contains("detour") }, "no detour ride in Rides/")
        let map = try #require(RideFixtures.map)
        let source = try RideSource.open(folder)
        let result = TraceMatcher(map: map).match(source.fixes)
        #expect(result.matchedFraction >= 0.95)
        #expect(result.chainStarts == [0])
        // Consecutive legs meet at a node or continue on the same edge (a 0 m lift leg's ends
        // follow its direction: its offsets cannot tell them apart).
        for (a, b) in zip(result.path, result.path.dropFirst()) {
            let endNode = map.edgeLength[a.edge] == 0 ? (a.reversed ? map.edgeFrom[a.edge] : map.edgeTo[a.edge])
                : a.endOffset <= 1e-6 ? map.edgeFrom[a.edge] : map.edgeTo[a.edge]
            let startNode = map.edgeLength[b.edge] == 0 ? (b.reversed ? map.edgeTo[b.edge] : map.edgeFrom[b.edge])
                : b.startOffset <= 1e-6 ? map.edgeFrom[b.edge] : map.edgeTo[b.edge]
            #expect(a.edge == b.edge || endNode == startNode, "legs \(a) → \(b) do not connect")
        }
        // pathDistance grows along the ride.
        let ds = result.fixes.compactMap(\.pathDistance)
        // (1e-9 m: two fixes on one point may differ in the last bit of their summed distance.)
        let backwards = zip(ds.indices, zip(ds, ds.dropFirst())).filter { $0.1.0 > $0.1.1 + 1e-9 }.map { "\($0.0): \($0.1.0)→\($0.1.1)" }
        #expect(backwards.isEmpty, "pathDistance goes back at \(backwards.prefix(5))")
    }

    @Test("a 40 m outlier mid-ride does not pull the fixes around it off their edges", .enabled(if: RideFixtures.mapAvailable, noMap))
    func outlierInTheMiddle() throws {
        let map = try #require(RideFixtures.map)
        let planner = try #require(RideFixtures.planner)
        // The old-town ride's plan: narrow streets, neighbours within 40 m on both sides.
        let folder = try #require(RideFixtures.shippedRides.first { $0.contains("old-town") }, "no old-town ride in Rides/")
        let pf = try PlanFile.load(path: try #require(try RideSource.open(folder).plannedRoutePath))
        let plan = try planner.plan(from: pf.from, to: pf.to, mode: pf.mode ?? .smoothest)
        let line = RouteLine(plan: plan)
        let planned = Set(plan.path.legs.map(\.edge))
        // Clean fixes every second at 4 m/s; the middle one thrown 40 m sideways, towards the side
        // with the nearest off-plan street so a naive snap would take it.
        let count = Int(line.length / 4)
        try #require(count >= 20)
        var fixes = (0..<count).map { k in GPXFix(time: 1000 + Double(k), coordinate: line.coordinate(atDistance: Double(k) * 4)) }
        let mid = count / 2
        let here = line.projection.project(fixes[mid].coordinate)
        let ahead = line.projection.project(fixes[mid + 1].coordinate)
        let len = hypot(ahead.x - here.x, ahead.y - here.y)
        let (nx, ny) = (-(ahead.y - here.y) / len, (ahead.x - here.x) / len)
        let sides = [1.0, -1.0].map { s in line.projection.unproject(x: here.x + 40 * s * nx, y: here.y + 40 * s * ny) }
        let offPlan = sides.map { map.nearestEdge(to: $0, maxDistance: 50, where: { !planned.contains($0) })?.distance ?? .infinity }
        fixes[mid].coordinate = offPlan[0] <= offPlan[1] ? sides[0] : sides[1]
        let result = TraceMatcher(map: map).match(fixes)
        for i in (mid - 5)...(mid + 5) where i != mid {
            let m = result.fixes[i]
            #expect(m.edge.map { planned.contains($0) } ?? false, "fix \(i) (\(m.status)) matched edge \(String(describing: m.edge)) off the plan")
        }
        #expect(result.fixes[mid].edge.map { planned.contains($0) } ?? true, "the outlier itself was put on an off-plan edge")
        #expect(result.chainStarts == [0])
        let on = result.path.filter { planned.contains($0.edge) }.reduce(0) { $0 + $1.length }
        #expect(on / max(result.pathLength, 1) >= 0.98)
    }

    @Test("empty, single-fix, far-away and garbage traces come back unmatched without a crash", .enabled(if: RideFixtures.mapAvailable, noMap))
    func degenerateTraces() throws {
        let map = try #require(RideFixtures.map)
        let matcher = TraceMatcher(map: map)
        let empty = matcher.match([])
        #expect(empty.fixes.isEmpty && empty.path.isEmpty && empty.chainStarts.isEmpty && empty.matchedFraction == 0)

        let monaco = Coordinate(lat: 43.7384, lon: 7.4246)  // Place du Casino area, on the network
        let one = matcher.match([GPXFix(time: 0, coordinate: monaco)])
        #expect(one.fixes.count == 1 && one.fixes[0].status == .matched && one.path.isEmpty && one.chainStarts == [0])
        #expect(try #require(one.fixes[0].snap).distance <= TraceMatcher.defaultSearchRadius)

        let paris = (0..<30).map { GPXFix(time: Double($0), coordinate: Coordinate(lat: 48.8566 + Double($0) * 1e-5, lon: 2.3522)) }
        let far = matcher.match(paris)
        #expect(far.fixes.count == 30 && far.fixes.allSatisfy { !$0.hasEdge } && far.path.isEmpty)
        #expect(matcher.match([GPXFix(time: nil, coordinate: Coordinate(lat: 0, lon: 0))]).fixes.map(\.status) == [.unmatched])

        // Not-a-number positions, untimed fixes and time running backwards: no trap, no edge for the garbage.
        let garbage = [GPXFix(time: 10, coordinate: monaco), GPXFix(time: 11, coordinate: Coordinate(lat: .nan, lon: .nan)),
                       GPXFix(time: 5, coordinate: Coordinate(lat: 43.7390, lon: 7.4250)), GPXFix(time: nil, coordinate: monaco)]
        let g = matcher.match(garbage)
        #expect(g.fixes.count == 4 && !g.fixes[1].hasEdge && g.fixes[0].hasEdge)
    }

    @Test("parallel streets: a trace wobbling towards the unconnected parallel street stays on the connected one")
    func parallelStreets() throws {
        // E–A–B–F is the street the trace starts and ends on; C–D runs 25 m south of A–B (one
        // ASCII row, the helper's unit), reachable only round the 25 m A–C and B–D links.
        let m = AsciiMap("""
        E--A--------B--F
           C--------D
        """, ways: [("EABF", ["highway": "residential", "name": "Upper"]),
                    ("ACDB", ["highway": "residential", "name": "Lower"])])
        let map = m.map
        let upperNodes = Set("EABF".compactMap { m.node($0) })
        try #require(upperNodes.count == 4)
        let upper = Set((0..<map.edgeCount).filter { upperNodes.contains(Int(map.edgeFrom[$0])) && upperNodes.contains(Int(map.edgeTo[$0])) })
        try #require(upper.count == 3)
        let proj = LocalProjection(origin: AsciiMap.origin)
        // Every 10 m from E to F; over A–B (75…300 m east) the fixes wobble between 3 and 16 m
        // south, so every other one is nearer the lower street.
        var fixes: [GPXFix] = []
        var k = 0
        for x in stride(from: 0.0, through: 375, by: 10) {
            let between = x > 80 && x < 295
            let south = between ? (k % 2 == 0 ? 4.0 + Double(k % 3) : 15.0 + Double(k % 3)) : Double(k % 3)
            fixes.append(GPXFix(time: 100 + 2.5 * Double(k), coordinate: proj.unproject(x: x, y: -south)))
            k += 1
        }
        let naiveLower = fixes.filter { f in map.nearestEdge(to: f.coordinate, maxDistance: 50).map { !upper.contains($0.edge) } ?? false }.count
        try #require(naiveLower >= 5, "the wobble must pull nearest-edge snapping onto the lower street (\(naiveLower) fixes)")
        let result = TraceMatcher(map: map).match(fixes)
        #expect(result.fixes.allSatisfy { $0.edge.map(upper.contains) ?? false }, "statuses \(result.fixes.map(\.status.rawValue))")
        #expect(result.path.allSatisfy { upper.contains($0.edge) })
        #expect(result.chainStarts == [0])
        #expect(abs(result.pathLength - 375) < 15, "path \(result.pathLength) m")
        // Placing a measurement by path distance lands on the upper street too.
        for d in stride(from: 0.0, through: result.pathLength, by: 25) {
            #expect(result.position(atPathDistance: d).map { upper.contains($0.edge) } ?? false)
        }
    }

    /// A separately mapped sidewalk (`footway=sidewalk`) 7 m beside its road (`sidewalk=separate`),
    /// as in any German city and along Monaco's Avenue de Fontvieille: a ride on a plan along the
    /// sidewalk, with the synthetic rides' GPS noise (σ 3 m per axis, τ 20 s, outliers), stays on
    /// the sidewalk for both the whole-trace HMM and the live off-route check.
    @Test("a noisy ride on a sidewalk 7 m beside its road: ≥ 90 % of the match on the sidewalk, no off-route",
          arguments: [UInt64(1), 2, 3, 4, 5])
    func sidewalkBesideItsRoad(seed: UInt64) throws {
        // Road W…X on row 0; sidewalk A…B on row 1 nudged 18 m north (7 m south of the road),
        // joined to the road by 7 m links at C and D; A–B is 325 m.
        let m = AsciiMap("""
            W--C------------D--X
               A------------B
            """, ways: [("WCDX", ["highway": "secondary", "sidewalk": "separate", "name": "Road"]),
                        ("AB", ["highway": "footway", "footway": "sidewalk"]),
                        ("CA", ["highway": "footway"]), ("BD", ["highway": "footway"])],
            nudge: ["A": (0, -18), "B": (0, -18)])
        let map = m.map
        let walkNodes = Set("AB".compactMap { m.node($0) })
        let sidewalk = Set((0..<map.edgeCount).filter { walkNodes.contains(Int(map.edgeFrom[$0])) && walkNodes.contains(Int(map.edgeTo[$0])) })
        try #require(!sidewalk.isEmpty)
        let plan = try Planner(map: map).plan(from: try #require(m.nodes["A"]), to: try #require(m.nodes["B"]), mode: .smoothest)
        let planned = Set(plan.path.legs.filter { $0.length > 1 }.map(\.edge))
        try #require(planned.isSubset(of: sidewalk), "the plan must ride the sidewalk: \(m.letters(of: plan.path))")
        let proj = LocalProjection(origin: AsciiMap.origin)
        var gps = GPSNoiseModel()
        var rng = SeededGenerator(seed: seed)
        var fixes: [GPXFix] = []
        for k in 0...108 {  // 3 m/s at 1 Hz from A (75 m east) to B (400 m east), 7 m south
            let e = gps.next(dt: 1, rng: &rng)
            fixes.append(GPXFix(time: Double(k), coordinate: proj.unproject(x: 75 + 3 * Double(k) + e.dx, y: -7 + e.dy)))
        }
        // Without the plan, drift toward the road can carry the whole ride onto it (seed 4: 0 %).
        let result = TraceMatcher(map: map, plannedEdges: Set(plan.path.legs.map(\.edge))).match(fixes)
        let on = result.path.filter { sidewalk.contains($0.edge) }.reduce(0) { $0 + $1.length }
        let share = result.pathLength > 0 ? on / result.pathLength : 0
        #expect(share >= 0.9, "seed \(seed): \(Int(100 * share)) % of \(Int(result.pathLength)) m on the sidewalk")
        var matcher = RouteMatcher(plan: plan)
        var monitor = OffRouteMonitor()
        var wentOff = 0, maxAway = 0.0
        for (k, f) in fixes.enumerated() {
            let r = matcher.match(f.coordinate, time: Double(k), heading: 90)
            maxAway = max(maxAway, r.distanceToRoute)
            if case .wentOff = monitor.update(distance: r.distanceToRoute, time: Double(k), speed: 3) { wentOff += 1 }
        }
        #expect(wentOff == 0, "seed \(seed): off route \(wentOff)× (fixes up to \(Int(maxAway)) m from the plan)")
        print("trace matcher sidewalk seed \(seed): \(String(format: "%.1f", 100 * share)) % of \(Int(result.pathLength)) m on the sidewalk; off route \(wentOff)×, max \(String(format: "%.1f", maxAway)) m from the plan")
    }

    @Test("single-fix spikes of the synthetic GPS model are dropped as outliers, and only they")
    func spikesAreOutliers() throws {
        // A 2 km straight street; a rider at 4 m/s with the synthetic rides' noise, outliers 10× as often.
        let m = AsciiMap("A" + String(repeating: "-", count: 79) + "B", ways: [("AB", ["highway": "residential"])])
        let proj = LocalProjection(origin: AsciiMap.origin)
        var gps = GPSNoiseModel()
        gps.outlierProbability = 1.0 / 15
        var rng = SeededGenerator(seed: 21)
        var fixes: [GPXFix] = [], truth: [Bool] = []
        for k in 0..<450 {
            let e = gps.next(dt: 1, rng: &rng)
            fixes.append(GPXFix(time: Double(k), coordinate: proj.unproject(x: 20 + 4 * Double(k) + e.dx, y: e.dy)))
            truth.append(e.outlier)
        }
        let result = TraceMatcher(map: m.map).match(fixes)
        let flagged = result.fixes.map { $0.status == .outlier }
        let caught = zip(flagged, truth).filter { $0.0 && $0.1 }.count
        let falseAlarms = zip(flagged, truth).filter { $0.0 && !$0.1 }.count
        let outliers = truth.filter { $0 }.count
        try #require(outliers >= 15, "seed gives too few outliers (\(outliers))")
        #expect(Double(caught) >= 0.85 * Double(outliers), "caught \(caught) of \(outliers) spikes")
        #expect(falseAlarms <= 1, "\(falseAlarms) good fixes dropped as spikes")
        #expect(zip(result.fixes, truth).allSatisfy { $0.1 || $0.0.hasEdge }, "a good fix went unmatched")
        #expect(abs(result.pathLength - 4 * 449) < 20, "path \(result.pathLength) m")
        print("trace matcher spikes: caught \(caught) of \(outliers), \(falseAlarms) false alarms")
    }
}
