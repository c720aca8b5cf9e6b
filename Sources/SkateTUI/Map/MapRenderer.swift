import SkateCore

/// Draws a map region: context streets dim in Braille, then the route overlay in roughness
/// colours with braking dashes, then markers (spots `*`, hazards `!`, start `A`, end `B`, the
/// rider's heading arrow, the cursor).
enum MapRenderer {
    /// Renders into `area` of `buffer` (the area is cleared first).
    /// - Parameters:
    ///   - map: the context streets.
    ///   - overlay: the route and markers, or nil for the bare map.
    ///   - viewport: what to show; its `size` should equal the area's size.
    ///   - avoid: regions drawn over the map afterwards (legend, scale bar) where no name goes.
    ///   - layer: the skateability layer (streets in their class colours, steep ones dashed), nil for the grey web.
    ///   - detail: the map's level-of-detail index (`MapDetail`), nil to build none (small maps, tests).
    public static func render(map: SkateMap, overlay: RouteOverlay?, viewport: MapViewport, theme: Theme,
                              into buffer: inout ScreenBuffer, area: Rect, avoid: [Rect] = [], layer: SkateLayer? = nil,
                              detail: MapDetail? = nil, levelOfDetail: Bool = true) {
        let area = area.intersection(buffer.area)
        guard !area.isEmpty else { return }
        buffer.fill(area, with: .blank)
        var canvas = BrailleCanvas(width: area.width, height: area.height)
        var vp = viewport
        vp.size = Size(width: area.width, height: area.height)
        let routeShown = overlay.map { !$0.segments.isEmpty } ?? false
        drawContext(map: map, viewport: vp, theme: theme, canvas: &canvas, quiet: routeShown, layer: layer, detail: detail,
                    levelOfDetail: levelOfDetail)
        if let o = overlay { drawRoute(o, viewport: vp, theme: theme, canvas: &canvas) }
        canvas.render(into: &buffer, at: (area.x, area.y), glyphs: theme.glyphs)
        // Without a route, the towns in view by importance (a route brings its own street names).
        if !routeShown, let d = detail {
            // A name never runs through a spot, hazard or A/B mark: the marks are drawn later.
            let marks = overlay.map { markerCells($0, viewport: vp, area: area) } ?? []
            for l in MapTownLabels.place(d.towns, map: map, viewport: vp, area: area, avoid: avoid + marks, theme: theme) {
                buffer.write(l.text, x: l.x, y: l.y, style: theme.style(l.role))
            }
        }
        if let o = overlay {
            drawMarkers(o, viewport: vp, theme: theme, buffer: &buffer, area: area)
            let labels = MapLabels.place(o, viewport: vp, area: area, avoid: avoid, glyphs: theme.glyphs) { x, y in
                (canvas.ink(atCellX: x - area.x, y: y - area.y)?.layer ?? 0) >= Theme.routeLayer
            }
            for l in labels { buffer.write(l.text, x: l.x, y: l.y, style: theme.style(l.role)) }
        }
    }

    /// Edges whose geometry may cross the view, found through the map's spatial grid (in grid
    /// order; drawing order does not matter for one context pen).
    public static func visibleEdges(map: SkateMap, viewport: MapViewport) -> [Int] {
        let g = map.grid
        guard g.nx > 0, g.ny > 0 else { return Array(0..<map.edgeCount) }
        let box = viewport.visibleBox
        // Outside the grid entirely: nothing to draw.
        if box.maxLat < g.bbox.minLat || box.minLat > g.bbox.maxLat || box.maxLon < g.bbox.minLon || box.minLon > g.bbox.maxLon {
            return []
        }
        let (x0, y0) = g.cell(lat: box.minLat, lon: box.minLon)
        let (x1, y1) = g.cell(lat: box.maxLat, lon: box.maxLon)
        // The whole grid in view: every edge, no de-duplication needed.
        if x0 == 0, y0 == 0, x1 == g.nx - 1, y1 == g.ny - 1 { return Array(0..<map.edgeCount) }
        var seen = [Bool](repeating: false, count: map.edgeCount)
        var out: [Int] = []
        for y in y0...y1 {
            for x in x0...x1 {
                for e in g.edges(inCellX: x, y: y) where !seen[Int(e)] {
                    seen[Int(e)] = true
                    out.append(Int(e))
                }
            }
        }
        return out
    }

    /// Scale (metres per dot) from which the street web is drawn by hierarchy: footways and
    /// service ways hidden, major roads brighter. Below it every street is drawn alike.
    public static let hierarchyMetresPerDot: Double = MapDetail.hideFootwaysMetresPerDot

    /// The pen of an edge at a wide zoom: nil hides it (footways, paths, service ways), major
    /// roads get the brighter pen.
    @inline(__always)
    static func hierarchyInk(_ h: HighwayClass, minor: Int, major: Int) -> Int? {
        switch MapDetail.rank(h) {
        case .major, .arterial: return major
        case .minor: return minor
        case .footway: return nil
        }
    }

