#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// When `MapFormat.load` hashes a map's whole payload (XXH64) against the header's digest.
public enum MapVerification: Sendable {
    /// Every load (`skateroute map verify`, the tests).
    case always
    /// The first load of a file: once a full check passed, a stamp of the file's identity
    /// (device, inode, size, modification and change times, digest) in the user's cache lets
    /// later loads of the unchanged file skip the hash. Replacing or rewriting the file changes
    /// the stamp, so the next load hashes again. Damage the hash would miss on a stamped file
    /// (bits rotting in place) still meets the structural checks every load runs, which refuse a
    /// damaged map with one line and never crash (`MapFormatTests`).
    case firstUse
}

/// The cache of maps whose checksum has been verified (`MapVerification.firstUse`).
enum VerifiedMaps {
    /// Stamps kept (most recent first): a rider's few maps, with room for imports of new ones.
    static let capacity = 32
    /// A file modified less than this many seconds before it was checked is not stamped: file
    /// times tick in coarse steps (≈ 4 ms on ext4), so a rewrite in place within the same tick
    /// would keep the same times; a second is far beyond any tick.
    static let settleSeconds = 1.0

    /// `$SKATEROUTE_CACHE_DIR`, else `$XDG_CACHE_HOME/skateroute`, else `~/.cache/skateroute`;
    /// nil when none can be named (then every load hashes). getenv, not Foundation: this runs on
    /// every plan, whose process start-up is the cost that matters.
    static var directory: String? {
        if let d = TestHooks.directory { return d }
        func env(_ k: String) -> String? { getenv(k).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        if let d = env("SKATEROUTE_CACHE_DIR") { return d }
        if let x = env("XDG_CACHE_HOME") { return x + "/skateroute" }
        if let h = env("HOME") { return h + "/.cache/skateroute" }
        return nil
    }

    static var file: String? { directory.map { $0 + "/verified-maps" } }

    /// What a test sets for its own task only (task-locals: suites running in parallel never
    /// see each other's values, as they did with `setenv`): the cache folder and the clock.
    enum TestHooks {
        /// The cache folder in place of the environment's.
        @TaskLocal static var directory: String?
        /// Seconds since 1970 in place of the real-time clock (the settle check).
        @TaskLocal static var now: Double?
    }

    /// How far back a writer that stamps its own file sets the file's modification time: past
    /// `settleSeconds`, so a rewrite in place (which sets it to now) always changes the stamp.
    static let writerBackdateSeconds = 2 * settleSeconds

    /// Sets the open file's access and modification times `writerBackdateSeconds` into the past
    /// (on the test clock when set); true when done.
    static func backdate(fd: Int32) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let seconds = (TestHooks.now ?? (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)) - writerBackdateSeconds
        let whole = seconds.rounded(.down)
        let t = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var times = [t, t]
        return futimens(fd, &times) == 0
    }

    /// The identity line of an open file with the given header digest.
    static func stamp(_ st: stat, digest: UInt64) -> String {
        "\(st.st_dev) \(st.st_ino) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) \(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec) \(String(digest, radix: 16))"
    }

    /// Most the stamp file is read of (32 lines of < 100 bytes fit many times over).
    static let maxFileBytes = 16_384

    /// The stamp file's lines (empty when absent or unreadable).
    static func lines() -> [String] {
        guard let f = file, let buf = RawFile.readPrefix(of: f, count: maxFileBytes) else { return [] }
        return buf.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// True when this exact stamp was recorded after a full check.
    static func contains(_ stamp: String) -> Bool { lines().contains(stamp) }

    /// Records a stamp after a full check passed (best effort: an unwritable cache only means
    /// the next load hashes again).
    static func record(_ stamp: String, modified st: stat) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nowSeconds = TestHooks.now ?? (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
        let age = nowSeconds - (Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9)
        guard age >= settleSeconds, let dir = directory, let f = file else { return }
        let kept = [stamp] + lines().filter { $0 != stamp }.prefix(capacity - 1)
        // With its parents: a fresh account (a server reached over SSH) often has no ~/.cache,
        // and without it no stamp was ever recorded, so every plan hashed the whole map.
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let tmp = f + ".\(getpid()).tmp"
        guard let out = RawFile(writingTo: tmp) else { return }
        let wrote = out.write(Array((kept.joined(separator: "\n") + "\n").utf8))
        out.close()
        if !wrote || rename(tmp, f) != 0 { unlink(tmp) }
    }
}
