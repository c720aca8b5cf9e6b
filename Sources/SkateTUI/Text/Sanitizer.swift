import SkateCore

/// Makes text from files or the store safe to put on screen: a street name must never be able
/// to move the cursor, recolour the terminal, set its title or flip text direction.
///
/// Removes C0 controls (tabs and newlines become spaces), DEL, C1 controls, whole escape
/// sequences (CSI `ESC [ … final`, OSC/DCS/SOS/PM/APC strings up to BEL or ST, and two-byte
/// `ESC x`), their 8-bit C1 forms, and bidirectional overrides, embeddings, isolates and marks.
public enum Sanitizer {
    /// The cleaned text (never longer than the input); see `TerminalSafe.clean`.
    public static func clean(_ text: String) -> String { TerminalSafe.clean(text) }

    /// Cleans and cuts to at most `maxColumns` terminal columns, ending with `ellipsis` when cut.
    public static func clean(_ text: String, maxColumns: Int, ellipsis: String = "…") -> String {
        let s = clean(text)
        guard DisplayWidth.of(s) > maxColumns else { return s }
        let room = max(0, maxColumns - DisplayWidth.of(ellipsis))
        var out = "", used = 0
        for ch in s {
            let w = DisplayWidth.of(ch)
            if used + w > room { break }
            out.append(ch); used += w
        }
        return maxColumns > 0 ? out + ellipsis : ""
    }
}
