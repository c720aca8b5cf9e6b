import ArgumentParser

/// Placeholder until its issue lands.
struct RoughnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "roughness", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'roughness' is not available yet in this build")
    }
}
