#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkateCore

/// A read-only file opened with stdio, read in caller-sized pieces. Readers stream through it so
/// memory stays bounded by the largest block, not the file.
final class InputFile {
    let path: String
    private let handle: UnsafeMutablePointer<FILE>
    /// Bytes consumed so far, for error messages that point at an offset.
    private(set) var offset: Int = 0
    /// Called after every read with the bytes consumed so far (import progress).
    var onRead: ((Int) -> Void)?

    /// Opens `path`, or throws a one-line `ImportError` (missing file, a directory, a device or
    /// FIFO, no permission).
    init(path: String) throws(ImportError) {
        self.path = path
        // A regular file only: a device never ends and a FIFO blocks until someone writes.
        do { try InputPath.checkRegularFile(path) } catch { throw ImportError(path: path, problem: error.problem) }
        guard let h = fopen(path, "rb") else {
            throw ImportError(path: path, problem: "cannot open: \(Self.describe(errno))")
        }
        handle = h
    }

    deinit { fclose(handle) }

    /// The file's size in bytes, or nil when it cannot be told (a pipe).
    var size: Int? {
        var info = stat()
        return fstat(fileno(handle), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    /// Reads up to `count` bytes into `buffer`; returns how many were read (fewer only at the end).
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(ImportError) -> Int {
        guard count > 0 else { return 0 }
        let n = fread(buffer, 1, count, handle)
        if n < count, ferror(handle) != 0 {
            throw ImportError(path: path, problem: "read error at byte \(offset + n): \(Self.describe(errno))")
        }
        offset += n
        onRead?(offset)
        return n
    }

    /// The whole file's bytes (for small inputs such as one DEM tile), refused in one line when
    /// longer than `maxBytes` — before reading when its size says so, else as soon as it grows past.
    /// `what` names the kind of file in that line ("SRTM tile").
    static func readAll(path: String, maxBytes: Int, what: String) throws(ImportError) -> [UInt8] {
        let file = try InputFile(path: path)
        func tooLarge(_ bytes: Int) -> ImportError {
            ImportError(path: path, problem: "\(bytes >> 20) MB is over the \(maxBytes >> 20) MB limit for \(what)")
        }
        if let size = file.size, size > maxBytes { throw tooLarge(size) }
        var out: [UInt8] = []
        let chunk = ByteBuffer(capacity: 1 << 20)
        while true {
            let n = try file.read(into: chunk.base, count: chunk.capacity)
            if n == 0 { break }
            out.append(contentsOf: UnsafeBufferPointer(start: chunk.bytes, count: n))
            if out.count > maxBytes { throw tooLarge(out.count) }
        }
        return out
    }

    static func describe(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s)
    }
}
