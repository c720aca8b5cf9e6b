@testable import SkateCore
import SkateTestSupport
import Testing

/// A plan's honest-detour references are searched on another thread beside the plan's own
/// searches (`Planner+WalkLines`, issue 30). The plans must be the ones searching them on the
/// planning thread gives, byte for byte, in every mode, with and without alternatives (which the
/// references may add as "walk" and "not legal" lines).
@Suite(.serialized) struct WalkLinesTests {
    /// Pairs per mode whose shortest line takes a way a walker may not (so the legal walk is
    /// searched too), and pairs whose shortest line is legal.
    static let illegalPairs = 2, legalPairs = 1
    /// Seeded ends drawn to find them.
    static let draws = 120

    /// Seeded pairs of `m`, those whose direct line is not legal first.
    static func pairs(_ m: SkateMap, _ router: Router, seed: UInt64) -> [(EdgeSnap, EdgeSnap)] {
        let all = SmoothestFastLineTests.ends(m, router, seed: seed, count: draws)
        let illegal = all.filter { !Planner.walkLines(map: m, from: $0.0, to: $0.1).directLegal }
        let legal = all.filter { Planner.walkLines(map: m, from: $0.0, to: $0.1).directLegal }
        return Array(illegal.prefix(illegalPairs)) + Array(legal.prefix(legalPairs))
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func monacoPlansEqualSearchingOnThePlanningThread() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        var serial = Planner(map: m)
        serial.walkLineThreads = 1
        var beside = serial.detached()
        beside.walkLineThreads = 2
        var plans = 0, illegalDirect = 0
        for (k, mode) in RideMode.allCases.enumerated() {
            let rs = serial.router(for: mode), rb = beside.router(for: mode)
            for (i, (a, b)) in Self.pairs(m, rs, seed: 0x3A1C + UInt64(k)).enumerated() {
                // Alternatives on every other plan: the references may be offered as labelled lines.
                let alternatives = i % 2
                guard let one = try? serial.plan(from: a, to: b, router: rs, mode: mode, alternatives: alternatives) else { continue }
                let two = try beside.plan(from: a, to: b, router: rb, mode: mode, alternatives: alternatives)
                #expect(PlanFormats.json(one) == PlanFormats.json(two), "\(mode) plans differ: \(a.edge) → \(b.edge)")
                // Not all of the references' facts are in the JSON (the walk's climb is not).
                #expect(one.walkReference == two.walkReference && one.detour == two.detour, "\(mode) references differ: \(a.edge) → \(b.edge)")
                plans += 1
                if one.walkReference?.directLegal == false { illegalDirect += 1 }
            }
        }
        #expect(plans >= RideMode.allCases.count * (Self.illegalPairs + Self.legalPairs) / 2)
        // The legal-walk search (run only when the direct line is not legal) is compared too.
        #expect(illegalDirect >= RideMode.allCases.count, "plans \(plans), direct line not legal on \(illegalDirect)")
    }

    /// The lines searched on another thread are the ones searched here.
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func startedLinesEqualLinesSearchedHere() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        let planner = Planner(map: m)
        let router = planner.router(for: .chillFewCrossings)
        for (a, b) in SmoothestFastLineTests.ends(m, router, seed: 0x3A2C, count: 24) {
            let here = Planner.walkLines(map: m, from: a, to: b)
            let there = try #require(planner.startWalkLines(from: a, to: b)).wait()
            #expect(here.direct?.legs == there.direct?.legs && here.walk?.legs == there.walk?.legs && here.directLegal == there.directLegal)
            let walk = ShortestLine.path(map: m, from: a, to: b, allowed: { Planner.legalToWalk($0, map: m) })
            #expect(here.walk?.legs == walk?.legs, "\(a.edge) → \(b.edge): the walk is not the shortest legal line")
        }
    }
}
