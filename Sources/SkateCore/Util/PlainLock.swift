#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock with `NSLock`'s shape (`lock()`, `unlock()`, `withLock`), over a
/// heap-allocated `pthread_mutex_t` (a fixed address, as pthreads requires); `NSLock` is
/// CoreFoundation-backed (see `PrintfArgument`).
public final class PlainLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Takes the lock; pair with `unlock()` on the same thread.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock taken by `lock()`.
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
