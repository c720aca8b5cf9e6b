@testable import SkateCore
import SkateTestSupport
import Testing

/// ALT landmarks must never change a route's cost: their bounds are lower bounds, checked
/// directly against Dijkstra and end to end against routing without them.
@Suite struct LandmarkTests {
    @Test func boundsNeverExceedTrueCosts() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let d = try #require(map.derived)
        #expect(d.landmarks.count == Landmarks.count)
        let seed: UInt64 = 0xA17
        var rng = SplitMix64(seed: seed)
        for mode in [RideMode.smoothest, .fastMildRoughness, .nightSafe] {
            let table = try #require(d.landmarkTable(for: mode, nodeCount: map.nodeCount))
            let cost = FlatArray(SkateCosting.computeCosts(map: map, table: EdgeTable(map: map, knowledge: .empty), weights: mode.weights).0)
            for _ in 0..<4 {
                let e = Int(rng.next() % UInt64(map.edgeCount))
                let (ta, tb) = (Int(map.edgeFrom[e]), Int(map.edgeTo[e]))
                let toA = Landmarks.dijkstra(map: map, cost: cost, source: ta, backward: true)
                let toB = Landmarks.dijkstra(map: map, cost: cost, source: tb, backward: true)
                let bound = LandmarkBound(table: table, targetNodes: (ta, tb))
                var informative = 0
                for v in 0..<map.nodeCount {
                    let truth = Double(min(toA[v], toB[v]))
                    let b = bound.bound(v)
                    #expect(b <= truth + 1e-6, "seed \(seed) \(mode): node \(v) bound \(b) > true \(truth)")
                    if b > 0.5 * truth && truth < .infinity { informative += 1 }
                }
                #expect(informative > map.nodeCount / 10, "the bounds should be informative, not just 0")
            }
        }
    }

    /// Same cost with and without landmarks, on seeded random pairs in every mode.
    @Test func routesCostTheSameWithoutLandmarks() throws {
        let withALT = try MapFormat.load(path: TestData.bundledMonaco)
        var plain = withALT
        plain.derived = nil  // everything recomputed; the search falls back to straight-line bounds
        let pa = Planner(map: withALT), pb = Planner(map: plain)
        let seed: UInt64 = 0xA17_2
        var rng = SplitMix64(seed: seed)
        let edges = (0..<withALT.edgeCount).filter { pa.components.isMain(edge: $0) && withALT.isRideable(edge: $0) }
        for mode in RideMode.allCases {
            let ra = pa.router(for: mode), rb = pb.router(for: mode)
            #expect(ra.costing.landmarkTable != nil && rb.costing.landmarkTable == nil)
            for _ in 0..<6 {
                let a = withALT.coordinate(ofNode: Int(withALT.edgeFrom[edges[Int(rng.next() % UInt64(edges.count))]]))
                let b = withALT.coordinate(ofNode: Int(withALT.edgeTo[edges[Int(rng.next() % UInt64(edges.count))]]))
                let x = ra.bestRoute(from: try ra.snap(a), to: try ra.snap(b))
                let y = rb.bestRoute(from: try rb.snap(a), to: try rb.snap(b))
                #expect((x == nil) == (y == nil))
                if let x, let y {
                    // One label per node makes turn costs depend on the settling order, so the two
                    // heuristics may meet lines a turn apart (fastMildRoughness, 1,192 vs 1,196 s
                    // since issue 26's braking costs); with one label per traversal the search is
                    // exact and the costs equal.
                    #expect(abs(x.cost - y.cost) <= CrustyRuleProofTests.nodeLabelTolerance * 10 * max(1, y.cost), "seed \(seed) \(mode): \(x.cost) vs \(y.cost)")
                    if abs(x.cost - y.cost) > 1e-6 * max(1, y.cost) {
                        var ea = ra, eb = rb
                        ea.edgeLabels = true; eb.edgeLabels = true
                        let xe = ea.bestRoute(from: try ra.snap(a), to: try ra.snap(b)), ye = eb.bestRoute(from: try rb.snap(a), to: try rb.snap(b))
                        #expect(xe != nil && ye != nil && abs(xe!.cost - ye!.cost) <= 1e-6 * max(1, ye!.cost), "exact: seed \(seed) \(mode)")
                    }
                }
            }
        }
    }

    /// A store fact that makes an edge cheaper than the stored cost switches landmarks off for
    /// that costing (its bounds could overestimate); a dearer one keeps them.
    /// The import's quantile (`LandmarkTable.select`) equals sorting, on shapes that trip
    /// quickselects: duplicates, sorted, reversed, all equal, one element, random.
    @Test func selectEqualsSorting() {
        var rng = SystemRandomNumberGenerator()
        var inputs: [[Double]] = [[5], [2, 1], [3, 3, 3, 3], Array(0..<500).map(Double.init), Array((0..<500).reversed()).map(Double.init)]
        // 30 000 values: the counting runs on both cores (`ParallelMap.chunks`), and their
        // counts must add to the serial ones.
        for n in [10, 101, 2_000, 30_000] {
            inputs.append((0..<n).map { _ in Double(Int.random(in: 0..<20, using: &rng)) })
            inputs.append((0..<n).map { _ in Double.random(in: 0...1e6, using: &rng) })
            inputs.append((0..<n).map { i in i % 7 == 0 ? .infinity : Double.random(in: 0...1e-300, using: &rng) })
        }
        for x in inputs {
            let sorted = x.filter(\.isFinite).sorted()
            for k in Set([0, sorted.count / 2, sorted.count * 8 / 10, sorted.count - 1]) {
                #expect(LandmarkTable.finiteRank(x, rank: k) == sorted[k], "n \(x.count) rank \(k)")
            }
        }
    }

    @Test func cheaperKnowledgeDisablesLandmarks() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let rough = (0..<map.edgeCount).first { map.tagRoughness(ofEdge: $0).rms >= 0.2 && SkateCosting.isAllowed(map: map, edge: $0) }!
        let smoother = RoadKnowledge(observations: [rough: EdgeObservation(rms: 0.03, source: .measured, freshness: 1, count: 5)])
        let rougher = RoadKnowledge(observations: [rough: EdgeObservation(rms: 0.45, source: .measured, freshness: 1, count: 5)])
        #expect(SkateCosting(map: map, table: EdgeTable(map: map, knowledge: smoother), mode: .smoothest).landmarkTable == nil)
        #expect(SkateCosting(map: map, table: EdgeTable(map: map, knowledge: rougher), mode: .smoothest).landmarkTable != nil)
    }
}

/// The place-search index a map file carries gives exactly the index built from scratch.
@Suite struct StoredSearchIndexTests {
    @Test func storedIndexEqualsAFreshOne() throws {
        let loaded = try MapFormat.load(path: TestData.bundledMonaco)
        #expect(loaded.derived?.hasSearchIndex == true)
        var plain = loaded
        plain.derived = nil
        let stored = PlaceSearch(map: loaded), fresh = PlaceSearch(map: plain)
        #expect(stored.candidates.count > 1000)
        #expect(stored.candidates == fresh.candidates)
        #expect(stored.tokens == fresh.tokens)
        for q in ["stade louis ii", "casino", "jardin exotique", "rue grimaldi", "stad lous", "zzqxv"] {
            #expect(stored.resolve(q) == fresh.resolve(q), "\(q)")
        }
    }
}
