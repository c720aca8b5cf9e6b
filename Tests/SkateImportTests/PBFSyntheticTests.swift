import Foundation
import Testing
import SkateCore
import SkateImport
import SkateTestSupport

/// A minimal protobuf encoder for building PBF files in tests.
struct ProtoWriter {
    var bytes: [UInt8] = []

    mutating func varint(_ v: UInt64) {
        var x = v
        while x >= 0x80 { bytes.append(UInt8(x & 0x7F) | 0x80); x >>= 7 }
        bytes.append(UInt8(x))
    }
    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
    mutating func key(_ field: Int, _ wire: Int) { varint(UInt64(field << 3 | wire)) }
    mutating func uint(_ field: Int, _ v: UInt64) { key(field, 0); varint(v) }
    mutating func sint(_ field: Int, _ v: Int64) { key(field, 0); varint(Self.zigzag(v)) }
    mutating func bytes(_ field: Int, _ b: [UInt8]) { key(field, 2); varint(UInt64(b.count)); bytes += b }
    mutating func string(_ field: Int, _ s: String) { bytes(field, Array(s.utf8)) }
    mutating func message(_ field: Int, _ build: (inout ProtoWriter) -> Void) {
        var w = ProtoWriter()
        build(&w)
        bytes(field, w.bytes)
    }
    mutating func packedUInt(_ field: Int, _ values: [UInt64]) {
        var w = ProtoWriter()
        for v in values { w.varint(v) }
        bytes(field, w.bytes)
    }
    mutating func packedSIntDelta(_ field: Int, _ values: [Int64]) {
        var w = ProtoWriter()
        var last: Int64 = 0
        for v in values { w.varint(Self.zigzag(v - last)); last = v }
        bytes(field, w.bytes)
    }

    /// One file block: length, BlobHeader, Blob holding `payload` raw (or under `compressionField`).
    static func block(type: String, payload: [UInt8], compressionField: Int = 1) -> [UInt8] {
        var blob = ProtoWriter()
        if compressionField != 1 { blob.uint(2, UInt64(payload.count)) }
        blob.bytes(compressionField, payload)
        var header = ProtoWriter()
        header.string(1, type)
        header.uint(3, UInt64(blob.bytes.count))
        let n = header.bytes.count
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header.bytes + blob.bytes
    }

    static func headerBlock(features: [String] = ["OsmSchema-V0.6", "DenseNodes"], timestamp: Int64? = 1_720_642_861) -> [UInt8] {
        var h = ProtoWriter()
        h.message(1) { b in
            b.sint(1, 7_408_583_000); b.sint(2, 7_595_671_000); b.sint(3, 43_752_930_000); b.sint(4, 43_483_817_000)
        }
        for f in features { h.string(4, f) }
        h.string(16, "skateroute-test")
        if let timestamp { h.uint(32, UInt64(timestamp)) }
        return block(type: "OSMHeader", payload: h.bytes)
    }
}

@Suite("PBF reader on hand-built files")
struct PBFSyntheticTests {
    static func write(_ bytes: [UInt8], _ name: String) throws -> (String, URL) {
        let dir = TestData.temporaryDirectory("pbf-synth")
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return (url.path, dir)
    }

    /// A data block exercising plain nodes, dense nodes, a way and a relation, with a custom
    /// granularity and offsets.
    static func dataBlock() -> [UInt8] {
        var pb = ProtoWriter()
        pb.message(1) { t in
            for s in ["", "highway", "footway", "name", "Rue d'Ostende", "outer", "surface", "asphalt"] { t.string(1, s) }
        }
        pb.message(2) { g in  // a group of plain nodes
            g.message(1) { n in
                n.sint(1, 5); n.packedUInt(2, [3]); n.packedUInt(3, [4])
                n.sint(8, 437_000); n.sint(9, 74_000)  // with granularity 1000 and offsets below
            }
        }
        pb.message(2) { g in  // dense nodes: ids 10, 11, 13; the middle one tagged
            g.message(2) { d in
                d.packedSIntDelta(1, [10, 11, 13])
                d.packedSIntDelta(8, [437_001, 437_002, 437_003])
                d.packedSIntDelta(9, [74_001, 74_002, -74_003])
                d.packedUInt(10, [0, 1, 2, 6, 7, 0, 0])
            }
        }
        pb.message(2) { g in
            g.message(3) { w in
                w.uint(1, 20); w.packedUInt(2, [1, 6]); w.packedUInt(3, [2, 7])
                w.packedSIntDelta(8, [5, 10, 11, 13, 5])
            }
        }
        pb.message(2) { g in
            g.message(4) { r in
                r.uint(1, 30); r.packedUInt(2, [3]); r.packedUInt(3, [4])
                r.packedUInt(8, [5, 0]); r.packedSIntDelta(9, [20, 10]); r.packedUInt(10, [1, 0])
            }
        }
        pb.uint(17, 1000)         // granularity: 1000 nanodegrees
        pb.uint(19, 100_000)      // lat_offset, nanodegrees
        pb.uint(20, 200_000)      // lon_offset
        return ProtoWriter.block(type: "OSMData", payload: pb.bytes)
    }

