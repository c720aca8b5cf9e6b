#if os(Linux)
import CMemoryFile
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A long-running session's map, made its own after the first frame (issue 31).
///
/// The TUI used to copy every array out of the file before its first frame, because a mapped
/// file that someone rewrites in place (`cp` over it) faults the next read past its new end with
/// SIGBUS — even pages a private mapping has already copied, which truncation unmaps too. On the
/// K = 7 region that copy held the first frame back by about a second. A session now views the
/// file at once (`MapFormat.loadForSession`) and `detach` copies the bytes into anonymous shared
/// memory (a `memfd`) and maps that over the same addresses in one call: a reader sees the same
/// bytes before and after, and afterwards the file can change or go. It runs when the file is
/// about to be written (a read lease's break, `MapLease`), or at once on another thread where no
/// lease can be taken.
extension MappedFile {
    /// Whether this system can detach a mapping (`memfd_create` and a fixed mapping over the old
    /// one: Linux). Elsewhere a session copies its map before the first frame, as before.
    public static var detachSupported: Bool {
        #if os(Linux)
        return true
        #else
        return false
        #endif
    }

    /// Bytes copied per `write` into the memory file: large enough that the calls cost nothing,
    /// small enough that a copy interrupted by a signal resumes without redoing much.
    static let detachChunkBytes = 1 << 24

    /// Copies the mapping's bytes into anonymous memory and maps that over the same addresses,
    /// so the map no longer reads its file. Safe while other threads read the map: the new pages
    /// hold the same bytes, and the swap is one `mmap` call. Takes about as long as copying the
    /// file (the 935 MB K = 7 region: about a second on one core); call it off the thread that
    /// draws.
    /// - Returns: false (the file still mapped, nothing lost) for an empty mapping, on a system
    ///   without `memfd_create`, or when the copy fails (the file already cut short: the read of
    ///   a page past its end is refused by `write` rather than faulting).
    @discardableResult public func detach() -> Bool {
        #if os(Linux)
        guard let base, size > 0 else { return false }
        let fd = skateroute_memory_file("skateroute-map")
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0 else { return false }
        var done = 0
        while done < size {
            let n = write(fd, base + done, Swift.min(size - done, Self.detachChunkBytes))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        // MAP_FIXED replaces the file's pages with the memory file's in one call.
        guard let p = mmap(UnsafeMutableRawPointer(mutating: base), size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0), p != MAP_FAILED else { return false }
        return p == UnsafeMutableRawPointer(mutating: base)
        #else
        return false
        #endif
    }
}

extension MapFormat {
    /// Loads a map for a session that outlives any file mapping (the TUI, its map switcher, a
    /// live ride): viewed at once and detached from its file on another thread
    /// (`MappedFile.detach`), or, where the system cannot detach, copied before returning.
    public static func loadForSession(path: String) throws -> SkateMap {
        try openSession(path: path).map
    }

    /// `loadForSession`, with the mapping (nil when copied) and how it is kept safe: a read lease
    /// where one can be taken (copied only when the file is about to change: `MapLease`), else
    /// detached on another thread now.
    public static func openSession(path: String) throws -> (map: SkateMap, file: MappedFile?, safety: SessionMapSafety) {
        guard MappedFile.detachSupported else { return (try load(path: path, copying: true), nil, .copied) }
        let (map, file) = try loadDetachable(path: path)
        guard let file else { return (map, nil, .copied) }
        if MapLease.hold(file) { return (map, file, .lease) }
        DetachThread.start(file)
        return (map, file, .copying)
    }
}

/// The thread a session's detach runs on: its own, not one of Dispatch's pool. A second of
/// copying on a pool thread took a worker the plan and search queues needed (on a 2-core machine
/// under load the first plan waited for it, and a utility-class thread was starved for many
/// seconds), so it runs outside the pool, at the process's normal priority.
enum DetachThread {
    /// Starts `file.detach()` on a new detached thread; if no thread can be made, detaches here.
    static func start(_ file: MappedFile) {
        #if os(Linux)
        if OwnThread.start({ file.detach() }) == nil { file.detach() }
        #else
        file.detach()
        #endif
    }
}

#if os(Linux)
/// A detached thread of its own, outside Dispatch's pool, at the process's normal priority: for
/// work that blocks or runs long (a map's detach, the lease watcher's wait), which must not hold
/// a pool worker the plan and search queues need.
enum OwnThread {
    /// The closure a new thread runs, passed through `pthread_create`'s one pointer.
    private final class Body: @unchecked Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread; nil (nothing run) when no thread can be made.
    static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        defer { pthread_attr_destroy(&attr) }
        pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
        let started = pthread_create(&thread, &attr, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box)
        guard started == 0 else { Unmanaged<Body>.fromOpaque(box).release(); return nil }
        return thread
    }
}
#endif
