import Foundation
import SkateTestSupport
import Testing

/// The README's shell examples that touch only bundled data run as written: every
/// `swift run skateroute …` or `skateroute …` line of a ```sh block whose subcommand needs no terminal and no file
/// the reader must bring (their own extract, a path under `~`), against the built binary, from
/// the project root, with an empty data and config home. A rider who copies them gets what the
/// README promises: exit 0 and some output.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct ReadmeExamplesTests {
    /// Subcommands that print and exit (the rest open the TUI or need the rider's own files).
    static let printingSubcommands: Set<String> = [
        "plan", "map", "maps", "hazards", "places", "spots", "routes", "stats", "roughness",
        "search", "config", "--version", "--help",
    ]

    /// One README example: the words after `skateroute`, and the line it came from.
    struct Example { var words: [String]; var line: String }

    static func examples(in readme: String) -> [Example] {
        var out: [Example] = []
        var inShell = false
        var pending = ""
        for raw in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if raw.hasPrefix("```") { inShell = raw.hasPrefix("```sh"); pending = ""; continue }
            guard inShell else { continue }
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasSuffix("\\") { pending += String(line.dropLast()) + " "; continue }
            line = pending + line
            pending = ""
            // `swift run skateroute …` (from the checkout) and `skateroute …` (installed) alike.
            guard let prefix = ["swift run skateroute", "skateroute "].first(where: { line.hasPrefix($0) }) else { continue }
            if let hash = line.range(of: " #") { line = String(line[..<hash.lowerBound]) }
            let words = shellWords(String(line.dropFirst(prefix.count)))
            guard let sub = words.first, printingSubcommands.contains(sub) || (sub == "ride" && words.contains("--headless"))
            else { continue }
            // Examples on the reader's own files or own imported maps.
            if words.contains(where: { $0.hasPrefix("~") || $0.hasPrefix("my-") || $0.hasSuffix(".osm.pbf") || $0 == "--map" }) { continue }
            out.append(Example(words: words, line: line))
        }
        return out
    }

    /// Splits a line into words the way `sh` does for the plain quoting the README uses.
    static func shellWords(_ s: String) -> [String] {
        var words: [String] = [], cur = "", quote: Character? = nil, inWord = false
        for c in s {
            if let q = quote {
                if c == q { quote = nil } else { cur.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c; inWord = true
            } else if c == " " || c == "\t" {
                if inWord { words.append(cur); cur = ""; inWord = false }
            } else {
                cur.append(c); inWord = true
            }
        }
        if inWord { words.append(cur) }
        return words
    }

    @Test func shellWordsFollowQuotes() {
        #expect(Self.shellWords(#" plan --from "Jardin Exotique" --to 'a b'  x"#) == ["plan", "--from", "Jardin Exotique", "--to", "a b", "x"])
    }

    @Test func readmeExamplesRunAsWritten() throws {
        let root = TestData.projectRoot
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let examples = Self.examples(in: readme)
        // The README promises plans, rides, roughness, hazards and places: if the parser finds
        // fewer examples than that, it (or the README) broke.
        #expect(examples.count >= 8, "found only \(examples.count) runnable README examples")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        for ex in examples {
            let p = Process()
            p.executableURL = BuiltCLI.url!
            p.arguments = ex.words
            p.currentDirectoryURL = root
            var env = ProcessInfo.processInfo.environment
            env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
            env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
            env["SOURCE_DATE_EPOCH"] = "1780000000"
            p.environment = env
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            p.standardInput = FileHandle.nullDevice
            try p.run()
            let o = out.fileHandleForReading.readDataToEndOfFile()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(ex.line)\n→ exit \(p.terminationStatus): \(String(decoding: e, as: UTF8.self))")
            #expect(!o.isEmpty, "\(ex.line) printed nothing")
        }
    }
}
