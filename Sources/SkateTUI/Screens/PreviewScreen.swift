import SkateCore

/// State of the route preview.
struct PreviewState: Hashable, Sendable {
    public var plan: PlanRef
    /// Names of the ends (sanitised).
    public var from: String
    public var to: String
    public var map: MapBrowseState
    /// First step shown in the list.
    public var stepScroll: Int
    /// Every route planned (best first, then the alternatives); `plan` is `routes[selected]`.
    public var routes: [PlanRef] = []
    public var selected: Int = 0
    /// The highlighted step (j/k), which Enter zooms the map to; nil before any was chosen.
    public var stepCursor: Int?

    public init(plan: PlanRef, from: String, to: String, map: MapBrowseState) {
        self.plan = plan; self.from = from; self.to = to; self.map = map; stepScroll = 0
        routes = [plan]
    }
}

/// The route before riding it: the map fitted to the route (drawn step by step in its roughness
/// colours, braking dashes, hazards, spots), the summary, the step list and the elevation profile.
enum PreviewScreen {
    /// Width of the step panel on the right.
    static let panelMinWidth = 36
    static let panelMaxWidth = 56
    /// Rows of the elevation profile under the map (label row included).
    static let profileRows = 6

    /// Narrowest map beside the step panel: the panel takes the map's room down to this before
    /// a step's instruction is cut (issue 34 item 4).
    static let mapMinWidth = 30
    /// Columns of the panel around a step row: the border, the cursor gutter, a right margin.
    static let panelChrome = 3

    static func body(_ size: Size) -> Rect { ScreenLayout.body(size) }

    /// The step panel's width: wide enough for the longest step of `plan` in full when the map
    /// keeps `narrowestMap` columns, never narrower than two fifths of the screen (36…56).
    static func panelWidth(_ size: Size, plan: RoutePlan? = nil) -> Int {
        let base = ScreenLayout.panelWidth(size, minWidth: panelMinWidth, maxWidth: panelMaxWidth)
        guard let plan else { return base }
        let need = (plan.steps.map(stepWidth).max() ?? 0) + panelChrome
        return max(base, min(need, size.width - narrowestMap(size)))
    }

    /// Screens at least this wide keep `mapMinShare` of their width for the map.
    static let wideScreenColumns = 100
    /// Share (%) of a wide screen the map keeps beside the step panel (issue 34: at 120×40 a
    /// panel as wide as the longest step left the map 55 columns); longer steps wrap, then cut.
    static let mapMinShare = 55
    /// Columns the legend leaves at the map's left for the scale bar.
    static let legendScaleRoom = 16

    /// The narrowest map for a screen: `mapMinWidth`, or `mapMinShare` of a wide screen.
    static func narrowestMap(_ size: Size) -> Int {
        size.width >= wideScreenColumns ? max(mapMinWidth, size.width * mapMinShare / 100) : mapMinWidth
    }

    /// The map part of the screen (beside the step panel sized for `plan`).
    public static func mapArea(_ size: Size, plan: RoutePlan? = nil) -> Rect {
        let b = body(size)
        return Rect(x: b.x, y: b.y, width: b.width - panelWidth(size, plan: plan), height: b.height - profileRows)
    }

    /// Columns `renderStep` needs for a step written in full.
    static func stepWidth(_ step: RouteStep) -> Int {
        let c = step.context
        let arrow = DisplayWidth.of(ManeuverArrow(step.maneuver).glyph(.ascii)) + 1
        if step.maneuver == .arrive { return arrow + DisplayWidth.of(step.instruction) }
        let kind = c.connector.map { $0.kind == .escalator ? 8 : 7 } ?? 7
        let flags = stepFlags(c).reduce(0) { $0 + $1.0.count + 1 }
        let note = PlanFormats.accessNote(c)
        return arrow + 7 + 7 + 1 + kind + flags + DisplayWidth.of(step.instruction + (note.isEmpty ? "" : " — " + note))
    }

    /// A preview of `plan`, the map fitted to it (and to the other `routes`, drawn dimmed).
    /// - Parameter routes: every route planned, `plan` among them; empty for `plan` alone.
    public static func make(plan: PlanRef, routes: [PlanRef] = [], from: String, to: String, context: TUIContext, services: TUIServices, size: Size) -> PreviewState {
        let area = mapArea(size, plan: plan.plan)
        let all = routes.contains(plan) ? routes : [plan]
        var s = PreviewState(plan: plan, from: from, to: to, map: MapBrowseState(viewport: MapViewport(origin: context.map.bbox.center, metresPerDot: 1,
                             size: Size(width: area.width, height: area.height)), overlay: nil, showLegend: true))
        s.routes = all
        s.selected = all.firstIndex(of: plan) ?? 0
        s.map.overlay = overlay(s, services: services)
        s.map.viewport = fitted(plan.plan, area: area, context: context, fallback: s.map.overlay?.boundingBox ?? .empty)
        return s
    }

