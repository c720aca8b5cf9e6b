#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened with `open(2)` for the few places that stream bytes (ride logs, synthetic motion)
/// or read a file's first bytes, in place of `FileHandle` (CoreFoundation-backed; see
/// `PrintfArgument`).
public final class RawFile {
    private var fd: Int32
    /// Opened with O_APPEND: every write lands at the end, wherever the offset says.
    private let appending: Bool

    /// Opens `path` for writing, created if missing (mode 0644), truncated when `truncate`.
    /// Returns nil when it cannot be opened.
    public init?(writingTo path: String, truncate: Bool = true) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : O_APPEND)
        appending = !truncate
        fd = open(path, flags, 0o644)
        if fd < 0 { return nil }
    }

    deinit { close() }

    /// Writes all of `bytes` (retrying short writes and EINTR) or none: when a write fails
    /// (disk full, EIO, a file size limit) the part already written is cut off again, so a file
    /// written in whole lines keeps ending on a whole line. False when the write failed; `errno`
    /// then holds the reason (`lastError` too).
    @discardableResult
    public func write<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard fd >= 0 else { lastError = EBADF; return false }
        let start = lseek(fd, 0, appending ? SEEK_END : SEEK_CUR)
        if StandardStreams.writeAll(fd: fd, Array(bytes)) { return true }
        let e = errno
        lastError = e
        // Back to the last whole write (a regular file; devices and pipes cannot seek).
        if start >= 0 { _ = ftruncate(fd, start); _ = lseek(fd, start, SEEK_SET) }
        errno = e
        return false
    }

    /// The errno of the last failed write (0: none yet).
    public private(set) var lastError: Int32 = 0

    /// Closes the file (later writes fail quietly).
    public func close() {
        if fd >= 0 {
            #if canImport(Glibc)
            _ = Glibc.close(fd)
            #else
            _ = Darwin.close(fd)
            #endif
            fd = -1
        }
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter); nil when it
    /// cannot be opened or read.
    public static func readPrefix(of path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer {
            #if canImport(Glibc)
            _ = Glibc.close(fd)
            #else
            _ = Darwin.close(fd)
            #endif
        }
        var out = [UInt8](repeating: 0, count: max(0, count))
        var got = 0
        while got < out.count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, $0.count - got, off_t(got)) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            got += n
        }
        return Array(out.prefix(got))
    }
}
