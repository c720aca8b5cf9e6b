#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A file opened for the few places that stream bytes (ride logs, synthetic motion) or read a
/// file's first bytes, in place of `FileHandle` (CoreFoundation-backed; see `PrintfArgument`).
/// The descriptor is swift-system's `FileDescriptor` (open, whole writes with EINTR and short
/// writes retried, seek, resize, positioned reads); this type adds only the project's rule that a
/// failed write leaves the file ending on the last whole write. Paths stay `String`s (`PathText`):
/// `FilePath` folds repeated and trailing slashes, and the ride index keys rides by the exact text.
public final class RawFile {
    private var fd: FileDescriptor?
    /// Opened with O_APPEND: every write lands at the end, wherever the offset says.
    private let appending: Bool

    /// rw-r--r-- (0644): a file the rider's own commands write, readable by others as any saved file.
    public static let createdPermissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]

    /// Opens `path` for writing, created if missing (mode 0644), truncated when `truncate`.
    /// Returns nil when it cannot be opened.
    public init?(writingTo path: String, truncate: Bool = true) {
        appending = !truncate
        guard let fd = try? Self.open(path, .writeOnly, [.create, truncate ? .truncate : .append]) else { return nil }
        self.fd = fd
    }

    deinit { close() }

    /// `path` opened close-on-exec, the text passed to `open(2)` as it is (no `FilePath` folding).
    public static func open(_ path: String, _ mode: FileDescriptor.AccessMode,
                            _ options: FileDescriptor.OpenOptions = []) throws -> FileDescriptor {
        try path.withCString {
            try FileDescriptor.open($0, mode, options: options.union(.closeOnExec),
                                    permissions: options.contains(.create) ? createdPermissions : nil)
        }
    }

    /// Writes all of `bytes` (retrying short writes and EINTR) or none: when a write fails
    /// (disk full, EIO, a file size limit) the part already written is cut off again, so a file
    /// written in whole lines keeps ending on a whole line. False when the write failed; `errno`
    /// then holds the reason (`lastError` too).
    @discardableResult
    public func write<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard let fd else { lastError = EBADF; return false }
        let start = try? fd.seek(offset: 0, from: appending ? .end : .current)
        do {
            try fd.writeAll(bytes)
            return true
        } catch {
            let e = (error as? Errno)?.rawValue ?? EIO
            lastError = e
            // Back to the last whole write (a regular file; devices and pipes cannot seek).
            if let start { try? fd.resize(to: start); _ = try? fd.seek(offset: start, from: .start) }
            errno = e
            return false
        }
    }

    /// The errno of the last failed write (0: none yet).
    public private(set) var lastError: Int32 = 0

    /// Closes the file (later writes fail quietly).
    public func close() {
        try? fd?.close()
        fd = nil
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter); nil when it
    /// cannot be opened or read.
    public static func readPrefix(of path: String, count: Int) -> [UInt8]? {
        guard let fd = try? open(path, .readOnly) else { return nil }
        defer { try? fd.close() }
        var out = [UInt8](repeating: 0, count: max(0, count))
        guard let got = try? out.withUnsafeMutableBytes({ try fd.readFully(fromAbsoluteOffset: 0, into: $0) }) else { return nil }
        return Array(out.prefix(got))
    }

    /// The C library's words (`strerror`) for a failed descriptor call's error, as the project's
    /// one-line messages say it ("No space left on device"); EIO's for an error that is no `Errno`.
    public static func reason(_ error: any Error) -> String {
        String(cString: strerror((error as? Errno)?.rawValue ?? EIO))
    }
}

extension FileDescriptor {
    /// Fills `buffer` from byte `offset` of the file (positioned reads, EINTR retried), stopping
    /// early only at the end of the file. Returns the bytes read (less than `buffer.count` only at
    /// the end). Throws the `Errno` of a failed read.
    func readFully(fromAbsoluteOffset offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var got = 0
        while got < buffer.count {
            let n = try read(fromAbsoluteOffset: offset + Int64(got), into: UnsafeMutableRawBufferPointer(rebasing: buffer[got...]))
            if n == 0 { break }
            got += n
        }
        return got
    }
}
