import CCompression
import Foundation

/// Small compressed inputs made by the tests themselves (through the system's zlib, zstd and lz4):
/// gzip members, zstd frames, LZ4 blocks, and zip archives written as a pipe writes them.
public enum CompressedFiles {
    /// `data` as one gzip member (zlib's deflate with gzip framing).
    public static func gzip(_ data: [UInt8]) -> [UInt8] {
        // windowBits 15 + 16: gzip framing.
        deflate(data, windowBits: 15 + 16)
    }

    /// `data` as raw deflate (for zip entries).
    public static func rawDeflate(_ data: [UInt8]) -> [UInt8] { deflate(data, windowBits: -15) }

    /// `data` deflated in one call; `windowBits` picks the framing (zlib's convention); memLevel 8 is zlib's default.
    static func deflate(_ data: [UInt8], windowBits: Int32) -> [UInt8] {
        var s = z_stream()
        guard deflateInit2_(&s, Z_BEST_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return [] }
        defer { deflateEnd(&s) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&s, uLong(data.count))) + 64)
        var input = data
        let produced: Int = input.withUnsafeMutableBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                s.next_in = src.baseAddress; s.avail_in = uInt(src.count)
                s.next_out = dst.baseAddress; s.avail_out = uInt(dst.count)
                return CCompression.deflate(&s, Z_FINISH) == Z_STREAM_END ? dst.count - Int(s.avail_out) : -1
            }
        }
        return produced < 0 ? [] : Array(out[..<produced])
    }

    /// `data` as one zstd frame.
    public static func zstd(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ZSTD_compressBound(data.count))
        let n = out.withUnsafeMutableBytes { dst in data.withUnsafeBytes { src in
            ZSTD_compress(dst.baseAddress, dst.count, src.baseAddress, src.count, 3)
        } }
        return ZSTD_isError(n) != 0 ? [] : Array(out[..<n])
    }

    /// `data` as one LZ4 block (what libosmium writes into a PBF blob's lz4_data).
    public static func lz4(_ data: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(LZ4_compressBound(Int32(data.count))))
        let n = out.withUnsafeMutableBytes { dst in data.withUnsafeBytes { src in
            LZ4_compress_default(src.baseAddress?.assumingMemoryBound(to: CChar.self), dst.baseAddress?.assumingMemoryBound(to: CChar.self),
                                 Int32(src.count), Int32(dst.count))
        } }
        return n <= 0 ? [] : Array(out[..<Int(n)])
    }

    /// CRC-32 (zip, gzip) of `data`.
    public static func crc32(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBufferPointer { UInt32(CCompression.crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    static func le64(_ v: UInt64) -> [UInt8] { le32(UInt32(v & 0xFFFF_FFFF)) + le32(UInt32(v >> 32)) }

    /// A one-entry zip as a writer on a pipe makes it (PKWARE APPNOTE 4.3.9): general-purpose
    /// flag bit 3 set, CRC and sizes zero in the local header, a data descriptor after the data,
    /// the sizes in the central directory — there in a zip64 extra field when `zip64` (as Info-ZIP
    /// writes them when reading standard input). The entry is named `name` ("-" from a pipe).
    public static func streamedZip(entry data: [UInt8], name: String = "-", deflate: Bool = true, zip64: Bool = false) -> [UInt8] {
        let body = deflate ? rawDeflate(data) : data
        let method = deflate ? 8 : 0
        let crc = crc32(data)
        let nameBytes = Array(name.utf8)
        let flag = 0x0008
        var zip: [UInt8] = []
        // Local file header: signature, version needed, flags, method, time, date, crc/sizes zero.
        zip += le32(0x0403_4B50) + le16(zip64 ? 45 : 20) + le16(flag) + le16(method) + le16(0) + le16(0x5B21)
        zip += le32(0) + le32(0) + le32(0) + le16(nameBytes.count) + le16(0) + nameBytes
        zip += body
        // Data descriptor (with its optional signature), 8-byte sizes in zip64.
        zip += le32(0x0807_4B50) + le32(crc)
        zip += zip64 ? le64(UInt64(body.count)) + le64(UInt64(data.count)) : le32(UInt32(body.count)) + le32(UInt32(data.count))
        let directory = zip.count
        let extra = zip64 ? le16(0x0001) + le16(16) + le64(UInt64(data.count)) + le64(UInt64(body.count)) : []
        var cd = le32(0x0201_4B50) + le16(zip64 ? 45 : 20) + le16(zip64 ? 45 : 20) + le16(flag) + le16(method) + le16(0) + le16(0x5B21)
        cd += le32(crc) + (zip64 ? le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) : le32(UInt32(body.count)) + le32(UInt32(data.count)))
        cd += le16(nameBytes.count) + le16(extra.count) + le16(0) + le16(0) + le16(0) + le32(0) + le32(0) + nameBytes + extra
        zip += cd
        // End of central directory: one entry, the directory's size and offset.
        zip += le32(0x0605_4B50) + le16(0) + le16(0) + le16(1) + le16(1) + le32(UInt32(cd.count)) + le32(UInt32(directory)) + le16(0)
        return zip
    }
}
