/// String helpers that swift-corelibs-foundation provides through CoreFoundation
/// (`trimmingCharacters(in:)`, `CharacterSet`, `padding(toLength:…)`, `range(of:options:)`),
/// written over Unicode scalars so the modules need only FoundationEssentials (see
/// `PrintfArgument` for why CoreFoundation stays out of the binary).
extension Unicode.Scalar {
    /// Foundation's `CharacterSet.whitespaces`: Unicode general category Zs, plus tab and the
    /// zero-width space U+200B (CoreFoundation's set has it; checked scalar by scalar in
    /// `FoundationFreeTextTests`).
    public var isSpaceOrTab: Bool {
        value == 0x09 || value == 0x200B || properties.generalCategory == .spaceSeparator
    }

    /// Foundation's `CharacterSet.whitespacesAndNewlines`: `isSpaceOrTab` plus U+000A–U+000D,
    /// U+0085, U+2028 and U+2029.
    public var isWhitespaceOrNewline: Bool {
        isSpaceOrTab || (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
    }
}

extension StringProtocol {
    /// The text without leading and trailing scalars for which `drop` holds.
    public func trimmingScalars(where drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = Array(unicodeScalars)
        guard let first = scalars.firstIndex(where: { !drop($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !drop($0) })!
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[first...last])
        return String(out)
    }

    /// `trimmingCharacters(in: .whitespaces)`: spaces (category Zs) and tabs off both ends.
    public func trimmingWhitespace() -> String { trimmingScalars(where: \.isSpaceOrTab) }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
    public func trimmingWhitespaceAndNewlines() -> String { trimmingScalars(where: \.isWhitespaceOrNewline) }

    /// `trimmingCharacters(in: CharacterSet(charactersIn: set))`.
    public func trimming(charactersIn set: String) -> String {
        let drop = Set(set.unicodeScalars)
        return trimmingScalars(where: { drop.contains($0) })
    }

    /// `padding(toLength:withPad:" ",startingAt:0)`: cut to `length` characters, or filled with
    /// `pad` on the right up to it.
    public func padded(toLength length: Int, with pad: Character = " ") -> String {
        let n = count
        if n >= length { return String(prefix(Swift.max(0, length))) }
        return String(self) + String(repeating: pad, count: length - n)
    }

    /// `range(of: needle, options: .caseInsensitive)` for the ASCII keywords this project looks
    /// for (letters compared without case, everything else exactly).
    public func rangeIgnoringASCIICase<T: StringProtocol>(of needle: T) -> Range<Index>? {
        let n = Array(needle.utf8).map(Self.asciiLower)
        guard !n.isEmpty else { return nil }
        var start = startIndex
        while start < endIndex {
            var i = start
            var k = 0
            while k < n.count, i < endIndex {
                let c = self[i]
                guard c.utf8.count == 1, Self.asciiLower(c.utf8.first!) == n[k] else { break }
                k += 1
                i = index(after: i)
            }
            if k == n.count { return start..<i }
            start = index(after: start)
        }
        return nil
    }

    private static func asciiLower(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b + 0x20 : b }
}
