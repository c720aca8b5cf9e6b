/// A centred box that lists rows — a name on the left, a detail right-aligned — with one row
/// highlighted (`> `) and scrolled into view, a note while the list is empty or still being read,
/// and a key line at the bottom. The map list and the saved list draw through it.
enum PickerBox {
    /// One listed row: what is chosen, and the dimmed detail at the right edge.
    struct Row {
        var name: String
        var detail: String
    }

    /// ↑↓ move the highlight over `count` rows, wrapping at both ends; other keys leave it.
    static func moved(_ selected: Int, count n: Int, by action: KeyAction) -> Int {
        switch action {
        case .selectUp where n > 0: return (selected - 1 + n) % n
        case .selectDown where n > 0: return (selected + 1) % n
        default: return selected
        }
    }

    /// Draws the box `width` wide at most (less on a narrow screen), one line per row plus the
    /// frame and the key line. `rows` nil: not read yet ("Reading…"); empty: `emptyNote`.
    static func render(title: String, rows: [Row]?, selected: Int, width: Int, emptyNote: String, keys: String,
                       theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let list = rows ?? []
        let box = area.centered(width: min(area.width - 4, width), height: min(area.height, max(1, list.count) + 4))
        guard box.width >= 20, box.height >= 5 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: title)
        let inner = box.width - 4
        if list.isEmpty {
            buffer.write(rows == nil ? "Reading…" : emptyNote, x: box.x + 2, y: box.y + 1, style: theme.style(.textDim), maxWidth: inner)
        }
        let visible = box.height - 3
        let first = max(0, min(selected - visible + 1, list.count - visible))
        for (k, r) in list.dropFirst(first).prefix(visible).enumerated() {
            let i = first + k, y = box.y + 1 + k
            let on = i == selected
            let style = on ? theme.style(.keyBarKey) : theme.style(.text)
            if on { buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), with: Cell(" ", style: style)) }
            let dw = DisplayWidth.of(r.detail)
            buffer.write((on ? "> " : "  ") + r.name, x: box.x + 2, y: y, style: style, maxWidth: max(0, inner - dw - 1))
            buffer.write(r.detail, x: box.x + 2 + inner - dw, y: y, style: on ? style : theme.style(.textDim), maxWidth: dw)
        }
        buffer.write(keys, x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: inner)
    }
}

/// The state of a picker box whose rows are read after it opens (the map list, the saved list):
/// `rows` is nil until read; `selected` is the highlighted row.
struct PickerList<Row: Hashable & Sendable>: Hashable, Sendable {
    var rows: [Row]?
    var selected = 0

    /// The highlighted row; nil while the rows are unread or there are none.
    var chosen: Row? { rows.flatMap { $0.indices.contains(selected) ? $0[selected] : nil } }

    /// The list after a key: ↑↓ move the highlight (`PickerBox.moved`), other keys leave it.
    func moved(by action: KeyAction) -> PickerList {
        var s = self
        s.selected = PickerBox.moved(selected, count: rows?.count ?? 0, by: action)
        return s
    }
}
