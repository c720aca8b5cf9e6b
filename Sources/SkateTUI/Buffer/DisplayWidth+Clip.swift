import SkateCore

extension DisplayWidth {
    /// Untrusted text fitted to a width: cleaned by the one terminal sanitizer (`TerminalSafe`),
    /// then cut to at most `maxColumns` terminal columns, ending with `ellipsis` when cut.
    public static func clip(_ text: String, maxColumns: Int, ellipsis: String = "…") -> String {
        let s = TerminalSafe.clean(text)
        guard of(s) > maxColumns else { return s }
        let room = max(0, maxColumns - of(ellipsis))
        var out = "", used = 0
        for ch in s {
            let w = of(ch)
            if used + w > room { break }
            out.append(ch); used += w
        }
        return maxColumns > 0 ? out + ellipsis : ""
    }
}
