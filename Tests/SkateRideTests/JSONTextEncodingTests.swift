import Foundation
import SkateCore
@testable import SkateRide
import SkateTestSupport
import Testing

/// Issue 33: the `Codable` documents (ride summary, ride log lines, ride manifest, roughness report,
/// map info) moved from `JSONEncoder` to `JSONText`, the writer the plan formats use. On the shipped
/// rides and the bundled map they must give the bytes `JSONEncoder` gave with the options each one
/// used (`[.sortedKeys, (.prettyPrinted,) .withoutEscapingSlashes]`); `map info` alone changes, from
/// `https:\/\/` to `https://`, as every other output already wrote it.
/// `scripts/same-json-bytes.sh BIN DIR` does the same through the CLI (22 files, before and after).
@Suite struct JSONTextEncodingTests {
    /// What the documents were written with before: `JSONEncoder`, keys sorted, `/` unescaped.
    static func encoderText<T: Encodable>(_ value: T, pretty: Bool) throws -> String {
        let enc = JSONEncoder()
        enc.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try enc.encode(value), as: UTF8.self)
    }

    @Test(.enabled(if: RideFixtures.mapAvailable, "Maps/monaco.srmap is absent"))
    func shippedRidesWriteTheBytesJSONEncoderWrote() throws {
        try #require(RideFixtures.shippedRides.count == 4)
        let logDir = TestData.temporaryDirectory("json-text")
        try FileManager.default.createDirectory(at: logDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: logDir) }
        for folder in RideFixtures.shippedRides {
            // The ride's summary document and the summary inside its log.
            let (summary, _, log) = try RideFixtures.replay(folder, logDir: logDir)
            #expect(try summary.json() == Self.encoderText(SchemaTagged("ride", summary.rounded()), pretty: true), "\(folder)")
            // The log's header line, re-encoded from what it holds.
            let header = String(decoding: log.prefix { $0 != 0x0A }, as: UTF8.self)
            let decoded = try JSONDecoder().decode(RideLogHeader.self, from: Data(header.utf8))
            #expect(try JSONText.text(of: decoded) == Self.encoderText(decoded, pretty: false))
            // The manifest, as `synth` writes it.
            let manifest = try RideFolder.open(folder).manifest
            let written = String(decoding: try manifest.encoded(), as: UTF8.self)
            #expect(try written == Self.encoderText(SchemaTagged("ride_manifest", manifest), pretty: true) + "\n", "\(folder)")
            // The roughness report of its motion, with the 10 Hz series.
            let report = try RoughnessReport.make(path: folder + "/motion.csv")
            #expect(try report.json() == Self.encoderText(SchemaTagged("roughness", report), pretty: false) + "\n", "\(folder)")
        }
    }

    /// Issue 33: `roughness --json` wrote `"duration_s":182.50000000000003` and series times like
    /// `0.6000000000000001` — float dust from summing 0.1 s steps, no timing a sensor gave. The
    /// duration is rounded to 0.1 s (it counts 0.1 s windows) and window ends to the millisecond.
    @Test(.enabled(if: RideFixtures.mapAvailable, "Maps/monaco.srmap is absent"))
    func roughnessTimesCarryNoFloatDust() throws {
        try #require(RideFixtures.shippedRides.count == 4)
        /// Decimals in a number's shortest round-trip text (what `JSONText` writes).
        func decimals(_ x: Double) -> Int { "\(x)".split(separator: ".").dropFirst().first?.count ?? 0 }
        for folder in RideFixtures.shippedRides {
            let report = try RoughnessReport.make(path: folder + "/motion.csv")
            #expect(decimals(report.durationSeconds) <= 1, "\(folder): duration_s \(report.durationSeconds)")
            // Series window ends only: events keep their sensor timestamps (e.g. 289.80125 s at 800 Hz).
            let dusty = report.series.map(\.t).filter { decimals($0) > 3 }
            #expect(dusty.isEmpty, "\(folder): series t \(dusty.prefix(3))")
            // …and the document writes it so: "duration_s":465 or 182.5, never 182.50000000000003.
            let written = try report.json().split(separator: "\"duration_s\":").dropFirst().first?.prefix { $0 != "," && $0 != "}" } ?? ""
            #expect(!written.isEmpty && (written.split(separator: ".").dropFirst().first?.count ?? 0) <= 1, "\(folder): duration_s written as \(written)")
        }
    }

    @Test(.enabled(if: RideFixtures.mapAvailable, "Maps/monaco.srmap is absent"))
    func mapInfoIsJSONEncodersWithSlashesUnescaped() throws {
        let map = try #require(RideFixtures.map)
        let info = MapSummary(map: map)
        let json = try info.json()
        #expect(try json == Self.encoderText(SchemaTagged("map_info", info), pretty: true))
        #expect(json.contains("https://www.openstreetmap.org/copyright") && !json.contains("\\/"))
    }

    struct Sample: Codable, Equatable {
        var seed: UInt64
        var small: Int8
        var ratio: Float
        var maybe: Double?
        var present: Double?
        var nested: [String: [Int?]]
        var list: [Double]
        var empty: [Int]
        var emptyObject: [String: Int]
        var name: String
    }

    /// The encoder's corners: a UInt64 past Int64.max, Float in its own shortest form, an
    /// optional left out and one written, `nil` inside an array, empties pretty as JSONEncoder
    /// writes them, non-ASCII text raw.
    @Test func encoderCornersMatchJSONEncoder() throws {
        let v = Sample(seed: UInt64.max, small: -8, ratio: 0.1, maybe: nil, present: 2.5e-7, nested: ["b": [1, nil], "a": []],
                       list: [1, 1.5, -3, 1e20, 123456789012.25], empty: [], emptyObject: [:], name: "Rue Émile de Loth / 🛹")
        for pretty in [false, true] {
            #expect(try JSONText.text(of: v, pretty: pretty) == Self.encoderText(v, pretty: pretty), "pretty \(pretty)")
        }
        #expect(try JSONText.text(of: v).contains("\"seed\":18446744073709551615"))
    }

    /// Where the two writers differ, on purpose: control characters. JSONText escapes C0 with
    /// `\u00XX` (bar \n \r \t) and also DEL and C1 (issue 29 row 8: U+009B is a terminal's CSI).
    @Test func controlCharactersAreEscapedOneWay() throws {
        #expect(try JSONText.text(of: ["t": "a\u{8}b\u{9B}c/"]) == "{\"t\":\"a\\u0008b\\u009bc/\"}")
        #expect(try Self.encoderText(["t": "a\u{8}b\u{9B}c/"], pretty: false) == "{\"t\":\"a\\bb\u{9B}c/\"}")
    }
}
