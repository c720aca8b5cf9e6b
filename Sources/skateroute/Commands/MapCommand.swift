import ArgumentParser

/// Placeholder until its issue lands.
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "map", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'map' is not available yet in this build")
    }
}
