import ArgumentParser

/// Placeholder until its issue lands.
struct HazardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "hazards", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'hazards' is not available yet in this build")
    }
}
