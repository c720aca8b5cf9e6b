import ArgumentParser

/// Opens the terminal UI. Until the TUI lands, says what to run instead.
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tui", abstract: "Open the terminal UI (the default).")
    @OptionGroup var mapOption: MapOption

    func run() throws {
        let map = try mapOption.load()
        print("""
        SkateRoute — the TUI is not built yet. Map \(map.metadata.name): \(map.nodeCount) nodes, \(map.edgeCount) edges.
        Try:  skateroute map info        (what the bundled map holds)
              skateroute import --help   (compile your own city)
        """)
    }
}
