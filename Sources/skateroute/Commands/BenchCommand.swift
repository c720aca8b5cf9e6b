import ArgumentParser

/// Placeholder until its issue lands.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'bench' is not available yet in this build")
    }
}
