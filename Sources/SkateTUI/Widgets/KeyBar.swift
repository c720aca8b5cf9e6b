/// The bottom key bar and the help overlay, both generated from the key table.
enum KeyBarWidget {
    /// What the bar says first while letters are text (issue 34 item 1).
    static let typingNote = "typing — Esc to leave"
    /// Bar labels kept on the bar whatever the width: the way out and the way to every other key.
    static let pinnedLabels: Set<String> = ["quit", "help"]

    /// Draws " q quit  ? help  …" for the bindings with a bar label on `screen`, cut at the width.
    /// While typing the bar starts with "typing — Esc to leave"; `q quit` and `? help` are kept
    /// at the right end when the rest does not fit (the help lists every key).
    public static func render(keyMap: KeyMap, screen: ScreenID, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        guard area.height >= 1, area.width >= 1 else { return }
        let row = Rect(x: area.x, y: area.y, width: area.width, height: 1)
        buffer.fill(row, with: Cell(" ", style: theme.style(.keyBarText)))
        var x0 = area.x
        if screen.isTyping {
            let note = theme.glyphs == .unicode ? " " + typingNote + " " : " typing - Esc to leave "
            x0 += buffer.write(note, x: x0, y: area.y, style: theme.style(.bannerInfo), maxWidth: area.width)
            x0 += buffer.write(" ", x: x0, y: area.y, style: theme.style(.keyBarText))
        }
        let width = area.maxX - x0
        guard width > 0 else { return }
        // The typing note already says Esc.
        let bindings = keyMap.enabled(on: screen).filter { !$0.barLabel.isEmpty && !(screen.isTyping && $0.keys == [.escape]) }
        // Roomy spacing when everything fits, tight spacing next; otherwise as many as fit with
        // q and ? pinned at the right instead of silently losing them.
        for tight in [false, true] {
            let items = bindings.map { (tight ? short($0.keysLabel(theme.glyphs)) : " " + $0.keysLabel(theme.glyphs) + " ", $0.barLabel) }
            let pad = " "
            let total = items.reduce(0) { $0 + DisplayWidth.of($1.0) + 1 + DisplayWidth.of($1.1) + pad.count }
            if total - 1 <= width {
                var x = x0
                for (k, label) in items {
                    x += buffer.write(k, x: x, y: area.y, style: theme.style(.keyBarKey))
                    x += buffer.write(" " + label + pad, x: x, y: area.y, style: theme.style(.keyBarText))
                }
                return
            }
        }
        let items = bindings.map { (short($0.keysLabel(theme.glyphs)), $0.barLabel) }
        let pinned = items.filter { pinnedLabels.contains($0.1) }
        let reserve = pinned.reduce(0) { $0 + DisplayWidth.of($1.0) + 2 + DisplayWidth.of($1.1) }
        var x = x0
        for (k, label) in items where !pinnedLabels.contains(label) {
            let need = DisplayWidth.of(k) + 2 + DisplayWidth.of(label)
            if x + need > area.maxX - reserve - 1 { continue }
            x += buffer.write(k, x: x, y: area.y, style: theme.style(.keyBarKey))
            x += buffer.write(" " + label + " ", x: x, y: area.y, style: theme.style(.keyBarText))
        }
        x = max(x, area.maxX - reserve)
        for (k, label) in pinned {
            x += buffer.write(k, x: x, y: area.y, style: theme.style(.keyBarKey), maxWidth: area.maxX - x)
            x += buffer.write(" " + label + " ", x: x, y: area.y, style: theme.style(.keyBarText), maxWidth: area.maxX - x)
        }
    }

    /// A key label in tight form: the second key of two-key reports left to the prompt
    /// ("h 1-8" → "h"), "Space" → "Spc", "[ ]" → "[]".
    static func short(_ k: String) -> String {
        k.replacing(" 1-8", with: "").replacing(" b/o/c", with: "")
            .replacing("Space", with: "Spc").replacing("[ ]", with: "[]")
    }

