import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// `Planner.trueCost` (the unpenalised cost an alternative or smoothest's swapped-in fast line
/// reports, and the plan score divides by) is the search's own sum: each leg's share of its edge
/// cost plus the turns. A lift mapped as a node is a 0 m edge; its wait and ride count whole.
@Suite struct TrueCostTests {
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func equalsTheSearchCostOnARouteWithLifts() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        let planner = Planner(map: m)
        let router = planner.router(for: .nightSafe)
        // Node 2977 → 1283 (Monaco): nightSafe rides three 0 m lifts.
        let a = try router.snap(m.coordinate(ofNode: 2977)), b = try router.snap(m.coordinate(ofNode: 1283))
        let path = try #require(router.bestRoute(from: a, to: b))
        let lifts = path.legs.filter { m.edgeLength[$0.edge] == 0 && m.flags(ofEdge: $0.edge).contains(.connector) }
        #expect(lifts.count >= 1, "the pair no longer rides a 0 m lift; pick another")
        let liftCost = lifts.reduce(0.0) { $0 + router.costing.edgeCost(edge: $1.edge, reversed: $1.reversed).cost }
        #expect(liftCost > 0)
        #expect(abs(Planner.trueCost(path, router: router) - path.cost) < 1e-6,
                "search \(path.cost), trueCost \(Planner.trueCost(path, router: router)), lifts \(liftCost)")
    }
}
