import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// `LandmarkLayout` (`import --landmarks`): which ride modes share an ALT landmark table. Each
/// table is built from the least cost its modes give each traversal, so it bounds all of them
/// from below and the plans are those of one table per mode; only the file and search times change.
@Suite struct LandmarkLayoutTests {
    @Test func parsesWhatItPrints() throws {
        #expect(LandmarkLayout(parsing: "per-mode") == .perMode && LandmarkLayout.perMode.tableCount == 5)
        #expect(LandmarkLayout(parsing: "shared") == .shared && LandmarkLayout.shared.tableCount == 1)
        let l = try #require(LandmarkLayout(parsing: "fastMildRoughness,smoothest+chillFewCrossings+nightSafe+trickSpotCrawl"))
        #expect(l == .standard && l.tableCount == 2)
        // Tables are numbered by the first mode using them, so one grouping has one form.
        #expect(l.tableOfMode == [0, 0, 1, 0, 0])
        #expect("\(l)" == "smoothest+chillFewCrossings+nightSafe+trickSpotCrawl,fastMildRoughness")
        for layout in [LandmarkLayout.perMode, .shared, .standard] { #expect(LandmarkLayout(parsing: "\(layout)") == layout) }
        #expect(LandmarkLayout(groups: RideMode.allCases.map { [$0] }) == .perMode)
    }

    @Test func refusesAMissingRepeatedOrUnknownMode() {
        #expect(LandmarkLayout(parsing: "smoothest") == nil, "four modes left out")
        #expect(LandmarkLayout(parsing: "smoothest+smoothest,chillFewCrossings+fastMildRoughness+nightSafe+trickSpotCrawl") == nil)
        #expect(LandmarkLayout(parsing: "smoothest,chillFewCrossings+fastMildRoughness+nightSafe+trickSpotCrawl+skatepark") == nil)
        #expect(LandmarkLayout(parsing: "smoothest,,chillFewCrossings+fastMildRoughness+nightSafe+trickSpotCrawl") == nil, "an empty group")
        #expect(LandmarkLayout(parsing: "") == nil)
        // A stored row must name existing tables, use each and number them in first-use order.
        #expect(LandmarkLayout(stored: [0, 0, 1, 0, 0], tables: 2) == .standard)
        #expect(LandmarkLayout(stored: [0, 0, 2, 0, 0], tables: 2) == nil)
        #expect(LandmarkLayout(stored: [1, 1, 0, 1, 1], tables: 2) == nil)
        #expect(LandmarkLayout(stored: [0, 0, 0, 0, 0], tables: 2) == nil)
    }

    /// The default layout's tables on the bundled map: fastMildRoughness keeps its own table, the
    /// others share one, and the plans are those of one table per mode.
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func theDefaultLayoutPlansAsPerModeTables() throws {
        let m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        let a = try MapFormat.encode(m, landmarks: .perMode), b = try MapFormat.encode(m, landmarks: .standard)
        let p = try a.withUnsafeBytes { try MapFormat.decode($0, path: "per-mode") }
        let s = try b.withUnsafeBytes { try MapFormat.decode($0, path: "standard") }
        let dp = try #require(p.derived), ds = try #require(s.derived)
        #expect(ds.landmarkLayout == .standard && dp.landmarkLayout == .perMode)
        #expect(ds.landmarkCosts.count * 5 == dp.landmarkCosts.count * 2, "two tables instead of five")
        // fastMildRoughness keeps its own table, code for code.
        let fp = try #require(dp.landmarkTable(for: .fastMildRoughness, nodeCount: p.nodeCount))
        let fs = try #require(ds.landmarkTable(for: .fastMildRoughness, nodeCount: s.nodeCount))
        #expect(fp.values == fs.values && fp.fine == fs.fine)
        // The shared table reaches what each of its modes' own tables reach (reachability does
        // not depend on the weights). Its codes are not comparable entry by entry: each column
        // is quantised from its own least cost on its own scale (`LandmarkTable.quantise`).
        for mode in [RideMode.smoothest, .chillFewCrossings, .nightSafe, .trickSpotCrawl] {
            let own = try #require(dp.landmarkTable(for: mode, nodeCount: p.nodeCount))
            let shared = try #require(ds.landmarkTable(for: mode, nodeCount: s.nodeCount))
            #expect((0..<own.values.count).allSatisfy { (own.values[$0] == .max) == (shared.values[$0] == .max) }, "\(mode)")
        }
        let x = Planner(map: p), y = Planner(map: s)
        var rng = CrustyRuleProofTests.SplitMix(s: 91)
        var compared = 0
        for _ in 0..<15 {
            let na = Int(rng.next() % UInt64(p.nodeCount)), nb = Int(rng.next() % UInt64(p.nodeCount))
            for mode in RideMode.allCases {
                guard let u = try? x.plan(from: p.coordinate(ofNode: na), to: p.coordinate(ofNode: nb), mode: mode) else { continue }
                let v = try y.plan(from: s.coordinate(ofNode: na), to: s.coordinate(ofNode: nb), mode: mode)
                // The line, not the search's cost figure: the node-based search's cost of one line
                // can differ with the order states settle in (Monaco nightSafe 2977 → 1283: the
                // same 87 legs cost 23 958 with per-mode tables and 23 963 here and without any
                // landmarks), which no rider sees.
                #expect(u.path.legs == v.path.legs && u.distance == v.distance && u.duration == v.duration, "\(mode) \(na) → \(nb)")
                compared += 1
            }
        }
        #expect(compared >= 15 * RideMode.allCases.count / 2)
    }
}
