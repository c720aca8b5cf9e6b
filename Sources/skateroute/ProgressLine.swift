import FoundationEssentials
import Glibc
import SkateCore

/// A progress line on stderr ("reading heidelberg.osm.pbf  42 %"), rewritten in place with `\r`;
/// only when stderr is a terminal, so pipes and logs never see it.
/// `@unchecked Sendable`: the import's landmark threads call `show` one at a time (under their
/// run counter's lock), never together.
final class ProgressLine: @unchecked Sendable {
    /// Shortest time between two redraws, seconds: often enough to look alive, rarely enough to cost nothing.
    static let minInterval = 0.1
    private var lastDraw = 0.0
    private var lastPhase = ""
    private var width = 0

    /// A progress line when stderr is a terminal, else nil.
    static func standardError() -> ProgressLine? { isatty(2) == 1 ? ProgressLine() : nil }

    /// Shows a phase and, when known, how far it is (0…1). A new phase always draws.
    func show(_ phase: String, _ fraction: Double?) {
        let now = PhaseTimer.now()
        guard phase != lastPhase || now - lastDraw >= Self.minInterval || fraction == 1 else { return }
        lastDraw = now
        lastPhase = phase
        var text = "skateroute: " + TerminalSafe.clean(phase)
        if let fraction { text += String(printf: " %3d %%", Int((min(1, max(0, fraction)) * 100).rounded(.down))) } else { text += " …" }
        let pad = max(0, width - text.count)
        width = text.count
        StandardStreams.writeError("\r" + text + String(repeating: " ", count: pad))
    }

    /// Erases the line (before a result or an error is printed).
    func clear() {
        guard width > 0 else { return }
        StandardStreams.writeError("\r" + String(repeating: " ", count: width) + "\r")
        width = 0
    }
}