    /// Bar labels that fit on a bar of `width` columns, in order, and whether a "? more" hint
    /// was needed (for tests and the README).
    public static func text(keyMap: KeyMap, screen: ScreenID, theme: Theme, width: Int) -> String {
        var b = ScreenBuffer(size: Size(width: width, height: 1))
        render(keyMap: keyMap, screen: screen, theme: theme, into: &b, area: Rect(x: 0, y: 0, width: width, height: 1))
        return b.lines[0]
    }
}

enum HelpOverlayWidget {
    /// The rows of the help: keys then text.
    static func rows(keyMap: KeyMap, screen: ScreenID, glyphs: GlyphMode) -> [(String, String)] {
        keyMap.enabled(on: screen).map { ($0.keys.map { $0.label(glyphs) }.joined(separator: " "), $0.help) }
    }

    /// Widest help box, columns: long texts wrap rather than stretch the box across a wide screen.
    static let maxBoxWidth = 90
    /// Rows of the box that are not help lines: two borders, a blank row and the footer.
    static let chromeRows = 4

    /// The box for `area` and the help's lines (key column, text) wrapped by words to fit it.
    static func layout(keyMap: KeyMap, screen: ScreenID, theme: Theme, area: Rect) -> (box: Rect, keyW: Int, lines: [(String, String)]) {
        let rows = rows(keyMap: keyMap, screen: screen, glyphs: theme.glyphs)
        let keyW = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        let textW = rows.map { DisplayWidth.of($0.1) }.max() ?? 0
        let w = min(area.width, maxBoxWidth, max(keyW + 3 + textW, footer.count) + 4)
        let wrapW = max(8, w - keyW - 7)
        var lines: [(String, String)] = []
        for r in rows {
            for (i, l) in PlanScreen.wrap(r.1, width: wrapW).enumerated() { lines.append((i == 0 ? r.0 : "", l)) }
        }
        let box = area.centered(width: w, height: min(area.height, lines.count + chromeRows))
        return (box, keyW, lines)
    }

    static let footer = "? or Esc closes"

    /// Help lines shown at once in a body of this size.
    static func visibleRows(_ area: Rect) -> Int { max(1, area.height - chromeRows) }

    /// The largest useful scroll: the last page shown in full.
    static func maxScroll(keyMap: KeyMap, screen: ScreenID, theme: Theme, area: Rect) -> Int {
        let l = layout(keyMap: keyMap, screen: screen, theme: theme, area: area)
        return max(0, l.lines.count - (l.box.height - chromeRows))
    }

    /// Draws a centred box listing every binding active on `screen`, texts wrapped by words,
    /// from help line `scroll` on (↑↓ PgUp PgDn scroll; the footer says where you are).
    public static func render(keyMap: KeyMap, screen: ScreenID, theme: Theme, into buffer: inout ScreenBuffer, area: Rect, scroll: Int = 0) {
        let (box, keyW, lines) = layout(keyMap: keyMap, screen: screen, theme: theme, area: area)
        guard box.width >= 10, box.height >= chromeRows + 1 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Keys")
        let visible = box.height - chromeRows
        let first = max(0, min(scroll, lines.count - visible))
        for (i, r) in lines.dropFirst(first).prefix(visible).enumerated() {
            let y = box.y + 1 + i
            buffer.write(r.0, x: box.x + 2, y: y, style: theme.style(.hudValue), maxWidth: keyW)
            buffer.write(r.1, x: box.x + 2 + keyW + 3, y: y, style: theme.style(.text), maxWidth: box.width - keyW - 7)
        }
        var foot = footer
        if lines.count > visible {
            let arrows = theme.glyphs == .unicode ? "↑↓" : "Up/Down"
            foot += "  \(arrows) scroll (\(first + 1)-\(first + visible) of \(lines.count))"
        }
        buffer.write(foot, x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: box.width - 4)
    }
}