    /// A view of `area` fitted to the selected route alone (issue 34 item 5: a long dimmed
    /// alternative must not shrink the chosen one), the legend's rows kept free.
    static func fitted(_ plan: RoutePlan, area: Rect, context: TUIContext, fallback: BoundingBox) -> MapViewport {
        var box = BoundingBox.empty
        for p in plan.geometry { box.extend(lat: p.lat, lon: p.lon) }
        if box.isEmpty { box = fallback }
        var vp = MapViewport(origin: box.isEmpty ? context.map.bbox.center : box.center, metresPerDot: 1,
                             size: Size(width: area.width, height: area.height))
        vp.fit(box, reservingBottomRows: MapBrowseScreen.legendRows(vp.size, theme: context.theme))
        return vp
    }

    /// The state for a new terminal size.
    public static func resized(_ s: PreviewState, size: Size) -> PreviewState {
        var s = s
        let a = mapArea(size, plan: s.plan.plan)
        s.map.viewport.size = Size(width: a.width, height: a.height)
        return s
    }

    /// Rows of the step list on a screen of `size`.
    static func stepRows(_ size: Size) -> Int { max(1, body(size).height - summaryRows - 2) }
    static let summaryRows = 6

    public static func apply(_ action: KeyAction, to state: PreviewState, context: TUIContext, size: Size, services: TUIServices? = nil) -> PreviewState {
        var s = state
        switch action {
        case .nextRoute:
            guard s.routes.count > 1, let services else { return s }
            s = select((s.selected + 1) % s.routes.count, in: s, services: services)
            // The panel follows the new steps; the view fits the route now chosen.
            s.map.viewport = fitted(s.plan.plan, area: mapArea(size, plan: s.plan.plan), context: context, fallback: .empty)
        case .stepNext, .stepPrevious:
            let n = s.plan.plan.steps.count
            guard n > 0 else { return s }
            let c = s.stepCursor.map { $0 + (action == .stepNext ? 1 : -1) } ?? (action == .stepNext ? s.stepScroll : s.stepScroll + stepRows(size) - 1)
            s.stepCursor = min(n - 1, max(0, c))
            let rows = stepRows(size)
            if let c = s.stepCursor {
                if c < s.stepScroll { s.stepScroll = c }
                if c >= s.stepScroll + rows { s.stepScroll = c - rows + 1 }
            }
        case .confirm:
            if let c = s.stepCursor { s.map.viewport = zoomed(s.map.viewport, to: s.plan.plan, step: c) }
        case .stepsDown:
            s.stepScroll = min(max(0, s.plan.plan.steps.count - stepRows(size)), s.stepScroll + max(1, stepRows(size) / 2))
        case .stepsUp:
            s.stepScroll = max(0, s.stepScroll - max(1, stepRows(size) / 2))
        default:
            s.map = MapBrowseScreen.apply(action, to: s.map, context: context)
        }
        return s
    }

