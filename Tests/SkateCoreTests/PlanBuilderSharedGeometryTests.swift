import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// The plan builder computes each leg's points once and reads them everywhere (issue 30, tenth
/// round), finds a step's samples by bisection, reads names without copying the map and finds the
/// clean pieces' cuts incrementally. Each shortcut must give exactly what the computation it
/// replaced gave.
@Suite struct PlanBuilderSharedGeometryTests {
    static let map: SkateMap? = try? MapFormat.load(path: TestData.bundledMonaco)

    /// A random polyline near Monaco: repeated points (0 m segments) and metre-scale jogs.
    static func polyline(_ g: inout SplitMix64) -> [Coordinate] {
        func u() -> Double { Double(g.next() % 1_000_000) / 1_000_000 }
        var pts = [Coordinate(lat: 43.73 + u() * 0.01, lon: 7.42 + u() * 0.01)]
        for _ in 0..<(1 + Int(g.next() % 12)) {
            let last = pts[pts.count - 1]
            let step = u() < 0.15 ? 0 : u() < 0.5 ? u() * 0.00002 : u() * 0.0002
            pts.append(Coordinate(lat: last.lat + (u() - 0.5) * step, lon: last.lon + (u() - 0.5) * step))
        }
        return pts
    }

    @Test("pointFromEnd equals point on the reversed line, bit for bit")
    func pointFromEndEqualsReversed() {
        var g = SplitMix64(seed: 20_261_127)
        for _ in 0..<2000 {
            let pts = Self.polyline(&g)
            for d in [0.0, 0.5, 2, RouteChords.Rules.headingMetres, 35] {
                let a = RouteChords.pointFromEnd(pts, d), b = RouteChords.point(Array(pts.reversed()), d)
                #expect(a.lat.bitPattern == b.lat.bitPattern && a.lon.bitPattern == b.lon.bitPattern, "\(pts) \(d)")
            }
        }
    }

    @Test("stepSamples equals the scans it replaced, on sorted and unsorted distances")
    func stepSamplesEqualScans() {
        var g = SplitMix64(seed: 7)
        func u() -> Double { Double(g.next() % 1_000_000) / 1_000_000 }
        var sortedSeen = 0
        for round in 0..<500 {
            var s: [Double] = []
            var x = 0.0
            for _ in 0..<Int(g.next() % 40) {
                // Equal distances (a lift), steps of 5 m, and now and then a step back (unsorted).
                x += u() < 0.2 ? 0 : round % 3 == 0 && u() < 0.1 ? -3 : 5 * u()
                s.append(x)
            }
            let sorted = PlanBuilder.isNonDecreasing(s)
            if sorted { sortedSeen += 1 }
            for _ in 0..<20 {
                // Step ends on samples, between them and off both ends.
                let a = s.isEmpty || u() < 0.3 ? u() * 100 - 10 : s[Int(g.next() % UInt64(s.count))]
                let b = a + (u() < 0.2 ? 0 : u() * 30)
                let (idx, before) = PlanBuilder.stepSamples(after: a, through: b, in: s, sorted: sorted)
                #expect(idx == s.indices.filter { s[$0] > a && s[$0] <= b }, "\(s) \(a) \(b)")
                #expect(before == s.indices.last(where: { s[$0] <= a }), "\(s) \(a)")
            }
        }
        #expect(sortedSeen > 100 && sortedSeen < 500)
    }

    @Test("EdgeNames reads the names the map's own reader reads")
    func namesEqualTheMap() throws {
        let map = try #require(Self.map, TestData.bundledSkip)
        let names = EdgeNames(map)
        var named = 0
        for e in 0..<map.edgeCount {
            #expect(names.name(ofEdge: e) == map.name(ofEdge: e))
            if !map.name(ofEdge: e).isEmpty { named += 1 }
        }
        for i in 0..<UInt32(map.stringCount + 2) { #expect(names.string(i) == map.string(i)) }
        #expect(named > 1000)
    }

    @Test("legShapes, legStarts and routeLine agree with legPoints and the legs' lengths")
    func shapesAndStartsEqualLegPoints() throws {
        let map = try #require(Self.map, TestData.bundledSkip)
        let planner = Planner(map: map)
        let builder = PlanBuilder(map: map, costing: planner.router(for: .smoothest).costing, knowledge: .empty)
        let plan = try planner.plan(from: Coordinate(lat: 43.7341, lon: 7.4149), to: Coordinate(lat: 43.7485, lon: 7.4375), mode: .smoothest)
        let legs = plan.path.legs
        #expect(legs.count > 20)
        let shapes = builder.legShapes(legs)
        for (i, leg) in legs.enumerated() {
            let (p, o) = builder.legPoints(leg)
            #expect(shapes.points[i] == p && shapes.offsets[i] == o)
        }
        let line = builder.routeLine(legs, shapes)
        let (legStart, total) = builder.legStarts(legs)
        #expect(line.legStart == legStart && line.total.bitPattern == total.bitPattern)
        #expect(line.geometry == plan.geometry)
        // The plan's geometry is the legs' points with each repeated join dropped.
        var joined: [Coordinate] = []
        for p in shapes.points {
            if let l = joined.last, let f = p.first, Geo.distance(l, f) < 0.5 { joined += p.dropFirst() } else { joined += p }
        }
        #expect(joined == line.geometry)
    }

    @Test("GentleCutter gives gentleCut's cuts for starts in order (seed printed)")
    func gentleCutterEqualsGentleCut() {
        let seed = UInt64(ProcessInfo.processInfo.environment["SKATEROUTE_SEED"] ?? "") ?? 20_261_128
        print("gentleCutterEqualsGentleCut seed \(seed) (set SKATEROUTE_SEED to replay)")
        var g = SplitMix64(seed: seed)
        var cuts = 0, misses = 0
        for _ in 0..<400 {
            let (s, e, _) = FlatSkipTests.profile(&g)
            let lo = Int(g.next() % UInt64(max(1, s.count / 4))), hi = s.count - Int(g.next() % UInt64(max(1, s.count / 4)))
            guard hi - lo >= 2 else { continue }
            var cutter = GentleCutter(s: s, e: e, from: lo, to: hi)
            var p = lo
            while p < hi {
                let fast = cutter.cut(from: p), scan = PlanBuilder.gentleCut(s: s, e: e, from: p, to: hi)
                #expect(fast?.last == scan?.last && fast?.next == scan?.next, "seed \(seed) p \(p)")
                if scan == nil { misses += 1 } else { cuts += 1 }
                // Starts as `zones` takes them: the next piece, or further on (after a zone).
                p = max(p + 1, (scan?.next ?? p) + (g.next() % 4 == 0 ? Int(g.next() % 30) : 0))
            }
        }
        #expect(cuts > 1000 && misses > 50, "seed \(seed): \(cuts) cuts, \(misses) without one")
    }
}
