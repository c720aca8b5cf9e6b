/// A frame of the terminal in memory: `width × height` cells in a flat row-major array.
/// Widgets render into it; the backend diffs two frames and writes only the changed cells.
public struct ScreenBuffer: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Row-major cells: cell (x, y) is `cells[y * width + x]`.
    public private(set) var cells: [Cell]
    /// Spell text in ASCII as it is written (é → e, ß → ss): set for terminals without UTF-8,
    /// where ncurses would blank the letter (issue 34 item 7).
    public var asciiOnly = false

    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: fill, count: self.width * self.height)
    }

    public init(size: Size, fill: Cell = .blank) { self.init(width: size.width, height: size.height, fill: fill) }

    public var size: Size { Size(width: width, height: height) }
    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The cell at (x, y); a blank cell outside the buffer.
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < width, y < height else { return .blank }
        return cells[y * width + x]
    }

    /// Sets one cell, keeping double-width graphemes whole: overwriting either half of a wide
    /// grapheme blanks the other half. Out-of-range positions are ignored (clipping).
    public mutating func set(x: Int, y: Int, _ cell: Cell) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = y * width + x
        // Overwriting the right half of a wide grapheme: blank its left half.
        if cells[i].isContinuation, x > 0 {
            cells[i - 1] = Cell(" ", style: cells[i - 1].style)
        }
        // Overwriting the left half of a wide grapheme: blank its right half.
        if x + 1 < width, cells[i + 1].isContinuation, !cell.isContinuation {
            cells[i + 1] = Cell(" ", style: cells[i + 1].style)
        }
        cells[i] = cell
    }

    /// Writes `text` from (x, y) on one row in `style`, clipped to `maxWidth` columns and to the
    /// buffer; a wide grapheme that does not fit entirely is replaced by a space.
    /// Zero-width graphemes and control characters are skipped (sanitise file text first).
    /// - Returns: the number of columns written.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int = .max) -> Int {
        guard y >= 0, y < height else { return 0 }
        let limit = min(width, maxWidth >= Int.max - x ? Int.max : x + maxWidth)
        if asciiOnly, !text.utf8.allSatisfy({ $0 < 0x80 }) {
            return write(HumanText.ascii(text), x: x, y: y, style: style, maxWidth: maxWidth)
        }
        var col = x
        for ch in text {
            let w = DisplayWidth.of(ch)
            if w == 0 { continue }
            if col + w > limit {
                if w == 2, col < limit, col >= 0 { set(x: col, y: y, Cell(" ", style: style)); col += 1 }
                break
            }
            if col >= 0 {
                set(x: col, y: y, Cell(String(ch), style: style))
                if w == 2 { set(x: col + 1, y: y, Cell("", style: style)) }
            }
            col += w
        }
        return max(0, col - x)
    }

    /// Fills a rectangle (clipped) with a single-width cell; wide graphemes cut by the
    /// rectangle's sides lose their other half.
    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            set(x: r.x, y: y, cell)
            set(x: r.maxX - 1, y: y, cell)
            let row = y * width
            for x in (r.x + 1)..<max(r.x + 1, r.maxX - 1) { cells[row + x] = cell }
        }
    }

    /// Changes the style of every cell in a rectangle, keeping the glyphs.
    public mutating func setStyle(_ rect: Rect, _ style: CellStyle) {
        let r = rect.intersection(area)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { cells[y * width + x].style = style }
        }
    }

    /// Copies a cell straight into the array without wide-character bookkeeping: for renderers
    /// that write single-width glyphs over a whole region (the map canvas).
    @inline(__always)
    public mutating func setFast(x: Int, y: Int, _ cell: Cell) {
        cells[y * width + x] = cell
    }

    /// Draws a single-line box around `rect` (Unicode or ASCII lines) and writes `title` into the top edge.
    public mutating func drawBox(_ rect: Rect, style: CellStyle, glyphs: GlyphMode, title: String = "") {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let b = glyphs.box
        for x in (rect.x + 1)..<(rect.maxX - 1) {
            set(x: x, y: rect.y, Cell(b.horizontal, style: style))
            set(x: x, y: rect.maxY - 1, Cell(b.horizontal, style: style))
        }
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            set(x: rect.x, y: y, Cell(b.vertical, style: style))
            set(x: rect.maxX - 1, y: y, Cell(b.vertical, style: style))
        }
        set(x: rect.x, y: rect.y, Cell(b.topLeft, style: style))
        set(x: rect.maxX - 1, y: rect.y, Cell(b.topRight, style: style))
        set(x: rect.x, y: rect.maxY - 1, Cell(b.bottomLeft, style: style))
        set(x: rect.maxX - 1, y: rect.maxY - 1, Cell(b.bottomRight, style: style))
        if !title.isEmpty, rect.width > 4 {
            write(" \(title) ", x: rect.x + 2, y: rect.y, style: style.adding(.bold), maxWidth: rect.width - 4)
        }
    }
}
