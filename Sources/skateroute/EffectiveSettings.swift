import ArgumentParser
import FoundationEssentials
import Glibc
import SkateCore
import SkateTUI

/// One effective setting: its value and where it came from ("flag", "file <path>:<line>", "default").
struct EffectiveValue: Equatable {
    var value: String
    var origin: String
}

/// The settings a command runs with: a flag wins, then the settings file, then the default.
/// Values from the file are checked here, with the file and line in the one-line error.
struct EffectiveSettings {
    /// Distance units for text output.
    enum Units: String, CaseIterable { case metric, imperial }
    /// Ride replay speed bounds (× real time), as `tui --speed` checks them.
    static let speedRange = 0.25...60.0
    /// Replay speed when nothing sets one: real time.
    static let defaultSpeed = 1.0

    let file: Settings

    static func load() throws -> EffectiveSettings { EffectiveSettings(file: try loadSettings()) }

    /// The flag's value, else the file's, else `fallback`.
    func pick(_ key: String, flag: String?, fallback: String) -> EffectiveValue {
        if let flag { return EffectiveValue(value: flag, origin: "flag") }
        if let v = file.values[key] { return EffectiveValue(value: v, origin: file.origin(of: key) ?? "file") }
        return EffectiveValue(value: fallback, origin: "default")
    }

    /// Where a bad value came from, for its error line: "--mode" or "settings <file>:<line>: mode".
    static func label(_ key: String, _ v: EffectiveValue) -> String {
        v.origin == "flag" ? "--\(key)" : v.origin == "default" ? key : "settings \(v.origin.dropFirst("file ".count)): \(key)"
    }

    func mode(flag: String?) throws -> (RideMode, EffectiveValue) {
        let v = pick("mode", flag: flag, fallback: RideMode.smoothest.rawValue)
        guard let m = RideMode(rawValue: v.value) ?? RideMode.allCases.first(where: { $0.rawValue.lowercased() == v.value.lowercased() }) else {
            throw usageError(unknownModeMessage(v.value, label: Self.label("mode", v)))
        }
        return (m, v)
    }

    func palette(flag: String?) throws -> (PaletteScheme, EffectiveValue) {
        let v = pick("palette", flag: flag, fallback: PaletteScheme.standard.rawValue)
        guard let p = PaletteScheme(rawValue: v.value.lowercased()) else {
            let hint = TextSuggestion.closest(v.value, among: PaletteScheme.allCases.map(\.rawValue)).map { " (did you mean '\($0)'?)" } ?? ""
            throw fail("\(Self.label("palette", v)) must be one of \(PaletteScheme.names), got '\(TerminalSafe.quoted(v.value, maxLength: 40))'\(hint)")
        }
        return (p, v)
    }

    func units(flag: String?) throws -> (Units, EffectiveValue) {
        let v = pick("units", flag: flag, fallback: Units.metric.rawValue)
        guard let u = Units(rawValue: v.value.lowercased()) else {
            throw fail("\(Self.label("units", v)) must be metric or imperial, got '\(TerminalSafe.quoted(v.value, maxLength: 40))'")
        }
        return (u, v)
    }

    /// The settings file's `units` for the process-wide `UnitSystem.processDefault`, read once at
    /// start-up; metric when unset. Silent: a bad file or value leaves metric here, and the
    /// command that reads the setting (`config`, or any that loads the file) reports it.
    static func startupUnits() -> UnitSystem {
        guard let raw = (try? Settings.load())?.values["units"] else { return .metric }
        return UnitSystem(rawValue: raw.lowercased()) ?? .metric
    }

    func speed(flag: Double?) throws -> (Double, EffectiveValue) {
        let v = pick("speed", flag: flag.map { FixedDecimal.string($0, decimals: 2) }, fallback: "1")
        guard let s = flag ?? Double(v.value), s.isFinite, Self.speedRange.contains(s) else {
            throw fail("\(Self.label("speed", v)) \(TerminalSafe.quoted(v.value, maxLength: 20)) is out of range: use 0.25 to 60")
        }
        return (s, v)
    }
}

/// "unknown mode 'x' (did you mean 'y'?); use one of …" for every command that takes a mode.
func unknownModeMessage(_ text: String, label: String = "mode") -> String {
    let names = RideMode.allCases.map(\.rawValue)
    let hint = TextSuggestion.closest(text, among: names).map { " (did you mean '\($0)'?)" } ?? ""
    let prefix = label == "--mode" || label == "mode" ? "unknown mode" : "\(label): unknown mode"
    return "\(prefix) '\(TerminalSafe.quoted(text, maxLength: 60))'\(hint); use one of \(names.joined(separator: ", "))"
}

/// The ride mode of a plan: `--mode` exactly as given, else the settings file's, else smoothest.
func planMode(_ flag: String?) throws -> RideMode {
    if let flag {
        guard let m = RideMode(rawValue: flag) else { throw usageError(unknownModeMessage(flag)) }
        return m
    }
    return try EffectiveSettings.load().mode(flag: nil).0
}
