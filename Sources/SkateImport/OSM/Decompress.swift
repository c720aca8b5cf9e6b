import CCompression

/// One-shot decompression of the other PBF blob codecs (zlib is `Inflate`), into a buffer of the
/// blob's stated raw size. Both refuse output beyond the buffer, so a hostile blob cannot grow it.
enum Decompress {
    enum Codec: String {
        case zlib, lz4, zstd
    }

    /// Decompresses `source` (an LZ4 block, or a zstd frame) into `dest`, which must be exactly
    /// the uncompressed size.
    /// - Returns: nil on success, else a short description of what went wrong.
    static func decompress(_ source: UnsafeRawBufferPointer, into dest: UnsafeMutableRawBufferPointer, codec: Codec) -> String? {
        switch codec {
        case .zlib:
            return Inflate.inflate(source, into: dest, framing: .zlib)
        case .lz4:
            guard source.count <= Int(Int32.max), dest.count <= Int(Int32.max) else { return "block too large for LZ4" }
            let n = LZ4_decompress_safe(source.baseAddress?.assumingMemoryBound(to: CChar.self),
                                        dest.baseAddress?.assumingMemoryBound(to: CChar.self),
                                        Int32(source.count), Int32(dest.count))
            if n < 0 { return "corrupt LZ4 data (or more than the stated \(dest.count) bytes)" }
            return Int(n) == dest.count ? nil : "decompressed to \(n) bytes, expected \(dest.count)"
        case .zstd:
            let n = ZSTD_decompress(dest.baseAddress, dest.count, source.baseAddress, source.count)
            if ZSTD_isError(n) != 0 {
                return "corrupt zstd data (\(String(cString: ZSTD_getErrorName(n))))"
            }
            return Int(n) == dest.count ? nil : "decompressed to \(n) bytes, expected \(dest.count)"
        }
    }
}
