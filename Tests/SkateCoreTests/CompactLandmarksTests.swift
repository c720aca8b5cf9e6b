import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// `skateroute import --compact` (`LandmarkLayout.shared`): one landmark table from the least
/// cost any mode gives each traversal instead of one per mode. The bounds stay admissible under
/// every mode, so the plans are the plans of the per-mode map; only the file shrinks.
@Suite struct CompactLandmarksTests {
    static let pairs = 15

    func maps() throws -> (perMode: SkateMap, shared: SkateMap, perModeBytes: Int, sharedBytes: Int) {
        let m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        let a = try MapFormat.encode(m, landmarks: .perMode), b = try MapFormat.encode(m, landmarks: .shared)
        let perMode = try a.withUnsafeBytes { try MapFormat.decode($0, path: "per-mode") }
        let shared = try b.withUnsafeBytes { try MapFormat.decode($0, path: "shared") }
        return (perMode, shared, a.count, b.count)
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func oneTableAFifthOfTheBytes() throws {
        let (p, s, pb, sb) = try maps()
        let dp = try #require(p.derived), ds = try #require(s.derived)
        #expect(dp.landmarkLayout == .perMode && ds.landmarkLayout == .shared)
        #expect(ds.landmarkCosts.count == s.nodeCount * 2 * Landmarks.count)
        #expect(dp.landmarkCosts.count == RideMode.allCases.count * ds.landmarkCosts.count)
        // The file loses four of the five tables (UInt16 each) and their scales, nothing else but
        // the 8 bytes of the table-of-mode row (the shared map's five zeros repeat earlier bytes).
        #expect(pb - sb == (RideMode.allCases.count - 1) * ds.landmarkCosts.count * 2 + (RideMode.allCases.count - 1) * 2 * 8 + 8)
        #expect(dp.landmarkTableOfMode.array == [0, 1, 2, 3, 4] && ds.landmarkTableOfMode.array == [0, 0, 0, 0, 0])
        // Every mode reads the same table, and it bounds each mode's own from below.
        for mode in RideMode.allCases {
            let t = try #require(ds.landmarkTable(for: mode, nodeCount: s.nodeCount))
            #expect(t.values.count == ds.landmarkCosts.count)
        }
    }

    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func plansEqualThePerModeMapsPlans() throws {
        let (p, s, _, _) = try maps()
        let a = Planner(map: p), b = Planner(map: s)
        var rng = CrustyRuleProofTests.SplitMix(s: 77)
        var compared = 0
        for _ in 0..<Self.pairs {
            let na = Int(rng.next() % UInt64(p.nodeCount)), nb = Int(rng.next() % UInt64(p.nodeCount))
            for mode in RideMode.allCases {
                guard let x = try? a.plan(from: p.coordinate(ofNode: na), to: p.coordinate(ofNode: nb), mode: mode) else { continue }
                let y = try b.plan(from: s.coordinate(ofNode: na), to: s.coordinate(ofNode: nb), mode: mode)
                #expect(x.distance == y.distance && x.duration == y.duration, "\(mode) \(na) → \(nb)")
                #expect(x.path == y.path, "\(mode) \(na) → \(nb): another line")
                compared += 1
            }
        }
        #expect(compared >= Self.pairs * RideMode.allCases.count / 2)
    }
}
