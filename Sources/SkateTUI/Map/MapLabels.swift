import FoundationEssentials
import Glibc
import SkateCore

/// A name placed on the map: its text, top-left cell (buffer coordinates) and style.
struct PlacedLabel: Hashable, Sendable {
    public var text: String
    public var x: Int
    public var y: Int
    public var role: PaletteRole
    /// Columns the text takes.
    public var width: Int { DisplayWidth.of(text) }
}

/// Street names along the route and the destination's name beside `B`, placed the way mapscii
/// places labels: greedily, most important first, each at the first candidate position that
/// overlaps no label already placed, no marker (A, B, rider, hazards, spots, cursor), no region
/// drawn over the map later (legend, scale bar) and no route cell; a name with no free position
/// is skipped. Every name goes through the one terminal sanitizer (`TerminalSafe`, in `DisplayWidth.clip`).
enum MapLabels {
    /// Longest street label in columns; longer names end in an ellipsis (a label wider than
    /// this would cross half an 80-column map and hide the streets it names).
    public static let maxColumns = 24
    /// Where along a named stretch a label is tried, as fractions of its length: the middle
    /// first (mapscii's choice), then towards the ends.
    static let anchorFractions: [Double] = [0.5, 0.3, 0.7, 0.15, 0.85]
    /// Blank columns kept between two labels on a row so they never read as one.
    static let gap = 1
    /// Stretches shorter than this many cells on screen get no label (it would sit beside
    /// another street).
    static let minStretchCells = 4.0

    /// The labels to draw for `overlay` in `area` (buffer coordinates).
    /// - Parameters:
    ///   - avoid: regions drawn over the map afterwards.
    ///   - isRoute: true when a cell (buffer coordinates) shows the route; labels keep off it.
    public static func place(_ o: RouteOverlay, viewport vp: MapViewport, area: Rect, avoid: [Rect] = [], glyphs: GlyphMode,
                             isRoute: (Int, Int) -> Bool) -> [PlacedLabel] {
        var taken: [Rect] = avoid
        // Markers: one cell each (the rider three, for its brackets without colour).
        func mark(_ c: Coordinate?, wide: Bool = false) {
            guard let c, let cell = vp.cell(c) else { return }
            taken.append(Rect(x: area.x + cell.x - (wide ? 1 : 0), y: area.y + cell.y, width: wide ? 3 : 1, height: 1))
        }
        for s in o.spots { mark(s) }
        for h in o.hazards { mark(h) }
        mark(o.start); mark(o.end); mark(o.rider?.position, wide: true); mark(o.cursor)
        var out: [PlacedLabel] = []

        func free(_ r: Rect, allowRoute: Bool) -> Bool {
            guard r.x >= area.x, r.maxX <= area.maxX, r.y >= area.y, r.maxY <= area.maxY else { return false }
            let padded = Rect(x: r.x - gap, y: r.y, width: r.width + 2 * gap, height: 1)
            for t in taken where !t.intersection(padded).isEmpty { return false }
            if !allowRoute { for x in r.x..<r.maxX where isRoute(x, r.y) { return false } }
            return true
        }
        /// Beside the cell: right, left, above and below (centred).
        func candidates(_ cx: Int, _ cy: Int, _ w: Int) -> [Rect] {
            [Rect(x: cx + 2, y: cy, width: w, height: 1), Rect(x: cx - 1 - w, y: cy, width: w, height: 1),
             Rect(x: cx - w / 2, y: cy - 1, width: w, height: 1), Rect(x: cx - w / 2, y: cy + 1, width: w, height: 1)]
        }
        func put(_ text: String, _ r: Rect, _ role: PaletteRole) {
            taken.append(r)
            out.append(PlacedLabel(text: text, x: r.x, y: r.y, role: role))
        }

        // The destination first: it is what the rider looks for.
        if let name = o.endName, let e = o.end, let cell = vp.cell(e) {
            let text = DisplayWidth.clip(name, maxColumns: maxColumns, ellipsis: glyphs.ellipsis)
            let w = DisplayWidth.of(text)
            if w > 0 {
                let cs = candidates(area.x + cell.x, area.y + cell.y, w)
                if let r = cs.first(where: { free($0, allowRoute: false) }) ?? cs.first(where: { free($0, allowRoute: true) }) {
                    put(text, r, .end)
                }
            }
        }
        // Streets, by priority; each name once.
        var seen = Set<String>()
        for n in o.names.sorted(by: { $0.priority > $1.priority }) {
            let text = DisplayWidth.clip(n.name, maxColumns: maxColumns, ellipsis: glyphs.ellipsis)
            let w = DisplayWidth.of(text)
            guard w > 0, !seen.contains(text), n.points.count >= 2 else { continue }
            let dots = n.points.map { vp.dot($0) }
            var lengths = [0.0]
            for (a, b) in zip(dots, dots.dropFirst()) { lengths.append(lengths.last! + hypot(b.x - a.x, (b.y - a.y))) }
            let total = lengths.last!
            guard total / Double(BrailleCanvas.dotsPerCellX) >= minStretchCells else { continue }
            search: for f in anchorFractions {
                let p = point(dots, lengths, at: f * total)
                let cx = Int((p.x / Double(BrailleCanvas.dotsPerCellX)).rounded(.down))
                let cy = Int((p.y / Double(BrailleCanvas.dotsPerCellY)).rounded(.down))
                guard cx >= 0, cy >= 0, cx < area.width, cy < area.height else { continue }
                for r in candidates(area.x + cx, area.y + cy, w) where free(r, allowRoute: false) {
                    put(text, r, .hudValue)
                    seen.insert(text)
                    break search
                }
            }
        }
        return out
    }

    /// The dot position `d` dots along a polyline.
    static func point(_ pts: [(x: Double, y: Double)], _ lengths: [Double], at d: Double) -> (x: Double, y: Double) {
        for i in 1..<pts.count where lengths[i] >= d {
            let seg = lengths[i] - lengths[i - 1]
            let t = seg > 0 ? (d - lengths[i - 1]) / seg : 0
            return (pts[i - 1].x + t * (pts[i].x - pts[i - 1].x), pts[i - 1].y + t * (pts[i].y - pts[i - 1].y))
        }
        return pts[pts.count - 1]
    }

    /// Named stretches of a plan: consecutive steps on the same street joined, longer stretches
    /// first (`priority` is the length in metres).
    public static func names(of plan: RoutePlan) -> [NamedLine] {
        var out: [NamedLine] = []
        var cur: (name: String, pts: [Coordinate], len: Double)?
        for s in plan.steps where s.geometry.count >= 2 {
            if let c = cur, c.name == s.street {
                cur = (c.name, c.pts + s.geometry.dropFirst(), c.len + s.context.distance)
                continue
            }
            if let c = cur, !c.name.isEmpty { out.append(NamedLine(name: c.name, points: c.pts, priority: c.len)) }
            cur = (s.street, s.geometry, s.context.distance)
        }
        if let c = cur, !c.name.isEmpty { out.append(NamedLine(name: c.name, points: c.pts, priority: c.len)) }
        return out
    }
}