    public static func render(_ s: PreviewState, context: TUIContext, extraHazards: [Coordinate], into buffer: inout ScreenBuffer, keyContext: ScreenID) {
        let theme = context.theme
        let size = buffer.size
        let plan = s.plan.plan
        let arrow = theme.glyphs == .unicode ? " → " : " -> "
        TitleBar.render("Preview", context: context, right: s.from + arrow + s.to, into: &buffer)
        let area = mapArea(size, plan: plan)
        var overlay = s.map.overlay ?? RouteOverlay()
        overlay.hazards += extraHazards
        overlay.cursor = s.map.viewport.center
        // Names keep off the legend and the scale bar, drawn over the map afterwards.
        var legendRect: Rect?
        var legendLayout: (columns: Int, boxed: Bool)?
        if s.map.showLegend, let l = LegendWidget.layout(theme, mapHeight: area.height, maxWidth: area.width - legendScaleRoom,
                                                                   skateLayer: context.showSkateLayer) {
            let ls = l.size
            legendRect = Rect(x: area.maxX - ls.width, y: area.maxY - ls.height, width: ls.width, height: ls.height)
            legendLayout = (l.columns, l.boxed)
        } else if s.map.showLegend, let l = LegendWidget.layout(theme, mapHeight: area.height - 1, maxWidth: area.width,
                                                                          skateLayer: context.showSkateLayer) {
            // A narrow map (80×24): the legend takes the map's width, above the scale bar's row.
            let ls = l.size
            legendRect = Rect(x: area.maxX - ls.width, y: area.maxY - 1 - ls.height, width: ls.width, height: ls.height)
            legendLayout = (l.columns, l.boxed)
        }
        let scaleRect = Rect(x: area.x, y: area.maxY - 1, width: ScaleBar.maxCells + 10, height: 1)
        MapRenderer.render(map: context.map, overlay: overlay, viewport: s.map.viewport, theme: theme, into: &buffer, area: area,
                           avoid: [scaleRect] + (legendRect.map { [$0] } ?? []), layer: context.layer, detail: context.detail)
        if let r = legendRect, let l = legendLayout {
            LegendWidget.render(theme: theme, into: &buffer, area: r, columns: l.columns, boxed: l.boxed, skateLayer: context.showSkateLayer)
        }
        ScaleBar.render(s.map.viewport, theme: theme, into: &buffer, x: area.x + 1, y: area.maxY - 1, maxWidth: area.width / 2)
        // Elevation profile under the map.
        let prof = Rect(x: area.x, y: area.maxY, width: area.width, height: profileRows)
        let marked = s.stepCursor.flatMap { plan.steps.indices.contains($0) ? plan.steps[$0].startDistance : nil }
        renderProfile(plan, theme: theme, into: &buffer, area: prof, marker: marked)
        // Right panel: summary then steps.
        let b = body(size)
        let pw = panelWidth(size, plan: plan)
        let panel = Rect(x: b.maxX - pw, y: b.y, width: pw, height: b.height)
        buffer.fill(panel)
        let v = theme.glyphs.box.vertical
        for yy in panel.y..<panel.maxY { buffer.set(x: panel.x, y: yy, Cell(v, style: theme.style(.border))) }
        let x0 = panel.x + 2, inner = panel.width - 3
        var y = panel.y
        let label = theme.style(.hudLabel), value = theme.style(.hudValue), dim = theme.style(.textDim)
        // trickSpotCrawl names the spot(s) it threads; with alternatives, which route this is.
        let spots = plan.spots.isEmpty ? "" : "  spot: " + TerminalSafe.clean(plan.spots.joined(separator: ", "))
        let which = routeLabel(s)
        var head = HumanText.mode(plan.mode) + (which.isEmpty ? "" : "  " + which) + spots
        // Too long for the panel: the spots stay ("a: other routes" below says there are others).
        if DisplayWidth.of(head) > inner, !spots.isEmpty { head = HumanText.mode(plan.mode) + spots }
        buffer.write(head, x: x0, y: y, style: label, maxWidth: inner)
        y += 1
        let crusty = plan.metresByClass[.crusty]
        // The score says what it measures: closeness to a flat butter line of the same length.
        let facts = Format.distance(plan.distance) + "  " + Format.duration(plan.duration) + "  smoothness \(Int(plan.score.rounded()))/100"
        buffer.write(facts, x: x0, y: y, style: value, maxWidth: inner)
        y += 1
        // Each fact once: distance, time and score above; crusty, braking, stairs and lifts here;
        // the grades below (the CLI's summary line would say distance and braking again).
        // No elevation: braking is unknown, not "no braking zones".
        var more = ["crusty " + Format.metres(crusty), plan.hasElevation ? brakingPhrase(plan.brakingZoneCount) : "braking unknown"]
        if plan.cautionZoneCount > 0 { more.append(cautionPhrase(plan.cautionZoneCount)) }
        if plan.walkMetres > 0 { more.append("walk " + Format.metres(plan.walkMetres)) }
        if plan.liftsUsed > 0 { more.append("lifts \(plan.liftsUsed)") }
        // An honest detour (issue 26): how much longer than the walker's line, and why.
        if let d = plan.detour {
            more.append("DETOUR \(FixedDecimal.string(d.ratio, decimals: 1))× walk: " + d.why.map(\.name).joined(separator: ", "))
        }
        if !plan.label.isEmpty { more.insert(plan.label.uppercased(), at: 0) }
        if !plan.legal { more.insert("NOT LEGAL: " + Format.metres(plan.forbidden.reduce(0) { $0 + $1.length }) + " forbidden", at: 0) }
        // Whole facts per row, never one cut mid-word ("1 caution zo"): a second row when needed.
        for line in packFacts(more, width: inner, ellipsis: theme.glyphs.ellipsis).prefix(maxFactRows) {
            buffer.write(line, x: x0, y: y, style: crusty > 0 || !plan.legal ? theme.style(.crusty) : theme.style(.text), maxWidth: inner)
            y += 1
        }
        let g = plan.gradeSummary
        let lines = plan.hasElevation ? ["climb \(UnitFormatter.length(g.climbM))  descent \(UnitFormatter.length(g.descentM))",
                                         "grades " + Format.grade(g.minGradePct) + " to " + Format.grade(g.maxGradePct)] : ["no elevation data"]
        for line in lines {
            buffer.write(line, x: x0, y: y, style: dim, maxWidth: inner)
            y += 1
        }
        if s.routes.count > 1, y < panel.y + summaryRows {
            buffer.write("a: other routes (dimmed)", x: x0, y: y, style: dim, maxWidth: inner)
        }
        y = panel.y + summaryRows
        buffer.write("Steps", x: x0, y: y, style: label)
        let count = "\(plan.steps.count) steps" + (plan.steps.count > stepRows(size) ? ", j/k step" : "")
        buffer.write(count, x: panel.maxX - count.count - 1, y: y, style: dim)
        y += 1
        let rows = stepRows(size)
        // Long instructions wrap under themselves, so a page may hold fewer steps than rows: the
        // first step shown moves down until the highlighted one fits.
        var first = s.stepScroll
        if let c = s.stepCursor {
            while first < c, plan.steps[first...c].reduce(0, { $0 + stepLineCount($1, width: inner) }) > rows { first += 1 }
        }
        var used = 0
        for i in first..<plan.steps.count where used < rows {
            let n = renderStep(plan.steps[i], theme: theme, into: &buffer, x: x0, y: y + used, width: inner, maxRows: rows - used,
                               hasElevation: plan.hasElevation)
            if s.stepCursor == i {
                // The highlighted step: a marker in the gutter and its rows in reverse video.
                buffer.set(x: x0 - 1, y: y + used, Cell(theme.glyphs == .unicode ? "▶" : ">", style: theme.style(.hudValue)))
                buffer.setStyle(Rect(x: x0, y: y + used, width: inner, height: n), theme.style(.keyBarKey))
            }
            used += n
        }
        KeyBarWidget.render(keyMap: context.keyMap, screen: keyContext, theme: theme, into: &buffer, area: Rect(size: size).splitBottom(1).bottom)
    }

