extension String {
    /// The string without leading and trailing white space as `CharacterSet.whitespaces` counted
    /// it: tab, the space separators (general category Zs: space, no-break space, the en/em
    /// spaces, ideographic space…) and U+200B zero width space (a Zs in early Unicode, still in
    /// CoreFoundation's set; checked against it over the whole BMP by a test).
    func trimmingWhitespace() -> String {
        trimming(Self.isWhitespace)
    }

    private static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s == "\t" || s == "\u{200B}" || s.properties.generalCategory == .spaceSeparator
    }

    /// The string without leading and trailing white space or line breaks as
    /// `CharacterSet.whitespacesAndNewlines` counted them: `trimmingWhitespace()`'s set plus
    /// U+000A–U+000D, U+0085 (next line), U+2028 (line separator) and U+2029 (paragraph separator).
    func trimmingWhitespaceAndNewlines() -> String {
        trimming {
            switch $0.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
            default: return Self.isWhitespace($0)
            }
        }
    }

    /// Drops the unicode scalars matching `drop` at both ends (scalars, not characters: a combining
    /// mark after a leading space stays, as with `trimmingCharacters(in:)`).
    private func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }),
              let last = scalars.lastIndex(where: { !drop($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
