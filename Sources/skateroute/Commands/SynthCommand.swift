import ArgumentParser

/// Placeholder until its issue lands.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "synth", abstract: "(not yet available)", shouldDisplay: false)
    func run() throws {
        throw fail("'synth' is not available yet in this build")
    }
}