    /// Continuation rows a long instruction may take under its step.
    static let maxContinuationRows = 2

    /// Rows step `step` takes at `width` (1 + continuation rows).
    static func stepLineCount(_ step: RouteStep, width: Int) -> Int {
        let text = instructionText(step)
        let lead = stepWidth(step) - DisplayWidth.of(text)
        return min(1 + maxContinuationRows, wrapInstruction(text, first: width - lead, rest: width - min(lead, width / 2)).count)
    }

    /// An instruction broken by words into a first row of `first` columns and rows of `rest`.
    static func wrapInstruction(_ text: String, first: Int, rest: Int) -> [String] {
        if DisplayWidth.of(text) <= first { return [text] }
        var lines: [String] = [], cur = "", limit = max(1, first)
        // Not even the first word fits beside the marks: the text starts on the next row.
        if let w = text.split(separator: " ").first, DisplayWidth.of(String(w)) > first { lines = [""]; limit = max(1, rest) }
        for w in text.split(separator: " ").map(String.init) {
            let next = cur.isEmpty ? w : cur + " " + w
            if DisplayWidth.of(next) <= limit || cur.isEmpty { cur = next; continue }
            lines.append(cur); cur = w; limit = max(1, rest)
        }
        if !cur.isEmpty { lines.append(cur) }
        return lines
    }

    /// The instruction with its access note.
    static func instructionText(_ step: RouteStep) -> String {
        let note = PlanFormats.accessNote(step.context)
        return TerminalSafe.clean(step.instruction + (note.isEmpty ? "" : " — " + note))
    }

