import ArgumentParser

/// Placeholder until its issue lands.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "plan", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'plan' is not available yet in this build")
    }
}
