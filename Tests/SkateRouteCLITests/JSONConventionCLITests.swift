import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Interop 5: one machine-readable convention. Every JSON document a command writes (stdout or a
/// file) is an object with a `schema` field (`skateroute.<kind>/<n>`) and snake_case keys; `--json`
/// means "the JSON document on stdout instead of the text" in every command that has it.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct JSONConventionCLITests {
    static let bundled = TestData.bundledMonaco
    static let ride = TestData.projectRoot.appendingPathComponent("Rides/old-town-rocher").path
    static let now = "2026-05-01T12:00:00Z"

    /// Objects whose keys are data (surface tags, reasons in words, class labels), not field names.
    static let dataKeyed: Set<String> = ["length_m_by_surface", "length_m_by_access_reason", "classes", "units"]

    /// Keys that are not snake_case (lower-case ASCII letters, digits and underscores), with their path.
    static func badKeys(_ value: Any, path: String = "$") -> [String] {
        if let o = value as? [String: Any] {
            var bad: [String] = []
            for (k, v) in o {
                let snake = !k.isEmpty && k.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
                if !snake { bad.append("\(path).\(k)") }
                if !dataKeyed.contains(k) { bad += badKeys(v, path: "\(path).\(k)") }
            }
            return bad
        }
        if let a = value as? [Any] { return a.enumerated().flatMap { badKeys($1, path: "\(path)[\($0)]") } }
        return []
    }

    /// Checks one document; returns its schema name.
    @discardableResult
    static func check(_ text: String, _ label: String) throws -> String {
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(label): not a JSON object: \(text.prefix(200))")
        let schema = obj["schema"] as? String ?? ""
        #expect(schema.hasPrefix("skateroute.") && schema.contains("/"), "\(label): schema '\(schema)'")
        let bad = badKeys(obj)
        #expect(bad.isEmpty, "\(label): keys not in snake_case: \(bad.prefix(10))")
        return schema
    }

    @Test func everyJSONDocumentHasASchemaAndSnakeCaseKeys() throws {
        let dir = TestData.temporaryDirectory("json-convention")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = ["--data-dir", dir.path]
        func run(_ args: [String]) throws -> BuiltCLI.Result {
            let r = try BuiltCLI.run(args, environment: ["SOURCE_DATE_EPOCH": "1777636800"])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            return r
        }
        // Fill a store: a hazard, a place, a saved route, a ride log.
        _ = try run(["hazards", "add", "--kind", "pothole", "--at", "43.7384,7.4246", "--reporter", "tester", "--map", Self.bundled, "--now", Self.now] + data)
        _ = try run(["places", "add", "Home", "--at", "43.7310,7.4190", "--category", "home"] + data)
        let planArgs = ["plan", "--from", "Place du Casino", "--to", "Stade Louis II", "--map", Self.bundled, "--alternatives", "1", "--now", Self.now] + data
        let plan = try run(planArgs + ["--json"])
        let planFile = dir.appendingPathComponent("p.json")
        try plan.stdout.write(to: planFile, atomically: true, encoding: .utf8)
        _ = try run(["routes", "save", "Casino run", "--plan", planFile.path, "--map", Self.bundled] + data)
        let rides = dir.appendingPathComponent("rides")
        let log = rides.appendingPathComponent("r.ndjson").path
        let ride = try run(["ride", Self.ride, "--json", "--map", Self.bundled, "--log", log] + data)
        let synthDir = dir.appendingPathComponent("synth").path
        _ = try run(["synth", "--from", "Place du Casino", "--to", "Stade Louis II", "--seed", "1", "--out", synthDir, "--map", Self.bundled])
        let motion = Self.ride + "/motion.csv"
        let evalDir = dir.appendingPathComponent("eval")
        for label in ["alpha", "beta"] {
            let sub = evalDir.appendingPathComponent(label)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: motion, toPath: sub.appendingPathComponent("m.csv").path)
        }

        var documents: [(String, String)] = [
            ("plan --json", plan.stdout),
            ("plan --format json", try run(planArgs + ["--format", "json"]).stdout),
            ("plan --format geojson", try run(planArgs + ["--format", "geojson"]).stdout),
            ("hazards list --json", try run(["hazards", "list", "--json", "--now", Self.now] + data).stdout),
            ("hazards export --geojson", try run(["hazards", "export", "--geojson", "--now", Self.now] + data).stdout),
            ("spots --json", try run(["spots", "--json", "--map", Self.bundled] + data).stdout),
            ("search --json", try run(["search", "Stade Louis II", "--json", "--map", Self.bundled]).stdout),
            ("places list --json", try run(["places", "list", "--json"] + data).stdout),
            ("places recent --json", try run(["places", "recent", "--json"] + data).stdout),
            ("routes list --json", try run(["routes", "list", "--json"] + data).stdout),
            ("routes show --json", try run(["routes", "show", "Casino run", "--json", "--map", Self.bundled] + data).stdout),
            ("stats --json", try run(["stats", "--json", "--rides", rides.path] + data).stdout),
            ("map info --json", try run(["map", "info", "--json", "--map", Self.bundled]).stdout),
            ("ride --json", ride.stdout),
            ("roughness --json", try run(["roughness", motion, "--json", "--summary"]).stdout),
            ("roughness --evaluate --json", try run(["roughness", "--evaluate", evalDir.path, "--json"]).stdout),
            ("export disagreements", try run(["export", "disagreements", "--ride-log", log, "--map", Self.bundled] + data).stdout),
        ]
        for name in ["ride.json", "plan.json"] {
            documents.append(("synth \(name)", try String(contentsOfFile: synthDir + "/" + name, encoding: .utf8)))
        }
        var schemas: [String: String] = [:]
        for (label, text) in documents { schemas[label] = try Self.check(text, label) }
        #expect(schemas["plan --json"] == "skateroute.plan/1" && schemas["ride --json"] == "skateroute.ride/1", "\(schemas)")
        #expect(plan.stdout == documents[1].1, "--json is --format json, byte for byte")

        // The same commands without --json print text, not JSON.
        for args in [planArgs, ["hazards", "list", "--now", Self.now] + data, ["spots", "--map", Self.bundled] + data,
                     ["places", "list"] + data, ["routes", "list"] + data, ["stats", "--rides", rides.path] + data,
                     ["map", "info", "--map", Self.bundled], ["roughness", motion, "--summary"]] {
            let text = try run(args).stdout
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) == nil, "\(args) without --json printed JSON")
        }
        // --json beside another --format is a usage error.
        let clash = try BuiltCLI.run(planArgs + ["--json", "--format", "gpx"])
        #expect(clash.status == 64 && clash.stderr.contains("--json"), "\(clash.status) \(clash.stderr)")
    }
}
