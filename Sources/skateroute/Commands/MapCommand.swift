import ArgumentParser
import Foundation
import SkateCore

/// `skateroute map …`: facts about a compiled map.
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Facts about a compiled map.",
        subcommands: [MapInfoCommand.self],
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
        if json { print(try summary.json()) } else { print(Sanitize.lines(summary.text()), terminator: "") }
    }
}
