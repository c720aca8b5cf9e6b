import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateRide
import SkateStore

/// Privacy options of `skateroute export ride`: on by default, the first and last metres and
/// everything around saved `home`/`work` places are left out; `--downsample` thins the track.
/// The trimming itself is the engine's (`PrivacyTrim`); this only gathers its inputs.
struct ExportPrivacyOptions: ParsableArguments {
    @Flag(name: .customLong("no-privacy"), help: "Export every point: no end trim, nothing hidden around home/work.")
    var noPrivacy = false
    @Option(name: .customLong("trim"), help: "Metres left out at the start and at the end (privacy; 0 keeps them).")
    var trim: Double = PrivacyTrim.defaultEndTrim
    @Option(name: .customLong("privacy-radius"), help: "Metres left out around each saved home and work place.")
    var privacyRadius: Double = PrivacyTrim.defaultZoneRadius
    @Option(help: "Keep a point only when at least this many metres from the last kept one (0: every point).")
    var downsample: Double = 0
    @Option(name: .customLong("data-dir"), help: "Store folder holding your saved places (default $XDG_DATA_HOME/skateroute).")
    var dataDir: String?

    /// Largest trim, radius or spacing accepted (metres): beyond a city, a typo.
    static let maxMetres = 50_000.0

    func validate() throws {
        for (name, v) in [("--trim", trim), ("--privacy-radius", privacyRadius), ("--downsample", downsample)] {
            guard v.isFinite, v >= 0, v <= Self.maxMetres else {
                throw ValidationError("\(name) must be a number of metres from 0 to \(Int(Self.maxMetres))")
            }
        }
    }

    /// The engine's settings: saved home/work places from the store (none without one).
    func settings() throws -> (trim: PrivacyTrim, zones: Int) {
        if noPrivacy { return (PrivacyTrim(trimStart: 0, trimEnd: 0, zones: [], minSpacing: downsample), 0) }
        let store = try openExistingStore(dataDir: dataDir, disabled: false)
        let places = try store.map { s in try CLIParse.store { try s.places() } } ?? []
        let zones = places.filter { $0.category == .home || $0.category == .work }.map { (center: $0.at, radius: privacyRadius) }
        return (PrivacyTrim(trimStart: trim, trimEnd: trim, zones: zones, minSpacing: downsample), zones.count)
    }

    /// The points that may leave the machine, and one line saying what was left out.
    func apply(_ points: [RideLogGPX.Point]) throws -> (points: [RideLogGPX.Point], note: String?) {
        let (engine, zoneCount) = try settings()
        if noPrivacy && downsample == 0 { return (points, nil) }
        let kept = engine.keep(points.map(\.coordinate)).map { points[$0] }
        var why: [String] = []
        if !noPrivacy {
            why.append("first/last \(Int(trim)) m")
            why.append("\(Int(privacyRadius)) m around \(zoneCount) saved home/work place\(zoneCount == 1 ? "" : "s")")
        }
        if downsample > 0 { why.append("downsampled to \(FixedDecimal.string(downsample, decimals: 0)) m") }
        return (kept, "privacy: kept \(kept.count) of \(points.count) point(s) (" + why.joined(separator: ", ") + (noPrivacy ? ")" : "; --no-privacy exports all)"))
    }
}
