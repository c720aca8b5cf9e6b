import SkateCore

/// The map legend: one row per roughness class and braking level, sample then word.
public enum LegendWidget {
    /// Entries in display order.
    static func entries(_ theme: Theme) -> [(sample: String, style: CellStyle, label: String)] {
        var rows: [(String, CellStyle, String)] = RoughnessClass.allCases.map { c in
            let ink = theme.routeInk(c)
            return (theme.sample(ink), ink.style, c.name)
        }
        for level in [BrakingLevel.caution, .braking] {
            if let b = theme.brakingInk(level) { rows.append((theme.sample(b.ink, dashed: true), b.ink.style, level.name)) }
        }
        rows.append((theme.spotGlyph, theme.style(.spot), "spot"))
        rows.append((theme.hazardGlyph, theme.style(.hazard), "hazard"))
        return rows
    }

    /// The size the legend needs (box included).
    public static func size(_ theme: Theme) -> Size {
        let e = entries(theme)
        let w = (e.map { DisplayWidth.of($0.sample) + 1 + $0.label.count }.max() ?? 0) + 4
        return Size(width: w, height: e.count + 2)
    }

    /// Draws the legend in a box filling `area` (clipped when smaller than `size`).
    public static func render(theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        guard area.width >= 6, area.height >= 3 else { return }
        buffer.fill(area)
        buffer.drawBox(area, style: theme.style(.border), glyphs: theme.glyphs)
        for (i, e) in entries(theme).enumerated() where i < area.height - 2 {
            let y = area.y + 1 + i
            let n = buffer.write(e.sample, x: area.x + 2, y: y, style: e.style, maxWidth: area.width - 4)
            buffer.write(" " + e.label, x: area.x + 2 + n, y: y, style: theme.style(.text), maxWidth: area.width - 4 - n)
        }
    }
}
