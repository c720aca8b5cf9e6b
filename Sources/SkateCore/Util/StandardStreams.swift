#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import SystemPackage

/// Writes to and reads from the process's standard streams through swift-system's
/// `FileDescriptor` (`write(2)`/`read(2)`, EINTR and short writes retried), in place of
/// `FileHandle` (CoreFoundation-backed; see `PrintfArgument`).
public enum StandardStreams {
    /// Writes `text` to standard output, all of it (retrying short writes and EINTR). A failed
    /// write (disk full, EIO, `> /dev/full`) is remembered for `outputFailure()`; a closed pipe
    /// (EPIPE: the reader, `head`, has all it wants) is not a failure.
    public static func writeOutput(_ text: String) {
        if !writeAll(fd: 1, Array(text.utf8)) && errno != EPIPE { firstOutputErrno.compareExchange(expected: 0, desired: errno, ordering: .relaxed) }
    }

    /// The first errno a `writeOutput` failed with (0: none).
    private static let firstOutputErrno = Atomic<Int32>(0)

    /// Flushes every stdio stream (`print` buffers standard output) and returns why standard
    /// output could not be written — the reason text of the first failed write, buffered or
    /// raw — or nil when everything reached it (issue 29 row 6: `> /dev/full` is an error).
    public static func outputFailure() -> String? {
        // A failed `print` of more than stdio's buffer leaves nothing buffered (fflush then
        // succeeds) but the stream's error flag set, and errno as the failed write left it.
        let earlier = errno
        errno = 0
        let flushed = fflush(nil) == 0
        let flagged = standardOutputStream().map { ferror($0) != 0 } ?? false
        var e = flushed ? firstOutputErrno.load(ordering: .relaxed) : errno
        if e == 0 && flagged { e = earlier }
        if e == 0 { return flushed && !flagged ? nil : "write error" }
        return e == EPIPE ? nil : String(cString: strerror(e))
    }

    /// The C library's `stdout` stream. Swift 6 refuses to name the C global (mutable shared
    /// state), so it is read through its symbol; nil where the symbol is not found.
    private static func standardOutputStream() -> UnsafeMutablePointer<FILE>? {
        guard let symbol = dlsym(nil, "stdout") else { return nil }
        return symbol.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self).pointee
    }

    /// Writes `text` to standard error, all of it.
    public static func writeError(_ text: String) { write(fd: 2, text) }

    /// Writes text to a file descriptor until all is written or it fails (a closed pipe).
    public static func write(fd: Int32, _ text: String) {
        _ = writeAll(fd: fd, Array(text.utf8))
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR; false when a write failed.
    public static func writeAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
        do {
            try FileDescriptor(rawValue: fd).writeAll(bytes)
            return true
        } catch {
            if let e = error as? Errno { errno = e.rawValue }
            return false
        }
    }

    /// Reads what standard input has, up to `buffer.count` bytes (0 at its end; EINTR retried).
    /// Throws the `Errno` of a failed read (`RawFile.reason` words it).
    public static func readInput(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try FileDescriptor.standardInput.read(into: buffer)
    }

    /// Reads standard input up to `limit` bytes (fewer at end of input); nil when it cannot be
    /// read at all.
    public static func readInput(upTo limit: Int) -> [UInt8]? {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while out.count < limit {
            let want = min(chunk.count, limit - out.count)
            let n: Int
            do {
                n = try chunk.withUnsafeMutableBytes { try readInput(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
            } catch {
                return out.isEmpty ? nil : out
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }
}
