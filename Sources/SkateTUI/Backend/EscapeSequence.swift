/// Names the escape sequences terminals send for editing keys when the terminfo entry in use
/// does not list them (tmux sends `ESC [1~` for Home under `TERM=xterm-256color`, whose entry
/// says `ESC OH`). Without this ncurses hands over ESC, `[`, `1`, `~` one by one: the ESC leaves
/// a text field and the rest runs as commands.
enum EscapeSequence {
    /// Longest sequence read after ESC: `[` plus up to four parameter bytes and a final byte.
    public static let maxLength = 6
    /// Bytes of an overlong CSI sequence swallowed at most (issue 29 row 2: a 20 KB sequence was
    /// typed into a field): far beyond any real one, small enough to read in well under a frame.
    public static let maxSwallowed = 65_536

    /// Reads a sequence after ESC from `next` (nil: nothing more within the escape delay) and
    /// names it. A CSI sequence longer than `maxLength` is read on to its final byte (at most
    /// `maxSwallowed` bytes) and dropped as `.unknown`, so its parameters never become keys.
    public static func read(_ next: () -> UInt32?) -> Key {
        var bytes: [UInt32] = []
        while bytes.count < maxLength, !isComplete(bytes) {
            guard let b = next() else { return key(after: bytes) }
            bytes.append(b)
        }
        guard !isComplete(bytes) else { return key(after: bytes) }
        // Overlong: swallow parameter and intermediate bytes (0x20–0x3F) up to the final byte.
        var n = 0
        while n < maxSwallowed, let b = next() {
            n += 1
            if !(0x20...0x3F).contains(b) { break }
        }
        return .unknown(27)
    }

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
