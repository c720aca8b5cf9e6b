extension ScreenBuffer {
    /// The glyphs row by row (wide graphemes once, their continuation cells skipped), for tests,
    /// snapshots and text captures. Trailing spaces are kept so rows line up.
    public var lines: [String] {
        (0..<height).map { y in
            var s = ""
            s.reserveCapacity(width)
            for x in 0..<width {
                let g = cells[y * width + x].glyph
                if !g.isEmpty { s += g }
            }
            return s
        }
    }

    /// A buffer whose glyphs are `lines` (default style), as wide as the widest line; shorter
    /// lines are padded with spaces. Like ratatui's `Buffer::with_lines`.
    public init(lines: [String]) {
        let w = lines.map { DisplayWidth.of($0) }.max() ?? 0
        self.init(width: w, height: lines.count)
        for (y, l) in lines.enumerated() { write(l, x: 0, y: y) }
    }

    /// Nil when the buffer's glyphs equal `expected`, else a readable report: both texts with
    /// row numbers and a `^` under every differing column.
    public func mismatch(_ expected: [String]) -> String? {
        let got = lines
        if got == expected { return nil }
        var out = "screen differs (size \(width)×\(height), expected \(expected.count) rows)\n"
        for i in 0..<max(got.count, expected.count) {
            let g = i < got.count ? got[i] : "<missing>"
            let e = i < expected.count ? expected[i] : "<missing>"
            let num = String(i).leftPadded(to: 2)
            if g == e {
                out += "  \(num) |\(g)|\n"
            } else {
                out += "- \(num) |\(e)|\n+ \(num) |\(g)|\n"
                let ga = Array(g), ea = Array(e)
                var marks = ""
                for k in 0..<max(ga.count, ea.count) {
                    marks += (k < ga.count && k < ea.count && ga[k] == ea[k]) ? " " : "^"
                }
                out += "       \(marks)\n"
            }
        }
        return out
    }

    /// Runs of equal style on row `y` as `x..<x style` text, to explain style failures.
    public func styleRuns(row y: Int) -> String {
        var parts: [String] = []
        var start = 0
        for x in 1...max(1, width) {
            if x == width || self[x, y].style != self[start, y].style {
                let s = self[start, y].style
                parts.append("\(start)..<\(x) fg=\(s.fg) bg=\(s.bg) attrs=\(s.attrs.rawValue)")
                start = x
            }
        }
        return parts.joined(separator: "; ")
    }
}

extension String {
    func leftPadded(to n: Int, with c: Character = " ") -> String {
        count >= n ? self : String(repeating: c, count: n - count) + self
    }
    func rightPadded(to n: Int, with c: Character = " ") -> String {
        count >= n ? self : self + String(repeating: c, count: n - count)
    }
}
