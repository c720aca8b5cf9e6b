import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Issue 29 row 5: a map import writes always loads. Absurd steps and impossible heights are
/// repaired at import; anything else the loader would refuse is refused before a byte is written.
@Suite("Import writes what load accepts")
struct ImportWritesWhatLoadsTests {
    /// A small OSM XML extract: a 200 m footway near Monaco and, when `absurd`, a two-node way
    /// whose second node lies 1.16° north (129 km).
    static func extract(absurd: Bool) -> String {
        var s = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6">
         <node id="1" lat="43.7400" lon="7.4200"/>
         <node id="2" lat="43.7410" lon="7.4210"/>
         <node id="3" lat="43.7418" lon="7.4222"/>
         <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="footway"/></way>

        """
        if absurd {
            s += """
             <node id="4" lat="44.9000" lon="7.4200"/>
             <way id="11"><nd ref="3"/><nd ref="4"/><tag k="highway" v="residential"/></way>

            """
        }
        return s + "</osm>\n"
    }

    static func write(_ text: String, _ dir: URL, _ name: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func aWayStepOf129KilometresIsCutAndTheMapLoads() throws {
        let dir = TestData.temporaryDirectory("absurd-step")
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try Self.write(Self.extract(absurd: true), dir, "absurd.osm")
        let (map, report) = try MapImporter.compile(ImportRequest(osmPath: osm, options: ImportOptions(name: "t")))
        #expect(report.stats.absurdSegments == 1 && report.stats.firstAbsurdWay == 11)
        #expect((0..<map.edgeCount).allSatisfy { map.edgeLength[$0] < 1_000 }, "only the footway's edges remain")
        #expect((0..<map.edgeCount).allSatisfy { map.edgeWayId[$0] == 10 })
        let out = dir.appendingPathComponent("absurd.srmap").path
        try MapFormat.write(map, to: out)
        let loaded = try MapFormat.load(path: out, verification: .always)
        #expect(loaded.edgeCount == map.edgeCount)
        // The same extract without the absurd way compiles to the same edges.
        let plain = try Self.write(Self.extract(absurd: false), dir, "plain.osm")
        let (clean, cleanReport) = try MapImporter.compile(ImportRequest(osmPath: plain, options: ImportOptions(name: "t")))
        #expect(cleanReport.stats.absurdSegments == 0)
        #expect(clean.edgeCount == map.edgeCount)
    }

    @Test func aMapTheLoaderWouldRefuseIsNeverWritten() throws {
        let dir = TestData.temporaryDirectory("refused-write")
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try Self.write(Self.extract(absurd: false), dir, "plain.osm")
        let out = dir.appendingPathComponent("bad.srmap").path
        for damage in ["length", "elevation"] {
            var (map, _) = try MapImporter.compile(ImportRequest(osmPath: osm, options: ImportOptions(name: "t")))
            if damage == "length" {
                map.edgeLength[0] = 129_000
            } else {
                // A map built in memory with one impossible height (SRTM's 32767).
                map.elevation = FlatArray([Float](repeating: 32_767, count: map.edgeCount * 2))
                map.edgeElevStart = FlatArray((0...map.edgeCount).map { UInt32($0 * 2) })
            }
            do {
                try MapFormat.write(map, to: out)
                Issue.record("a map with an impossible \(damage) was written")
            } catch let e as MapFileError {
                let line = e.description
                #expect(line.contains(out) && line.contains("would not load") && !line.contains("\n"), "\(line)")
                #expect(line.contains(damage == "length" ? "impossible length" : "elevation sample is impossible"), "\(line)")
            }
            #expect(!FileManager.default.fileExists(atPath: out), "nothing written")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".tmp") }
            #expect(leftovers.isEmpty)
        }
    }

    /// A 3″ SRTM tile N43E007 holding `base` metres everywhere except the cells around the
    /// footway, which hold `bad`.
    static func tile(base: Int16, bad: Int16, everywhere: Bool = false) -> [UInt8] {
        let side = 1201
        var bytes = [UInt8](repeating: 0, count: 2 * side * side)
        // The footway lies at 43.740…43.742 N, 7.420…7.423 E: rows from the north edge, columns from the west.
        let rows = Int((44 - 43.7425) * 1200)...Int((44 - 43.7395) * 1200) + 1
        let cols = Int(0.4195 * 1200)...Int(0.4225 * 1200) + 1
        for r in 0..<side {
            for c in 0..<side {
                let v = everywhere || (rows.contains(r) && cols.contains(c)) ? bad : base
                let u = UInt16(bitPattern: v)
                bytes[2 * (r * side + c)] = UInt8(u >> 8)
                bytes[2 * (r * side + c) + 1] = UInt8(u & 0xFF)
            }
        }
        return bytes
    }

    @Test(arguments: [Int16.max, Int16(-32_768), Int16(-9_999), Int16(20_000)])
    func impossibleSRTMHeightsAreFilledAndTheMapLoads(bad: Int16) throws {
        let dir = TestData.temporaryDirectory("srtm-impossible")
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try Self.write(Self.extract(absurd: false), dir, "plain.osm")
        let hgt = dir.appendingPathComponent("N43E007.hgt")
        try Data(Self.tile(base: 57, bad: bad)).write(to: hgt)
        let tile = try SRTMTile(name: "N43E007.hgt", bytes: Self.tile(base: 57, bad: bad), path: hgt.path)
        #expect(tile.voidCount > 0 && tile.filledCount == tile.voidCount)
        #expect(tile.heights.allSatisfy { $0 == 57 }, "every cell filled from its plausible neighbours")
        let (map, _) = try MapImporter.compile(ImportRequest(osmPath: osm, demPaths: [hgt.path], options: ImportOptions(name: "t")))
        #expect(map.elevation.count > 0)
        #expect(map.elevation.allSatisfy { abs($0 - 57) < 1 }, "\(Array(map.elevation))")
        let out = dir.appendingPathComponent("dem.srmap").path
        try MapFormat.write(map, to: out)
        #expect(try MapFormat.load(path: out, verification: .always).elevation.count == map.elevation.count)
    }

    @Test func aTileOfNothingButImpossibleHeightsIsRefusedInOneLine() throws {
        let dir = TestData.temporaryDirectory("srtm-all-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let osm = try Self.write(Self.extract(absurd: false), dir, "plain.osm")
        let hgt = dir.appendingPathComponent("N43E007.hgt")
        try Data(Self.tile(base: 0, bad: Int16.max, everywhere: true)).write(to: hgt)
        do {
            _ = try MapImporter.compile(ImportRequest(osmPath: osm, demPaths: [hgt.path], options: ImportOptions(name: "t")))
            Issue.record("a tile without one plausible height was accepted")
        } catch let e as ImportError {
            #expect(!e.description.contains("\n"), "\(e)")
        }
    }
}
