#if os(Linux)
import CMemoryFile
import Dispatch
import Synchronization
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a session's map is kept readable when its file is rewritten under it (issue 31).
///
/// A mapped file that someone rewrites in place (`cp` over it, a truncation) faults the next read
/// past its new end with SIGBUS, so a session must own its map's bytes before that happens. It
/// used to copy the whole file (935 MB on the K = 7 region) into memory on another thread at
/// every start (`MappedFile.detach`). With a read lease the kernel holds back anyone who opens
/// the file to write or truncate it (up to `/proc/sys/fs/lease-break-time`, 45 s by default)
/// and tells the holder; the session then copies and lets go. So a session reads only the pages
/// it draws and plans over, and copies only when the file is actually about to change.
public enum SessionMapSafety: Sendable, Equatable {
    /// A read lease is held: the map is copied into memory only when someone opens the file to
    /// write it, before they may (`MapLease`).
    case lease
    /// No lease could be taken (not the file's owner, a file system without leases, the file
    /// open for writing): the map is being copied into memory on another thread now.
    case copying
    /// The map was copied before it was returned (a system that cannot detach a mapping).
    case copied
}

/// The read leases of the maps sessions view, and the one thread that serves their breaks.
///
/// A lease's break is a SIGIO sent to the watcher thread alone (the file's owner is set to that
/// thread after the lease is taken); the watcher blocks SIGIO and waits for it, so no other thread
/// is interrupted. Elsewhere in the process SIGIO does nothing (`skateroute_sigio_harmless`): a
/// break signalled in the instant between taking a lease and naming the watcher goes to the whole
/// process, and `hold` then wakes the watcher itself.
enum MapLease {
    #if os(Linux)
    /// A held file, weakly: a map the session drops closes its file, which lets the lease go.
    struct Held { weak var file: MappedFile? }

    /// The watcher thread and its kernel id, or nil when it could not be started.
    static let watcher: (thread: pthread_t, tid: Int32)? = startWatcher()
    /// The files whose leases are held.
    static let held = Mutex<[Held]>([])

    /// Starts the watcher and waits until it blocks SIGIO and knows its id.
    static func startWatcher() -> (thread: pthread_t, tid: Int32)? {
        guard skateroute_sigio_harmless() == 0 else { return nil }
        final class Start: @unchecked Sendable { let ready = DispatchSemaphore(value: 0); var tid: Int32 = 0 }
        let start = Start()
        let thread = OwnThread.start {
            let blocked = skateroute_block_sigio() == 0
            start.tid = blocked ? skateroute_thread_id() : 0
            start.ready.signal()
            guard blocked else { return }
            while true { if skateroute_wait_sigio() == 0 { MapLease.serveBreaks() } }
        }
        guard let thread else { return nil }
        start.ready.wait()
        return start.tid > 0 ? (thread, start.tid) : nil
    }

    /// Copies every map whose lease is being broken into memory (`MappedFile.detach`), then lets
    /// its lease go so the writer waiting for it goes on; the watcher's work.
    static func serveBreaks() {
        let files = held.withLock { list -> [MappedFile] in
            list.removeAll { $0.file == nil }
            return list.compactMap(\.file)
        }
        for f in files where skateroute_lease_breaking(f.descriptor) != 0 {
            // A failed copy still lets go: the kernel would break the lease anyway once the
            // break time is up, and the writer should not wait for nothing.
            f.detach()
            _ = skateroute_release_lease(f.descriptor)
            held.withLock { list in list.removeAll { $0.file == nil || $0.file === f } }
        }
    }
    #endif

    /// Takes a read lease on `file`'s descriptor so that it is copied into memory only when its
    /// file is about to change. False (nothing held) where no lease can be taken: the caller
    /// copies it now instead.
    static func hold(_ file: MappedFile) -> Bool {
        #if os(Linux)
        guard file.descriptor >= 0, file.size > 0, let w = watcher else { return false }
        let taken = held.withLock { list -> Bool in
            guard skateroute_read_lease(file.descriptor, w.tid) == 0 else { return false }
            // The file must still be the bytes mapped: a writer between the mapping and the lease
            // may have cut it. Then copy now, as without a lease.
            var st = stat()
            guard fstat(file.descriptor, &st) == 0, Int(st.st_size) == file.size else {
                _ = skateroute_release_lease(file.descriptor)
                return false
            }
            list.removeAll { $0.file == nil }
            list.append(Held(file: file))
            return true
        }
        guard taken else { return false }
        // A break that began before the watcher was named as the file's owner signalled the whole
        // process, where SIGIO does nothing: wake the watcher for it.
        if skateroute_lease_breaking(file.descriptor) != 0 { pthread_kill(w.thread, SIGIO) }
        // Only the pages drawn and planned over are read now: no read-around of each touch.
        if let base = file.base { madvise(UnsafeMutableRawPointer(mutating: base), file.size, MapFormat.randomAccessAdvice) }
        return true
        #else
        return false
        #endif
    }
}
