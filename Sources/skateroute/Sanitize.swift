import SkateCore

/// Strips control and escape characters from text that came from files or the store before it
/// reaches a terminal (names with "\u{1B}[31m" must not recolour the rider's screen).
enum Sanitize {
    /// Sanitizes each line of a multi-line text, keeping the line breaks.
    static func lines(_ s: String) -> String {
        // Almost every text is already safe: one scan instead of splitting and rejoining it.
        if TerminalSafe.isSafeMultiline(s) { return s }
        return s.split(separator: "\n", omittingEmptySubsequences: false).map { line(String($0)) }.joined(separator: "\n")
    }

    static func line(_ s: String) -> String { TerminalSafe.clean(s) }
}
