import Foundation
import SkateTestSupport
import Testing
@testable import skateroute

/// The README's "Your own city" commands run in order, as a newcomer types them, on the real
/// Heidelberg extract and its SRTM tiles: `region.osm.pbf` stands for the extract and `~/srtm`
/// for the tile folder; every other word is the README's. Each command must succeed — the second
/// import (with the tiles) once failed, because the first had already taken the map's name and
/// the README did not say `--replace` (`ReadmeExamplesTests` skips these lines: they need the
/// reader's own extract).
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip), .enabled(if: TestData.available, TestData.skip))
struct ReadmeOwnCityTests {
    /// The heading of the README section whose first `sh` block is checked.
    static let heading = "## Your own city"

    /// The `skateroute …` commands of the section's first `sh` block, as words (comments cut).
    static func commands(in readme: String) -> [[String]] {
        guard let start = readme.range(of: heading) else { return [] }
        var out: [[String]] = []
        var inShell = false
        for raw in readme[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                if inShell { break }
                inShell = line.hasPrefix("```sh")
                continue
            }
            guard inShell, line.hasPrefix("skateroute") else { continue }
            var text = String(line.dropFirst("skateroute".count))
            if let hash = text.range(of: " #") { text = String(text[..<hash.lowerBound]) }
            out.append(ReadmeExamplesTests.shellWords(text))
        }
        return out
    }

    @Test func theOwnCityCommandsRunInOrderOnARealExtract() throws {
        let readme = try String(contentsOf: TestData.projectRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = Self.commands(in: readme)
        // Two imports (without and with the tiles), the library list, a search and a plan.
        #expect(commands.filter { $0.first == "import" }.count >= 2, "the section lost its imports: \(commands)")
        #expect(commands.contains { $0.first == "plan" }, "the section lost its plan")
        let home = TestData.temporaryDirectory("readme-city")
        defer { try? FileManager.default.removeItem(at: home) }
        let substitutions = ["region.osm.pbf": TestData.heidelbergPBF, "~/srtm": TestData.path("dem/srtm3-south-west-germany")]
        for words in commands {
            // `skateroute --map NAME` opens the TUI: not a command that prints and exits.
            guard let sub = words.first, !sub.hasPrefix("-") else { continue }
            let args = words.map { substitutions[$0] ?? $0 }
            var env: [String: String] = [:]
            for (key, folder) in [("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state")] {
                env[key] = home.appendingPathComponent(folder).path
            }
            let r = try BuiltCLI.run(args, environment: env)
            let line = "skateroute " + words.joined(separator: " ")
            #expect(r.status == 0, "\(line)\n→ exit \(r.status): \(r.stderr)")
            #expect(!r.stdout.isEmpty, "\(line) printed nothing")
            if sub == "maps" {
                // The second import put the tiles in: the library says which DEM the map has.
                #expect(r.stdout.contains("DEM N49E008"), "maps after the import with tiles: \(r.stdout)")
            }
        }
    }

    @Test func theNoDEMNoteNamesTheCommandThatAddsTheTiles() {
        let library = ImportCommand.noDEMNote(neededTiles: ["N49E008"], library: true)
        #expect(library.contains("--dem-dir FOLDER --replace"), "\(library)")
        #expect(library.contains("N49E008"))
        let file = ImportCommand.noDEMNote(neededTiles: ["N49E008", "N49E009"], library: false)
        #expect(!file.contains("--replace") && file.contains("them"), "\(file)")
    }
}
