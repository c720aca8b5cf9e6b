import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateStore
import SkateTUI

/// Opens the terminal UI (the default command).
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tui", abstract: "Open the terminal UI (the default).")
    @OptionGroup var mapOption: MapOption
    @Option(name: .long, help: "Store folder for hazard reports and ratings. Default: $XDG_DATA_HOME/skateroute.")
    var dataDir: String?
    @Flag(name: .long, help: "Do not open the store: reports are not saved.")
    var noStore = false
    @Option(name: .long, help: "Folder of recorded rides to replay (folders holding ride.json).")
    var rides: String = "Rides"
    @Option(name: .long, help: "Simulation speed of rides, 0.25 to 60 (× real time). Default: the settings file's speed, else 1.")
    var speed: Double?
    @Option(name: .long, help: "Colours: standard, colorblind (Okabe-Ito) or high-contrast; C switches while running. Default: the settings file's palette, else standard.")
    var palette: String?
    @Flag(name: .long, help: "Ring the terminal bell on ride alerts (hazard ahead, saved place, spot).")
    var bell = false

    func run() throws {
        let settings = try EffectiveSettings.load()
        let speed = try settings.speed(flag: speed).0
        let map = try mapOption.loadForSession()  // a session outlives any file mapping
        let scheme = try settings.palette(flag: palette).0
        var options = TUIOptions(ridesDirectory: rides, rideSpeed: speed)
        options.scheme = scheme
        options.alertBell = bell
        options.mapIdentity = MapIdentity.of(path: try mapOption.path, map: map)
        options.mapPath = try mapOption.path
        options.maps = MapSwitcher.installed()
        options.views = MapViewMemory(read: { LastMapView.read(path: $0) }, record: { LastMapView.record($0, path: $1) })
        if noStore {
            options.storeProblem = "the store is off (--no-store)"
        } else {
            let dir = dataDir.map { URL(fileURLWithPath: $0) } ?? StorePaths.defaultDataDir()
            do {
                options.store = try SkateStore(dataDir: dir)
                options.rideLogDirectory = dir.appendingPathComponent("rides").path
            } catch {
                // The UI still works without a store; reports say why they are not saved.
                options.storeProblem = TerminalSafe.clean("\(error)")
            }
        }
        do {
            let exit = try runTUI(map: map, options: options)
            if case .interrupted(let s) = exit, s != 0 { throw ExitCode(128 + s) }
        } catch let e as TUIError {
            printError(e.description)
            throw ExitCode(1)
        }
    }
}

extension MapSwitcher {
    /// The library's maps (`skateroute maps`); opening one by name makes it the last used map.
    static func installed() -> MapSwitcher {
        MapSwitcher(list: {
            let library = MapLibrary.standard()
            return library.entries().map { MapListRow(name: TerminalSafe.clean($0.name), detail: $0.origin.rawValue, path: $0.path) }
        }, open: { path in
            let map = try MapFormat.loadForSession(path: path)
            if let e = MapLibrary.standard().entries().first(where: { $0.path == path }) { LastUsedMap.record(e.name) }
            return (map, MapIdentity.of(path: path, map: map))
        })
    }
}
