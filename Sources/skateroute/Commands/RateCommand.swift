import ArgumentParser

/// Placeholder until its issue lands.
struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rate", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'rate' is not available yet in this build")
    }
}
