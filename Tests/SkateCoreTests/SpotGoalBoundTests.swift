import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// Issue 30/31, ninth round: `trickSpotCrawl` builds its goal bound (`Planner.spotGoalBound`)
/// only when the direct line's forbidden part lies nearer the goal than the start — the goal is
/// the end shut in behind a forbidden way, where its legs to the goal settle everything cheaper
/// than the surcharge. (That the bound never changes an answer: `SpotPruningTests`.)
@Suite struct SpotGoalBoundTests {
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func builtOnlyWhenTheGoalIsBehindAForbiddenWay() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let planner = Planner(map: map)
        let forbidden = try #require((0..<map.edgeCount).first { !planner.legalToWalk($0) })
        let legal = (0..<map.edgeCount).filter { planner.legalToWalk($0) && map.edgeLength[$0] > 20 }
        try #require(legal.count >= 2)
        func leg(_ e: Int, _ metres: Double) -> RouteLeg { RouteLeg(edge: e, reversed: false, startOffset: 0, endOffset: metres) }
        func line(_ legs: [RouteLeg]) -> RoutePath { RoutePath(legs: legs, cost: 100, crustyRuleMet: true) }
        // Long before the forbidden way, short after it: the goal is shut in.
        #expect(planner.goalBehindForbiddenWay(line([leg(legal[0], 500), leg(forbidden, 10), leg(legal[1], 20)])))
        // The other way round: the start is shut in.
        #expect(!planner.goalBehindForbiddenWay(line([leg(legal[0], 20), leg(forbidden, 10), leg(legal[1], 500)])))
        // A legal line: no bound.
        #expect(!planner.goalBehindForbiddenWay(line([leg(legal[0], 500), leg(legal[1], 20)])))
        // The planner's choice follows it (the default setting).
        let router = planner.router(for: .trickSpotCrawl)
        let sa = try router.snap(map.coordinate(ofNode: 0)), sb = try router.snap(map.coordinate(ofNode: map.nodeCount - 1))
        #expect(planner.spotGoalBound(router: router, from: sa, to: sb, direct: line([leg(legal[0], 20), leg(forbidden, 10), leg(legal[1], 500)])) == nil)
        #expect(planner.spotGoalBound(router: router, from: sa, to: sb, direct: line([leg(legal[0], 500), leg(forbidden, 10), leg(legal[1], 20)])) != nil)
    }
}
