import Foundation
import HeapModule
import Synchronization
@testable import SkateCore
import SkateTestSupport
import Testing

/// `TargetCostBound`, the bound smoothest's later searches use (issue 30/31, eleventh round):
/// wherever its backward search has got to, its bound never exceeds the exact least cost to the
/// target (a plain Dijkstra here), and once extended far enough it is that cost; and searches
/// under dearer costings (×2 distance, ×4 braking, penalties ≥ 1) find lines of the same cost
/// with it as without, settling fewer states.
@Suite(.serialized) struct TargetCostBoundTests {
    /// Exact least edge cost (no turns) from every node to `b`'s position, under `c`: a plain
    /// Dijkstra backward from the target edge's two end parts.
    static func exactToTarget(_ m: SkateMap, _ c: SkateCosting, _ b: EdgeSnap) -> [Double] {
        struct Item: Comparable { var d: Double; var n: Int; static func < (x: Item, y: Item) -> Bool { x.d < y.d } }
        var dist = [Double](repeating: .infinity, count: m.nodeCount)
        var heap = Heap<Item>()
        let eb = b.edge, len = Double(m.edgeLength[eb])
        func push(_ n: Int, _ d: Double) { if d < dist[n] { dist[n] = d; heap.insert(Item(d: d, n: n)) } }
        if c.allowed(edge: eb, reversed: false) { push(Int(m.edgeFrom[eb]), c.edgeCost(edge: eb, reversed: false).cost * (len > 0 ? b.offset / len : 0)) }
        if c.allowed(edge: eb, reversed: true) { push(Int(m.edgeTo[eb]), c.edgeCost(edge: eb, reversed: true).cost * (len > 0 ? (len - b.offset) / len : 0)) }
        while let top = heap.popMin() {
            guard top.d <= dist[top.n] else { continue }
            for k in m.adjacencyRange(of: top.n) {
                let adj = Int(m.adjacency[k]), e = adj >> 1, rev = adj & 1 == 1
                // The ride from the neighbour into this node: the opposite traversal.
                guard c.allowed(edge: e, reversed: !rev) else { continue }
                push(Int(rev ? m.edgeFrom[e] : m.edgeTo[e]), top.d + c.edgeCost(edge: e, reversed: !rev).cost)
            }
        }
        return dist
    }

    func pairs(_ m: SkateMap, _ router: Router, seed: UInt64, count: Int) -> [(EdgeSnap, EdgeSnap, RoutePath)] {
        var rng = SplitMix64(seed: seed)
        var out: [(EdgeSnap, EdgeSnap, RoutePath)] = []
        var tries = 0
        while out.count < count && tries < 20 * count {
            tries += 1
            let na = Int(rng.next() % UInt64(m.nodeCount)), nb = Int(rng.next() % UInt64(m.nodeCount))
            guard let a = try? router.snap(m.coordinate(ofNode: na)), let b = try? router.snap(m.coordinate(ofNode: nb)),
                  a.edge != b.edge, let p = router.bestRoute(from: a, to: b) else { continue }
            out.append((a, b, p))
        }
        return out
    }

    /// Below the exact cost to the target at every node it answers for, at every stage of its
    /// backward search (not started, part way, past the line's cost, done), and equal to it at
    /// the end.
    func checkBelowExact(_ m: SkateMap, seed: UInt64, count: Int) throws -> Int {
        let planner = Planner(map: m)
        let router = planner.router(for: .smoothest)
        var checked = 0, tight = 0
        for (a, b, p) in pairs(m, router, seed: seed, count: count) {
            let exact = Self.exactToTarget(m, router.costing, b)
            let bound = TargetCostBound(map: m, costing: router.costing, from: a, to: b)
            for limit in [0, p.cost / 3, p.cost, 2 * p.cost, .infinity] {
                bound.extend(to: limit)
                for v in 0..<m.nodeCount where exact[v] < .infinity || bound.bound(v) > 0 {
                    let got = bound.bound(v)
                    // (An end snapped a hair before its edge's start costs -1e-16 there; the bound says 0.)
                    #expect(got <= Swift.max(0, exact[v]), "node \(v) after extending to \(limit): bound \(got) > exact \(exact[v])")
                    checked += 1
                    if limit == .infinity && exact[v] < .infinity && got >= exact[v] * (1 - 1e-6) - 1e-3 { tight += 1 }
                }
            }
        }
        #expect(tight > 0, "the finished bound never equals the exact cost")
        return checked
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func neverAboveTheExactCostMonaco() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        #expect(try checkBelowExact(m, seed: 0x7C0B, count: 12) > 0)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func neverAboveTheExactCostHeidelberg() throws {
        let m = try #require(CrustyRuleProofTests.heidelberg)
        #expect(try checkBelowExact(m, seed: 0x7C0C, count: 3) > 0)
    }

