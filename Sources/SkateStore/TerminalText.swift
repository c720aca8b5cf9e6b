/// Makes text from the store or the map safe to print to a terminal.
public enum TerminalText {
    /// Removes control characters (C0, DEL, C1: escape sequences start with them) and Unicode
    /// bidirectional overrides/isolates (they can reorder what the terminal shows); keeps all
    /// other characters, including non-ASCII letters and emoji.
    public static func sanitize(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars where !isUnsafe(s) { out.append(s) }
        return String(out)
    }

    static func isUnsafe(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return true }             // C0, DEL, C1
        if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) { return true }  // bidi overrides
        if v == 0x200E || v == 0x200F || v == 0x061C { return true }         // bidi marks
        return false
    }
}
