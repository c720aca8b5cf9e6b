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
