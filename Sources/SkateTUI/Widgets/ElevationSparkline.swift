import SkateCore

/// An elevation profile: equally spaced samples along the route with their braking level.
struct ElevationProfile: Hashable, Sendable {
    /// Metres above sea level, equally spaced from start to end.
    public var elevations: [Double]
    /// Braking level per sample (same count as `elevations`, or empty for none).
    public var braking: [BrakingLevel]
    public init(elevations: [Double], braking: [BrakingLevel] = []) { self.elevations = elevations; self.braking = braking }
}

/// A sparkline of the elevation profile, several rows tall, with braking zones coloured in
/// the warning colour and marked on a bottom row (`━` braking, `┄` caution; ASCII `=` and `-`).
enum ElevationSparklineWidget {
    static let unicodeBlocks = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let asciiBlocks = [" ", ".", ".", "-", "-", "=", "=", "#", "#"]

    /// Draws the profile into `area`: the top rows for bars (min..max label in the first row),
    /// the last row for braking marks when `area.height ≥ 3`.
    public static func render(_ p: ElevationProfile, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        guard area.width >= 4, area.height >= 1 else { return }
        buffer.fill(area)
        guard !p.elevations.isEmpty else {
            buffer.write("no elevation data", x: area.x, y: area.y, style: theme.style(.textDim), maxWidth: area.width)
            return
        }
        let markRow = area.height >= 3
        let barRows = area.height - (markRow ? 1 : 0)
        let cols = area.width
        // Resample to one value per column (max of the samples it covers) and its worst braking.
        var values = [Double](repeating: 0, count: cols), levels = [BrakingLevel](repeating: .none, count: cols)
        let n = p.elevations.count
        for c in 0..<cols {
            let a = c * n / cols, b = max(a + 1, (c + 1) * n / cols)
            var v = -Double.infinity, l = BrakingLevel.none
            for i in a..<min(b, n) {
                v = max(v, p.elevations[i])
                if i < p.braking.count { l = max(l, p.braking[i]) }
            }
            values[c] = v; levels[c] = l
        }
        let lo = p.elevations.min()!, hi = p.elevations.max()!
        let span = max(hi - lo, 1)  // flat profiles still draw a one-eighth bar
        let blocks = theme.glyphs == .unicode ? unicodeBlocks : asciiBlocks
        let eighths = barRows * 8
        for c in 0..<cols {
            let h = max(1, Int(((values[c] - lo) / span * Double(eighths - 1)).rounded()) + 1)
            let role: PaletteRole = levels[c] == .braking ? .braking : (levels[c] == .caution ? .caution : .okay)
            var style = theme.style(role)
            if role == .okay { style = theme.style(.text) }
            for r in 0..<barRows {
                let fill = min(8, max(0, h - r * 8))
                guard fill > 0 else { break }
                buffer.set(x: area.x + c, y: area.y + barRows - 1 - r, Cell(blocks[fill], style: style))
            }
            if markRow, levels[c] != .none {
                let g = levels[c] == .braking ? (theme.glyphs == .unicode ? "━" : "=") : (theme.glyphs == .unicode ? "┄" : "-")
                buffer.set(x: area.x + c, y: area.maxY - 1, Cell(g, style: theme.style(levels[c] == .braking ? .braking : .caution)))
            }
        }
        // The highest point on the top row, the lowest on the bottom bar row (min and max labels).
        let label = UnitFormatter.length(hi)
        if barRows >= 2, area.width > label.count + 2 {
            buffer.write(label, x: area.x, y: area.y, style: theme.style(.textDim))
            let low = UnitFormatter.length(lo)
            buffer.write(low, x: area.x, y: area.y + barRows - 1, style: theme.style(.textDim).adding(.reverse))
        }
    }
}
