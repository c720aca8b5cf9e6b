import Foundation
import SkateCore
import SkateImport
import SkateTestSupport
import Testing

/// `skateroute search`, ambiguous plan ends and the from/to block of every plan output, on the
/// bundled Monaco map (docs/place-search.md).
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct SearchCLITests {
    static let bundled = TestData.bundledMonaco

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func searchListsRankedCandidatesWithTowns() throws {
        let r = try BuiltCLI.run(["search", "Stade Louis II", "--json", "--limit", "3", "--map", Self.bundled])
        #expect(r.status == 0, "\(r.stderr)")
        let o = try json(r.stdout)
        #expect(o["resolution"] as? String == "found")
        let list = try #require(o["candidates"] as? [[String: Any]])
        #expect(list.count == 3)
        for c in list {
            for key in ["name", "kind", "town", "lat", "lon", "score", "match"] { #expect(c[key] != nil, "\(key) in \(c)") }
            #expect((c["town"] as? String)?.hasSuffix("Monaco") == true, "\(c)")
        }
        // Text: one numbered line per candidate and the verdict.
        let t = try BuiltCLI.run(["search", "cafe", "--map", Self.bundled])
        #expect(t.status == 0 && t.stdout.hasPrefix("1. ") && t.stdout.contains("ambiguous between"), "\(t.stdout.prefix(300))")
        let bad = try BuiltCLI.run(["search", "cafe", "--limit", "0", "--map", Self.bundled])
        #expect(bad.status == 64, "\(bad.stderr)")
    }

    @Test func anAmbiguousEndListsTownsAndDistancesAndNearSettlesIt() throws {
        let r = try BuiltCLI.run(["plan", "--from", "cafe", "--to", "Stade Louis II", "--map", Self.bundled, "--no-store"])
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("is ambiguous") && r.stderr.contains("Monaco") && (r.stderr.contains(" km)") || r.stderr.contains(" m)")), "\(r.stderr)")
        let near = try BuiltCLI.run(["plan", "--from", "cafe", "--near", "Place du Casino", "--to", "Stade Louis II", "--map", Self.bundled, "--no-store", "--json"])
        #expect(near.status == 0, "\(near.stderr)")
        let from = try #require(try json(near.stdout)["from"] as? [String: Any])
        // The cafe nearest Place du Casino (43.7394, 7.4274): Café de Paris, across the square.
        #expect(from["name"] as? String == "Café de Paris", "\(from)")
    }

    @Test func everyPlanFormatSaysWhatTheEndsResolvedTo() throws {
        let base = ["plan", "--from", "Place du Casino", "--to", "43.7275,7.4155", "--map", Self.bundled, "--no-store"]
        let o = try json(try BuiltCLI.run(base + ["--format", "json"]).stdout)
        let from = try #require(o["from"] as? [String: Any]), to = try #require(o["to"] as? [String: Any])
        #expect(from["name"] as? String == "Place du Casino" && from["match"] as? String == "exact" && (from["town"] as? String)?.hasSuffix("Monaco") == true, "\(from)")
        #expect(abs((from["lat"] as? Double ?? 0) - 43.7394) < 0.001, "\(from)")
        #expect(to["match"] as? String == "coordinate" && to["lat"] as? Double == 43.7275, "\(to)")
        let g = try json(try BuiltCLI.run(base + ["--format", "geojson"]).stdout)
        #expect((g["from"] as? [String: Any])?["name"] as? String == "Place du Casino")
        let gpx = try BuiltCLI.run(base + ["--format", "gpx"]).stdout
        #expect(gpx.contains("<name>Place du Casino</name><desc>square, ") && gpx.contains("<type>from</type>") && gpx.contains("<type>to</type>"), "\(gpx.prefix(600))")
        let text = try BuiltCLI.run(base).stdout
        #expect(text.split(separator: "\n").dropFirst().first?.hasPrefix("from: Place du Casino (square, ") == true, "\(text.prefix(300))")
    }
}

/// `skateroute search` on places a town cannot tell apart (docs/place-search.md): Bammental's two
/// Hauptstraßen on the real Heidelberg extract. It used to advise "add a town" for a text that
/// already named the town; now it names a street near each and gives `plan`'s advice.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip), .enabled(if: TestData.available, TestData.skip))
struct SearchLikeNamedCLITests {
    @Test func likeNamedStreetsOfOneTownAreToldApartInTheVerdict() throws {
        let dir = TestData.temporaryDirectory("search-alike")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("heidelberg.srmap").path
        let (map, _) = try MapImporter.compile(osmPath: TestData.heidelbergPBF, demPaths: [], options: ImportOptions(name: "Heidelberg"))
        try MapFormat.write(map, to: path)
        let r = try BuiltCLI.run(["search", "Hauptstraße, Bammental", "--map", path])
        #expect(r.status == 0, "\(r.stderr)")
        let verdict = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(verdict.hasPrefix("ambiguous between"), "\(verdict)")
        #expect(!verdict.contains("add a town"), "the town is given and cannot tell them apart: \(verdict)")
        // Each street by a street near it and its position, which plan --from takes as it is.
        #expect(verdict.contains("Hauptstraße near ") && verdict.contains("49.3465") && verdict.contains("49.3569"), "\(verdict)")
        #expect(verdict.contains("--near \"STREET, TOWN\""), "\(verdict)")
        // A text whose places a town does tell apart keeps the town advice.
        let monaco = try BuiltCLI.run(["search", "cafe", "--map", TestData.bundledMonaco])
        #expect(monaco.stdout.split(separator: "\n").last?.contains("add a town") == true, "\(monaco.stdout.suffix(200))")
    }
}
