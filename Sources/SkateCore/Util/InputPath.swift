#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a path given as an input file cannot be read as one: one line naming the path.
public struct InputPathError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The path as given.
    public var path: String
    /// What is wrong with it, e.g. "no such file" or "is a character device, not a regular file".
    public var problem: String
    public init(path: String, problem: String) { self.path = path; self.problem = problem }
    /// `path: problem`, the path passed through `TerminalSafe.quoted`.
    public var description: String { "\(TerminalSafe.quoted(path)): \(problem)" }
}

/// The one check every input path gets before it is opened: it must name a regular file.
///
/// Devices (`/dev/zero`, `/dev/urandom`) never end and FIFOs block until a writer comes, so a
/// reader that trusts the path can grow without bound or hang; `stat` tells both apart without
/// opening anything.
public enum InputPath {
    /// Throws unless `path` names a regular file (symbolic links followed).
    /// - Throws: `InputPathError`: no such file, a directory, a device, FIFO or socket, or unreadable.
    public static func checkRegularFile(_ path: String) throws(InputPathError) {
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw InputPathError(path: path, problem: "no such file")
            case EACCES: throw InputPathError(path: path, problem: "cannot open: permission denied")
            default: throw InputPathError(path: path, problem: "cannot open: \(String(cString: strerror(code)))")
            }
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFREG { return }
        let what: String
        switch kind {
        case S_IFDIR: what = "is a directory, not a file"
        case S_IFCHR: what = "is a character device, not a regular file"
        case S_IFBLK: what = "is a block device, not a regular file"
        case S_IFIFO: what = "is a pipe (FIFO), not a regular file: save the data to a file first"
        case S_IFSOCK: what = "is a socket, not a regular file"
        default: what = "is not a regular file"
        }
        throw InputPathError(path: path, problem: what)
    }

    /// The size in bytes of the regular file at `path`, after `checkRegularFile`.
    public static func regularFileSize(_ path: String) throws(InputPathError) -> Int {
        try checkRegularFile(path)
        var info = stat()
        guard stat(path, &info) == 0 else { throw InputPathError(path: path, problem: "cannot open") }
        return Int(info.st_size)
    }
}
