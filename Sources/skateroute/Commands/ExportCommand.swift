import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateRide
import SkateStore

/// `skateroute export …`: data for others (mappers).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export rides as GPX, and what rides learned, for mappers.",
        subcommands: [ExportRideCommand.self, ExportDisagreementsCommand.self]
    )
}

/// `skateroute export disagreements`: edges whose measured roughness contradicts their tags.
struct ExportDisagreementsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disagreements",
        abstract: "GeoJSON of edges whose measured roughness contradicts their OSM smoothness/surface tags.",
        discussion: """
        From the store (what --learn rides wrote), or with --ride-log FILE (repeatable) from fresh \
        ride logs (schema 2): each edge's passes are combined by their median RMS, keyed by OSM way \
        and end nodes so a rebuilt map still finds them.
        """
    )
    @Option(help: "Write to this file instead of stdout.") var output: String?
    @Option(name: .customLong("ride-log"), help: "A ride log (NDJSON) to read measured roughness from instead of the store; repeatable.") var rideLogs: [String] = []
    @OptionGroup var store: StoreOptions
    @OptionGroup var mapOption: MapOption

    func run() throws {
        let map = try mapOption.load()
        let items: [SurfaceDisagreement]
        if rideLogs.isEmpty {
            let now = try store.instant()
            let db = try store.open()
            items = try CLIParse.store { try db.disagreements(for: map, now: now) }
        } else {
            var passes: [EdgeKey: [Double]] = [:]
            for path in rideLogs {
                do {
                    for p in try RideLogReader.edgePasses(path: path).passes {
                        guard let r = p.rms else { continue }
                        passes[EdgeKey(wayId: p.wayId, fromNode: p.fromNode, toNode: p.toNode), default: []].append(r)
                    }
                } catch {
                    throw fail(TerminalSafe.clean("\(error)"))
                }
            }
            var measured: [EdgeKey: EdgeObservation] = [:]
            for (k, v) in passes {
                let s = v.sorted()
                let median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
                measured[k] = EdgeObservation(rms: median, source: .measured, freshness: 1, count: s.count)
            }
            items = SurfaceDisagreement.find(measured: measured, map: map)
            printError("\(passes.count) measured edge(s) in \(rideLogs.count) ride log(s)")
        }
        let text = StoreExports.disagreementsGeoJSON(items, map: map).text(pretty: true) + "\n"
        if let path = output {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw fail("\(path): cannot write: \(ErrorText.describe(error))")
            }
            printError("\(items.count) disagreement\(items.count == 1 ? "" : "s") written to \(path)")
        } else {
            StandardStreams.writeOutput(text)
        }
    }
}

/// `skateroute export ride LOG`: a ride log as a GPX 1.1 track (time, elevation, speed, roughness).
struct ExportRideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ride",
        abstract: "A ride log (NDJSON) as a GPX 1.1 track.",
        discussion: """
        One track point per logged fix with its time and, where the log matched the map's edge, \
        its elevation; ground speed (m/s) and the roughness class go into extensions in SkateRoute's \
        namespace (\(RideLogGPX.namespace)): <sr:speed>, <sr:roughness>. Elevations come from --map \
        (default: the bundled map) when the log's edges belong to it.
        """
    )
    @Argument(help: "The ride log (NDJSON) written by `skateroute ride`.", completion: .file(extensions: ["ndjson"])) var log: String
    @Option(help: "Write to this file instead of stdout.", completion: .file(extensions: ["gpx"])) var out: String?
    @OptionGroup var mapOption: MapOption
    @OptionGroup(title: "Privacy (on by default)") var privacy: ExportPrivacyOptions

    func run() throws {
        // Elevations from the map: a given --map must load; the bundled default is optional.
        let map = mapOption.map != nil ? try mapOption.load() : (try? MapFormat.load(path: try mapOption.path))
        let read: (header: RideLogHeader, points: [RideLogGPX.Point])
        do {
            read = try RideLogGPX.read(path: log, map: map)
        } catch {
            throw fail("\(error)")
        }
        // Privacy trims and downsampling happen before anything is written (PrivacyTrim).
        let (points, note) = try privacy.apply(read.points)
        if let note { printError(note) }
        let text = RideLogGPX.gpx(header: read.header, points: points)
        if let path = out {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw fail("\(path): cannot write: \(ErrorText.describe(error))")
            }
            let withEle = points.filter { $0.elevation != nil }.count
            printError("\(points.count) track point(s), \(withEle) with elevation, written to \(path)")
        } else {
            StandardStreams.writeOutput(text)
        }
    }
}
