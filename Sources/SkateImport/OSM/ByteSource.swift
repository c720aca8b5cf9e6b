import CCompression

/// A stream of bytes read in pieces: a plain file, or a decompressor over one.
protocol ByteSource {
    /// Fills up to `count` bytes at `buffer`; returns how many (0 only at the end of the stream).
    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(ImportError) -> Int
}

/// The bytes of a file as they are.
struct FileByteSource: ByteSource {
    let file: InputFile
    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(ImportError) -> Int {
        try file.read(into: buffer, count: count)
    }
}

/// The decompressed bytes of a bzip2 file, streamed through libbz2 so the decompressed document
/// never has to fit in memory. Handles concatenated streams (as written by pbzip2/lbzip2).
final class Bzip2ByteSource: ByteSource {
    /// Compressed bytes read from disk per refill.
    static let inputChunk = 1 << 20
    private let file: InputFile
    private let stream: UnsafeMutablePointer<bz_stream>
    private let input = ByteBuffer(capacity: Bzip2ByteSource.inputChunk)
    private var inputEnded = false
    private var streamOpen = false
    private var finished = false

    init(file: InputFile) throws(ImportError) {
        self.file = file
        // libbz2 keeps a pointer back to its bz_stream and refuses one that moved: keep it on the heap.
        stream = UnsafeMutablePointer<bz_stream>.allocate(capacity: 1)
        stream.initialize(to: bz_stream())
        try open()
    }

    deinit {
        if streamOpen { BZ2_bzDecompressEnd(stream) }
        stream.deallocate()
    }

    private func open() throws(ImportError) {
        let nextIn = stream.pointee.next_in, availIn = stream.pointee.avail_in
        stream.initialize(to: bz_stream())
        guard BZ2_bzDecompressInit(stream, 0, 0) == BZ_OK else {
            throw ImportError(path: file.path, problem: "bzip2 decompressor could not start")
        }
        stream.pointee.next_in = nextIn
        stream.pointee.avail_in = availIn
        streamOpen = true
    }

    private func refill() throws(ImportError) {
        let n = try file.read(into: input.base, count: input.capacity)
        if n == 0 { inputEnded = true }
        stream.pointee.next_in = UnsafeMutableRawPointer(input.base).assumingMemoryBound(to: CChar.self)
        stream.pointee.avail_in = UInt32(n)
    }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(ImportError) -> Int {
        let want = min(count, Int(UInt32.max))
        while !finished {
            if stream.pointee.avail_in == 0, !inputEnded { try refill() }
            stream.pointee.next_out = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: CChar.self)
            stream.pointee.avail_out = UInt32(want)
            let rc = BZ2_bzDecompress(stream)
            let produced = want - Int(stream.pointee.avail_out)
            switch rc {
            case BZ_OK:
                if produced == 0, stream.pointee.avail_in == 0, inputEnded {
                    throw ImportError(path: file.path, problem: "truncated bzip2 data: the compressed stream ends early")
                }
            case BZ_STREAM_END:
                BZ2_bzDecompressEnd(stream)
                streamOpen = false
                if stream.pointee.avail_in == 0, !inputEnded { try refill() }
                if stream.pointee.avail_in == 0 { finished = true } else { try open() }  // another stream follows
            case BZ_DATA_ERROR_MAGIC:
                throw ImportError(path: file.path, problem: "not bzip2 data (bad magic) at compressed byte \(file.offset - Int(stream.pointee.avail_in))")
            case BZ_DATA_ERROR:
                throw ImportError(path: file.path, problem: "corrupt bzip2 data (checksum or block error)")
            case BZ_MEM_ERROR:
                throw ImportError(path: file.path, problem: "out of memory decompressing bzip2")
            default:
                throw ImportError(path: file.path, problem: "bzip2 decompression failed (code \(rc))")
            }
            if produced > 0 { return produced }
        }
        return 0
    }
}

/// The decompressed bytes of a gzip file (`.osm.gz`), streamed through zlib so the decompressed
/// document never has to fit in memory. Handles concatenated members (as `cat a.gz b.gz` or
/// pigz write).
final class GzipByteSource: ByteSource {
    /// Compressed bytes read from disk per refill.
    static let inputChunk = 1 << 20
    /// zlib's `windowBits` for gzip framing: the largest window (15) plus 16.
    static let gzipWindowBits: Int32 = 15 + 16
    private let file: InputFile
    private let stream: UnsafeMutablePointer<z_stream>
    private let input = ByteBuffer(capacity: GzipByteSource.inputChunk)
    private var inputEnded = false
    private var finished = false

    init(file: InputFile) throws(ImportError) {
        self.file = file
        // zlib keeps a pointer back to its z_stream (state->strm) and checks it: keep it on the heap.
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard inflateInit2_(stream, Self.gzipWindowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw ImportError(path: file.path, problem: "gzip decompressor could not start")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    private func refill() throws(ImportError) {
        let n = try file.read(into: input.base, count: input.capacity)
        if n == 0 { inputEnded = true }
        stream.pointee.next_in = input.base.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_in = uInt(n)
    }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(ImportError) -> Int {
        let want = min(count, Int(UInt32.max))
        while !finished {
            if stream.pointee.avail_in == 0, !inputEnded { try refill() }
            stream.pointee.next_out = buffer
            stream.pointee.avail_out = uInt(want)
            let rc = CCompression.inflate(stream, Z_NO_FLUSH)
            let produced = want - Int(stream.pointee.avail_out)
            switch rc {
            case Z_OK, Z_BUF_ERROR:
                if produced == 0, stream.pointee.avail_in == 0, inputEnded {
                    throw ImportError(path: file.path, problem: "truncated gzip data: the compressed stream ends early")
                }
            case Z_STREAM_END:
                if stream.pointee.avail_in == 0, !inputEnded { try refill() }
                if stream.pointee.avail_in == 0 { finished = true } else { inflateReset(stream) }  // another member follows
            case Z_DATA_ERROR:
                let msg = stream.pointee.msg.map { String(cString: $0) } ?? "bad data"
                throw ImportError(path: file.path, problem: "corrupt gzip data (\(msg)) at compressed byte \(file.offset - Int(stream.pointee.avail_in))")
            case Z_MEM_ERROR:
                throw ImportError(path: file.path, problem: "out of memory decompressing gzip")
            default:
                throw ImportError(path: file.path, problem: "gzip decompression failed (code \(rc))")
            }
            if produced > 0 { return produced }
        }
        return 0
    }
}