    @Test func decodesEveryElementKindFromRawBlocks() throws {
        let file = ProtoWriter.headerBlock() + ProtoWriter.block(type: "Unknown", payload: [1, 2, 3]) + Self.dataBlock()
        let (path, dir) = try Self.write(file, "synthetic.osm.pbf")
        defer { try? FileManager.default.removeItem(at: dir) }
        var c = OSMCollector()
        try OSMReader.read(path: path, into: &c)
        #expect(c.headers == 1)
        #expect(c.timestamp == "2024-07-10T20:21:01Z")
        #expect(c.bbox == BoundingBox(minLon: 7.408583, minLat: 43.483817, maxLon: 7.595671, maxLat: 43.75293))
        #expect(c.nodes.map(\.id) == [5, 10, 11, 13])
        // lat = (lat_offset + granularity × raw) nanodegrees.
        #expect(c.nodes[0].lat == Double(100_000 + 1000 * 437_000) / 1e9)
        #expect(c.nodes[0].lon == Double(200_000 + 1000 * 74_000) / 1e9)
        #expect(c.nodes[0].tags["name"] == "Rue d'Ostende")
        #expect(c.nodes[1].tags.isEmpty && c.nodes[3].tags.isEmpty)
        #expect(c.nodes[2].tags.pairs.count == 2)
        #expect(c.nodes[2].tags["highway"] == "footway" && c.nodes[2].tags["surface"] == "asphalt")
        #expect(c.nodes[3].lon == Double(200_000 - 1000 * 74_003) / 1e9)
        #expect(c.ways.count == 1)
        #expect(c.ways[0].id == 20 && c.ways[0].refs == [5, 10, 11, 13, 5])
        #expect(c.ways[0].tags.pairs.map(\.key) == ["highway", "surface"])
        #expect(c.relations.count == 1)
        #expect(c.relations[0].members == [OSMMember(kind: .way, ref: 20, role: "outer"), OSMMember(kind: .node, ref: 10, role: "")])
        #expect(c.relations[0].tags["name"] == "Rue d'Ostende")
    }

    @Test func refusesUnsupportedCompressionAndFeatures() throws {
        let lzma = ProtoWriter.headerBlock() + ProtoWriter.block(type: "OSMData", payload: [0, 1, 2], compressionField: 4)
        let (p1, d1) = try Self.write(lzma, "lzma.osm.pbf")
        defer { try? FileManager.default.removeItem(at: d1) }
        #expect(OSMBadInputTests.expectFailure(p1).contains("lzma"))

        let feature = ProtoWriter.headerBlock(features: ["OsmSchema-V0.6", "Sort.Geographic.Hilbert"]) + Self.dataBlock()
        let (p2, d2) = try Self.write(feature, "feature.osm.pbf")
        defer { try? FileManager.default.removeItem(at: d2) }
        #expect(OSMBadInputTests.expectFailure(p2).contains("Sort.Geographic.Hilbert"))

        let noHeader = Self.dataBlock()
        let (p3, d3) = try Self.write(noHeader, "noheader.osm.pbf")
        defer { try? FileManager.default.removeItem(at: d3) }
        #expect(OSMBadInputTests.expectFailure(p3).contains("expected OSMHeader"))
    }

    @Test func refusesBadStringIndicesAndShortDenseArrays() throws {
        var pb = ProtoWriter()
        pb.message(1) { t in t.string(1, "") }
        pb.message(2) { g in g.message(3) { w in w.uint(1, 1); w.packedUInt(2, [9]); w.packedUInt(3, [9]) } }
        let (p1, d1) = try Self.write(ProtoWriter.headerBlock() + ProtoWriter.block(type: "OSMData", payload: pb.bytes), "index.osm.pbf")
        defer { try? FileManager.default.removeItem(at: d1) }
        #expect(OSMBadInputTests.expectFailure(p1).contains("string index"))

        var dense = ProtoWriter()
        dense.message(2) { g in g.message(2) { d in d.packedSIntDelta(1, [1, 2]); d.packedSIntDelta(8, [1]); d.packedSIntDelta(9, [1]) } }
        let (p2, d2) = try Self.write(ProtoWriter.headerBlock() + ProtoWriter.block(type: "OSMData", payload: dense.bytes), "dense.osm.pbf")
        defer { try? FileManager.default.removeItem(at: d2) }
        #expect(OSMBadInputTests.expectFailure(p2).contains("fewer coordinates"))
    }

    @Test(arguments: [(Int64(951_782_400), "2000-02-29T00:00:00Z"), (1_783_714_861, "2026-07-10T20:21:01Z"), (4_107_542_399, "2100-02-28T23:59:59Z")])
    func replicationTimestampIsISO8601UTC(seconds: Int64, expected: String) throws {
        let (path, dir) = try Self.write(ProtoWriter.headerBlock(timestamp: seconds), "ts.osm.pbf")
        defer { try? FileManager.default.removeItem(at: dir) }
        var c = OSMCollector()
        try OSMReader.read(path: path, into: &c)
        #expect(c.timestamp == expected)
    }
}
