import CCompression
import Foundation
import SkateCore
@testable import SkateImport
import SkateTestSupport
import Testing

/// Interop 7: inputs people have — `.osm.gz`, zstd- and lz4-compressed PBF blocks, and a
/// `.hgt.zip` written from a pipe — each built here by a helper from tiny data.
@Suite("Compressed inputs")
struct CompressedInputTests {
    static let xml = """
    <?xml version='1.0' encoding='UTF-8'?>
    <osm version='0.6' generator='test'>
      <node id='1' lat='43.7300000' lon='7.4200000'><tag k='name' v='Place A'/></node>
      <node id='2' lat='43.7310000' lon='7.4210000'/>
      <node id='3' lat='43.7320000' lon='7.4220000'/>
      <way id='10'><nd ref='1'/><nd ref='2'/><nd ref='3'/><tag k='highway' v='footway'/><tag k='surface' v='asphalt'/></way>
    </osm>
    """

    static func read(_ path: String) throws -> OSMCollector {
        var c = OSMCollector()
        try OSMReader.read(path: path, into: &c)
        return c
    }

    static func summary(_ c: OSMCollector) -> String {
        c.nodes.map { "n\($0.id) \($0.lat) \($0.lon) \($0.tags.pairs.map { "\($0.key)=\($0.value)" })" }.joined(separator: "; ")
            + " | " + c.ways.map { "w\($0.id) \($0.refs) \($0.tags.pairs.map { "\($0.key)=\($0.value)" })" }.joined(separator: "; ")
    }

    @Test func gzippedOSMXMLReadsAsThePlainFile() throws {
        let dir = FuzzFiles.folder("osm-gz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = try FuzzFiles.write(Self.xml, "a.osm", in: dir)
        let gz = try FuzzFiles.write(CompressedFiles.gzip(Array(Self.xml.utf8)), "a.osm.gz", in: dir)
        #expect(try OSMReader.detectFormat(path: gz) == .xmlGzip)
        let expected = Self.summary(try Self.read(plain))
        #expect(try Self.read(plain).ways.count == 1)
        #expect(Self.summary(try Self.read(gz)) == expected)
        // Two gzip members (cat a.gz b.gz, pigz): one document split across them.
        let bytes = Array(Self.xml.utf8)
        let members = CompressedFiles.gzip(Array(bytes[..<100])) + CompressedFiles.gzip(Array(bytes[100...]))
        let joined = try FuzzFiles.write(members, "joined.osm.gz", in: dir)
        #expect(Self.summary(try Self.read(joined)) == expected)
        // A gzip cut short is one clear line, not a crash.
        let whole = CompressedFiles.gzip(bytes)
        let cut = try FuzzFiles.write(Array(whole[..<(whole.count / 2)]), "cut.osm.gz", in: dir)
        #expect(OSMBadInputTests.expectFailure(cut).contains("gzip"))
    }

    /// One PBF file block whose Blob holds `payload` compressed under `field` (6 lz4, 7 zstd).
    static func block(type: String, payload: [UInt8], field: Int, compress: ([UInt8]) -> [UInt8]) -> [UInt8] {
        var blob = ProtoWriter()
        blob.uint(2, UInt64(payload.count))
        blob.bytes(field, compress(payload))
        var header = ProtoWriter()
        header.string(1, type)
        header.uint(3, UInt64(blob.bytes.count))
        let n = header.bytes.count
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header.bytes + blob.bytes
    }

    /// The raw payload of the first block of each type in a raw PBF (to recompress).
    static func rawPayloads(_ file: [UInt8]) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        var i = 0
        while i + 4 <= file.count {
            let n = Int(file[i]) << 24 | Int(file[i + 1]) << 16 | Int(file[i + 2]) << 8 | Int(file[i + 3])
            let header = Array(file[(i + 4)..<(i + 4 + n)])
            // BlobHeader: field 1 type (string), field 3 datasize (varint).
            let typeLength = Int(header[1])
            let type = String(decoding: header[2..<(2 + typeLength)], as: UTF8.self)
            var p = 2 + typeLength + 1, size = 0, shift = 0
            while true { let b = header[p]; size |= Int(b & 0x7F) << shift; shift += 7; p += 1; if b & 0x80 == 0 { break } }
            let blob = Array(file[(i + 4 + n)..<(i + 4 + n + size)])
            // Blob: field 1 raw (length-delimited).
            var q = 1, length = 0
            shift = 0
            while true { let b = blob[q]; length |= Int(b & 0x7F) << shift; shift += 7; q += 1; if b & 0x80 == 0 { break } }
            out.append((type, Array(blob[q..<(q + length)])))
            i += 4 + n + size
        }
        return out
    }

