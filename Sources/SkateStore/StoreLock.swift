import FoundationEssentials
import Glibc

/// An advisory inter-process lock on a file (`flock`), released when the holder exits or dies.
enum StoreLock {
    /// Lock file beside the database.
    static let fileName = "skateroute.lock"
    /// Pause between attempts to take a held lock (seconds): short next to a migration's duration.
    static let retryInterval: TimeInterval = 0.01

    struct Timeout: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path): another process holds the store's lock" }
    }

    /// Runs `body` holding an exclusive lock on `path`, waiting up to `timeout` seconds for it.
    static func withExclusiveLock<T>(at path: String, timeout: TimeInterval, _ body: () throws -> T) throws -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StoreError.cannotOpen(path: path, reason: "cannot create the lock file (errno \(errno))") }
        defer { close(fd) }
        var waited: TimeInterval = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waited < timeout else { throw Timeout(path: path) }
            usleep(useconds_t(retryInterval * 1_000_000))
            waited += retryInterval
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
