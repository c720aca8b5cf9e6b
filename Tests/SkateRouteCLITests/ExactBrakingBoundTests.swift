import FoundationEssentials
import Testing
import SkateCore
import SkateTestSupport
@testable import skateroute

/// The bench's exact bound (`ExactBrakingBound`, issue 26 ninth round) is a lower bound only if
/// its additive graph measure never counts more braking than the bench's scorer on the same line.
/// Checked on the first of the bundled map's seeded pairs, on smoothest's own lines and on the lines the
/// search itself returns (the ones it drove the measure down on), and the bound against both.
/// The same for braking + caution metres (tenth round: the search with caution weight 1).
@Suite(.serialized) struct ExactBrakingBoundTests {
    /// Metres per line the measure may exceed the scorer by: the scorer samples the matched line
    /// every 5 m from its start, the measure each edge every ≤ 5 m from the edge's start.
    static let samplingSlackMetres = 10.0
    /// The measure must read at least this share of the scorer's braking on smoothest's lines (a
    /// measure of zero would be a lower bound too, and useless): it read 0.68 on Monaco.
    static let minShareOfScorer = 0.5
    /// Pairs checked (of the bench's 30): a debug build plans and bounds about one a minute.
    static let pairCount = 6
    /// Of those, pairs also bounded on braking + caution (the search run a second time).
    static let steepPairCount = 2

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func theGraphMeasureNeverExceedsTheScorerAndTheBoundNoLine() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        let planner = Planner(map: m)
        let smooth = planner.router(for: .smoothest)
        let scorer = LineScorer(map: m, table: EdgeTable(map: m, knowledge: .empty), dem: nil)
        let builder = PlanBuilder(map: m, costing: smooth.costing, knowledge: .empty)
        var search = ExactBrakingBound(map: m, scorer: scorer, costing: smooth.costing)
        var measured = 0.0, scored = 0.0, pairs = 0
        for (a, b) in BrakingBenchmark.pairs(map: m, seed: 42).prefix(Self.pairCount) {
            guard let p = try? planner.plan(from: a, to: b, mode: .smoothest), let sa = try? smooth.snap(a), let sb = try? smooth.snap(b) else { continue }
            pairs += 1
            let own = search.measure(p.path.legs)
            let s = scorer.score(p.geometry)
            #expect(own.braking <= s.brakingMap + Self.samplingSlackMetres, "smoothest's line \(a) → \(b): measure \(own.braking) m, scorer \(s.brakingMap) m")
            #expect(own.objective(1) <= s.brakingMap + s.cautionMap + Self.samplingSlackMetres, "smoothest's line \(a) → \(b): braking + caution measure \(own.objective(1)) m, scorer \(s.brakingMap + s.cautionMap) m")
            measured += own.braking; scored += s.brakingMap
            let caps = ExactBrakingBound.Caps(resource: own.resource, distance: 1.3 * own.distance)
            let r = search.bound(from: sa, to: sb, caps: caps, own: own)
            #expect(r.lower <= r.upperGraph + 1e-6 && r.upperGraph <= own.braking + 1e-6)
            #expect(r.lowerNoCap <= r.lower + 1e-6)
            for l in r.lines {
                #expect(caps.keeps(l))
                let x = scorer.score(l.legs.flatMap { builder.legGeometry($0) })
                #expect(l.braking <= x.brakingMap + Self.samplingSlackMetres, "found line \(a) → \(b): measure \(l.braking) m, scorer \(x.brakingMap) m")
                #expect(l.objective(1) <= x.brakingMap + x.cautionMap + Self.samplingSlackMetres, "found line \(a) → \(b): braking + caution measure \(l.objective(1)) m, scorer \(x.brakingMap + x.cautionMap) m")
            }
            // Braking + caution: the search with caution weight 1 (its window cache is the one
            // just filled), on the first pairs only to keep the test's time.
            guard pairs <= Self.steepPairCount else { continue }
            let rs = search.bound(from: sa, to: sb, caps: caps, own: own, cautionWeight: 1)
            #expect(rs.lower <= rs.upperGraph + 1e-6 && rs.upperGraph <= own.objective(1) + 1e-6)
            #expect(rs.lowerNoCap <= rs.lower + 1e-6)
            for l in rs.lines {
                #expect(caps.keeps(l))
                let x = scorer.score(l.legs.flatMap { builder.legGeometry($0) })
                #expect(l.objective(1) <= x.brakingMap + x.cautionMap + Self.samplingSlackMetres, "found line (braking + caution) \(a) → \(b): measure \(l.objective(1)) m, scorer \(x.brakingMap + x.cautionMap) m")
            }
        }
        #expect(pairs >= Self.pairCount - 1)
        #expect(measured >= Self.minShareOfScorer * scored, "measure \(measured) m, scorer \(scored) m")
    }
}
