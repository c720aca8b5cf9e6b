import Foundation
@testable import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Issue 16: `Router.bestRoute` skips the rule-bound search when `CrustyRuleProof` shows no line
/// keeps to the 100 m crusty rule. On seeded pairs of real maps, in every mode, its answers must
/// equal those of the old order (rule-bound search first, always).
@Suite(.serialized) struct CrustyRuleProofTests {
    /// Pairs per mode and map: enough to meet both outcomes of the proof on Heidelberg.
    static let pairsPerMode = 14

    /// Heidelberg compiled and written like `skateroute import` does (so the landmark tables the
    /// shipped router uses are there), once for the suite.
    static let heidelberg: SkateMap? = {
        guard TestData.available,
              let (m, _) = try? MapImporter.compile(osmPath: TestData.heidelbergPBF, demPaths: [], options: ImportOptions(name: "Heidelberg")) else { return nil }
        let dir = TestData.temporaryDirectory("crusty-proof")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("heidelberg.srmap").path
        guard (try? MapFormat.write(m, to: path)) != nil else { return nil }
        return try? MapFormat.load(path: path, copying: true)
    }()

    /// SplitMix64: a few lines, so this target needs no dependency on SkateRide's generator.
    struct SplitMix { var s: UInt64; mutating func next() -> UInt64 { s &+= 0x9E37_79B9_7F4A_7C15; var z = s; z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9; z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB; return z ^ (z >> 31) } }

    /// Runs old and new on seeded node pairs; returns (pairs compared, pairs the proof settled).
    func compare(map: SkateMap, seed: UInt64) throws -> (Int, Int) {
        let planner = Planner(map: map)
        var rng = SplitMix(s: seed)
        var compared = 0, proven = 0
        for mode in RideMode.allCases {
            let router = planner.router(for: mode)
            var done = 0, tries = 0
            while done < Self.pairsPerMode && tries < 10 * Self.pairsPerMode {
                tries += 1
                let na = Int(rng.next() % UInt64(map.nodeCount)), nb = Int(rng.next() % UInt64(map.nodeCount))
                let ca = Coordinate(lat: map.nodeLat[na], lon: map.nodeLon[na]), cb = Coordinate(lat: map.nodeLat[nb], lon: map.nodeLon[nb])
                guard let sa = try? router.snap(ca), let sb = try? router.snap(cb) else { continue }
                let new = router.bestRoute(from: sa, to: sb)
                let old = router.bestRouteExhaustive(from: sa, to: sb)
                #expect(new == old, "\(mode) \(ca) → \(cb): new \(new.map { "\($0.cost) \($0.legs.count) legs" } ?? "nil") vs old \(old.map { "\($0.cost) \($0.legs.count) legs" } ?? "nil")")
                let proof = CrustyRuleProof(map: map, costing: router.costing).provesNoLine(from: sa, to: sb)
                // A proof never claims what the rule-bound search disproves.
                if proof { proven += 1; #expect(router.route(from: sa, to: sb, hardRule: true) == nil) }
                compared += 1; done += 1
            }
        }
        return (compared, proven)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func monacoAnswersEqualTheExhaustiveOrder() throws {
        let map = try #require(try? MapFormat.load(path: TestData.bundledMonaco), "Maps/monaco.srmap missing")
        let (n, _) = try compare(map: map, seed: 16)
        #expect(n >= RideMode.allCases.count * Self.pairsPerMode / 2)
    }

    @Test(.enabled(if: TestData.available, TestData.skip)) func heidelbergAnswersEqualTheExhaustiveOrder() throws {
        let map = try #require(Self.heidelberg)
        let (n, proven) = try compare(map: map, seed: 1616)
        #expect(n >= RideMode.allCases.count * Self.pairsPerMode / 2)
        // The extract has crusty pockets: some pairs must take the proof's shortcut, or this
        // test would not exercise it.
        #expect(proven > 0, "no pair was proven infeasible (\(n) pairs)")
    }

    @Test func aLongCrustyLaneIsProvenAndRoutedWithItsNote() throws {
        // D–E is the only way to E: 300 m of sett. The proof must settle it without the
        // rule-bound search, and the answer must be the relaxed route, flagged.
        let m = AsciiMap("""
        A-----B-----C
              |
              D---------------E
        """, ways: [("ABC", ["highway": "residential", "surface": "asphalt"]), ("BD", ["highway": "residential", "surface": "asphalt"]),
                    ("DE", ["highway": "residential", "surface": "sett"])])
        let router = Planner(map: m.map).router(for: .smoothest)
        let sa = try router.snap(m.nodes["A"]!), se = try router.snap(m.nodes["E"]!)
        #expect(CrustyRuleProof(map: m.map, costing: router.costing).provesNoLine(from: sa, to: se))
        let p = try #require(router.bestRoute(from: sa, to: se))
        #expect(!p.crustyRuleMet)
        #expect(p == router.bestRouteExhaustive(from: sa, to: se))
        // And A → C (all asphalt) is not "proven" impossible.
        let sc = try router.snap(m.nodes["C"]!)
        #expect(!CrustyRuleProof(map: m.map, costing: router.costing).provesNoLine(from: sa, to: sc))
    }
}
