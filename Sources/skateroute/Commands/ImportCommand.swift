import ArgumentParser

/// Placeholder until its issue lands.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'import' is not available yet in this build")
    }
}
