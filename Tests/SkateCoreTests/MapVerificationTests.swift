import Foundation
@testable import SkateCore
import SkateTestSupport
import Testing

/// Issue 16: a map's checksum is hashed on its first use, not on every plan; a file rewritten
/// since is hashed again, and damage is still one clear error.
@Suite(.serialized) struct MapVerificationTests {
    /// Writes a small map and backdates it past `VerifiedMaps.settleSeconds`.
    func writeOldMap(in dir: URL) throws -> String {
        let m = AsciiMap("A-----B-----C", ways: [("ABC", ["highway": "residential", "surface": "asphalt"])])
        let path = dir.appendingPathComponent("small.srmap").path
        try MapFormat.write(m.map, to: path)
        try backdate(path)
        return path
    }

    func backdate(_ path: String) throws {
        var times = [timeval(tv_sec: time(nil) - 3600, tv_usec: 0), timeval(tv_sec: time(nil) - 3600, tv_usec: 0)]
        #expect(utimes(path, &times) == 0)
    }

    func fileStat(_ path: String) -> stat {
        var st = Glibc.stat()
        _ = lstat(path, &st)
        return st
    }

    /// The stamp the file at `path` has now.
    func stamp(_ path: String) -> String {
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        let digest = bytes.count >= 32 ? bytes[24..<32].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } : 0
        return VerifiedMaps.stamp(fileStat(path), digest: UInt64(littleEndian: digest))
    }

    /// Runs `body` with this test's own cache folder (a task-local: no `setenv` that suites
    /// running in parallel would see).
    func withCache<T>(in dir: URL, now: Double? = nil, _ body: () throws -> T) rethrows -> T {
        try VerifiedMaps.TestHooks.$directory.withValue(dir.appendingPathComponent("cache").path) {
            try VerifiedMaps.TestHooks.$now.withValue(now) { try body() }
        }
    }

    @Test func firstUseStampsTheFileAndARewriteIsHashedAgain() throws {
        let dir = TestData.temporaryDirectory("verify")
        defer { try? FileManager.default.removeItem(at: dir) }
        try withCache(in: dir) { try firstUseBody(dir) }
    }

    func firstUseBody(_ dir: URL) throws {
        let path = try writeOldMap(in: dir)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(!VerifiedMaps.contains(stamp(path)))
        _ = try MapFormat.load(path: path)
        // The first load hashed it and left this file's stamp.
        #expect(VerifiedMaps.contains(stamp(path)))
        _ = try MapFormat.load(path: path)  // stamped: loads without hashing

        // Damage in place, then put the modification time back: the change time still moves,
        // so the stamp no longer matches and the next load hashes and refuses the file.
        var damaged = bytes
        damaged[damaged.count - 9] ^= 0x5A
        let fh = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try fh.write(contentsOf: damaged)
        try fh.close()
        try backdate(path)
        #expect(throws: MapFileError.checksumMismatch(path: path)) { try MapFormat.load(path: path) }
        #expect(throws: MapFileError.checksumMismatch(path: path)) { try MapFormat.load(path: path, verification: .always) }
    }

    /// The CLI announces a large map's first-use check (`announceFirstUseCheck`) by this answer:
    /// the size until a load has stamped the file, then nil; nil for what is not a map.
    @Test func firstUseHashBytesSaysWhenALoadWillHash() throws {
        let dir = TestData.temporaryDirectory("verify")
        defer { try? FileManager.default.removeItem(at: dir) }
        try withCache(in: dir) {
            let path = try writeOldMap(in: dir)
            let size = Int(fileStat(path).st_size)
            #expect(MapFormat.firstUseHashBytes(path: path) == size)
            _ = try MapFormat.load(path: path)
            #expect(MapFormat.firstUseHashBytes(path: path) == nil, "stamped by the load: no hash next time")
            #expect(MapFormat.firstUseHashBytes(path: dir.appendingPathComponent("missing.srmap").path) == nil)
        }
    }

    @Test func aFreshFileIsNotStamped() throws {
        let dir = TestData.temporaryDirectory("verify")
        defer { try? FileManager.default.removeItem(at: dir) }
        let m = AsciiMap("A-----B", ways: [("AB", ["highway": "residential"])])
        let path = dir.appendingPathComponent("fresh.srmap").path
        try MapFormat.write(m.map, to: path)
        let st = fileStat(path)
        let modified = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
        // On the test clock, half the settle time after the write: a rewrite within the file
        // system's time tick could keep the same times, so nothing is recorded and every load
        // hashes until the file has settled.
        try withCache(in: dir, now: modified + VerifiedMaps.settleSeconds / 2) {
            _ = try MapFormat.load(path: path)
            #expect(!VerifiedMaps.contains(stamp(path)))
        }
        // Once settled, the next load records it.
        try withCache(in: dir, now: modified + VerifiedMaps.settleSeconds * 2) {
            _ = try MapFormat.load(path: path)
            #expect(VerifiedMaps.contains(stamp(path)))
        }
    }
}

/// Issue 31: `skateroute import` stamps the map it wrote (`MapFormat.write(stampVerified:)`), so
/// the first load after an import does not read a whole region again; a rewrite in place right
/// after it is still caught.
@Suite(.serialized) struct WriterStampTests {
    let base = MapVerificationTests()

    @Test func aMapItsWriterStampedLoadsWithoutHashingAndDamageIsStillCaught() throws {
        let dir = TestData.temporaryDirectory("verify-writer")
        defer { try? FileManager.default.removeItem(at: dir) }
        let m = AsciiMap("A-----B-----C", ways: [("ABC", ["highway": "residential", "surface": "asphalt"])])
        let path = dir.appendingPathComponent("imported.srmap").path
        try base.withCache(in: dir) {
            try MapFormat.write(m.map, to: path)
            #expect(!VerifiedMaps.contains(base.stamp(path)), "a plain write stamps nothing")
            try MapFormat.write(m.map, to: path, stampVerified: true)
            // Stamped at once, although the file is younger than the settle time.
            #expect(VerifiedMaps.contains(base.stamp(path)))
            _ = try MapFormat.load(path: path)

            // Damaged in place at once (no backdating): its modification time moves off the
            // writer's, so the stamp no longer matches and the load hashes and refuses it.
            var damaged = try Data(contentsOf: URL(fileURLWithPath: path))
            damaged[damaged.count - 9] ^= 0x5A
            let fh = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try fh.write(contentsOf: damaged)
            try fh.close()
            #expect(!VerifiedMaps.contains(base.stamp(path)))
            #expect(throws: MapFileError.checksumMismatch(path: path)) { try MapFormat.load(path: path) }
        }
    }

    /// A fresh account has no ~/.cache: the stamp's folder is made with its parents (it was made
    /// only when its parent existed, so on such an account every plan hashed the whole map).
    @Test func theStampFolderIsMadeWithItsParents() throws {
        let dir = TestData.temporaryDirectory("verify-parents")
        defer { try? FileManager.default.removeItem(at: dir) }
        let m = AsciiMap("A-----B", ways: [("AB", ["highway": "residential"])])
        let path = dir.appendingPathComponent("imported.srmap").path
        let cache = dir.appendingPathComponent("home/.cache/skateroute").path
        try VerifiedMaps.TestHooks.$directory.withValue(cache) {
            try MapFormat.write(m.map, to: path, stampVerified: true)
            #expect(VerifiedMaps.contains(base.stamp(path)), "no stamp in \(cache)")
        }
    }
}
