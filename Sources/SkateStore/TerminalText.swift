import SkateCore

/// Makes text from the store or the map safe to print to a terminal (see `TerminalSafe`).
public enum TerminalText {
    /// Removes control characters, whole escape sequences and bidirectional overrides; keeps all
    /// other characters, including non-ASCII letters and emoji.
    public static func sanitize(_ text: String) -> String { TerminalSafe.clean(text) }
}
