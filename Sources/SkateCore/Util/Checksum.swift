import CCompression

/// CRC-32 (IEEE 802.3, as zlib computes it) of a byte buffer.
public func crc32Checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return seed }
    var crc = UInt(seed)
    var p = base.assumingMemoryBound(to: UInt8.self)
    var left = bytes.count
    // zlib takes a 32-bit length; feed it in chunks.
    while left > 0 {
        let n = min(left, 1 << 30)
        crc = UInt(CCompression.crc32(uLong(crc), p, uInt(n)))
        p += n
        left -= n
    }
    return UInt32(truncatingIfNeeded: crc)
}