    /// One step: arrow, distance, grade (braking colour), class (its colour), instruction; an
    /// instruction too long for its row wraps by words onto up to `maxContinuationRows` rows
    /// under itself (issue 34 item 4) and is cut with "…" only past them.
    /// - Returns: the rows written.
    @discardableResult
    /// On a map without elevation (`hasElevation` false) the grade column reads "?", not a 0 %
    /// the map cannot know.
    static func renderStep(_ step: RouteStep, theme: Theme, into buffer: inout ScreenBuffer, x: Int, y: Int, width: Int, maxRows: Int = 1,
                           hasElevation: Bool = true) -> Int {
        let c = step.context
        var cx = x
        cx += buffer.write(ManeuverArrow(step.maneuver).glyph(theme.glyphs) + " ", x: cx, y: y, style: theme.style(.hudValue))
        if step.maneuver != .arrive {
            cx += buffer.write(Format.distance(c.distance).leftPadded(to: 6) + " ", x: cx, y: y, style: theme.style(.text))
            let gradeRole: PaletteRole = c.braking == .braking ? .braking : (c.braking == .caution ? .caution : .text)
            cx += buffer.write((hasElevation ? Format.grade(c.gradePct) : "?").leftPadded(to: 7), x: cx, y: y, style: theme.style(gradeRole))
            cx += buffer.write(" ", x: cx, y: y)
            // A lift or escalator has no surface: it says what it is.
            if let k = c.connector {
                cx += buffer.write(k.kind.rawValue.rightPadded(to: 7), x: cx, y: y, style: theme.style(.text))
                if k.kind == .escalator { cx += buffer.write(" ", x: cx, y: y) }
            } else {
                cx += buffer.write(c.roughnessClass.name.rightPadded(to: 7), x: cx, y: y, style: theme.style(c.roughnessClass.role))
            }
            // The CLI's step marks: BRAKE / caution, too fast, walk.
            for (flag, role) in stepFlags(c) where cx + flag.count + 1 < x + width {
                cx += buffer.write(flag, x: cx, y: y, style: theme.style(role))
                cx += buffer.write(" ", x: cx, y: y)
            }
        }
        let text = instructionText(step)
        let room = max(0, x + width - cx)
        if DisplayWidth.of(text) <= room || maxRows <= 1 {
            buffer.write(DisplayWidth.clip(text, maxColumns: room, ellipsis: theme.glyphs.ellipsis), x: cx, y: y, style: theme.style(.text), maxWidth: room)
            return 1
        }
        // Continuation rows start under the instruction (or half way when that leaves too little).
        let indent = min(cx - x, width / 2)
        let contRoom = width - indent
        var lines = wrapInstruction(text, first: room, rest: contRoom)
        let allowed = min(maxRows, 1 + maxContinuationRows)
        if lines.count > allowed {
            let tail = lines[(allowed - 1)...].joined(separator: " ")
            lines = Array(lines.prefix(allowed - 1)) + [DisplayWidth.clip(tail, maxColumns: allowed == 1 ? room : contRoom, ellipsis: theme.glyphs.ellipsis)]
        }
        for (k, l) in lines.enumerated() {
            let lx = k == 0 ? cx : x + indent, lw = k == 0 ? room : contRoom
            buffer.write(DisplayWidth.clip(l, maxColumns: lw, ellipsis: theme.glyphs.ellipsis), x: lx, y: y + k, style: theme.style(.text), maxWidth: lw)
        }
        return lines.count
    }

    /// Rows the summary's facts (crusty, zones, walk, lifts, detour) may take before the grades.
    static let maxFactRows = 2

    /// Gap between two facts on a row, in cells.
    static let factGap = "  "

    /// `facts` laid out on rows of at most `width` cells, each fact whole on one row (a fact wider
    /// than a row alone is cut with `ellipsis`).
    static func packFacts(_ facts: [String], width: Int, ellipsis: String) -> [String] {
        guard width > 0 else { return [] }
        var rows: [String] = [], cur = ""
        for fact in facts.map({ DisplayWidth.clip($0, maxColumns: width, ellipsis: ellipsis) }) {
            if cur.isEmpty { cur = fact } else if DisplayWidth.of(cur) + DisplayWidth.of(factGap) + DisplayWidth.of(fact) <= width {
                cur += factGap + fact
            } else { rows.append(cur); cur = fact }
        }
        if !cur.isEmpty { rows.append(cur) }
        return rows
    }

    /// "no braking zones", "1 braking zone", "3 braking zones".
    static func brakingPhrase(_ n: Int) -> String {
        n == 0 ? "no braking zones" : (n == 1 ? "1 braking zone" : "\(n) braking zones")
    }

