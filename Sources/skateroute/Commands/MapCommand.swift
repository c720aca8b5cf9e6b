import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore

/// `skateroute map …`: facts about a compiled map.
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Facts about a compiled map.",
        subcommands: [MapInfoCommand.self, MapVerifyCommand.self],
        defaultSubcommand: MapInfoCommand.self
    )
}

struct MapInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Node and edge counts, bbox, elevation, rideable length by surface, attribution."
    )
    @OptionGroup var mapOption: MapOption
    @Flag(help: "Print JSON (keys sorted).") var json = false

    func run() throws {
        let map = try mapOption.load()
        let summary = MapSummary(map: map)
        if json { print(try summary.json()) } else { print(TerminalSafe.cleanLines(summary.text()), terminator: "") }
    }
}

/// `skateroute map verify`: hashes the whole file against its checksum and runs every structural
/// check, whatever an earlier load recorded (plans hash a file only on its first use).
struct MapVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a map file's checksum and structure now; one line either way."
    )
    @OptionGroup var mapOption: MapOption

    func run() throws {
        let path = try mapOption.path
        do {
            let map = try MapFormat.load(path: path, verification: .always)
            print(TerminalSafe.clean("\(path): ok (checksum and structure; \(map.nodeCount) nodes, \(map.edgeCount) edges)"))
        } catch let e as MapFileError {
            throw fail(e.description)
        }
    }
}
