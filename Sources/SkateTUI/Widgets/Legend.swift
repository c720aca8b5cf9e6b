import SkateCore

/// The map legend: one entry per roughness class, braking level and marker, sample then word.
/// With the skateability layer on it lists what the layer draws instead: the classes in the
/// street pens, the three confidence weights, steep streets, then the route's braking levels.
/// It never takes more than `maxShare` of the map's height: it folds into columns, then drops
/// its box, when the map is short.
enum LegendWidget {
    /// Largest share of the map's rows the legend may cover (a third: the 80×24 case
    /// had it hiding a third of the map with a one-column box).
    public static let maxShare = 0.3
    /// Columns between two legend columns.
    static let columnGap = 2

    /// Entries in display order.
    static func entries(_ theme: Theme, skateLayer: Bool = false) -> [(sample: String, style: CellStyle, label: String)] {
        if skateLayer { return layerEntries(theme) }
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

    /// The skateability layer's entries: classes (tag weight), confidence weights (on okay),
    /// steep streets, the route's braking levels and the markers.
    static func layerEntries(_ theme: Theme) -> [(sample: String, style: CellStyle, label: String)] {
        var rows: [(String, CellStyle, String)] = RoughnessClass.allCases.map { c in
            let ink = theme.streetInk(c, .tagged)
            return (theme.sample(ink), ink.style, c.name)
        }
        for k in SkateConfidence.allCases {
            let ink = theme.streetInk(.okay, k)
            rows.append((theme.sample(ink), ink.style, k.name))
        }
        rows.append((theme.sample(theme.steepStreetInk, dashed: true), theme.steepStreetInk.style, "steep, braking"))
        if let b = theme.brakingInk(.caution) { rows.append((theme.sample(b.ink, dashed: true), b.ink.style, BrakingLevel.caution.name)) }
        rows.append((theme.spotGlyph, theme.style(.spot), "spot"))
        rows.append((theme.hazardGlyph, theme.style(.hazard), "hazard"))
        return rows
    }

    /// How the legend is laid out for a map of `mapHeight` rows.
    public struct Layout: Hashable, Sendable {
        public var columns: Int
        public var boxed: Bool
        public var size: Size
    }

    static func entryWidth(_ theme: Theme, skateLayer: Bool = false) -> Int {
        entries(theme, skateLayer: skateLayer).map { DisplayWidth.of($0.sample) + 1 + $0.label.count }.max() ?? 0
    }

    /// The first layout (boxed before bare, fewer columns first) within `maxShare` of
    /// `mapHeight` rows and `maxWidth` columns; nil when none fits (the legend stays off).
    public static func layout(_ theme: Theme, mapHeight: Int, maxWidth: Int, skateLayer: Bool = false) -> Layout? {
        let n = entries(theme, skateLayer: skateLayer).count
        let ew = entryWidth(theme, skateLayer: skateLayer)
        let maxRows = Int(Double(mapHeight) * maxShare)
        for boxed in [true, false] {
            for cols in 1...3 {
                let rows = (n + cols - 1) / cols
                let h = rows + (boxed ? 2 : 0)
                let w = cols * ew + (cols - 1) * columnGap + (boxed ? 4 : 2)
                if h <= maxRows, w <= maxWidth { return Layout(columns: cols, boxed: boxed, size: Size(width: w, height: h)) }
            }
        }
        return nil
    }

    /// The size of the one-column boxed legend.
    public static func size(_ theme: Theme) -> Size {
        Size(width: entryWidth(theme) + 4, height: entries(theme).count + 2)
    }

    /// Draws the legend filling `area` (one boxed column unless told otherwise).
    public static func render(theme: Theme, into buffer: inout ScreenBuffer, area: Rect, columns: Int = 1, boxed: Bool = true,
                              skateLayer: Bool = false) {
        guard area.width >= 6, area.height >= (boxed ? 3 : 1) else { return }
        buffer.fill(area)
        if boxed { buffer.drawBox(area, style: theme.style(.border), glyphs: theme.glyphs) }
        let e = entries(theme, skateLayer: skateLayer)
        let pad = boxed ? 1 : 0
        let rows = max(1, (e.count + columns - 1) / columns)
        let ew = entryWidth(theme, skateLayer: skateLayer)
        for (i, entry) in e.enumerated() {
            let col = i / rows, row = i % rows
            let x = area.x + pad + 1 + col * (ew + columnGap)
            let y = area.y + pad + row
            guard y < area.maxY - pad, x < area.maxX - pad else { continue }
            let room = area.maxX - pad - 1 - x
            let n = buffer.write(entry.sample, x: x, y: y, style: entry.style, maxWidth: room)
            buffer.write(" " + entry.label, x: x + n, y: y, style: theme.style(.text), maxWidth: room - n)
        }
    }
}
