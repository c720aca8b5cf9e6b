import SkateCore

/// A direct reader for well-formed `skateroute plan …` command lines.
///
/// Why not ArgumentParser for these too: building its command tree reflects over every
/// subcommand's property wrappers (`Mirror`, generic metadata by mangled name, protocol
/// conformance scans over the whole static binary), which costs ~2–3 ms of a process that
/// otherwise answers in a few milliseconds; `skateroute plan` is the command scripts call in
/// loops. Anything this reader does not fully understand — help, an unknown or repeated-flag
/// form, a missing or dash-led value, a bad number or format — returns nil and goes to
/// ArgumentParser, which stays the single source of help text and error messages. A test pins
/// that both parsers agree on every command line this one accepts.
enum PlanFastPath {
    /// Whether a long option name takes a value (a switch, not a Set: no hashing set-up at start).
    static func takesValue(_ name: String) -> Bool {
        switch name {
        case "from", "to", "mode", "alternatives", "format", "map", "data-dir", "now", "out", "near": return true
        default: return false
        }
    }

    /// The request for `arguments` (without the program name), or nil to let ArgumentParser decide.
    static func parse(_ arguments: [String]) -> PlanRequest? {
        guard arguments.first == "plan" else { return nil }
        var r = PlanRequest(from: "", to: "")
        var from: String?, to: String?
        var noStore = false
        var json = false
        var format: PlanCommand.Format?
        var i = 1
        while i < arguments.count {
            let arg = arguments[i]
            guard arg.hasPrefix("--"), arg.count > 2 else { return nil }
            let body = arg.dropFirst(2)
            let name: String, value: String
            if let eq = body.firstIndex(of: "=") {
                name = String(body[..<eq])
                value = String(body[body.index(after: eq)...])
                // ArgumentParser refuses an empty `--name=`; leave that error to it.
                guard takesValue(name), !value.isEmpty else { return nil }
                i += 1
            } else {
                name = String(body)
                if name == "no-store" { noStore = true; i += 1; continue }
                if name == "json" { json = true; i += 1; continue }
                guard takesValue(name), i + 1 < arguments.count else { return nil }
                value = arguments[i + 1]
                // A value that looks like an option is ArgumentParser's call to make.
                if value.hasPrefix("-") { return nil }
                i += 2
            }
            // Later occurrences win, as in ArgumentParser; it converts every occurrence, so a bad
            // early value is an error even when a later one would be fine.
            switch name {
            case "from": from = value
            case "to": to = value
            case "mode": r.mode = value
            case "alternatives":
                guard let n = Int(value) else { return nil }
                r.alternatives = n
            case "format":
                guard let f = PlanCommand.Format(rawValue: value) else { return nil }
                format = f
            case "map": r.map = value
            case "data-dir": r.dataDir = value
            case "now": r.now = value
            case "out": r.out = value
            case "near": r.near = value
            default: return nil
            }
        }
        guard let from, let to else { return nil }
        // `--json` is `--format json`; any other --format beside it is ArgumentParser's error to give.
        if json, let format, format != .json { return nil }
        r.format = json ? .json : (format ?? .text)
        r.from = from
        r.to = to
        r.noStore = noStore
        return r
    }
}
