import Foundation
import SkateCore
@testable import SkateStore
import SkateTestSupport
import Testing

/// SkateStore uses only FoundationEssentials; these pin its own helpers to what the corelibs
/// Foundation calls they replace produced (this test target still links Foundation to compare).
@Suite struct FoundationEssentialsHelpersTests {
    @Test func isoDatesAreTheSameTextAsISO8601DateFormatterWrote() {
        #expect(StoreExports.iso(t0) == "2026-05-01T12:00:00Z")
        #expect(StoreExports.iso(Date(timeIntervalSince1970: 1_795_632_955)) == "2026-11-25T18:55:55Z")
        #expect(StoreExports.iso(Date(timeIntervalSince1970: 1_795_632_955.999)) == "2026-11-25T18:55:55Z", "fractions are dropped, not rounded")
        #expect(StoreExports.iso(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(StoreExports.iso(Date(timeIntervalSince1970: 1_835_481_599)) == "2028-02-29T23:59:59Z")
        #expect(StoreExports.iso(Date(timeIntervalSince1970: 946_684_800)) == "2000-01-01T00:00:00Z")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        // 1970…2100 in uneven steps, with fractions of a second.
        var t = 0.0
        while t < 4_102_444_800 {
            let d = Date(timeIntervalSince1970: t)
            #expect(StoreExports.iso(d) == formatter.string(from: d), "\(t)")
            t += 9_876_543.21
        }
    }

    @Test func trimmingMatchesCharacterSetOnEveryBMPScalar() throws {
        var differences: [String] = []
        for v in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }  // surrogates
            let s = "a" + String(Character(scalar)) + "b", alone = String(Character(scalar))
            if alone.trimmingWhitespace() != alone.trimmingCharacters(in: .whitespaces) {
                differences.append(String(v, radix: 16))
            }
            if alone.trimmingWhitespaceAndNewlines() != alone.trimmingCharacters(in: .whitespacesAndNewlines) {
                differences.append("nl " + String(v, radix: 16))
            }
            // Inside a string nothing is trimmed.
            if s.trimmingWhitespaceAndNewlines() != s { differences.append("inner " + String(v, radix: 16)) }
        }
        #expect(differences.isEmpty)
        let padded = " \t\u{00A0}\u{200B}\u{3000} Zoë  O'Neil \u{2028}\u{200B}\r\n\u{85}"
        #expect(padded.trimmingWhitespaceAndNewlines() == padded.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(padded.trimmingWhitespace() == padded.trimmingCharacters(in: .whitespaces))
        #expect(" \u{301}x ".trimmingWhitespace() == " \u{301}x ".trimmingCharacters(in: .whitespaces), "scalars, not characters")
        #expect("   ".trimmingWhitespace().isEmpty && "".trimmingWhitespaceAndNewlines().isEmpty)
        #expect(HazardKind(name: " Pothole\t") == .pothole)
        #expect(try SkateStore.validReporter("\u{2028} alice\n") == "alice")
    }

    @Test func rideLogPathsJoinAsNSStringJoinedThem() {
        for dir in ["/x/rides", "/x/rides/", "/x//rides//", "", "/", "rel/dir", "./a/../b"] {
            for name in ["a.ndjson", "/b.ndjson", ""] {
                #expect(PathText.appending(dir, name) == (dir as NSString).appendingPathComponent(name), "\(dir) + \(name)")
            }
        }
    }

    @Test func fileSizesReadAsFoundationReadThem() throws {
        let dir = TestData.temporaryDirectory("store-file-size")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("r.ndjson")
        try Data(repeating: 7, count: 12_345).write(to: file)
        let attrs = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(SkateStore.fileSize(attrs[.size]) == 12_345)
        #expect(SkateStore.fileSize(attrs[.size]) == (attrs[.size] as? NSNumber)?.int64Value)
        #expect(SkateStore.fileSize(nil) == 0)
    }

    @Test func homeWithoutHOMEIsTheAccountsHome() {
        #expect(StorePaths.defaultDataDir(environment: [:]).path == NSHomeDirectory() + "/.local/share/skateroute")
        #expect(StorePaths.defaultDataDir(environment: ["HOME": ""]).path == NSHomeDirectory() + "/.local/share/skateroute")
    }

    @Test func fileSystemErrorsReadAsOneLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("store-reason-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
            Issue.record("a directory over a file was created")
        } catch {
            #expect(StoreError.reason(error) == "File exists")
        }
        #expect(throws: StoreError.cannotOpen(path: StorePaths.databaseURL(in: file).path, reason: "cannot create the directory (File exists)")) {
            _ = try SkateStore(dataDir: file)
        }
    }
}
