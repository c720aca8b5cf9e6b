import ArgumentParser
import Foundation
import SkateCore
import SkateStore

/// `skateroute export …`: data for others (mappers).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export what rides learned, for mappers.",
        subcommands: [ExportDisagreementsCommand.self]
    )
}

/// `skateroute export disagreements`: edges whose measured roughness contradicts their tags.
struct ExportDisagreementsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disagreements",
        abstract: "GeoJSON of edges whose measured roughness contradicts their OSM smoothness/surface tags."
    )
    @Option(help: "Write to this file instead of stdout.") var output: String?
    @OptionGroup var store: StoreOptions
    @OptionGroup var mapOption: MapOption

    func run() throws {
        let now = try store.instant()
        let map = try mapOption.load()
        let db = try store.open()
        let items = try CLIParse.store { try db.disagreements(for: map, now: now) }
        let text = StoreExports.disagreementsGeoJSON(items, map: map).text(pretty: true) + "\n"
        if let path = output {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw fail("\(path): cannot write: \((error as NSError).localizedDescription)")
            }
            printError("\(items.count) disagreement\(items.count == 1 ? "" : "s") written to \(path)")
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
