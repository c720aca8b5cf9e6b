/// How a canvas cell shows its dots.
public enum InkGlyph: Hashable, Sendable {
    /// Braille dots (Unicode); in ASCII a line glyph `- | / \ +` from the drawn slopes.
    case braille
    /// Braille dots (Unicode); in ASCII a quiet `.` (context streets).
    case sparse
    /// A fixed glyph in every glyph mode (a texture such as `~` or `#`).
    case fixed(String)
}

/// A pen: style, drawing priority and texture.
public struct Ink: Hashable, Sendable {
    public var style: CellStyle
    /// Higher layers win a cell: route (2) over context streets (1); a cell shows one ink.
    public var layer: UInt8
    public var glyph: InkGlyph
    /// Line width in dots (1 or 2).
    public var thickness: Int

    public init(style: CellStyle, layer: UInt8, glyph: InkGlyph = .braille, thickness: Int = 1) {
        self.style = style; self.layer = layer; self.glyph = glyph; self.thickness = thickness
    }
}

/// A dot canvas over a region of cells: 2×4 dots per cell as in Unicode Braille, one ink per
/// cell. Dot (0, 0) is the top-left dot; y grows downward.
struct BrailleCanvas: Sendable {
    /// Size in cells.
    public let width: Int
    public let height: Int
    /// Dots per cell horizontally and vertically (the Braille block is 2 wide, 4 tall).
    public static let dotsPerCellX = 2
    public static let dotsPerCellY = 4

    /// Size in dots.
    public var dotWidth: Int { width * Self.dotsPerCellX }
    public var dotHeight: Int { height * Self.dotsPerCellY }

