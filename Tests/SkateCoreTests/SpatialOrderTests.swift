import Foundation
@testable import SkateCore
@testable import SkateImport
import SkateTestSupport
import Testing

/// Issue 16: the importer numbers nodes along a Hilbert curve and edges by start node, so a plan
/// reads few pages of the mapped file. The numbering must change nothing a rider sees.
@Suite(.serialized) struct SpatialOrderTests {
    /// The curve visits every cell of a 2^k grid once, each step to a side neighbour.
    @Test func hilbertIndexIsAContinuousBijection() {
        let order = 5, side = 1 << order
        var cellAt = [(Int, Int)?](repeating: nil, count: side * side)
        for x in 0..<side {
            for y in 0..<side {
                let d = Int(SkateMap.hilbertIndex(x: x, y: y, order: order))
                #expect(d < side * side)
                #expect(cellAt[d] == nil, "two cells share position \(d)")
                cellAt[d] = (x, y)
            }
        }
        for d in 1..<(side * side) {
            guard let a = cellAt[d - 1], let b = cellAt[d] else { Issue.record("position \(d) unused"); return }
            #expect(abs(a.0 - b.0) + abs(a.1 - b.1) == 1, "positions \(d - 1) and \(d) are not neighbours")
        }
    }

    static let monaco = ImportOptions(name: "Monaco")

    /// The same graph either way (edges as OSM node pairs with their way, length and shape), the
    /// same plans on seeded pairs in every mode (JSON with alternatives, byte for byte), and
    /// near nodes in few blocks of the arrays: under half the blocks of the first-seen numbering
    /// (the naive baseline, printed beside it).
    @Test(.enabled(if: TestData.available, TestData.skip)) func sameGraphSamePlansNearerIndexes() throws {
        let (ordered, _) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [TestData.monacoDEMFilled], options: Self.monaco)
        var plain = Self.monaco
        plain.spatialOrder = false
        let (firstSeen, _) = try MapImporter.compile(osmPath: TestData.monacoPBF, demPaths: [TestData.monacoDEMFilled], options: plain)
        #expect(ordered.nodeCount == firstSeen.nodeCount && ordered.edgeCount == firstSeen.edgeCount)

        func edges(_ m: SkateMap) -> [String] {
            (0..<m.edgeCount).map { e in
                let g = m.geometry(ofEdge: e).map { "\($0.lat),\($0.lon)" }.joined(separator: ";")
                let prof = m.elevationProfile(ofEdge: e).map { "\($0)" }.joined(separator: ",")
                return "\(m.nodeOsmId[Int(m.edgeFrom[e])])>\(m.nodeOsmId[Int(m.edgeTo[e])]) w\(m.edgeWayId[e]) \(m.edgeLength[e]) \(m.edgeFlags[e]) [\(g)] [\(prof)]"
            }.sorted()
        }
        #expect(edges(ordered) == edges(firstSeen))

        // Locality as a search sees it: the nodes within 400 m of a seeded point, and how many
        // 256-node blocks of the node arrays hold them (a block of 8-byte rows is 2 KB).
        func blocksTouched(_ m: SkateMap) -> Double {
            var rng = SeededPairs(seed: 7)
            var total = 0
            for _ in 0..<40 {
                let c = rng.coordinate(in: m)
                var blocks = Set<Int>()
                for n in 0..<m.nodeCount where Geo.distance(lat1: c.lat, lon1: c.lon, lat2: m.nodeLat[n], lon2: m.nodeLon[n]) < 400 {
                    blocks.insert(n / 256)
                }
                total += blocks.count
            }
            return Double(total) / 40
        }
        let hilbert = blocksTouched(ordered), baseline = blocksTouched(firstSeen)
        print("256-node blocks holding the nodes within 400 m (mean of 40): Hilbert \(hilbert), first-seen \(baseline), of \(ordered.nodeCount / 256 + 1)")
        #expect(hilbert * 2 < baseline)

        let a = Planner(map: ordered), b = Planner(map: firstSeen)
        var rng = SeededPairs(seed: 16)
        var compared = 0
        for _ in 0..<6 {
            let from = rng.coordinate(in: ordered), to = rng.coordinate(in: ordered)
            for mode in RideMode.allCases {
                let pa = try? a.plan(from: from, to: to, mode: mode, alternatives: 2)
                let pb = try? b.plan(from: from, to: to, mode: mode, alternatives: 2)
                #expect((pa == nil) == (pb == nil))
                guard let pa, let pb else { continue }
                #expect(PlanFormats.json(pa) == PlanFormats.json(pb), "\(mode) \(from) → \(to)")
                compared += 1
            }
        }
        #expect(compared >= 20)
    }

    /// Seeded points near a map's nodes.
    struct SeededPairs {
        var rng: SplitMix64
        init(seed: UInt64) { rng = SplitMix64(seed: seed) }
        /// Uniform in [0, 1): the generator's top 53 bits.
        mutating func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        /// A seeded graph node's position, nudged off it by up to ~20 m.
        mutating func coordinate(in m: SkateMap) -> Coordinate {
            let n = Int(unit() * Double(m.nodeCount))
            return Coordinate(lat: m.nodeLat[n] + (unit() - 0.5) * 3e-4, lon: m.nodeLon[n] + (unit() - 0.5) * 3e-4)
        }
    }
}
