import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateRide

/// `skateroute synth`: a synthetic ride (GPX + 100 Hz motion + plan + manifest) along a planned route.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Synthesise a ride along a planned route (GPX, 100 Hz motion, plan, ride.json).",
        discussion: """
        The rider follows the plan's speed profile with pushes; GPS fixes at 1 Hz carry a correlated \
        Gauss–Markov error (3 m per axis, 20 s correlation) and rare 20–40 m outliers; motion is \
        ISO 8608 road vibration for each street's expected roughness. Same seed, same files. \
        Plans use map tags only (no store), so a ride is reproducible anywhere.
        """
    )

    @Option(parsing: .unconditional, help: "Start: a place name or \"lat,lon\".") var from: String
    @Option(parsing: .unconditional, help: "Destination: a place name or \"lat,lon\".") var to: String
    @Option(help: "Ride mode: \(RideMode.allCases.map(\.rawValue).joined(separator: "|")).") var mode: String = RideMode.smoothest.rawValue
    @Option(help: "Random seed.") var seed: UInt64 = 1
    @Flag(help: "Leave the route at a junction for 150–300 m, then continue (exercises rerouting).") var detour = false
    @Option(help: "Output folder (created).") var out: String
    @Option(help: "Title stored in ride.json.") var title: String?
    @Option(help: "Ride start time (ISO 8601).") var start: String = "2026-05-01T10:00:00Z"
    @OptionGroup var mapOption: MapOption

    func run() throws {
        guard let rideMode = RideMode(rawValue: mode) else {
            throw fail(unknownModeMessage(mode))
        }
        let startDate = try parseNow(start)
        let map = try mapOption.load()
        let planner = Planner(map: map)
        let search = PlaceSearch(map: map)
        let a = try resolvePlace(from, search: search, role: "start")
        let b = try resolvePlace(to, search: search, role: "destination")
        var options = SynthOptions(from: a.at, to: b.at, mode: rideMode, seed: seed, detour: detour)
        options.startEpoch = startDate.timeIntervalSince1970.rounded()
        let command = (["skateroute"] + CommandLine.arguments.dropFirst()).map(Self.shellQuote).joined(separator: " ")
        let ride: SynthRide
        do {
            ride = try RideSynthesizer.write(planner: planner, options: options, folder: out, mapName: map.metadata.name,
                                             title: title ?? "\(a.name) → \(b.name)", command: command)
        } catch let e as RoutingError {
            throw fail(e.description)
        } catch let e as SynthError {
            throw fail(e.description)
        }
        var line = String(printf: "synth: %@ → %@, %.0f m planned, %.0f m ridden, %d s, %d fixes (%d outliers), %d motion samples",
                          TerminalSafe.clean(a.name), TerminalSafe.clean(b.name), ride.plan.distance, ride.riderPlan.distance,
                          Int(ride.duration.rounded()), ride.fixes.count, ride.outliers, ride.motionSamples)
        if let d = ride.detour { line += String(printf: "; detour %.0f–%.0f m", d.lowerBound, d.upperBound) }
        print(line)
        print("wrote \(out)/\(RideManifest.fileName)")
    }

    /// Quotes an argument for a POSIX shell when it needs it.
    static func shellQuote(_ s: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@".unicodeScalars)
        if !s.isEmpty && s.unicodeScalars.allSatisfy({ safe.contains($0) }) { return s }
        return "'" + s.replacing("'", with: "'\\''") + "'"
    }
}
