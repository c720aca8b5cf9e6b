/// The bottom key bar and the help overlay, both generated from the key table.
enum KeyBarWidget {
    /// Draws " q quit  ? help  …" for the bindings with a bar label on `screen`, cut at the width.
    public static func render(keyMap: KeyMap, screen: ScreenID, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        guard area.height >= 1, area.width >= 1 else { return }
        let row = Rect(x: area.x, y: area.y, width: area.width, height: 1)
        buffer.fill(row, with: Cell(" ", style: theme.style(.keyBarText)))
        let bindings = keyMap.enabled(on: screen).filter { !$0.barLabel.isEmpty }
        // Roomy spacing when everything fits, tight spacing next; otherwise as many as fit and a
        // "? more" hint (the help lists them all) instead of silently losing keys.
        for tight in [false, true] {
            let items = bindings.map { (tight ? short($0.keysLabel(theme.glyphs)) : " " + $0.keysLabel(theme.glyphs) + " ", $0.barLabel) }
            let pad = " "
            let total = items.reduce(0) { $0 + DisplayWidth.of($1.0) + 1 + DisplayWidth.of($1.1) + pad.count }
            if total - 1 <= area.width {
                var x = area.x
                for (k, label) in items {
                    x += buffer.write(k, x: x, y: area.y, style: theme.style(.keyBarKey))
                    x += buffer.write(" " + label + pad, x: x, y: area.y, style: theme.style(.keyBarText))
                }
                return
            }
        }
        let items = bindings.map { (short($0.keysLabel(theme.glyphs)), $0.barLabel) }
        let more = "?", moreLabel = " more"
        let reserve = DisplayWidth.of(more) + moreLabel.count
        var x = area.x
        for (k, label) in items where label != "help" {
            let need = DisplayWidth.of(k) + 2 + DisplayWidth.of(label)
            if x + need > area.maxX - reserve - 1 { continue }
            x += buffer.write(k, x: x, y: area.y, style: theme.style(.keyBarKey))
            x += buffer.write(" " + label + " ", x: x, y: area.y, style: theme.style(.keyBarText))
        }
        x = area.maxX - reserve
        x += buffer.write(more, x: x, y: area.y, style: theme.style(.keyBarKey))
        buffer.write(moreLabel, x: x, y: area.y, style: theme.style(.keyBarText))
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

    /// Draws a centred box listing every binding active on `screen`.
    public static func render(keyMap: KeyMap, screen: ScreenID, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let rows = rows(keyMap: keyMap, screen: screen, glyphs: theme.glyphs)
        let keyW = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        let textW = rows.map { DisplayWidth.of($0.1) }.max() ?? 0
        let footer = "? or Esc closes"
        let w = max(keyW + 3 + textW, footer.count) + 4
        let box = area.centered(width: w, height: rows.count + 4)
        guard box.width >= 10, box.height >= 4 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Keys")
        for (i, r) in rows.enumerated() where i < box.height - 4 {
            let y = box.y + 1 + i
            buffer.write(r.0, x: box.x + 2, y: y, style: theme.style(.hudValue), maxWidth: keyW)
            buffer.write(r.1, x: box.x + 2 + keyW + 3, y: y, style: theme.style(.text), maxWidth: box.width - keyW - 7)
        }
        buffer.write(footer, x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: box.width - 4)
    }
}
