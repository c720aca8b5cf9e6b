import CCompression

/// One-shot zlib inflation of a buffer whose uncompressed size is known (PBF blobs, zip entries).
enum Inflate {
    /// The stream's framing: zlib (RFC 1950, PBF blobs) or raw deflate (RFC 1951, zip entries).
    enum Framing {
        case zlib, rawDeflate
        /// zlib's `windowBits`: 15 is the largest window; negative means no header.
        var windowBits: Int32 { self == .zlib ? 15 : -15 }
    }

    /// Inflates `source` into `dest`, which must be exactly the uncompressed size.
    /// - Returns: nil on success, else a short description of what went wrong.
    static func inflate(_ source: UnsafeRawBufferPointer, into dest: UnsafeMutableRawBufferPointer,
                        framing: Framing) -> String? {
        var stream = z_stream()
        return withUnsafeMutablePointer(to: &stream) { s -> String? in
            guard inflateInit2_(s, framing.windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                return "zlib could not start"
            }
            defer { inflateEnd(s) }
            s.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress?.assumingMemoryBound(to: UInt8.self))
            s.pointee.avail_in = uInt(source.count)
            s.pointee.next_out = dest.baseAddress?.assumingMemoryBound(to: UInt8.self)
            s.pointee.avail_out = uInt(dest.count)
            let rc = CCompression.inflate(s, Z_FINISH)
            switch rc {
            case Z_STREAM_END:
                return s.pointee.avail_out == 0 ? nil
                    : "inflated to \(dest.count - Int(s.pointee.avail_out)) bytes, expected \(dest.count)"
            case Z_BUF_ERROR where s.pointee.avail_out == 0:
                return "inflates to more than the stated \(dest.count) bytes"
            case Z_BUF_ERROR:
                return "compressed data ends early"
            default:
                let msg = s.pointee.msg.map { String(cString: $0) } ?? "code \(rc)"
                return "corrupt compressed data (\(msg))"
            }
        }
    }
}
