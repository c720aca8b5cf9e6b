import Foundation
import Testing
import SkateCore
import SkateImport
import SkateTestSupport

/// Bad input: every case throws a one-line `ImportError` that names the file; none crash or hang.
@Suite("OSM readers on bad input")
struct OSMBadInputTests {
    /// Reads `path`, expecting an `ImportError` that names the file; returns its problem text.
    @discardableResult
    static func expectFailure(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        var counter = OSMElementCounter()
        do {
            try OSMReader.read(path: path, into: &counter)
            Issue.record("reading \(path) should have failed", sourceLocation: sourceLocation)
            return ""
        } catch let error as ImportError {
            #expect(error.path == path, sourceLocation: sourceLocation)
            #expect(error.description.hasPrefix(path + ": "), sourceLocation: sourceLocation)
            #expect(!error.description.contains("\n"), "one line", sourceLocation: sourceLocation)
            #expect(!error.problem.isEmpty, sourceLocation: sourceLocation)
            return error.problem
        } catch {
            Issue.record("expected ImportError, got \(error)", sourceLocation: sourceLocation)
            return ""
        }
    }

    static func write(_ bytes: [UInt8], _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Deterministic pseudo-random bytes (SplitMix64).
    static func garbage(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }

    @Test func missingFile() {
        let problem = Self.expectFailure("/nonexistent/skateroute/monaco.osm.pbf")
        #expect(problem == "no such file")
    }

    @Test func directoryIsRefused() throws {
        let dir = TestData.temporaryDirectory("osm-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Self.expectFailure(dir.path).contains("directory"))
    }

    @Test func emptyFiles() throws {
        let dir = TestData.temporaryDirectory("osm-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["empty.osm.pbf", "empty.osm", "empty.osm.bz2", "empty"] {
            #expect(Self.expectFailure(try Self.write([], name, in: dir)) == "empty file")
        }
    }

    @Test func garbage() throws {
        let dir = TestData.temporaryDirectory("osm-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, name) in ["garbage.osm.pbf", "garbage.osm", "garbage.osm.bz2", "garbage.bin"].enumerated() {
            let bytes = Self.garbage(count: 200_000, seed: UInt64(i + 1))
            Self.expectFailure(try Self.write(bytes, name, in: dir))
        }
        #expect(Self.expectFailure(try Self.write(Self.garbage(count: 100, seed: 9), "x.bin", in: dir)).contains("unknown format"))
        #expect(Self.expectFailure(try Self.write([0x1F, 0x8B, 8, 0], "x.osm.gz", in: dir)).contains("gzip"))
        // Text that is not OSM XML at all.
        #expect(Self.expectFailure(try Self.write(Array("hello, world\n".utf8), "hello.osm", in: dir)).contains("no <osm>"))
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func truncatedPBF() throws {
        let dir = TestData.temporaryDirectory("osm-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestData.monacoPBF)))
        // None of these is a block boundary (blocks start at 0, 191, 73228, 134644, 203306, …).
        for n in [2, 4, 10, 100, 1_000, 100_000, 400_000, full.count - 1] {
            let problem = Self.expectFailure(try Self.write(Array(full[0..<n]), "monaco-\(n).osm.pbf", in: dir))
            #expect(problem.contains("truncated") || problem.contains("not an OSM PBF"), "\(n): \(problem)")
        }
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func corruptedPBF() throws {
        let dir = TestData.temporaryDirectory("osm-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestData.monacoPBF)))
        // Scribble over the middle of a compressed data block: zlib must notice.
        for i in 100_000..<100_400 { bytes[i] ^= 0x5A }
        let problem = Self.expectFailure(try Self.write(bytes, "scribbled.osm.pbf", in: dir))
        #expect(problem.contains("corrupt"), "\(problem)")
        // A huge block length where the first block header should be.
        var huge = bytes
        huge[0] = 0x7F
        #expect(Self.expectFailure(try Self.write(huge, "huge.osm.pbf", in: dir)).contains("out of range"))
    }

    @Test(.enabled(if: TestData.available, TestData.skip))
    func truncatedBzip2() throws {
        let dir = TestData.temporaryDirectory("osm-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestData.monacoXMLBz2)))
        // Cut inside the first bzip2 block (900 kB of text each), so the failure comes fast.
        let problem = Self.expectFailure(try Self.write(Array(full[0..<50_000]), "cut.osm.bz2", in: dir))
        #expect(problem.contains("truncated") || problem.contains("bzip2"), "\(problem)")
    }
}
