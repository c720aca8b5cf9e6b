import ArgumentParser

/// Placeholder until its issue lands.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'export' is not available yet in this build")
    }
}
