import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// `places`, `spots` and saved names in `plan`, run as the rider would on the bundled Monaco map.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct PlacesCLITests {
    static let bundled = TestData.bundledMonaco

    func run(_ args: [String], _ dir: URL) throws -> BuiltCLI.Result {
        try BuiltCLI.run(args + ["--data-dir", dir.path])
    }

    func expectOneLineError(_ r: BuiltCLI.Result, mentioning needle: String, status: Int32 = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "exit \(r.status), stderr: \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1, "stderr was: \(r.stderr.prefix(300))", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(needle), "stderr was: \(r.stderr.prefix(300))", sourceLocation: sourceLocation)
        #expect(!r.stderr.contains("\u{1B}"), sourceLocation: sourceLocation)
        #expect(r.stderr.count < 300, "one short line, not the whole name", sourceLocation: sourceLocation)
    }

    @Test func savedNamesPlanAndBecomeRecents() throws {
        let dir = TestData.temporaryDirectory("places-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        // "Casino" is also a map name: the saved place must win and be marked.
        let add = try run(["places", "add", "Casino", "--at", "43.7310,7.4190", "--category", "home", "--now", "2026-11-01T10:00:00Z"], dir)
        #expect(add.status == 0, "\(add.stderr)")
        let work = try run(["places", "add", "Work", "--here-from", "Stade Louis II", "--category", "work", "--map", Self.bundled], dir)
        #expect(work.status == 0, "\(work.stderr)")
        let plan = try run(["plan", "--from", "casino", "--to", "work", "--map", Self.bundled, "--now", "2026-11-02T10:00:00Z"], dir)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.hasPrefix("Casino (saved) → Work (saved)"), "\(plan.stdout.prefix(200))")
        // Same plan from the typed coordinates: the saved place really is where it says.
        let byCoords = try run(["plan", "--from", "43.7310,7.4190", "--to", "Stade Louis II", "--map", Self.bundled, "--no-store", "--format", "json"], dir)
        let bySaved = try run(["plan", "--from", "Casino", "--to", "Work", "--map", Self.bundled, "--format", "json"], dir)
        let d1 = try #require(try JSONSerialization.jsonObject(with: Data(byCoords.stdout.utf8)) as? [String: Any])["distance_m"] as? Double
        let d2 = try #require(try JSONSerialization.jsonObject(with: Data(bySaved.stdout.utf8)) as? [String: Any])["distance_m"] as? Double
        #expect(abs((d1 ?? 0) - (d2 ?? 1)) < 30, "\(String(describing: d1)) vs \(String(describing: d2))")
        // --no-store ignores saved places: "casino" is the map's Casino then.
        let noStore = try run(["plan", "--from", "casino", "--to", "Stade Louis II", "--map", Self.bundled, "--no-store"], dir)
        #expect(noStore.status == 0 && !noStore.stdout.contains("(saved)"), "\(noStore.stdout.prefix(200))")
        let recent = try run(["places", "recent", "--json"], dir)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(recent.stdout.utf8)) as? [String: Any])
        let list = try #require(doc["recent"] as? [[String: Any]])
        #expect(list.first?["name"] as? String == "Work", "\(recent.stdout)")
        #expect(!list.contains { $0["name"] as? String == "Stade Louis II" }, "--no-store plans leave no recents")
    }

    @Test func badPlaceInputIsOneLine() throws {
        let dir = TestData.temporaryDirectory("places-cli-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try run(["places", "add", "Home", "--at", "43.73,7.42"], dir).status == 0)
        expectOneLineError(try run(["places", "add", "HOME", "--at", "43.73,7.42"], dir), mentioning: "already exists")
        expectOneLineError(try run(["places", "add", String(repeating: "\u{1B}[31mx", count: 2_000), "--at", "43.73,7.42"], dir),
                           mentioning: "characters long")
        expectOneLineError(try run(["places", "add", "Shed", "--at", "43.73,7.42", "--category", "garage"], dir), mentioning: "unknown category")
        expectOneLineError(try run(["places", "add", "Shed"], dir), mentioning: "--at")
        // An out-of-range "lat,lon" is a usage error (exit 64, the CLI's convention).
        expectOneLineError(try run(["places", "add", "Shed", "--at", "95,7"], dir), mentioning: "lat,lon", status: 64)
        expectOneLineError(try run(["places", "rm", "Nowhere"], dir), mentioning: "no saved place")
        let evil = try run(["places", "add", "\u{1B}]0;pwned\u{07}Ledge \u{1B}[1mSet", "--at", "43.735,7.42", "--category", "spot"], dir)
        #expect(evil.status == 0 && evil.stdout.contains("'Ledge Set'"), "\(evil.stdout)\(evil.stderr)")
        let list = try run(["places", "list"], dir)
        #expect(list.stdout.contains("Ledge Set  [spot, private]") && !list.stdout.contains("\u{1B}"))
    }

    @Test func spotsOnMonacoListSkateparksAndSquaresAndOwnSpots() throws {
        let dir = TestData.temporaryDirectory("spots-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try run(["places", "add", "Secret Ledge", "--at", "43.7330,7.4150", "--category", "spot"], dir).status == 0)
        let r = try run(["spots", "--json", "--near", "Stade Louis II", "--radius", "2000", "--map", Self.bundled], dir)
        #expect(r.status == 0, "\(r.stderr)")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let spots = try #require(obj["spots"] as? [[String: Any]])
        let kinds = Set(spots.compactMap { $0["kind"] as? String })
        #expect(kinds.contains("skatepark") && kinds.contains("square") && kinds.contains("own"), "\(kinds)")
        let d = spots.compactMap { $0["distance_m"] as? Double }
        #expect(d == d.sorted() && (d.last ?? 9e9) <= 2000, "nearest first, within the radius")
        let own = try #require(spots.first { $0["kind"] as? String == "own" })
        #expect(own["private"] as? Bool == true && own["name"] as? String == "Secret Ledge")
        // Without the store, only the map's spots.
        let mapOnly = try run(["spots", "--no-store", "--map", Self.bundled], dir)
        #expect(mapOnly.status == 0 && !mapOnly.stdout.contains("Secret Ledge") && mapOnly.stdout.contains("[leisure=skatepark]"))
    }
}