    /// Per cell, packed so the per-dot path touches one array: bits 0–7 Braille dots, 8–11
    /// slope classes drawn (`-` `|` `/` `\`, for ASCII output), 16–23 ink index + 1 (0 = empty).
    private var cells: [UInt32]
    private var inks: [Ink] = []
    /// Layer of each ink, kept apart so the per-dot hot path reads a byte, not an `Ink`.
    private var inkLayers: [UInt8] = []
    private var inkThick: [Bool] = []

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        let n = self.width * self.height
        cells = Array(repeating: 0, count: n)
    }

    /// Bits of the dots inside a Braille cell (Unicode dot numbering), byte `column * 4 + row`:
    /// column 0 rows 0–3 = 0x01 0x02 0x04 0x40, column 1 = 0x08 0x10 0x20 0x80.
    static let dotBits: UInt64 = 0x8020_1008_4004_0201

    @inline(__always)
    static func dotBit(column: Int, row: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: dotBits >> UInt64((column << 5) | (row << 3)))
    }

    /// The 256 Braille patterns, U+2800 + bits.
    static let brailleGlyphs: [String] = (0..<256).map { String(Character(Unicode.Scalar(0x2800 + UInt32($0))!)) }

    /// Registers a pen and returns its handle (at most 255 pens per canvas).
    public mutating func register(_ ink: Ink) -> Int {
        if let i = inks.firstIndex(of: ink) { return i }
        precondition(inks.count < 255, "BrailleCanvas supports at most 255 inks")
        inks.append(ink)
        inkLayers.append(ink.layer)
        inkThick.append(ink.thickness > 1)
        return inks.count - 1
    }

    /// The pen at a cell, or nil when empty.
    public func ink(atCellX x: Int, y: Int) -> Ink? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let k = Int(cells[y * width + x] >> 16)
        return k == 0 ? nil : inks[k - 1]
    }

    /// The Braille dot bits of a cell.
    public func dotBits(atCellX x: Int, y: Int) -> UInt8 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return UInt8(truncatingIfNeeded: cells[y * width + x])
    }

    /// Sets one dot with a pen. A higher layer than the cell's replaces its dots; the same layer
    /// adds dots (the last pen colours the cell); a lower layer is ignored.
    @inline(__always)
    public mutating func setDot(x: Int, y: Int, ink: Int, slope: UInt8 = 0) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        let cx = x >> 1, cy = y >> 2
        let i = cy * width + cx
        let bit = Self.dotBit(column: x & 1, row: y & 3)
        var c = cells[i]
        let cur = Int(c >> 16)
        if cur != 0 {
            let newLayer = inkLayers[ink], curLayer = inkLayers[cur - 1]
            if newLayer < curLayer { return }
            if newLayer > curLayer { c = 0 }
        }
        cells[i] = (c & 0xFFFF) | UInt32(bit) | UInt32(slope) << 8 | UInt32(ink + 1) << 16
    }

    /// Draws a straight line between two dot positions (fractional, may lie outside: the line is
    /// clipped) with Bresenham's algorithm.
    /// - Parameters:
    ///   - dash: `(on, off)` run lengths in dots for a dashed line, or nil for solid.
    ///   - phase: position in the dash pattern, carried from segment to segment of a polyline.
    public mutating func line(x0: Double, y0: Double, x1: Double, y1: Double, ink: Int,
                              dash: (on: Int, off: Int)? = nil, phase: inout Int) {
        guard let (ax, ay, bx, by) = clip(x0, y0, x1, y1) else {
            // Entirely outside: keep the dash phase moving by the segment's length in dots.
            let len = max(abs(x1 - x0), abs(y1 - y0))
            if len.isFinite { phase &+= Int(min(len, 1e9).rounded()) }
            return
        }
        // Clipped coordinates are ≥ 0, where truncation is floor.
        var x = Int(ax), y = Int(ay)
        let xe = Int(bx), ye = Int(by)
        if x == xe && y == ye && dash == nil {
            // Sub-dot segment (common when zoomed out): one dot, no setup.
            setDot(x: x, y: y, ink: ink, slope: Self.slopeClass(dx: x1 - x0, dy: y1 - y0))
            phase += 1
            return
        }
        let dx = abs(xe - x), dy = -abs(ye - y)
        let sx = x < xe ? 1 : -1, sy = y < ye ? 1 : -1
        let slope = Self.slopeClass(dx: x1 - x0, dy: y1 - y0)
        let thick = inkThick[ink]
        let period = dash.map { max(1, $0.on + $0.off) } ?? 1
        let onRun = dash?.on ?? 1
        let xMajor = dx >= -dy
        var err = dx + dy
        while true {
            if dash == nil || ((phase % period) + period) % period < onRun {
                setDot(x: x, y: y, ink: ink, slope: slope)
                if thick {
                    if xMajor { setDot(x: x, y: y + 1, ink: ink, slope: slope) } else { setDot(x: x + 1, y: y, ink: ink, slope: slope) }
                }
            }
            if x == xe && y == ye { break }
            phase += 1
            let e2 = 2 * err
            if e2 >= dy { err += dy; x += sx }
            if e2 <= dx { err += dx; y += sy }
        }
        phase += 1
    }

    /// Solid line without a dash phase to carry.
    public mutating func line(x0: Double, y0: Double, x1: Double, y1: Double, ink: Int) {
        var p = 0
        line(x0: x0, y0: y0, x1: x1, y1: y1, ink: ink, dash: nil, phase: &p)
    }

    /// Slope class bit of a direction in square dot space: `-` within 22.5° of horizontal,
    /// `|` within 22.5° of vertical, else `/` or `\` (y grows downward).
    static func slopeClass(dx: Double, dy: Double) -> UInt8 {
        let ax = abs(dx), ay = abs(dy)
        // tan(22.5°): the boundary between a straight and a diagonal glyph.
        let tan22 = 0.4142
        if ay <= ax * tan22 { return 1 }
        if ax <= ay * tan22 { return 2 }
        return (dx > 0) != (dy > 0) ? 4 : 8
    }

    /// Liang–Barsky clipping to the dot area widened by one dot; nil when nothing is visible.
    private func clip(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> (Double, Double, Double, Double)? {
        let xmin = -0.5, ymin = -0.5, xmax = Double(dotWidth) - 0.001, ymax = Double(dotHeight) - 0.001
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
        // Fast path: both ends inside.
        if x0 >= xmin, x0 <= xmax, x1 >= xmin, x1 <= xmax, y0 >= ymin, y0 <= ymax, y1 >= ymin, y1 <= ymax {
            return (max(0, x0), max(0, y0), max(0, x1), max(0, y1))
        }
        let dx = x1 - x0, dy = y1 - y0
        var t0 = 0.0, t1 = 1.0
        @inline(__always) func edge(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 { if r > t1 { return false }; if r > t0 { t0 = r } }
            else { if r < t0 { return false }; if r < t1 { t1 = r } }
            return true
        }
        guard edge(-dx, x0 - xmin), edge(dx, xmax - x0), edge(-dy, y0 - ymin), edge(dy, ymax - y0) else { return nil }
        return (max(0, x0 + t0 * dx), max(0, y0 + t0 * dy), max(0, x0 + t1 * dx), max(0, y0 + t1 * dy))
    }

    /// Writes every non-empty cell into `buffer` at `origin` (cells without dots are left as they are).
    public func render(into buffer: inout ScreenBuffer, at origin: (x: Int, y: Int), glyphs: GlyphMode) {
        let inkCells: [Cell] = inks.map { Cell(" ", style: $0.style) }
        let inkGlyphs = inks.map(\.glyph)
        let braille = Self.brailleGlyphs
        for cy in 0..<height {
            let by = origin.y + cy
            guard by >= 0, by < buffer.height else { continue }
            for cx in 0..<width {
                let i = cy * width + cx
                let packed = cells[i]
                let k = Int(packed >> 16)
                guard k != 0 else { continue }
                let bx = origin.x + cx
                guard bx >= 0, bx < buffer.width else { continue }
                var cell = inkCells[k - 1]
                switch inkGlyphs[k - 1] {
                case .braille where glyphs == .unicode, .sparse where glyphs == .unicode:
                    cell.glyph = braille[Int(packed & 0xFF)]
                default:
                    cell.glyph = glyph(ink: inkGlyphs[k - 1], bits: UInt8(packed & 0xFF), slopes: UInt8((packed >> 8) & 0xFF), mode: glyphs)
                }
                buffer.setFast(x: bx, y: by, cell)
            }
        }
    }

    @inline(__always)
    private func glyph(ink: InkGlyph, bits: UInt8, slopes s: UInt8, mode: GlyphMode) -> String {
        switch ink {
        case .fixed(let g): return g
        case .sparse: return mode == .unicode ? Self.brailleGlyphs[Int(bits)] : "."
        case .braille:
            if mode == .unicode { return Self.brailleGlyphs[Int(bits)] }
            switch s {
            case 1: return "-"
            case 2: return "|"
            case 4: return "/"
            case 8: return "\\"
            case 0: return "."
            default: return "+"
            }
        }
    }
}