    @Test(arguments: [(7, "zstd"), (6, "lz4")])
    func compressedPBFBlocksReadAsRawOnes(field: Int, codec: String) throws {
        let dir = FuzzFiles.folder("pbf-\(codec)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = FuzzFiles.densePBF(count: 6).bytes
        let compress: ([UInt8]) -> [UInt8] = { bytes in field == 7 ? CompressedFiles.zstd(bytes) : CompressedFiles.lz4(bytes) }
        let blocks = Self.rawPayloads(raw)
        #expect(blocks.map(\.0) == ["OSMHeader", "OSMData"])
        let file = blocks.flatMap { Self.block(type: $0.0, payload: $0.1, field: field, compress: compress) }
        #expect(file != raw)
        let plainPath = try FuzzFiles.write(raw, "raw.osm.pbf", in: dir)
        let path = try FuzzFiles.write(file, "\(codec).osm.pbf", in: dir)
        let expected = try Self.read(plainPath)
        #expect(expected.nodes.count == 6)
        #expect(Self.summary(try Self.read(path)) == Self.summary(expected))
        // A damaged compressed block (cut short; LZ4 has no checksum to catch flipped literals) is
        // one line naming the codec.
        let bad = Self.block(type: blocks[0].0, payload: blocks[0].1, field: field, compress: compress)
            + Self.block(type: blocks[1].0, payload: blocks[1].1, field: field) { Array(compress($0).dropLast(4)) }
        let badPath = try FuzzFiles.write(bad, "bad-\(codec).osm.pbf", in: dir)
        let message = OSMBadInputTests.expectFailure(badPath)
        #expect(message.contains(codec) && !message.contains("\n"), "\(message)")
    }

    /// A 3″ tile of known heights (metres = row + column, so a read-back can be checked).
    static func tileBytes() -> [UInt8] {
        let n = SRTMTile.size3Arcsecond
        var out = [UInt8](repeating: 0, count: n * n * 2)
        for r in 0..<n { for c in 0..<n {
            let v = UInt16(r + c)
            out[(r * n + c) * 2] = UInt8(v >> 8); out[(r * n + c) * 2 + 1] = UInt8(v & 0xFF)  // big-endian
        } }
        return out
    }

    @Test func hgtZipWrittenFromAPipeReads() throws {
        let dir = FuzzFiles.folder("hgt-pipe")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tile = Self.tileBytes()
        let reference = try SRTMTile(name: "N43E007.hgt", bytes: tile, path: "reference")
        var variants: [(String, [UInt8])] = [
            ("deflate, sizes in the directory", CompressedFiles.streamedZip(entry: tile)),
            ("stored", CompressedFiles.streamedZip(entry: tile, deflate: false)),
            ("zip64 sizes (Info-ZIP from stdin)", CompressedFiles.streamedZip(entry: tile, zip64: true)),
            ("named entry", CompressedFiles.streamedZip(entry: tile, name: "N43E007.hgt")),
        ]
        // The real tool too, when installed: `cat N43E007.hgt | zip`.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/zip") {
            let hgt = try FuzzFiles.write(tile, "N43E007.hgt", in: dir)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "cat '\(hgt)' | /usr/bin/zip -q > '\(dir.path)/zip-pipe.zip'"]
            try p.run()
            p.waitUntilExit()
            if p.terminationStatus == 0, let bytes = FileManager.default.contents(atPath: dir.path + "/zip-pipe.zip") {
                variants.append(("Info-ZIP from a pipe", Array(bytes)))
            }
        } else {
            print("zip is not installed: the Info-ZIP pipe variant is skipped (the hand-built ones run)")
        }
        for (label, bytes) in variants {
            let path = try FuzzFiles.write(bytes, "N43E007.hgt.zip", in: dir)
            let t = try SRTMTile(path: path)
            #expect(t.name == "N43E007" && t.size == SRTMTile.size3Arcsecond, "\(label)")
            #expect(t.heights == reference.heights, "\(label): heights differ")
        }
        // A pipe zip whose file name gives no corner is refused in one line naming the name.
        let anon = try FuzzFiles.write(CompressedFiles.streamedZip(entry: tile), "tile.zip", in: dir)
        #expect(throws: ImportError.self) { try SRTMTile(path: anon) }
    }
}
