/// Names the escape sequences terminals send for editing keys when the terminfo entry in use
/// does not list them (tmux sends `ESC [1~` for Home under `TERM=xterm-256color`, whose entry
/// says `ESC OH`). Without this ncurses hands over ESC, `[`, `1`, `~` one by one: the ESC leaves
/// a text field and the rest runs as commands.
enum EscapeSequence {
    /// Longest sequence read after ESC: `[` plus up to four parameter bytes and a final byte.
    public static let maxLength = 6

    /// True when `bytes` (after ESC) cannot grow into a longer sequence: a final byte arrived.
    public static func isComplete(_ bytes: [UInt32]) -> Bool {
        guard let first = bytes.first else { return false }
        if first == 0x4F { return bytes.count >= 2 }            // SS3: ESC O x
        if first != 0x5B { return true }                         // Alt+key: one byte
        guard bytes.count >= 2, let last = bytes.last else { return false }
        return (0x40...0x7E).contains(last)                      // CSI final byte
    }

    /// The key for the bytes after ESC; `.escape` for none, `.unknown` for a sequence it cannot
    /// name (swallowed, never replayed as letters).
    public static func key(after bytes: [UInt32]) -> Key {
        guard !bytes.isEmpty else { return .escape }
        let s = String(String.UnicodeScalarView(bytes.compactMap(Unicode.Scalar.init)))
        switch s {
        case "[A", "OA": return .up
        case "[B", "OB": return .down
        case "[C", "OC": return .right
        case "[D", "OD": return .left
        case "[H", "OH", "[1~", "[7~": return .home
        case "[F", "OF", "[4~", "[8~": return .end
        case "[3~": return .delete
        case "[2~": return .insert
        case "[5~": return .pageUp
        case "[6~": return .pageDown
        case "[Z": return .backTab
        default: return .unknown(27)
        }
    }
}
