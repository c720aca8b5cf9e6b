#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkateCore
import SystemPackage

/// Reads a whole file into memory through plain POSIX calls, refusing one over a size limit
/// before reading it (and while reading, for files whose size `stat` cannot tell).
enum FileBytes {
    /// Why a file could not be read.
    enum Failure: Error, Equatable {
        /// No such file, or a directory.
        case notFound
        /// Open or read failed (permission, I/O); the reason in words.
        case unreadable(String)
        /// Larger than the limit; the size in bytes as far as known.
        case tooLarge(bytes: Int)
    }

    /// Bytes requested per `read` call.
    private static let chunkSize = 1 << 16

    /// Opens `path` for reading after the checks `read` makes (a regular file, not over
    /// `maxBytes` by its size); the caller closes the descriptor.
    static func openChecked(path: String, maxBytes: Int) throws(Failure) -> Int32 {
        // A regular file only: a device never ends and opening a FIFO blocks until a writer comes.
        do { try InputPath.checkRegularFile(path) } catch {
            if error.problem == "no such file" { throw .notFound }
            throw .unreadable(error.problem)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound }
            if code == EACCES || code == EPERM { throw .unreadable("permission denied or unreadable") }
            throw .unreadable(String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { let e = errno; close(fd); throw .unreadable(String(cString: strerror(e))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { close(fd); throw .notFound }
        if Int(info.st_size) > maxBytes { close(fd); throw .tooLarge(bytes: Int(info.st_size)) }
        return fd
    }

    /// The contents of `path`, at most `maxBytes` long.
    static func read(path: String, maxBytes: Int) throws(Failure) -> [UInt8] {
        let fd = try openChecked(path: path, maxBytes: maxBytes)
        defer { close(fd) }
        var info = stat()
        let size = fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        var out: [UInt8] = []
        out.reserveCapacity(size + 1)
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let n: Int
            do { n = try chunk.withUnsafeMutableBytes { try FileDescriptor(rawValue: fd).read(into: $0) } } catch {
                throw .unreadable(RawFile.reason(error))
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > maxBytes { throw .tooLarge(bytes: out.count) }
        }
        return out
    }
}