    /// Draws the street web. `quiet`: a route is shown, so the web is dimmed under it.
    /// `layer`: each street in its class pen, steep streets dashed over it.
    /// `levelOfDetail` false draws every street but footways at wide zooms, as before issue 31
    /// (the benchmark's reference).
    static func drawContext(map: SkateMap, viewport vp: MapViewport, theme: Theme, canvas: inout BrailleCanvas, quiet: Bool = false,
                            layer: SkateLayer? = nil, detail: MapDetail? = nil, levelOfDetail: Bool = true) {
        let ink = canvas.register(quiet ? theme.quietContextInk : theme.contextInk)
        let wide = vp.metresPerDot >= hierarchyMetresPerDot
        let major = wide && !quiet ? canvas.register(theme.majorRoadInk) : ink
        let lod = MapDetail.shownRank(metresPerDot: vp.metresPerDot)
        let shown = levelOfDetail ? lod : max(.minor, lod)
        // Skateability pens: class × confidence (`SkateLayer.penIndex`).
        var pens: [Int] = []
        if layer != nil {
            for c in RoughnessClass.allCases { for k in SkateConfidence.allCases { pens.append(canvas.register(theme.streetInk(c, k))) } }
        }
        var steep: [Int] = []
        @inline(__always) func pen(_ e: Int) -> Int? {
            let h = map.highway(ofEdge: e)
            guard MapDetail.rank(h) <= shown else { return nil }
            if let l = layer {
                if l.isSteep(e) { steep.append(e) }
                return pens[l.penIndex(ofEdge: e)]
            }
            return wide ? hierarchyInk(h, minor: ink, major: major) : ink
        }
        // At the widest zooms only a few road classes show: walk their short list, not the grid.
        let edges = (levelOfDetail ? detail : nil).flatMap { $0.edges(upTo: shown, in: vp.visibleBox) } ?? visibleEdges(map: map, viewport: vp)
        let proj = LocalProjection(origin: vp.origin)
        if let d = detail, shown < .minor, let box = d.outline {
            // The map's extent as a frame, so sparse major roads still sit in a place.
            let corners = [Coordinate(lat: box.minLat, lon: box.minLon), Coordinate(lat: box.minLat, lon: box.maxLon),
                           Coordinate(lat: box.maxLat, lon: box.maxLon), Coordinate(lat: box.maxLat, lon: box.minLon),
                           Coordinate(lat: box.minLat, lon: box.minLon)]
            polyline(corners, viewport: vp, ink: ink, dash: MapDetail.outlineDash, canvas: &canvas)
        }
        defer {
            if !steep.isEmpty {
                let s = canvas.register(theme.steepStreetInk)
                for e in steep {
                    let n = map.shapePointCount(ofEdge: e)
                    polyline((0..<n).map { map.shapePoint(ofEdge: e, $0) }, viewport: vp, ink: s, dash: Theme.steepStreetDash, canvas: &canvas)
                }
            }
        }
        // Degrees → dots as one multiply-add per axis (the projection and the viewport folded).
        let sx = proj.mPerDegLon / vp.metresPerDot
        let ox = -proj.origin.lon * sx - vp.centerX / vp.metresPerDot + Double(vp.dotWidth) / 2
        let sy = -proj.mPerDegLat / vp.metresPerDotY
        let oy = proj.origin.lat * proj.mPerDegLat / vp.metresPerDotY + vp.centerY / vp.metresPerDotY + Double(vp.dotHeight) / 2
        guard vp.isNorthUpCentred else {
            // A turned map (heading-up): the same fold with the rotation, four multiplies a point.
            let f = vp.affine
            let east0 = -proj.origin.lon * proj.mPerDegLon, north0 = -proj.origin.lat * proj.mPerDegLat
            let axLon = f.xe * proj.mPerDegLon, axLat = f.xn * proj.mPerDegLat, ax0 = f.xe * east0 + f.xn * north0 + f.x0
            let ayLon = f.ye * proj.mPerDegLon, ayLat = f.yn * proj.mPerDegLat, ay0 = f.ye * east0 + f.yn * north0 + f.y0
            for e in edges {
                guard let pen = pen(e) else { continue }
                let count = map.shapePointCount(ofEdge: e)
                let a = map.shapePoint(ofEdge: e, 0)
                var px = a.lon * axLon + a.lat * axLat + ax0, py = a.lon * ayLon + a.lat * ayLat + ay0
                for i in 1..<count {
                    let q = map.shapePoint(ofEdge: e, i)
                    let qx = q.lon * axLon + q.lat * axLat + ax0, qy = q.lon * ayLon + q.lat * ayLat + ay0
                    canvas.line(x0: px, y0: py, x1: qx, y1: qy, ink: pen)
                    px = qx; py = qy
                }
            }
            return
        }
        for e in edges {
            guard let pen = pen(e) else { continue }
            let count = map.shapePointCount(ofEdge: e)
            let a = map.shapePoint(ofEdge: e, 0)
            var px = a.lon * sx + ox, py = a.lat * sy + oy
            for i in 1..<count {
                let q = map.shapePoint(ofEdge: e, i)
                let qx = q.lon * sx + ox, qy = q.lat * sy + oy
                canvas.line(x0: px, y0: py, x1: qx, y1: qy, ink: pen)
                px = qx; py = qy
            }
        }
    }

