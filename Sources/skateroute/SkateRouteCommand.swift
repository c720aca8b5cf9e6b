import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore

/// `skateroute`: the terminal navigator for skateboards. With no subcommand it opens the TUI on
/// the bundled default map.
@main
struct SkateRouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skateroute",
        abstract: "A terminal navigator for skateboards and other small hard wheels.",
        discussion: "With no subcommand, opens the TUI on the bundled Monaco map.",
        version: SkateRouteVersion.text,
        subcommands: [
            TUICommand.self, ImportCommand.self, MapsCommand.self, ConfigCommand.self, MapCommand.self, PlanCommand.self, RideCommand.self,
            SynthCommand.self, RoughnessCommand.self, HazardsCommand.self, RateCommand.self,
            ExportCommand.self, BenchCommand.self, PlacesCommand.self, SearchCommand.self, SpotsCommand.self, RoutesCommand.self, StatsCommand.self,
            DownhillsCommand.self,
        ],
        defaultSubcommand: TUICommand.self
    )

    /// Well-formed `plan` command lines skip ArgumentParser's start-up (see `PlanFastPath`);
    /// everything else, including every error and help text, goes through it. Error text (which
    /// quotes the user's values) passes through the one terminal sanitizer on its way out.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Once, before any command (and the TUI's first frame): every text output follows it.
        UnitSystem.processDefault = EffectiveSettings.startupUnits()
        if let request = PlanFastPath.parse(arguments) {
            do {
                try runPlan(request)
            } catch let code as ExitCode {
                Glibc.exit(code.rawValue)
            } catch {
                exitSanitized(error)
            }
            exitCheckingOutput(0)
        }
        if let word = unknownSubcommand(arguments) {
            let names = configuration.subcommands.compactMap { $0.configuration.commandName }.joined(separator: ", ")
            let all = configuration.subcommands.compactMap { $0.configuration.commandName }
            let hint = TextSuggestion.closest(word, among: all).map { " (did you mean '\($0)'?)" } ?? ""
            printError("skateroute: unknown command '\(TerminalSafe.quoted(word, maxLength: 60))'\(hint); commands: \(names) (see skateroute --help)")
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let e as InputPathError {
            // An input file a reader refused (not regular, a line past the limit): the one-line form.
            printError("skateroute: \(TerminalSafe.clean(e.description))")
            Glibc.exit(1)
        } catch {
            exitSanitized(error)
        }
        exitCheckingOutput(0)
    }

    /// The first argument when it is a bare word that names no subcommand: without this check the
    /// default (TUI) command would take it and answer with its own usage text.
    static func unknownSubcommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let known = Set(configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"])
        return known.contains(first) ? nil : first
    }

    /// Exits as ArgumentParser would for `error` (help and version on stdout with status 0, usage
    /// errors with 64), with error text cleaned of control characters first.
    static func exitSanitized(_ error: Error) -> Never {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            exitCheckingOutput(0)
        } else if !message.isEmpty {
            printError(TerminalSafe.cleanLines(message))
        }
        Glibc.exit(code.rawValue)
    }
}
