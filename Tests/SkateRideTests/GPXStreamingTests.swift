import Foundation
import SkateCore
@testable import SkateRide
import SkateTestSupport
import Testing

/// Issue 29 row 9: a GPX is streamed, never held whole, and refused by its point count as soon as
/// the count passes the limit — the rest of the file is not even read.
@Suite struct GPXStreamingTests {
    static func gpx(points: Int, tail: String = "</trkseg></trk></gpx>\n") -> String {
        var s = #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# + "\n"
        for i in 0..<points {
            s += #"<trkpt lat="43.7\#(1000 + i % 1000)" lon="7.42\#(1000 + i % 1000)"><time>2026-11-25T12:\#(String(format: "%02d", (i / 60) % 60)):\#(String(format: "%02d", i % 60))Z</time></trkpt>"# + "\n"
        }
        return s + tail
    }

    @Test func aFileOverThePointLimitIsRefusedWhereTheLimitIsReached() throws {
        let dir = TestData.temporaryDirectory("gpx-stream")
        defer { try? FileManager.default.removeItem(at: dir) }
        var reader = GPXReader()
        reader.maxPoints = 500
        // 501 good points, then markup no XML reader accepts (a mismatched end tag, found only
        // when the tokenizer gets there): the refusal names the limit, so the reader stopped first.
        let over = dir.appendingPathComponent("over.gpx")
        try Data((Self.gpx(points: 501, tail: "") + #"<trkpt lat="1" lon="2"></wrong>"#).utf8).write(to: over)
        #expect(throws: GPXError.tooManyPoints(path: over.path, limit: 500)) { try reader.read(path: over.path) }
        #expect(GPXError.tooManyPoints(path: over.path, limit: 1_000_000).description.contains("more than 1000000 track points"))
        // At the limit it reads, every point kept.
        let at = dir.appendingPathComponent("at.gpx")
        try Data(Self.gpx(points: 500).utf8).write(to: at)
        #expect(try reader.read(path: at.path).allFixes.count == 500)
        // Without the garbage, the same file is still refused by count.
        try Data(Self.gpx(points: 501).utf8).write(to: over)
        #expect(throws: GPXError.tooManyPoints(path: over.path, limit: 500)) { try reader.read(path: over.path) }
        #expect(GPXReader.defaultMaxPoints == 1_000_000 && GPXReader().maxPoints == GPXReader.defaultMaxPoints)
    }

    @Test func streamingReadsWhatTheWholeFileReaderRead() throws {
        // Chunk edges fall inside tags, attribute values and text: the streamed read must see the
        // same fixes as one parse of the whole document.
        let dir = TestData.temporaryDirectory("gpx-stream-same")
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = Self.gpx(points: 3_000)
        let path = dir.appendingPathComponent("t.gpx")
        try Data(text.utf8).write(to: path)
        let fixes = try GPXReader().read(path: path.path).allFixes
        #expect(fixes.count == 3_000)
        // Point i as written above.
        for i in [0, 1, 999, 1_000, 2_999] {
            #expect(abs(fixes[i].coordinate.lat - Double("43.7\(1000 + i % 1000)")!) < 1e-9)
            #expect(abs(fixes[i].coordinate.lon - Double("7.42\(1000 + i % 1000)")!) < 1e-9)
        }
    }
}

/// Issue 29 row 9, plans: a plan JSON with more points than `PlanDocumentLimit.maxPoints` is
/// refused by counting its `[` before it is parsed.
@Suite struct PlanDocumentLimitTests {
    @Test func aPlanPastThePointLimitIsRefusedBeforeParsing() throws {
        let dir = TestData.temporaryDirectory("plan-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        let points = PlanDocumentLimit.maxPoints * PlanDocumentLimit.maxBracketsPerPoint + 1
        // Unterminated on purpose: a parser would call it broken; the count refuses it first.
        let big = dir.appendingPathComponent("big.json")
        try Data(("{\"mode\":\"smoothest\",\"geometry\":[" + String(repeating: "[7.42,43.74],", count: points)).utf8).write(to: big)
        do {
            _ = try PlanFile.load(path: big.path)
            Issue.record("a plan of \(points) points was read")
        } catch let e as SynthError {
            #expect("\(e)".contains("more than \(PlanDocumentLimit.maxPoints) points"), "\(e)")
        }
        // A plan within the limit still loads.
        let small = dir.appendingPathComponent("small.json")
        try Data(#"{"mode":"smoothest","geometry":[[7.42,43.74],[7.43,43.75]]}"#.utf8).write(to: small)
        let f = try PlanFile.load(path: small.path)
        #expect(f.mode == .smoothest && abs(f.to.lat - 43.75) < 1e-9)
        #expect(PlanDocumentLimit.problem(Array("[[1,2]]".utf8)) == nil)
    }
}