    /// "1 caution zone", "3 caution zones" (counted apart from braking zones).
    static func cautionPhrase(_ n: Int) -> String {
        n == 1 ? "1 caution zone" : "\(n) caution zones"
    }

    /// Marks of a step as the CLI prints them: "BRAKE" (or "caution"), "too fast", "walk".
    public static func stepFlags(_ c: StepContext) -> [(String, PaletteRole)] {
        var out: [(String, PaletteRole)] = []
        if c.braking == .braking { out.append(("BRAKE", .braking)) } else if c.braking == .caution { out.append(("caution", .caution)) }
        if c.tooFast { out.append(("too fast", .braking)) }
        if c.walk { out.append(("walk", .textDim)) }
        return out
    }

    /// The elevation chart: a label row (lowest and highest point, climb, descent, grades), the
    /// sparkline with braking and caution in their colours, and a distance axis with a `▲` under
    /// `marker` (route metres: the highlighted step).
    /// `compact`: the ride panel's narrow chart (label "Elevation" and the range only, no key).
    static func renderProfile(_ plan: RoutePlan, theme: Theme, into buffer: inout ScreenBuffer, area: Rect, marker: Double? = nil, compact: Bool = false) {
        guard area.height >= 2 else { return }
        buffer.fill(area)
        let g = plan.gradeSummary
        let els = plan.profile.map(\.elevation)
        let range = plan.hasElevation && !els.isEmpty ? "  \(UnitFormatter.lengthNumber(els.min()!))–\(UnitFormatter.length(els.max()!))" : ""
        if compact {
            buffer.write(" Elevation" + range, x: area.x, y: area.y, style: theme.style(.hudLabel), maxWidth: area.width)
        }
        // (The grades are in the summary beside it.)
        let label = "Elevation" + (plan.hasElevation ? range + "  climb \(UnitFormatter.length(g.climbM))  descent \(UnitFormatter.length(g.descentM))"
            : " (no elevation data)")
        let n = compact ? area.width : buffer.write(" " + label, x: area.x, y: area.y, style: theme.style(.hudLabel), maxWidth: area.width)
        if !plan.brakingZones.isEmpty, n + 20 < area.width {
            let b = theme.glyphs == .unicode ? "━ braking" : "= braking", c = theme.glyphs == .unicode ? " ┄ caution" : " - caution"
            let x = area.maxX - b.count - c.count - 1
            buffer.write(b, x: x, y: area.y, style: theme.style(.braking))
            buffer.write(c, x: x + b.count, y: area.y, style: theme.style(.caution))
        }
        let axis = area.height >= 4
        let chart = Rect(x: area.x + 1, y: area.y + 1, width: area.width - 2, height: area.height - 1 - (axis ? 1 : 0))
        let p = profile(plan)
        ElevationSparklineWidget.render(p, theme: theme, into: &buffer, area: chart)
        guard axis, chart.width >= 10, plan.distance > 0 else { return }
        let y = area.maxY - 1
        // Ticks at round distances, as many as fit with their labels apart.
        let steps: [Double] = [50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000]
        let step = steps.first { plan.distance / $0 <= Double(chart.width) / 9 } ?? steps.last!
        var d = 0.0
        var free = chart.x
        while d <= plan.distance + 0.5 {
            let x = chart.x + Int((d / plan.distance * Double(chart.width - 1)).rounded())
            let text = d == 0 ? "0" : Format.distance(d)
            if x >= free, x + DisplayWidth.of(text) <= chart.maxX {
                buffer.write(text, x: x, y: y, style: theme.style(.textDim))
                free = x + DisplayWidth.of(text) + 2
            }
            d += step
        }
        if let m = marker {
            let x = chart.x + Int((min(max(0, m), plan.distance) / plan.distance * Double(chart.width - 1)).rounded())
            buffer.set(x: x, y: y, Cell(theme.glyphs == .unicode ? "▲" : "^", style: theme.style(.hudValue)))
        }
    }

    /// The plan's profile with each sample's braking level from the plan's braking zones.
    public static func profile(_ plan: RoutePlan) -> ElevationProfile {
        guard plan.hasElevation, !plan.profile.isEmpty else { return ElevationProfile(elevations: []) }
        let zones = plan.brakingZones
        let levels: [BrakingLevel] = plan.profile.map { s in
            zones.filter { s.distance >= $0.start && s.distance <= $0.end }.map(\.level).max() ?? .none
        }
        return ElevationProfile(elevations: plan.profile.map(\.elevation), braking: levels)
    }
}
