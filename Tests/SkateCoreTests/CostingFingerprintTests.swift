@testable import SkateCore
import SkateTestSupport
import Testing

/// The costing fingerprint (issue 18, item 1): a map's stored costs are used only under the
/// weights that made them; otherwise they are recomputed, and the route follows the new weights.
@Suite struct CostingFingerprintTests {
    /// Jardin Exotique → Stade Louis II: the bundled map's pair of `MonacoRoutingTests`.
    static let pair = (Coordinate(lat: 43.7341, lon: 7.4149), Coordinate(lat: 43.7260, lon: 7.4142))

    @Test func freshMapIsNotStale() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        #expect(!map.derivedCostsStale && map.derived != nil)
        #expect(!MapSummary(map: map).text().contains(MapSummary.staleNote))
    }

    /// The fingerprint's explicit field list is every field of `ModeWeights`, by name and
    /// value, in declaration order: a weight added to the struct but not to the list fails here.
    @Test func fieldListMatchesTheStruct() {
        for mode in RideMode.allCases {
            let w = mode.weights
            let reflected = Mirror(reflecting: w).children.map { ($0.label ?? "", $0.value as? Double ?? .nan) }
            let listed = w.fingerprintFields
            #expect(listed.map(\.0) == reflected.map(\.0), "\(mode): field names")
            #expect(listed.map { $0.1.bitPattern } == reflected.map { $0.1.bitPattern }, "\(mode): field values")
        }
    }

    @Test func fingerprintFollowsEveryWeight() {
        let base = CostingFingerprint.current
        var w = RideMode.nightSafe.weights
        w.unlit += 0.5
        let changed = ModeWeights.$override.withValue([.nightSafe: w]) { CostingFingerprint.current }
        #expect(changed != base)
        #expect(CostingFingerprint.current == base, "the override ends with its task scope")
    }

    /// A weight edited after import: the map loads as stale, `map info` says so, and the route is
    /// the one the new weight makes (the same as a costing built with it explicitly), not the
    /// stored one.
    @Test func changedWeightRecomputesAndTheRouteFollowsIt() throws {
        let stored = try MapFormat.load(path: TestData.bundledMonaco)
        // Distance 30× dearer: the shortest line wins over the smooth one on at least one pair
        // (which pairs differ moves with the map; the pair above now rides its shortest line anyway).
        var w = RideMode.smoothest.weights
        w.distance = 30
        try ModeWeights.$override.withValue([.smoothest: w]) {
            let map = try MapFormat.load(path: TestData.bundledMonaco)
            #expect(map.derivedCostsStale && map.derived == nil)
            #expect(MapSummary(map: map).text().contains(MapSummary.staleNote))
            var moved = 0
            for (a, b) in [Self.pair] + Self.morePairs {
                let before = try ModeWeights.$override.withValue([:]) { try Planner(map: stored).plan(from: a, to: b, mode: .smoothest) }
                let after = try Planner(map: map).plan(from: a, to: b, mode: .smoothest)
                #expect(after.distance <= before.distance + 0.5, "\(after.distance) vs \(before.distance)")
                if after.distance < before.distance - 1 { moved += 1 }
                // The same route as a costing given the new weights explicitly on an in-memory map.
                var plain = stored
                plain.derived = nil
                let explicit = Planner(map: plain).router(for: .smoothest, weights: w)
                let r = explicit.bestRoute(from: try explicit.snap(a), to: try explicit.snap(b))
                let viaStale = Planner(map: map).router(for: .smoothest)
                let s = viaStale.bestRoute(from: try viaStale.snap(a), to: try viaStale.snap(b))
                #expect(r?.legs.map(\.edge) == s?.legs.map(\.edge))
            }
            #expect(moved >= 1, "no pair's route followed the dearer distance")
        }
    }

    /// More pairs across the bundled map (Casino → Stade Louis II, Larvotto → Fontvieille).
    static let morePairs = [(Coordinate(lat: 43.7396, lon: 7.4275), Coordinate(lat: 43.7275, lon: 7.4155)),
                            (Coordinate(lat: 43.7440, lon: 7.4330), Coordinate(lat: 43.7290, lon: 7.4170))]

    /// A map written by a build with another mode list (another fingerprint, and mode tables of
    /// another length) is stale, not corrupt; with this build's fingerprint the same short
    /// table is corrupt.
    @Test func otherModeListIsStaleNotCorrupt() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        var bytes = try MapFormat.encode(map)
        let edges = map.edgeCount
        func entry(_ id: UInt32) -> Int? {
            let count = Int(bytes.withUnsafeBytes { $0.loadLE(UInt32.self, at: 12) })
            return (0..<count).map { MapFormat.headerSize + $0 * MapFormat.directoryEntrySize }
                .first { at in bytes.withUnsafeBytes { $0.loadLE(UInt32.self, at: at) } == id }
        }
        func poke(_ at: Int, _ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { for (i, x) in $0.enumerated() { bytes[at + i] = x } } }
        func redigest() { poke(24, bytes.withUnsafeBytes { XXHash64.hash(UnsafeRawBufferPointer(rebasing: $0[MapFormat.headerSize...])) }) }
        // One mode fewer in the per-mode minimum costs, as a build with one mode less would write.
        let costs = try #require(entry(53))
        poke(costs + 16, UInt64((RideMode.allCases.count - 1) * 8))
        redigest()
        let corrupt = bytes.withUnsafeBytes { raw in Result { try MapFormat.decode(raw, path: "m.srmap") } }
        guard case .failure(let e as MapFileError) = corrupt else { Issue.record("short mode table accepted"); return }
        #expect(e.description.contains("corrupt") && e.description.contains("modeMinCostPerMetre"))
        // The fingerprint of another costing: the same bytes load, stale.
        let fp = try #require(entry(MapSection.fingerprintId))
        let fpOffset = Int(bytes.withUnsafeBytes { $0.loadLE(UInt64.self, at: fp + 8) })
        poke(fpOffset, CostingFingerprint.current ^ 1)
        redigest()
        let stale = try bytes.withUnsafeBytes { try MapFormat.decode($0, path: "m.srmap") }
        #expect(stale.derivedCostsStale && stale.derived == nil && stale.edgeCount == edges)
        let plan = try Planner(map: stale).plan(from: Self.pair.0, to: Self.pair.1, mode: .smoothest)
        let fresh = try Planner(map: map).plan(from: Self.pair.0, to: Self.pair.1, mode: .smoothest)
        #expect(plan.distance == fresh.distance)
    }
}
