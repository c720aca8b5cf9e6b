/// Makes text from files, maps or the store safe to put on a terminal (CLI output and the TUI): a street name must never be able
/// to move the cursor, recolour the terminal, set its title or flip text direction.
///
/// Removes C0 controls (tabs and newlines become spaces), DEL, C1 controls, whole escape
/// sequences (CSI `ESC [ … final`, OSC/DCS/SOS/PM/APC strings up to BEL or ST, and two-byte
/// `ESC x`), their 8-bit C1 forms, and bidirectional overrides, embeddings, isolates and marks.
public enum TerminalSafe {
    /// Characters of untrusted text (a path, a value, a name) quoted in a message before it is cut
    /// with "…": enough for any real path, short enough that a hostile one cannot flood the terminal.
    public static let quotedLength = 200

    /// Untrusted text made fit to quote in a message: `clean`, then cut to `maxLength` characters
    /// with "…".
    public static func quoted(_ text: String, maxLength: Int = quotedLength) -> String {
        let safe = clean(text)
        guard safe.count > maxLength else { return safe }
        return String(safe.prefix(maxLength)) + "…"
    }

    /// The cleaned text (never longer than the input).
    public static func clean(_ text: String) -> String {
        // Fast path: printable ASCII only.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let v = scalars[i].value
            switch v {
            case 0x1B:  // ESC: skip the whole sequence
                i = skipEscape(scalars, from: i + 1)
                continue
            case 0x9B:  // C1 CSI
                i = skipCSI(scalars, from: i + 1)
                continue
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:  // C1 DCS, SOS, OSC, PM, APC: strings to BEL/ST
                i = skipString(scalars, from: i + 1)
                continue
            case 0x09, 0x0A, 0x0D:
                out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F:
                break  // other C0, DEL, C1
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                break  // bidi marks, embeddings, overrides, isolates
            case 0xFFF9...0xFFFB, 0xFEFF:
                break  // interlinear annotation controls, zero-width no-break space (BOM)
            default:
                out.append(scalars[i])
            }
            i += 1
        }
        return String(out)
    }

    /// Each line of a multi-line text cleaned, the line breaks kept.
    public static func cleanLines(_ text: String) -> String {
        // Almost every text is already safe: one scan instead of splitting and rejoining it.
        if isSafeMultiline(text) { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { clean(String($0)) }.joined(separator: "\n")
    }

    /// True when `clean` would leave every line of `text` unchanged: no control, escape, C1 or
    /// bidirectional-control scalar anywhere, line feeds aside (one pass, no copies).
    public static func isSafeMultiline(_ text: String) -> Bool {
        for u in text.unicodeScalars {
            switch u.value {
            case 0x0A: continue
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFFF9...0xFFFB, 0xFEFF:
                return false
            default: continue
            }
        }
        return true
    }

    /// Index after an escape sequence whose ESC was at `from - 1`.
    static func skipEscape(_ s: [Unicode.Scalar], from: Int) -> Int {
        guard from < s.count else { return from }
        switch s[from].value {
        case 0x5B: return skipCSI(s, from: from + 1)  // '['
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: return skipString(s, from: from + 1)  // ']' 'P' 'X' '^' '_'
        case 0x20...0x2F:
            // nF sequence: intermediates then one final byte.
            var j = from
            while j < s.count, (0x20...0x2F).contains(s[j].value) { j += 1 }
            return min(s.count, j + 1)
        default: return from + 1
        }
    }

    /// Index after a CSI body: parameter/intermediate bytes then one final byte 0x40–0x7E.
    static func skipCSI(_ s: [Unicode.Scalar], from: Int) -> Int {
        var j = from
        while j < s.count {
            let v = s[j].value
            if (0x40...0x7E).contains(v) { return j + 1 }
            if !(0x20...0x3F).contains(v) { return j }  // malformed: stop, drop what we consumed
            j += 1
        }
        return j
    }

    /// Index after a control string terminated by BEL, ST (`ESC \`) or C1 ST (0x9C).
    static func skipString(_ s: [Unicode.Scalar], from: Int) -> Int {
        var j = from
        while j < s.count {
            let v = s[j].value
            if v == 0x07 || v == 0x9C { return j + 1 }
            if v == 0x1B { return (j + 1 < s.count && s[j + 1].value == 0x5C) ? j + 2 : j + 1 }
            j += 1
        }
        return j
    }
}
