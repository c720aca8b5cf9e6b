import ArgumentParser
import Foundation
import SkateCore
import SkateTUI

/// Opens the terminal UI (the default command).
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tui", abstract: "Open the terminal UI (the default).")
    @OptionGroup var mapOption: MapOption

    func run() throws {
        let map = try mapOption.load()
        do {
            let exit = try runTUI(map: map)
            if case .interrupted(let s) = exit, s != 0 { throw ExitCode(128 + s) }
        } catch let e as TUIError {
            printError(e.description)
            throw ExitCode(1)
        }
    }
}
