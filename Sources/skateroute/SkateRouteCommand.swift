import ArgumentParser
import Foundation
import SkateCore

/// `skateroute`: the terminal navigator for skateboards. With no subcommand it opens the TUI on
/// the bundled default map.
@main
struct SkateRouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skateroute",
        abstract: "A terminal navigator for skateboards and other small hard wheels.",
        discussion: "With no subcommand, opens the TUI on the bundled Monaco map.",
        subcommands: [
            TUICommand.self, ImportCommand.self, MapCommand.self, PlanCommand.self, RideCommand.self,
            SynthCommand.self, RoughnessCommand.self, HazardsCommand.self, RateCommand.self,
            ExportCommand.self, BenchCommand.self,
        ],
        defaultSubcommand: TUICommand.self
    )
}
