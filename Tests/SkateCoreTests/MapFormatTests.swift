import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// The compiled format round-trips, and every kind of damage is a clear error, never a crash.
@Suite struct MapFormatTests {
    func sampleMap() -> SkateMap {
        AsciiMap("""
        A----B----C
        |         |
        D----E----F
        """, ways: [("ABC", ["highway": "residential", "name": "Rue Test", "surface": "asphalt"]),
                    ("ADEFC", ["highway": "footway", "lit": "yes"])],
                 nodeTags: ["E": ["highway": "crossing"]], places: ["B": ["amenity": "cafe", "name": "Café Ü"]],
                 elevation: { x, y in 10 + x * 0.05 + y * 0.01 }).map
    }

    @Test func roundTripsEveryArray() throws {
        let m = sampleMap()
        let bytes = try MapFormat.encode(m)
        let back = try bytes.withUnsafeBytes { try MapFormat.decode($0, path: "mem") }
        #expect(back.metadata == m.metadata)
        #expect(back.nodeLat == m.nodeLat && back.nodeLon == m.nodeLon && back.nodeFlags == m.nodeFlags)
        #expect(back.edgeFrom == m.edgeFrom && back.edgeTo == m.edgeTo && back.edgeLength == m.edgeLength)
        #expect(back.edgeFlags == m.edgeFlags && back.edgeName == m.edgeName && back.elevation == m.elevation)
        #expect(back.adjacency == m.adjacency && back.grid.cellEdges == m.grid.cellEdges)
        #expect(back.placeCount == 1 && back.string(back.placeName[0]) == "Café Ü")
        #expect(try MapFormat.encode(back) == bytes, "re-encoding must be byte-identical")
    }

