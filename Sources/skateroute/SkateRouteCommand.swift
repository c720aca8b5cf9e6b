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
            ExportCommand.self, BenchCommand.self, PlacesCommand.self, SpotsCommand.self, RoutesCommand.self, StatsCommand.self,
        ],
        defaultSubcommand: TUICommand.self
    )

    /// Well-formed `plan` command lines skip ArgumentParser's start-up (see `PlanFastPath`);
    /// everything else, including every error and help text, goes through it.
    static func main() {
        if let request = PlanFastPath.parse(Array(CommandLine.arguments.dropFirst())) {
            do {
                try runPlan(request)
            } catch let code as ExitCode {
                Foundation.exit(code.rawValue)
            } catch {
                exit(withError: error)
            }
            Foundation.exit(0)
        }
        main(nil)
    }
}
