import Foundation
import Glibc
import SkateCore
import SkateTestSupport
import Testing

/// A session's map is viewed at once and then made the process's own (`MappedFile.detach`,
/// issue 31): after the detach every page of the mapping is anonymous memory, and the map plans
/// as before even when its file has been cut to nothing (a read of a file page past the new end
/// would stop the process with SIGBUS).
@Suite(.enabled(if: TestData.bundledMapPresent, TestData.bundledSkip))
struct MapDetachTests {
    /// What backs the mapping that starts at `file.base`, by `/proc/self/maps`: a file's path,
    /// or "/memfd:NAME (deleted)" for anonymous shared memory; nil when no mapping starts there.
    static func backing(_ file: MappedFile) -> String? {
        // Read to the end: /proc files say they are empty, so a read sized by `stat` gets nothing.
        guard let base = file.base, let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return nil }
        let start = String(UInt(bitPattern: base), radix: 16)
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix(start + "-") {
            // "start-end perms offset dev inode path": the path is everything after the fifth field.
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            return fields.count == 6 ? fields[5].trimmingCharacters(in: .whitespaces) : ""
        }
        return nil
    }

    /// A plan's line as text (every leg), to compare two maps' answers.
    static func line(_ map: SkateMap) throws -> String {
        let planner = Planner(map: map)
        let plan = try planner.plan(from: Coordinate(lat: 43.7310, lon: 7.4190), to: Coordinate(lat: 43.7440, lon: 7.4290), mode: .smoothest)
        return "\(plan.path.legs.map { "\($0.edge)\($0.reversed ? "r" : "")" }) \(plan.distance) \(plan.steps.count)"
    }

    @Test func aDetachedMapIsItsOwnAndOutlivesItsFile() throws {
        let dir = TestData.temporaryDirectory("detach")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("monaco.srmap").path
        try FileManager.default.copyItem(atPath: TestData.bundledMonaco, toPath: path)
        let reference = try Self.line(MapFormat.load(path: TestData.bundledMonaco))

        let (map, file) = try MapFormat.loadDetachable(path: path)
        let f = try #require(file)
        #expect(Self.backing(f) == path, "before detach: \(Self.backing(f) ?? "no mapping")")
        guard MappedFile.detachSupported else {
            #expect(!f.detach(), "detach claimed success where the system cannot detach")
            return
        }
        #expect(f.detach())
        let after = Self.backing(f) ?? "no mapping"
        #expect(after.hasPrefix("/memfd:skateroute-map"), "after detach the map still reads \(after)")
        // Only cut the file once its pages are known to be gone from the map: otherwise the read
        // below would stop the whole test run with SIGBUS instead of failing this test.
        guard after.hasPrefix("/memfd:") else { return }
        #expect(truncate(path, 0) == 0)
        #expect(try Self.line(map) == reference)
    }

    /// Whether this kernel grants read leases at all (`/proc/sys/fs/leases-enable`).
    static var leasesEnabled: Bool {
        guard let d = FileManager.default.contents(atPath: "/proc/sys/fs/leases-enable") else { return false }
        return String(decoding: d, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Seconds `body` took.
    static func seconds(_ body: () -> Void) -> Double {
        var a = timespec(), b = timespec()
        clock_gettime(CLOCK_MONOTONIC, &a)
        body()
        clock_gettime(CLOCK_MONOTONIC, &b)
        return Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) / 1e9
    }

    /// Waits up to `limit` seconds for `file`'s mapping to be anonymous memory.
    static func waitDetached(_ file: MappedFile, limit: Double = 60) -> Bool {
        var waited = 0.0
        while !(backing(file) ?? "").hasPrefix("/memfd:") && waited < limit { usleep(20_000); waited += 0.02 }
        return (backing(file) ?? "").hasPrefix("/memfd:")
    }

    /// Two sessions on one file: with read leases (`MapLease`) neither copies its map at start —
    /// a moment later both still read the file. Cutting the file to nothing waits until both have
    /// copied (the kernel holds the truncation back and the lease watcher copies), and both then
    /// plan as before. Where no lease can be taken the sessions copy at once, and the test cuts
    /// the file only after that.
    @Test func sessionsCopyTheirMapOnlyWhenItsFileIsCut() throws {
        guard MappedFile.detachSupported else { return }
        let dir = TestData.temporaryDirectory("lease-cut")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("monaco.srmap").path
        try FileManager.default.copyItem(atPath: TestData.bundledMonaco, toPath: path)
        let reference = try Self.line(MapFormat.load(path: TestData.bundledMonaco))

        let one = try MapFormat.openSession(path: path), two = try MapFormat.openSession(path: path)
        let f1 = try #require(one.file), f2 = try #require(two.file)
        if Self.leasesEnabled {
            #expect(one.safety == .lease && two.safety == .lease, "no lease taken: \(one.safety), \(two.safety)")
        }
        if one.safety == .lease && two.safety == .lease {
            usleep(300_000)
            #expect(Self.backing(f1) == path && Self.backing(f2) == path,
                    "a leased session copied its map at start: \(Self.backing(f1) ?? "none"), \(Self.backing(f2) ?? "none")")
        } else {
            #expect(Self.waitDetached(f1) && Self.waitDetached(f2))
        }
        // The cut waits for the copies: far less than the kernel's 45 s break time.
        var cut: Int32 = -1
        let took = Self.seconds { cut = truncate(path, 0) }
        #expect(cut == 0)
        #expect(took < 20, "the truncation waited \(took) s: the lease was not served")
        let after = [Self.backing(f1) ?? "no mapping", Self.backing(f2) ?? "no mapping"]
        #expect(after.allSatisfy { $0.hasPrefix("/memfd:skateroute-map") }, "after the cut the maps read \(after)")
        // Plan only on maps known to be their own: a read of the cut file would stop the whole
        // test run with SIGBUS instead of failing this test.
        guard after.allSatisfy({ $0.hasPrefix("/memfd:") }) else { return }
        #expect(try Self.line(one.map) == reference)
        #expect(try Self.line(two.map) == reference)
    }

    /// `cp` over a session's map (an open that truncates, then other bytes written): the session
    /// keeps planning on the map it opened; and once a session has dropped its map, a writer
    /// does not wait for it (the lease went with the map's file).
    @Test func aFileCopiedOverASessionsMapLeavesItsMapAlone() throws {
        guard MappedFile.detachSupported else { return }
        let dir = TestData.temporaryDirectory("lease-cp")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("monaco.srmap").path
        try FileManager.default.copyItem(atPath: TestData.bundledMonaco, toPath: path)
        let reference = try Self.line(MapFormat.load(path: TestData.bundledMonaco))
        do {
            let session = try MapFormat.openSession(path: path)
            let f = try #require(session.file)
            if session.safety != .lease { #expect(Self.waitDetached(f)) }
            let other = Array(repeating: UInt8(ascii: "x"), count: 4096)
            var fd: Int32 = -1
            _ = Self.seconds { fd = open(path, O_WRONLY | O_TRUNC) }
            #expect(fd >= 0)
            if fd >= 0 {
                #expect(other.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == other.count)
                close(fd)
            }
            let after = Self.backing(f) ?? "no mapping"
            #expect(after.hasPrefix("/memfd:skateroute-map"), "after the copy over it the map reads \(after)")
            guard after.hasPrefix("/memfd:") else { return }
            #expect(try Self.line(session.map) == reference)
        }
        // Dropped: a new session on a fresh copy, then dropped, holds nothing back.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: TestData.bundledMonaco, toPath: path)
        do { _ = try MapFormat.openSession(path: path) }
        var fd: Int32 = -1
        let took = Self.seconds { fd = open(path, O_WRONLY) }
        if fd >= 0 { close(fd) }
        #expect(fd >= 0)
        #expect(took < 0.2, "a writer waited \(took) s for a session that had dropped its map")
    }

    @Test func aSessionLoadPlansAsAPlainLoad() throws {
        let session = try MapFormat.loadForSession(path: TestData.bundledMonaco)
        #expect(try Self.line(session) == Self.line(MapFormat.load(path: TestData.bundledMonaco)))
    }
}