    /// The later searches smoothest runs, with the bound and without: the same cost (the bound is
    /// admissible), fewer states settled in all.
    /// `capped`: each extension stops at `Planner.laterBoundCap` × the mode's line's true cost, as
    /// `leastSteepLine` extends it (tenth round): the costs must stay the same.
    func checkSameCosts(_ m: SkateMap, seed: UInt64, count: Int, capped: Bool = false) -> (with: Int, without: Int) {
        let planner = Planner(map: m)
        let router = planner.router(for: .smoothest)
        var w2 = router.costing.weights; w2.distance *= 2
        var w4 = router.costing.weights; w4.brakingSecondsPerMetre *= 4; w4.cautionSecondsPerMetre *= 4
        let dearer = [planner.router(for: .smoothest, weights: w2), planner.router(for: .smoothest, weights: w4), router]
        var with = 0, without = 0
        for (a, b, p) in pairs(m, router, seed: seed, count: count) {
            let bound = TargetCostBound(map: m, costing: router.costing, from: a, to: b)
            let ruleUnmet = !p.crustyRuleMet
            var penalty: [Int: Double] = [:]
            for l in p.legs { penalty[l.edge] = 1.6 }
            for (k, r) in dearer.enumerated() {
                let pen = k == 2 ? penalty : [:]
                let cap = capped ? Planner.laterBoundCap * Planner.trueCost(p, router: router) : .infinity
                bound.extend(to: Swift.min(cap, Planner.lineCost(p, router: r, penalty: pen)) + bound.inconsistency)
                // This task's own states (other suites search at the same time).
                let tally = SearchCounters.Tally()
                let s0 = tally.settled.load(ordering: .relaxed)
                let plain = SearchCounters.$tally.withValue(tally) { r.bestRoute(from: a, to: b, penalty: pen, ruleUnmet: ruleUnmet) }
                let s1 = tally.settled.load(ordering: .relaxed)
                let fast = SearchCounters.$tally.withValue(tally) { r.bestRoute(from: a, to: b, penalty: pen, ruleUnmet: ruleUnmet, targetBound: bound) }
                let s2 = tally.settled.load(ordering: .relaxed)
                without += s1 - s0; with += s2 - s1
                #expect((plain == nil) == (fast == nil))
                guard let plain, let fast else { continue }
                #expect(abs(plain.cost - fast.cost) <= 1e-9 * max(1, plain.cost), "search \(k): \(fast.cost) with the bound, \(plain.cost) without")
                #expect(plain.crustyRuleMet == fast.crustyRuleMet)
            }
        }
        return (with, without)
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func sameCostsFewerStatesMonaco() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        let r = checkSameCosts(m, seed: 0x7C0D, count: 30)
        print("TargetCostBoundTests Monaco: states settled with the bound \(r.with), without \(r.without)")
        #expect(r.with < r.without, "states settled with the bound \(r.with), without \(r.without)")
    }

    /// Extended only to the cap, the later searches still find the plain search's costs.
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func cappedSameCostsMonaco() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        let r = checkSameCosts(m, seed: 0x7C0F, count: 30, capped: true)
        print("TargetCostBoundTests Monaco, capped: states settled with the bound \(r.with), without \(r.without)")
        #expect(r.with < r.without, "states settled with the bound \(r.with), without \(r.without)")
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func sameCostsFewerStatesHeidelberg() throws {
        let m = try #require(CrustyRuleProofTests.heidelberg)
        let r = checkSameCosts(m, seed: 0x7C0E, count: 8)
        print("TargetCostBoundTests Heidelberg: states settled with the bound \(r.with), without \(r.without)")
        #expect(r.with < r.without, "states settled with the bound \(r.with), without \(r.without)")
    }
}
