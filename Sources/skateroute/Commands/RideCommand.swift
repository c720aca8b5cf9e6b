import ArgumentParser

/// Placeholder until its issue lands.
struct RideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ride", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'ride' is not available yet in this build")
    }
}
