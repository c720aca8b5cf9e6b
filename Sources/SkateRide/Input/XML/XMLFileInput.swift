#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkateCore
import SystemPackage

/// An open file handed to the streaming `XMLTokenizer` a chunk at a time, so a document is never
/// held whole (issue 29 row 9: a 186 MB GPX was read into memory before anything looked at it).
struct XMLFileInput: XMLByteInput {
    /// Why the file could not be read on.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private let maxBytes: Int
    private var consumed = 0

    /// Reads `fd` (not closed here) and refuses to go past `maxBytes` (a file that grows while
    /// read, or one whose size `stat` cannot tell).
    init(fd: Int32, maxBytes: Int) {
        self.fd = fd
        self.maxBytes = maxBytes
    }

    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        let n: Int
        do { n = try FileDescriptor(rawValue: fd).read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count)) } catch {
            throw Failure(description: RawFile.reason(error))
        }
        consumed += n
        if consumed > maxBytes { throw Failure(description: "over the \(maxBytes >> 20) MB limit") }
        return n
    }
}
