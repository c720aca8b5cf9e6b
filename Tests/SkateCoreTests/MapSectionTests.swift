@testable import SkateCore
import SkateTestSupport
import Testing

/// Format version 6 and 7: one declaration per section drives the file; shared bytes, fixed-point
/// coordinates, via-point offsets and quantised landmark costs read back as exactly what was written.
@Suite struct MapSectionTests {
    func flatMap(elevation: Bool) -> SkateMap {
        AsciiMap("""
        A----B----C
        |         |
        D----E----F
        """, ways: [("ABC", ["highway": "residential", "name": "Rue Test", "surface": "asphalt"]),
                    ("ADEFC", ["highway": "footway", "lit": "yes"])],
                 elevation: elevation ? { x, y in 10 + x * 0.05 + y * 0.01 } : nil).map
    }

    func directory(_ bytes: [UInt8]) -> [(id: UInt32, elem: Int, off: Int, len: Int)] {
        bytes.withUnsafeBytes { raw in
            (0..<Int(raw.loadLE(UInt32.self, at: 12))).map { i in
                let at = MapFormat.headerSize + i * MapFormat.directoryEntrySize
                return (raw.loadLE(UInt32.self, at: at), Int(raw.loadLE(UInt32.self, at: at + 4)),
                        Int(raw.loadLE(UInt64.self, at: at + 8)), Int(raw.loadLE(UInt64.self, at: at + 16)))
            }
        }
    }

    @Test func everySectionIsDeclaredOnceAndWritten() throws {
        let table = MapSection.all
        #expect(Set(table.map(\.id)).count == table.count, "section ids are unique")
        #expect(Set(table.map(\.name)).count == table.count, "section names are unique")
        let dir = directory(try MapFormat.encode(flatMap(elevation: true)))
        #expect(dir.map(\.id) == table.map(\.id), "the file holds exactly the declared sections, in order")
    }

    /// Without a DEM the grades, climbs, descents and steepest descents are all zero, and the
    /// travel times are the same both ways: the file stores those bytes once and every section
    /// still reads back whole.
    @Test func repeatedBytesAreStoredOnce() throws {
        let m = flatMap(elevation: false)
        let bytes = try MapFormat.encode(m)
        let dir = directory(bytes)
        let name = Dictionary(uniqueKeysWithValues: MapSection.all.map { ($0.id, $0.name) })
        let at = Dictionary(uniqueKeysWithValues: dir.map { (name[$0.id]!, $0.off) })
        #expect(at["grade"] == at["climb"] && at["climb"] == at["descent"] && at["descent"] == at["steepestDownFwd"])
        #expect(at["tagSecondsFwd"] == at["tagSecondsBwd"])
        let stored = Set(dir.filter { $0.len > 0 }.map(\.off)).count
        #expect(stored < dir.filter { $0.len > 0 }.count)
        let back = try bytes.withUnsafeBytes { try MapFormat.decode($0, path: "mem") }
        let fresh = MapDerived(map: m)
        #expect(back.derived?.grade == fresh.grade && back.derived?.tagSecondsBwd == fresh.tagSecondsBwd)
        #expect(back.derived?.descent == fresh.descent && back.derived?.steepestDownBwd == fresh.steepestDownBwd)
        let summary = MapSummary(map: try MapFormat.load(path: TestData.bundledMonaco))
        #expect(summary.fileBytesBySection?.count == MapSection.all.count)
    }

