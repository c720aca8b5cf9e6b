import FoundationEssentials
import Glibc
import SkateCore

/// Where a command's output goes: stdout (no path, or `-`), or a file written whole — standard
/// output is pointed at a temporary file beside it, which `commit` renames over it, so a reader
/// never sees half a document.
struct OutputFile {
    /// The file asked for; nil for stdout.
    let path: String?
    private let temporary: String
    private let savedStdout: Int32

    /// Starts writing to `path` (nil or "-": stdout, nothing changes).
    /// - Throws: an ExitCode after one line when the file cannot be created.
    init(_ path: String?) throws {
        guard let path, path != "-" else { self.path = nil; temporary = ""; savedStdout = -1; return }
        let dir = PathText.deletingLastComponent(path)
        let tmp = PathText.appending(dir, ".\(PathText.lastComponent(path)).\(getpid()).tmp")
        fflush(nil)  // every stream: `stdout` itself is not concurrency-safe to name
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw fail("--out \(path): cannot write (\(String(cString: strerror(errno))))") }
        let saved = dup(1)
        dup2(fd, 1)
        Glibc.close(fd)
        self.path = path; temporary = tmp; savedStdout = saved
    }

    /// Puts the finished file in place and stdout back.
    /// - Throws: an ExitCode after one line when the file cannot be renamed into place.
    func commit() throws {
        guard let path else { return }
        // Flushes every stream (`stdout` itself is not concurrency-safe to name); a failed write
        // (disk full, EIO) leaves the old file in place and says so (issue 29 row 6).
        let failure = StandardStreams.outputFailure()
        dup2(savedStdout, 1)
        Glibc.close(savedStdout)
        if let failure {
            unlink(temporary)
            throw fail("--out \(path): cannot write (\(failure)); the file was left as it was")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw fail("--out \(path): cannot write (\(reason))")
        }
    }
}
