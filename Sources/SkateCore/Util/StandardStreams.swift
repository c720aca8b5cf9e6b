#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to and reads from the process's standard streams with `write(2)`/`read(2)`, in place of
/// `FileHandle` (CoreFoundation-backed; see `PrintfArgument`).
public enum StandardStreams {
    /// Writes `text` to standard output, all of it (retrying short writes and EINTR).
    public static func writeOutput(_ text: String) { write(fd: 1, text) }

    /// Writes `text` to standard error, all of it.
    public static func writeError(_ text: String) { write(fd: 2, text) }

    /// Writes text to a file descriptor until all is written or it fails (a closed pipe).
    public static func write(fd: Int32, _ text: String) {
        _ = writeAll(fd: fd, Array(text.utf8))
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR; false when a write failed.
    public static func writeAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                #else
                Darwin.write(fd, raw.baseAddress! + done, raw.count - done)
                #endif
            }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            done += n
        }
        return true
    }

    /// Reads standard input up to `limit` bytes (fewer at end of input); nil when it cannot be
    /// read at all.
    public static func readInput(upTo limit: Int) -> [UInt8]? {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while out.count < limit {
            let want = min(chunk.count, limit - out.count)
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress!, want) }
            if n < 0 {
                if errno == EINTR { continue }
                return out.isEmpty ? nil : out
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }
}