    @Test func damageIsAClearError() throws {
        let bytes = try MapFormat.encode(sampleMap())
        func decode(_ b: [UInt8]) -> MapFileError? {
            do { _ = try b.withUnsafeBytes { try MapFormat.decode($0, path: "x.srmap") }; return nil } catch let e as MapFileError { return e } catch { return nil }
        }
        var flipped = bytes; flipped[bytes.count / 2] ^= 0xFF
        #expect(decode(flipped) == .checksumMismatch(path: "x.srmap"))
        #expect(decode(Array(bytes.prefix(bytes.count - 9))) == .truncated(path: "x.srmap"))
        #expect(decode(Array(bytes.prefix(20))) == .truncated(path: "x.srmap"))
        var version = bytes; version[8] = 99
        #expect(decode(version) == .wrongVersion(path: "x.srmap", found: 99, expected: MapFormat.version))
        #expect(decode(Array("hello world, not a map at all....".utf8)) == .notAMap(path: "x.srmap"))
        #expect(decode([]) == .notAMap(path: "x.srmap"))
        // Random garbage after a valid header never crashes.
        var rng = SeededRNG(seed: 7)
        for _ in 0..<50 {
            var g = bytes
            for _ in 0..<5 { g[Int.random(in: 32..<g.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            #expect(decode(g) != nil)
        }
    }

    /// The derived tables a file carries are exactly what the map's arrays give when recomputed,
    /// for the sample and for the shipped Monaco map (a stale `Maps/monaco.srmap` fails here).
    @Test func derivedTablesMatchRecomputation() throws {
        let m = sampleMap()
        #expect(m.derived == nil, "an in-memory map carries no derived block")
        let back = try MapFormat.encode(m).withUnsafeBytes { try MapFormat.decode($0, path: "mem") }
        #expect(back.derived == MapDerived(map: m))
        let monaco = try MapFormat.load(path: TestData.bundledMonaco)
        let stored = try #require(monaco.derived)
        let fresh = MapDerived(map: monaco)
        #expect(stored == fresh)
        #expect(stored.grade.contains { $0 < -8 }, "Monaco has steep descents; the stored grades are not all zero")
        #expect(Set(stored.componentRoot).count > 1 && stored.bearingEnd.contains { $0 > 180 })
    }

    /// A derived block that passes the checksum but holds impossible values is refused.
    @Test func corruptDerivedBlockIsRefused() throws {
        var bytes = try MapFormat.encode(sampleMap())
        // Find the componentRoot section (id 50 in the format's fixed numbering) and point a
        // node's root far past the nodes, then fix the checksum so only the content check can catch it.
        let count = Int(bytes[12]) | Int(bytes[13]) << 8
        func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        let entry = try #require((0..<count).map { 32 + $0 * 24 }.first { bytes[$0] == 50 && bytes[$0 + 1] == 0 })
        let off = u64(entry + 8)
        bytes[off + 3] = 0x7F
        let digest = bytes[32...].withUnsafeBytes { XXHash64.hash($0) }
        for i in 0..<8 { bytes[24 + i] = UInt8(truncatingIfNeeded: digest >> (8 * UInt64(i))) }
        // Since format 8 the sample map's all-zero raw surface ids (section 69, written first)
        // hold the same bytes as the component roots, which then point at them: the corrupt word
        // is refused by whichever check reads it first. Either refusal names the corruption.
        let accepted: [MapFileError] = [.corrupt(path: "x.srmap", reason: "component root out of range"),
                                        .corrupt(path: "x.srmap", reason: "an edge has a bad surface or smoothness tag")]
        do {
            _ = try bytes.withUnsafeBytes { try MapFormat.decode($0, path: "x.srmap") }
            Issue.record("a corrupt derived block was accepted")
        } catch let e as MapFileError {
            #expect(accepted.contains(e), "\(e)")
        }
    }

    /// Costings built on a loaded map's stored mode costs equal costings computed from scratch,
    /// with no store knowledge and with measured roughness and hazards patched in.
    @Test func storedModeCostsMatchAFullCompute() throws {
        let m = sampleMap()
        let back = try MapFormat.encode(m).withUnsafeBytes { try MapFormat.decode($0, path: "mem") }
        let hazard = EdgeHazard(id: 1, kind: "pothole", severity: 3, confidence: 0.9, position: m.coordinate(ofNode: 0), offset: 5)
        let knowing = RoadKnowledge(observations: [0: EdgeObservation(rms: 0.31, source: .measured, freshness: 1, count: 4)],
                                    hazards: [1: [hazard]])
        for knowledge in [RoadKnowledge.empty, knowing] {
            for mode in RideMode.allCases {
                let fresh = SkateCosting(map: m, table: EdgeTable(map: m, knowledge: knowledge), mode: mode)
                let stored = SkateCosting(map: back, table: EdgeTable(map: back, knowledge: knowledge), mode: mode)
                for e in 0..<m.edgeCount {
                    for rev in [false, true] {
                        #expect(fresh.edgeCost(edge: e, reversed: rev) == stored.edgeCost(edge: e, reversed: rev), "\(mode) edge \(e) rev \(rev)")
                        #expect(fresh.allowed(edge: e, reversed: rev) == stored.allowed(edge: e, reversed: rev))
                    }
                }
                #expect(stored.minCostPerMetre <= fresh.minCostPerMetre, "the heuristic must stay admissible")
                if knowledge.observations.isEmpty { #expect(stored.minCostPerMetre == fresh.minCostPerMetre) }
            }
        }
        // The patch really changed something: the measured crusty edge costs more than its tags say.
        let plain = SkateCosting(map: back, table: EdgeTable(map: back, knowledge: .empty), mode: .smoothest)
        let patched = SkateCosting(map: back, table: EdgeTable(map: back, knowledge: knowing), mode: .smoothest)
        #expect(patched.edgeCost(edge: 0, reversed: false).cost > plain.edgeCost(edge: 0, reversed: false).cost)
        #expect(patched.edgeCost(edge: 1, reversed: false).cost > plain.edgeCost(edge: 1, reversed: false).cost)
    }

    /// Damage that still carries a valid checksum (a crafted file) is refused or yields a map the
    /// planner can use: never a trap. Seeded; prints the seed on failure.
    @Test func damageBehindAValidChecksumNeverCrashes() throws {
        let seed: UInt64 = 0xBAD_5EED
        var rng = SplitMix64(seed: seed)
        let clean = try MapFormat.encode(sampleMap())
        var refused = 0
        for round in 0..<300 {
            var b = clean
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                b[32 + Int(rng.next() % UInt64(b.count - 32))] = UInt8(truncatingIfNeeded: rng.next())
            }
            let digest = b[32...].withUnsafeBytes { XXHash64.hash($0) }
            for i in 0..<8 { b[24 + i] = UInt8(truncatingIfNeeded: digest >> (8 * UInt64(i))) }
            do {
                let m = try b.withUnsafeBytes { try MapFormat.decode($0, path: "x.srmap") }
                // Whatever decoded must plan (or refuse to) without trapping.
                let planner = Planner(map: m)
                for mode in [RideMode.smoothest, .trickSpotCrawl] where m.nodeCount > 1 {
                    _ = try? planner.plan(from: m.coordinate(ofNode: 0), to: m.coordinate(ofNode: m.nodeCount - 1), mode: mode, alternatives: 1)
                }
                _ = PlaceSearch(map: m).resolve("cafe")
            } catch is MapFileError {
                refused += 1
            } catch {
                Issue.record("seed \(seed) round \(round): unexpected \(error)")
            }
        }
        #expect(refused > 10, "seed \(seed): the structural checks should catch many of these")
    }

    @Test func metadataRoundTripsThroughTheBinaryRecord() throws {
        let meta = MapMetadata(name: "Zürich \u{1B}[31m", attribution: "© OSM", sources: ["a.pbf", "", "b.hgt"], osmTimestamp: "2026-01-01T00:00:00Z",
                               hasElevation: true, inclineTaggedWays: 390, waysKept: -1)
        var m = sampleMap()
        m.metadata = meta
        let back = try MapFormat.encode(m).withUnsafeBytes { try MapFormat.decode($0, path: "mem") }
        #expect(back.metadata == meta)
    }

    @Test func missingFileAndAtomicWrite() throws {
        let dir = TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: MapFileError.self) { try MapFormat.load(path: dir.appendingPathComponent("nope.srmap").path) }
        let path = dir.appendingPathComponent("m.srmap").path
        try MapFormat.write(sampleMap(), to: path)
        try MapFormat.write(sampleMap(), to: path)  // replacing an existing map works
        let loaded = try MapFormat.load(path: path)
        #expect(loaded.edgeCount == sampleMap().edgeCount)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
        #expect(throws: MapFileError.self) { try MapFormat.write(sampleMap(), to: "/nonexistent-dir/m.srmap") }
    }
}
