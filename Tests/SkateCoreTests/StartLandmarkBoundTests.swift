@testable import SkateCore
import SkateTestSupport
import Testing

/// `StartLandmarkBound` keeps its start nodes' landmark values in flat arrays and reads each
/// node's row once for both (ninth round, a speed change): its bound must be the former one's,
/// bit for bit, at every node, or smoothest's searches would settle other states.
@Suite struct StartLandmarkBoundTests {
    /// The former bound: per start node, its rows as arrays of tuples, the node's row read again.
    static func reference(_ t: LandmarkTable, startNodes: (Int, Int), _ v: Int) -> Double {
        let w = 2 * Landmarks.count
        func row(_ n: Int, _ f: (Int) -> Double) -> [Double] {
            (0..<w).map { k in let q = Int(t.values[n * w + k]); return q == LandmarkBound.none ? .nan : f(q) }
        }
        let rows = [startNodes.0, startNodes.1].map { n in (low: row(n) { t.lower($0) }, high: row(n) { t.lower($0 + 1) }) }
        let base = v * w, none = LandmarkBound.none
        var least = Double.infinity
        for r in rows {
            var b = 0.0
            for i in 0..<Landmarks.count {
                let fq = Int(t.values[base + 2 * i]), tq = Int(t.values[base + 2 * i + 1])
                let aHigh = r.high[2 * i]
                if !aHigh.isNaN {
                    if fq == none { b = .infinity; break }
                    b = Swift.max(b, t.lower(fq) - aHigh)
                }
                let aLow = r.low[2 * i + 1]
                if !aLow.isNaN, tq != none { b = Swift.max(b, aLow - t.lower(tq + 1)) }
            }
            least = Swift.min(least, b)
        }
        guard least < .infinity else { return .infinity }
        return Swift.max(0, least * LandmarkBound.margin - LandmarkBound.slack)
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func sameBoundAsTheFormerAtEveryNode() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco)
        let planner = Planner(map: m)
        var rng = SplitMix64(seed: 0x5747)
        var compared = 0, positive = 0, differ: [String] = []
        for mode in [RideMode.smoothest, .fastMildRoughness] {
            let t = try #require(planner.router(for: mode).costing.landmarkTable)
            for _ in 0..<6 {
                let e = Int(rng.next() % UInt64(m.edgeCount))
                let ends = (Int(m.edgeFrom[e]), Int(m.edgeTo[e]))
                let flat = StartLandmarkBound(table: t, startNodes: ends)
                for v in 0..<m.nodeCount {
                    let a = flat.bound(v), b = Self.reference(t, startNodes: ends, v)
                    if a.bitPattern != b.bitPattern { differ.append("node \(v) from edge \(e): \(a) vs \(b)") }
                    compared += 1
                    if a > 0 && a < .infinity { positive += 1 }
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.count) of \(compared) differ, first: \(differ.first ?? "")")
        // Most bounds are real ones (not the 0 of no landmark), or the comparison proves little.
        #expect(positive > compared / 2, "\(positive) positive bounds of \(compared)")
    }
}
