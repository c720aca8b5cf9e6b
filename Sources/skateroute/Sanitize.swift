/// Strips control and escape characters from text that came from files or the store before it
/// reaches a terminal (names with "\u{1B}[31m" must not recolour the rider's screen).
enum Sanitize {
    /// Sanitizes each line of a multi-line text, keeping the line breaks.
    static func lines(_ s: String) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).map { line(String($0)) }.joined(separator: "\n")
    }

    static func line(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var skippingEscape = false
        for u in s.unicodeScalars {
            if skippingEscape {
                // Drop the rest of an escape sequence: up to its final byte (a letter, '~' or BEL).
                if (u.value >= 0x40 && u.value <= 0x7E && u != "[" && u != "]") || u.value == 0x07 { skippingEscape = false }
                continue
            }
            if u.value == 0x1B { skippingEscape = true; continue }
            if u.value < 0x20 || (u.value >= 0x7F && u.value < 0xA0) { continue }
            // Bidirectional overrides can reorder what the rider sees.
            if (0x202A...0x202E).contains(u.value) || (0x2066...0x2069).contains(u.value) { continue }
            out.append(u)
        }
        return String(out)
    }
}
