import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore

/// `skateroute config`: the effective settings and where each came from.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the effective settings (map, mode, palette, units, speed) and where each came from.",
        discussion: """
        Settings live in $XDG_CONFIG_HOME/skateroute/config (default ~/.config/skateroute/config), one \
        "key = value" a line, # for comments:
          map = heidelberg   mode = chillFewCrossings   palette = colorblind   units = imperial   speed = 4
        A flag on a command wins over the file; give one here to see its effect.
        """
    )
    @Option(help: "Map (a name from `skateroute maps` or a path).") var map: String?
    @Option(help: "Ride mode.") var mode: String?
    @Option(help: "Palette.") var palette: String?
    @Option(help: "Units: metric or imperial.") var units: String?
    @Option(help: "Ride replay speed, 0.25 to 60 (× real time).") var speed: Double?
    @Flag(help: "Print a JSON document.") var json = false

    func run() throws {
        let settings = try EffectiveSettings.load()
        let chosen = try MapChoice.choose(map, remember: false, settings: { settings.file })
        let mapValue = EffectiveValue(value: chosen.name ?? chosen.path, origin: chosen.origin == "default" ? "default (bundled)" : chosen.origin)
        let rows: [(String, EffectiveValue)] = [
            ("map", mapValue), ("mode", try settings.mode(flag: mode).1), ("palette", try settings.palette(flag: palette).1),
            ("units", try settings.units(flag: units).1), ("speed", try settings.speed(flag: speed).1),
        ]
        let path = Settings.filePath() ?? "(no $XDG_CONFIG_HOME or $HOME)"
        let state = settings.file.path != nil ? "" : " (absent)"
        if json {
            var fields: JSONObject = ["file": .string(path), "file_exists": .bool(settings.file.path != nil), "map_path": .string(chosen.path)]
            fields["settings"] = .object(JSONObject(pairs: rows.map { ($0.0, JSONText.object(["value": .string($0.1.value), "origin": .string($0.1.origin)])) }))
            CLIParse.emit(DocumentSchema.document("config", fields).text(pretty: true))
            return
        }
        for (key, v) in rows {
            print(TerminalSafe.clean("\(key.padded(toLength: 8)) = \(v.value)\(String(repeating: " ", count: max(1, 21 - v.value.count)))\(v.origin)"))
        }
        print(TerminalSafe.clean("settings file: \(path)\(state)"))
    }
}
