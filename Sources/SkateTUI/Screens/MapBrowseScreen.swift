import SkateCore

/// State of the map browser.
struct MapBrowseState: Hashable, Sendable {
    public var viewport: MapViewport
    /// A route or markers to show over the map (nil: the bare map).
    public var overlay: RouteOverlay?
    public var showLegend: Bool

    public init(viewport: MapViewport, overlay: RouteOverlay? = nil, showLegend: Bool = true) {
        self.viewport = viewport; self.overlay = overlay; self.showLegend = showLegend
    }
}

/// The map browser: a title row, the map with legend, attribution and scale, and the key bar.
enum MapBrowseScreen {
    /// Scale used when there is nothing to fit (an empty map).
    static let defaultMetresPerDot: Double = 2

    /// The rectangle the map takes on a screen of `size`: all but the title and key-bar rows.
    public static func mapArea(_ size: Size) -> Rect {
        ScreenLayout.body(size)
    }

    /// Rows the legend takes at the bottom of a map of `size` (0 when it does not fit).
    static func legendRows(_ size: Size, theme: Theme, skateLayer: Bool = false) -> Int {
        LegendWidget.layout(theme, mapHeight: size.height, maxWidth: size.width - 16, skateLayer: skateLayer)?.size.height ?? 0
    }

    /// The initial state: fitted to the map.
    public static func initialState(context: TUIContext, size: Size) -> MapBrowseState {
        let box = context.map.bbox
        let origin = box.isEmpty ? Coordinate(lat: 0, lon: 0) : box.center
        let area = mapArea(size)
        var vp = MapViewport(origin: origin, metresPerDot: defaultMetresPerDot, size: Size(width: area.width, height: area.height))
        vp.fit(box)
        return MapBrowseState(viewport: vp)
    }

    /// The state for a new terminal size: same centre and scale.
    public static func resized(_ s: MapBrowseState, size: Size) -> MapBrowseState {
        var s = s
        let area = mapArea(size)
        s.viewport.size = Size(width: area.width, height: area.height)
        return s
    }

    /// Applies a key action; actions of other screens change nothing.
    public static func apply(_ action: KeyAction, to state: MapBrowseState, context: TUIContext) -> MapBrowseState {
        var s = state
        let f = MapViewport.panFraction
        switch action {
        case .panLeft: s.viewport.pan(dx: -f, dy: 0)
        case .panRight: s.viewport.pan(dx: f, dy: 0)
        case .panUp: s.viewport.pan(dx: 0, dy: f)
        case .panDown: s.viewport.pan(dx: 0, dy: -f)
        case .zoomIn: s.viewport.zoomIn()
        case .zoomOut: s.viewport.zoomOut()
        case .fit:
            let o = s.overlay?.boundingBox ?? .empty
            // A route keeps its ends out from under the legend; the whole map may run under it.
            if o.isEmpty { s.viewport.fit(context.map.bbox) }
            else { s.viewport.fit(o, reservingBottomRows: s.showLegend ? legendRows(s.viewport.size, theme: context.theme, skateLayer: context.showSkateLayer) : 0) }
        case .toggleLegend: s.showLegend.toggle()
        default: break
        }
        return s
    }

    /// Draws the whole screen into `buffer`.
    public static func render(_ s: MapBrowseState, context: TUIContext, into buffer: inout ScreenBuffer) {
        let theme = context.theme
        let size = buffer.size
        let area = mapArea(size)
        MapRenderer.render(map: context.map, overlay: s.overlay, viewport: s.viewport, theme: theme, into: &buffer, area: area,
                           layer: context.layer, detail: context.detail)
        // Title row: app, map name, centre and scale.
        let title = Rect(size: size).splitTop(1).top
        buffer.fill(title, with: Cell(" ", style: theme.style(.title)))
        let dot = theme.glyphs == .unicode ? " · " : " - "
        let n = buffer.write(" SkateRoute" + dot + context.mapName, x: 0, y: 0, style: theme.style(.title), maxWidth: size.width)
        let c = s.viewport.center
        let info = String(format5: c.lat) + "," + String(format5: c.lon) + "  " + ScaleBar.label(s.viewport) + " "
        if n + info.count + 2 <= size.width {
            buffer.write(info, x: size.width - info.count, y: 0, style: theme.style(.textDim))
        }
        // Legend bottom-right, attribution and scale bar bottom-left.
        if s.showLegend {
            let layer = context.showSkateLayer
            if let l = LegendWidget.layout(theme, mapHeight: area.height, maxWidth: area.width - 30, skateLayer: layer) {
                let r = Rect(x: area.maxX - l.size.width, y: area.maxY - l.size.height, width: l.size.width, height: l.size.height)
                LegendWidget.render(theme: theme, into: &buffer, area: r, columns: l.columns, boxed: l.boxed, skateLayer: layer)
            }
        }
        let attribution = (theme.glyphs == .unicode ? "©" : "(c)") + " OpenStreetMap contributors"
        buffer.write(attribution, x: area.x, y: area.maxY - 1, style: theme.style(.textDim), maxWidth: area.width / 2)
        ScaleBar.render(s.viewport, theme: theme, into: &buffer, x: area.x, y: area.maxY - 2, maxWidth: area.width / 2)
        KeyBarWidget.render(keyMap: context.keyMap, screen: .browse, theme: theme, into: &buffer,
                            area: Rect(size: size).splitBottom(1).bottom)
    }
}

/// A map scale bar: `├──┤ 200 m` with a round length.
enum ScaleBar {
    /// Round lengths the bar may show, in metres.
    static let niceLengths: [Double] = [5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]
    /// Longest bar in cells.
    static let maxCells = 12

    /// The longest round length that fits in `maxCells`, and its width in cells.
    static func pick(_ vp: MapViewport) -> (metres: Double, cells: Int) {
        let metresPerCell = vp.metresPerDot * Double(BrailleCanvas.dotsPerCellX)
        var best = (niceLengths[0], 1)
        for l in niceLengths {
            let cells = Int((l / metresPerCell).rounded())
            if cells <= maxCells, cells >= 1 { best = (l, cells) }
        }
        return best
    }

    /// "2.0 m/dot"-style scale text for the title.
    public static func label(_ vp: MapViewport) -> String {
        let m = vp.metresPerDot
        return (m < 10 ? String(format1: m) : "\(Int(m.rounded()))") + " m/dot"
    }

    static func render(_ vp: MapViewport, theme: Theme, into buffer: inout ScreenBuffer, x: Int, y: Int, maxWidth: Int) {
        let (metres, cells) = pick(vp)
        let u = theme.glyphs == .unicode
        let bar = (u ? "├" : "|") + String(repeating: u ? "─" : "-", count: max(0, cells - 2)) + (u ? "┤" : "|")
        buffer.write(bar + " " + Format.distance(metres), x: x, y: y, style: theme.style(.textDim), maxWidth: maxWidth)
    }
}

extension String {
    /// Five decimals, locale-independent (coordinates to ~1 m).
    init(format5 v: Double) {
        let scaled = (v * 100_000).rounded()
        let neg = scaled < 0
        let a = Int(scaled.magnitude)
        let frac = String(a % 100_000).leftPadded(to: 5, with: "0")
        self = (neg ? "-" : "") + "\(a / 100_000).\(frac)"
    }

}
