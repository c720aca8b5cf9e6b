/// A key press as the app sees it, independent of the terminal library.
public enum Key: Hashable, Sendable {
    case char(Character)
    case up, down, left, right
    case enter, escape, backspace, tab, backTab, delete, insert
    case home, end, pageUp, pageDown
    case function(Int)
    /// Ctrl + a letter (lower case), other than those with their own case (tab, enter…).
    case ctrl(Character)
    /// A code the backend could not name (ignored by every screen).
    case unknown(Int32)

    /// How help texts and the key bar write the key.
    public func label(_ glyphs: GlyphMode) -> String {
        let u = glyphs == .unicode
        switch self {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .up: return u ? "↑" : "Up"
        case .down: return u ? "↓" : "Down"
        case .left: return u ? "←" : "Left"
        case .right: return u ? "→" : "Right"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Bksp"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        case .delete: return "Del"
        case .insert: return "Ins"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .function(let n): return "F\(n)"
        case .ctrl(let c): return "^" + String(c).uppercased()
        case .unknown(let n): return "#\(n)"
        }
    }
}
