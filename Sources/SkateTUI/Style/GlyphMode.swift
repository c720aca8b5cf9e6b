/// Which characters the terminal can show: Unicode (Braille, arrows, box lines) or plain ASCII.
public enum GlyphMode: String, Sendable, CaseIterable {
    case unicode
    case ascii

    /// Unicode when the effective locale (first non-empty of `LC_ALL`, `LC_CTYPE`, `LANG`, as
    /// POSIX orders them) names UTF-8; ASCII otherwise, since ncurses blanks every non-ASCII
    /// cell under a non-UTF-8 locale.
    public static func detect(environment env: [String: String]) -> GlyphMode {
        for key in ["LC_ALL", "LC_CTYPE", "LANG"] {
            guard let v = env[key], !v.isEmpty else { continue }
            let low = v.lowercased()
            return (low.contains("utf-8") || low.contains("utf8")) ? .unicode : .ascii
        }
        return .ascii
    }

    /// Characters for drawing boxes.
    public struct BoxGlyphs: Sendable {
        public let horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight: String
    }

    public var box: BoxGlyphs {
        switch self {
        case .unicode: return BoxGlyphs(horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
        case .ascii: return BoxGlyphs(horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")
        }
    }

    /// An arrow pointing along a compass heading in degrees (0 = north, clockwise): eight
    /// directions in Unicode, four in ASCII.
    public func arrow(headingDegrees h: Double) -> String {
        let norm = ((h.truncatingRemainder(dividingBy: 360)) + 360).truncatingRemainder(dividingBy: 360)
        switch self {
        case .unicode:
            let arrows = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
            return arrows[Int((norm / 45).rounded()) % 8]
        case .ascii:
            let arrows = ["^", ">", "v", "<"]
            return arrows[Int((norm / 90).rounded()) % 4]
        }
    }

    /// The dash standing for "unknown".
    public var unknown: String { self == .unicode ? "–" : "-" }
    /// The multiplication sign of "×4".
    public var times: String { self == .unicode ? "×" : "x" }

    /// The ellipsis marking cut text.
    public var ellipsis: String { self == .unicode ? "…" : "~" }
}