    /// OSM coordinates are stored as Int32 × 1e-7° and read back bit for bit; a value off that
    /// grid keeps the array in Doubles, also bit for bit, through a file.
    @Test func coordinatesReadBackExactly() throws {
        var fixed = DegreeArray()
        for q in [437_341_234, -1_799_999_999, 0, 494_123_456] as [Int32] { fixed.append(Double(Int64(q) * 100) / 1e9) }
        #expect(fixed.isFixed && fixed.storage.elementSize == 4)
        #expect(fixed.map(\.bitPattern) == [43.7341234, -179.9999999, 0, 49.4123456].map(\.bitPattern))
        var mixed = fixed
        mixed.append(43.7 + 1e-9)
        #expect(!mixed.isFixed && mixed.storage.elementSize == 8 && mixed[4] == 43.7 + 1e-9 && mixed[0] == fixed[0])
        let bundled = try MapFormat.load(path: TestData.bundledMonaco)
        #expect(bundled.nodeLat.isFixed && bundled.nodeLon.isFixed, "the bundled map's coordinates are all OSM's")
        #expect(bundled.viaLat.isEmpty && bundled.viaOffsetLat.count > 1000, "its via points are offsets from their edge's start")
        let m = flatMap(elevation: true)
        let back = try MapFormat.encode(m).withUnsafeBytes { try MapFormat.decode($0, path: "mem") }
        #expect((0..<m.edgeCount).allSatisfy { e in
            back.geometry(ofEdge: e).map(\.lat.bitPattern) == m.geometry(ofEdge: e).map(\.lat.bitPattern)
                && back.geometry(ofEdge: e).map(\.lon.bitPattern) == m.geometry(ofEdge: e).map(\.lon.bitPattern)
        })
        #expect(back.nodeLon.map(\.bitPattern) == m.nodeLon.map(\.bitPattern))
    }

    /// Format 7 stores shapes without their end nodes, and the via points as Int16 offsets from
    /// their edge's start node when every one fits; one that does not keeps them all as Int32
    /// degrees. Either way every shape point reads back bit for bit.
    @Test(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip)) func viaPointsTakeTheOffsetFormOnlyWhenAllFit() throws {
        var m = try MapFormat.load(path: TestData.bundledMonaco, copying: true)
        let viaCount = m.viaPointCount
        let shapes = (0..<m.edgeCount).map { m.geometry(ofEdge: $0) }
        m.useAbsoluteViaPoints()
        #expect(m.viaLat.isFixed && (0..<m.edgeCount).allSatisfy { m.geometry(ofEdge: $0) == shapes[$0] })
        func roundTrip(_ x: SkateMap) throws -> SkateMap { try MapFormat.encode(x).withUnsafeBytes { try MapFormat.decode($0, path: "mem") } }
        func same(_ a: SkateMap, _ b: SkateMap) -> Bool {
            (0..<a.edgeCount).allSatisfy { e in
                a.geometry(ofEdge: e).map { [$0.lat.bitPattern, $0.lon.bitPattern] } == b.geometry(ofEdge: e).map { [$0.lat.bitPattern, $0.lon.bitPattern] }
            }
        }
        let compact = try roundTrip(m)
        #expect(compact.viaLat.isEmpty && compact.viaOffsetLat.count == viaCount && same(compact, m))
        // One via point moved 50 000 units (about 550 m) north: past Int16, so none are offsets.
        let e = try #require((0..<m.edgeCount).first { m.shapePointCount(ofEdge: $0) > 2 })
        let i = Int(m.edgeViaStart[e])
        m.viaLat[i] = Double(m.viaLat.fixed[i] + 50_000) / DegreeArray.unitsPerDegree
        #expect(m.viaLat.isFixed)
        let wide = try roundTrip(m)
        #expect(wide.viaOffsetLat.isEmpty && wide.viaLat.isFixed && wide.viaLat.count == viaCount && same(wide, m))
        #expect(wide.shapePoint(ofEdge: e, 1).lat == shapes[e][1].lat + 0.005 || abs(wide.shapePoint(ofEdge: e, 1).lat - shapes[e][1].lat - 0.005) < 1e-9)
    }

    /// Quantised landmark costs are rounded down: the true cost lies in [lower(q), lower(q + 1)),
    /// on both steps of the scale.
    @Test func landmarkQuantisationRoundsDown() {
        var rng = SplitMix64(seed: 0x5EED16)
        var costs = (0..<5000).map { _ in Double(rng.next() % 10_000_000) / 97 }
        costs += (0..<500).map { _ in 20_000 * Double(1 + rng.next() % 70) + Double(rng.next() % 1000) }
        costs += [0, .infinity, 1e-9, 123_456.789]
        let (q, fine, coarse) = LandmarkTable.quantise(costs)
        let t = LandmarkTable(values: FlatArray(q), fine: fine, coarse: coarse)
        #expect(fine < coarse, "two steps: the dense part finer")
        for (x, v) in zip(costs, q) {
            if x.isInfinite { #expect(v == LandmarkTable.unreachable); continue }
            #expect(v <= LandmarkTable.maxValue)
            #expect(t.lower(Int(v)) <= x && x < t.lower(Int(v) + 1), "\(x) stored as \(v)")
        }
        // Two interleaved columns, the second shifted by 300 000 s: codes count from each
        // column's least cost, so both columns get the same codes.
        let shifted = costs.prefix(1000).flatMap { [$0, $0 + 300_000] }
        let (q2, _, _) = LandmarkTable.quantise(Array(shifted), columns: 2)
        for i in stride(from: 0, to: q2.count, by: 2) where costs[i / 2].isFinite {
            #expect(abs(Int(q2[i]) - Int(q2[i + 1])) <= 1, "column shift \(costs[i / 2]): \(q2[i]) vs \(q2[i + 1])")
        }
    }

    /// A table of 16 columns and 4 000 rows is quantised on both cores (`ParallelMap.chunks`):
    /// each column still counts from its own least cost, and every code rounds its cost down.
    @Test func landmarkQuantisationOnBothCoresRoundsDown() {
        var rng = SplitMix64(seed: 0xC0DE5)
        let columns = 16, rows = 4_000
        // Column c's costs start at c × 1 000 s; every 13th cost is unreachable.
        let costs: [Double] = (0..<(rows * columns)).map { i in
            i % 13 == 0 ? .infinity : Double(i % columns) * 1_000 + Double(rng.next() % 5_000_000) / 89
        }
        let (q, fine, coarse) = LandmarkTable.quantise(costs, columns: columns)
        let t = LandmarkTable(values: FlatArray(q), fine: fine, coarse: coarse)
        var least = [Double](repeating: .infinity, count: columns)
        for (i, x) in costs.enumerated() where x.isFinite { least[i % columns] = min(least[i % columns], x) }
        #expect(q.count == costs.count)
        for (i, x) in costs.enumerated() {
            if x.isInfinite { #expect(q[i] == LandmarkTable.unreachable); continue }
            let shifted = x - least[i % columns]
            #expect(t.lower(Int(q[i])) <= shifted && shifted < t.lower(Int(q[i]) + 1), "cost \(i): \(shifted) stored as \(q[i])")
        }
        #expect(q.contains { $0 != LandmarkTable.unreachable && Int($0) > LandmarkTable.knee }, "the largest costs take coarse steps")
    }

    @Test func olderFormatIsOneClearLine() throws {
        var bytes = try MapFormat.encode(flatMap(elevation: true))
        bytes[8] = 5
        do {
            _ = try bytes.withUnsafeBytes { try MapFormat.decode($0, path: "old.srmap") }
            Issue.record("a version 5 map was accepted")
        } catch let e as MapFileError {
            #expect(e.description.contains("skateroute import") && !e.description.contains("\n"))
        }
    }
}
