import Foundation
import Testing
@testable import SkateRide
import SkateCore
import SkateTestSupport

@Suite("Route matcher and off-route monitor")
struct MatcherTests {
    static func plan() throws -> RoutePlan {
        try require(RideFixtures.planner).plan(from: Coordinate(lat: 43.7432, lon: 7.4318), to: Coordinate(lat: 43.7488, lon: 7.4388), mode: .smoothest)
    }

    @Test("a fix 60 m from every step matches nothing", .enabled(if: RideFixtures.mapAvailable))
    func farFixMatchesNothing() throws {
        let plan = try Self.plan()
        let line = RouteLine(plan: plan)
        // Walk outward from a route point until a position is 60–70 m from every segment.
        let mid = line.coordinate(atDistance: plan.distance / 2)
        let proj = line.projection
        let p0 = proj.project(mid)
        var far: Coordinate?
        search: for r in stride(from: 60.0, through: 200, by: 5) {
            for a in stride(from: 0.0, to: 360, by: 15) {
                let c = proj.unproject(x: p0.x + r * sin(a * .pi / 180), y: p0.y + r * cos(a * .pi / 180))
                let d = RideSynthesizer.distance(from: c, to: line)
                if d >= 60 && d < 70 { far = c; break search }
            }
        }
        let c = try #require(far)
        var fresh = RouteMatcher(plan: plan)
        let m = fresh.match(c, time: 0, heading: nil)
        #expect(!m.matched)
        #expect(m.distanceToRoute >= 60)
        #expect(m.stepIndex == nil)
        // After riding part of the route, the far fix keeps the last step and progress.
        var riding = RouteMatcher(plan: plan)
        let on = riding.match(line.coordinate(atDistance: plan.distance / 2 - 10), time: 0, heading: nil)
        #expect(on.matched)
        let off = riding.match(c, time: 1, heading: nil)
        #expect(!off.matched)
        #expect(off.stepIndex == on.stepIndex)
        #expect(off.distanceAlong == on.distanceAlong)
    }

    @Test("progress is monotone and matches noisy fixes along the route", .enabled(if: RideFixtures.mapAvailable))
    func monotoneProgress() throws {
        let plan = try Self.plan()
        let line = RouteLine(plan: plan)
        var m = RouteMatcher(plan: plan)
        var rng = SeededGenerator(seed: 9)
        var gps = GPSNoiseModel()
        gps.outlierProbability = 0
        var last = -1.0, matched = 0, n = 0
        var prev: Coordinate?
        for s in stride(from: 0.0, through: plan.distance, by: 4) {
            let p = line.projection.project(line.coordinate(atDistance: s))
            let e = gps.next(dt: 1, rng: &rng)
            let c = line.projection.unproject(x: p.x + e.dx, y: p.y + e.dy)
            let h = prev.flatMap { Geo.distance($0, c) > 3 ? Geo.bearing($0, c) : nil }
            let r = m.match(c, time: s / 4, heading: h)
            #expect(r.distanceAlong >= last)
            last = r.distanceAlong
            if r.matched { matched += 1; #expect(abs(r.distanceAlong - s) < 25) }
            n += 1
            prev = c
        }
        #expect(Double(matched) / Double(n) > 0.97)
    }

    @Test("one outlier, standing still and the 20–25 m band never confirm off route")
    func offRouteRules() {
        var m = OffRouteMonitor()
        // Single outliers.
        for t in 0..<10 { #expect(m.update(distance: t % 3 == 0 ? 35 : 5, time: Double(t), speed: 4) == .none) }
        // Standing still beyond 25 m.
        for t in 10..<20 { #expect(m.update(distance: 30, time: Double(t), speed: 0.2) == .none) }
        #expect(!m.isOffRoute)
        // Moving: the third fix and 2 s confirm.
        var m2 = OffRouteMonitor()
        #expect(m2.update(distance: 30, time: 0, speed: 4) == .none)
        #expect(m2.update(distance: 31, time: 1, speed: 4) == .none)
        #expect(m2.update(distance: 32, time: 2, speed: 4) == .wentOff(since: 0))
        #expect(m2.mayReroute(at: 2))
        // Hysteresis: 22 m keeps off route, 19 m is back.
        #expect(m2.update(distance: 22, time: 3, speed: 4) == .none)
        #expect(m2.isOffRoute)
        #expect(m2.update(distance: 19, time: 4, speed: 4) == .backOn)
        // Cooldown after a reroute.
        var m3 = OffRouteMonitor()
        for t in 0..<3 { _ = m3.update(distance: 40, time: Double(t), speed: 4) }
        m3.didReroute(at: 2)
        for t in 3..<6 { _ = m3.update(distance: 40, time: Double(t), speed: 4) }
        #expect(m3.isOffRoute)
        #expect(!m3.mayReroute(at: 5))
        #expect(m3.mayReroute(at: 12))
    }
}
