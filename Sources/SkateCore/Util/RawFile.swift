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

    /// Opens `path` for writing, created if missing (mode 0644), truncated when `truncate`.
    /// Returns nil when it cannot be opened.
    public init?(writingTo path: String, truncate: Bool = true) {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : O_APPEND)
        fd = open(path, flags, 0o644)
        if fd < 0 { return nil }
    }

    deinit { close() }

    /// Writes all of `bytes` (retrying short writes and EINTR); false when the write failed.
    @discardableResult
    public func write<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard fd >= 0 else { return false }
        return StandardStreams.writeAll(fd: fd, Array(bytes))
    }

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