    static func drawRoute(_ o: RouteOverlay, viewport vp: MapViewport, theme: Theme, canvas: inout BrailleCanvas) {
        // Alternatives first (dimmed, under the route), the ridden part last (grey over all).
        for alt in o.alternatives {
            for seg in alt where seg.points.count >= 2 {
                let ink = canvas.register(theme.alternativeInk(seg.roughness))
                polyline(seg.points, viewport: vp, ink: ink, dash: nil, canvas: &canvas)
            }
        }
        defer {
            if o.ridden.count >= 2 {
                let ink = canvas.register(theme.riddenInk)
                polyline(o.ridden, viewport: vp, ink: ink, dash: nil, canvas: &canvas)
            }
        }
        // Roughness first, then braking dashes over it, so dash gaps keep the surface colour.
        for seg in o.segments where seg.points.count >= 2 {
            let ink = canvas.register(theme.routeInk(seg.roughness))
            polyline(seg.points, viewport: vp, ink: ink, dash: nil, canvas: &canvas)
        }
        for seg in o.segments + o.brakingStretches where seg.points.count >= 2 {
            guard let b = theme.brakingInk(seg.braking) else { continue }
            let ink = canvas.register(b.ink)
            polyline(seg.points, viewport: vp, ink: ink, dash: b.dash, canvas: &canvas)
        }
    }

    static func polyline(_ pts: [Coordinate], viewport vp: MapViewport, ink: Int, dash: (on: Int, off: Int)?, canvas: inout BrailleCanvas) {
        var phase = 0
        // The projection and the view's affine map once per line, not per point.
        let proj = vp.projection, f = vp.affine
        func dot(_ c: Coordinate) -> (x: Double, y: Double) {
            let q = proj.project(c)
            return (f.xe * q.x + f.xn * q.y + f.x0, f.ye * q.x + f.yn * q.y + f.y0)
        }
        var prev = dot(pts[0])
        for p in pts.dropFirst() {
            let d = dot(p)
            canvas.line(x0: prev.x, y0: prev.y, x1: d.x, y1: d.y, ink: ink, dash: dash, phase: &phase)
            prev = d
        }
    }

    /// The cells the overlay's marks take (spots, hazards, A, B, rider, cursor), in buffer
    /// coordinates, one cell each.
    static func markerCells(_ o: RouteOverlay, viewport vp: MapViewport, area: Rect) -> [Rect] {
        let points = o.spots + o.hazards + [o.start, o.end, o.rider?.position, o.cursor].compactMap { $0 }
        return points.compactMap { vp.cell($0) }.map { Rect(x: area.x + $0.x, y: area.y + $0.y, width: 1, height: 1) }
    }

    static func drawMarkers(_ o: RouteOverlay, viewport vp: MapViewport, theme: Theme, buffer: inout ScreenBuffer, area: Rect) {
        func put(_ c: Coordinate, _ glyph: String, _ role: PaletteRole) {
            guard let cell = vp.cell(c) else { return }
            buffer.set(x: area.x + cell.x, y: area.y + cell.y, Cell(glyph, style: theme.style(role)))
        }
        // Later marks win a shared cell: spots < hazards < start/end < rider < cursor.
        for s in o.spots { put(s, theme.spotGlyph, .spot) }
        for h in o.hazards { put(h, theme.hazardGlyph, .hazard) }
        if let s = o.start { put(s, theme.startGlyph, .start) }
        if let e = o.end {
            // A round trip ends where it starts: B goes beside A ("AB") rather than over it.
            if let s = o.start, let a = vp.cell(s), let b = vp.cell(e), a == b {
                let x = a.x + 1 < area.width ? a.x + 1 : a.x - 1
                if x >= 0 { buffer.set(x: area.x + x, y: area.y + a.y, Cell(theme.endGlyph, style: theme.style(.end))) }
            } else {
                put(e, theme.endGlyph, .end)
            }
        }
        if let r = o.rider {
            // Without colour the rider is bracketed "(↑)" so it stands out from A/B/! marks.
            if theme.colorMode == .none, let cell = vp.cell(r.position) {
                let st = theme.style(.hudValue)
                if cell.x > 0 { buffer.set(x: area.x + cell.x - 1, y: area.y + cell.y, Cell("(", style: st)) }
                if cell.x + 1 < area.width { buffer.set(x: area.x + cell.x + 1, y: area.y + cell.y, Cell(")", style: st)) }
            }
            // On a turned map the arrow turns with it (heading-up: it points up).
            put(r.position, theme.glyphs.arrow(headingDegrees: r.headingDegrees - vp.rotationDegrees), .rider)
        }
        if let c = o.cursor { put(c, theme.glyphs == .unicode ? "┼" : "+", .hudValue) }
    }
}
