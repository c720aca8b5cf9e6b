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

    @Test func aSessionLoadPlansAsAPlainLoad() throws {
        let session = try MapFormat.loadForSession(path: TestData.bundledMonaco)
        #expect(try Self.line(session) == Self.line(MapFormat.load(path: TestData.bundledMonaco)))
    }
}
