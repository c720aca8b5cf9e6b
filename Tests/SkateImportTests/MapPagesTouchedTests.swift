import Foundation
import Glibc
@testable import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// Issue 31: a plan reads the pages of the map it touches, not the whole file. A real city's
/// map is written, stamped as verified (`MapVerification.firstUse`), dropped from the page cache,
/// loaded and planned on; then `mincore` says which of its pages were read in. A load that
/// hashed or scanned the file, or read-ahead around each touched page, brings in all or most of
/// it (the hashed load below is the control that shows the count sees a whole-map read).
@Suite(.enabled(if: TestData.available, TestData.skip), .serialized)
struct MapPagesTouchedTests {
    /// Most of the file a 1.6 km plan in a 14 MB city map may bring in: measured 10 % (a region
    /// only adds pages the plan does not touch). Before issue 31 it was 100 %.
    static let maxPlanShare = 0.25

    /// Share of the mapping's pages in the page cache.
    static func residentShare(_ file: MappedFile) -> Double {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = (file.size + page - 1) / page
        var vec = [UInt8](repeating: 0, count: pages)
        guard mincore(UnsafeMutableRawPointer(mutating: file.base!), file.size, &vec) == 0 else { return -1 }
        return Double(vec.filter { $0 & 1 != 0 }.count) / Double(pages)
    }

    /// Drops a file's clean pages from the page cache; false when it could not (a tmpfs).
    static func evict(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        _ = fdatasync(fd)
        return posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED)) == 0
    }

    @Test func aPlanOnAStampedMapReadsTheFewPagesItTouches() throws {
        let dir = TestData.temporaryDirectory("pages-touched")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (built, _) = try MapImporter.compile(ImportRequest(osmPath: TestData.heidelbergPBF, options: ImportOptions(name: "Heidelberg")))
        let path = dir.appendingPathComponent("heidelberg.srmap").path
        try MapFormat.write(built, to: path)
        // The cache of verified maps in the test's folder; its clock past the settle time.
        try VerifiedMaps.TestHooks.$directory.withValue(dir.path) {
            try VerifiedMaps.TestHooks.$now.withValue(Date().timeIntervalSince1970 + 60) {
                // The control: a hashed load reads every page.
                guard Self.evict(path) else { return }
                do {
                    let hashed = try MapFormat.load(path: path, verification: .always)
                    let whole = Self.residentShare(try #require(hashed.edgeFrom.file))
                    #expect(whole > 0.95, "a hashed load read \(whole) of the file")
                }   // unmapped here: mapped pages cannot be evicted
                _ = try MapFormat.load(path: path)   // first use: stamps the file
                guard Self.evict(path) else { return }
                let map = try MapFormat.load(path: path)
                let file = try #require(map.edgeFrom.file)
                let loaded = Self.residentShare(file)
                guard loaded < 0.5 else { return }   // the cache kept the pages (not ext4-like): nothing to measure
                let plan = try Planner(map: map).plan(from: Coordinate(lat: 49.4093, lon: 8.6933), to: Coordinate(lat: 49.4128, lon: 8.7147), mode: .smoothest)
                #expect(plan.distance > 1_000)
                let planned = Self.residentShare(file)
                #expect(planned < Self.maxPlanShare, "the load read \(loaded), the plan \(planned) of the map's pages")
            }
        }
    }
}
