/// Terminal column widths of graphemes (a small wcwidth that does not depend on the C locale).
enum DisplayWidth {
    /// Columns a grapheme takes: 0 for combining marks and format characters alone, 2 for East
    /// Asian wide/fullwidth characters and emoji presentation, 1 otherwise.
    public static func of(_ ch: Character) -> Int {
        var first = true
        var width = 1
        for s in ch.unicodeScalars {
            if first {
                first = false
                width = of(scalar: s)
            } else if s.value == 0xFE0F {
                width = 2  // variation selector 16 asks for emoji presentation
            }
        }
        return width
    }

    /// Columns a lone scalar takes.
    public static func of(scalar s: Unicode.Scalar) -> Int {
        let v = s.value
        if v < 0x7F { return v >= 0x20 ? 1 : 0 }
        if v < 0xA0 { return 0 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if isWide(v) || s.properties.isEmojiPresentation { return 2 }
        return 1
    }

    /// Columns a whole string takes.
    public static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    /// East Asian Wide and Fullwidth blocks (Unicode 15 EastAsianWidth W/F, coarse ranges).
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
