import SkateCore

/// Town names on a map without a route, most important first (issue 31: labels by importance).
/// A town's importance is how many streets it holds (a municipality counts its districts'), so
/// on a region the cities are named before their villages and districts. Names are placed
/// greedily, centred on the town, each only where it overlaps no name already placed and no
/// region drawn over the map later; at wide zooms only municipalities are named.
enum MapTownLabels {
    /// From this scale districts are left out and only municipalities are named.
    public static let municipalitiesOnlyMetresPerDot: Double = MapDetail.hideMinorMetresPerDot
    /// Longest town label in columns.
    public static let maxColumns = 20
    /// At most one name per this many map cells, so names never crowd out the streets.
    public static let cellsPerLabel = 240
    /// Rows tried for a name, relative to its town's row: one row off still reads as the town's.
    static let rowOffsets = [0, -1, 1]

    /// Most edges read to rank the towns: a region's edges are in Hilbert order, so every k-th
    /// edge counts each town's streets in proportion (Heidelberg's 58 k edges are all read; a
    /// K = 7 region's 2.8 M would cost the first frame ~50 ms more in a release build).
    static let rankSampleEdges = 100_000

    /// Towns by importance, most important first, with whether each is a municipality. On a map
    /// with more than `rankSampleEdges` edges the counts come from every k-th edge; towns none of
    /// those reaches follow the counted ones, by number.
    static func ranked(map: SkateMap, sampleEdges: Int = rankSampleEdges) -> [(town: Int, municipality: Bool)] {
        let n = map.townCount
        guard n > 0 else { return [] }
        var own = [Int](repeating: 0, count: n)
        let edges = min(map.edgeCount, map.edgeTown.count)
        let stride = max(1, (edges + sampleEdges - 1) / max(1, sampleEdges))
        for e in Swift.stride(from: 0, to: edges, by: stride) { if let t = map.town(ofEdge: e) { own[t] += 1 } }
        var total = own
        for t in 0..<n { let m = map.municipality(ofTown: t); if m != t { total[m] += own[t] } }
        // Sampled: a town no sampled edge reaches may still hold a few streets.
        return (0..<n).filter { total[$0] > 0 || stride > 1 }
            .sorted { (total[$0], -$0) > (total[$1], -$1) }
            .map { ($0, map.municipality(ofTown: $0) == $0) }
    }

    /// The labels to draw in `area` for `viewport` (buffer coordinates).
    static func place(_ towns: [(town: Int, municipality: Bool)], map: SkateMap, viewport vp: MapViewport, area: Rect, avoid: [Rect],
                      theme: Theme) -> [PlacedLabel] {
        guard vp.metresPerDot >= MapDetail.hideFootwaysMetresPerDot else { return [] }
        let onlyMunicipalities = vp.metresPerDot >= municipalitiesOnlyMetresPerDot
        let limit = max(1, area.width * area.height / cellsPerLabel)
        var taken = avoid
        var out: [PlacedLabel] = []
        for t in towns where out.count < limit {
            if onlyMunicipalities && !t.municipality { continue }
            guard let cell = vp.cell(map.townCoordinate(t.town)) else { continue }
            let text = DisplayWidth.clip(TerminalSafe.clean(map.townOwnName(t.town)), maxColumns: maxColumns, ellipsis: theme.glyphs.ellipsis)
            let w = DisplayWidth.of(text)
            guard w > 0 else { continue }
            // On the town's row, else just above or below it (a mark or a name already there).
            for dy in rowOffsets {
                let r = Rect(x: area.x + cell.x - w / 2, y: area.y + cell.y + dy, width: w, height: 1)
                guard r.x >= area.x, r.maxX <= area.maxX, r.y >= area.y, r.maxY <= area.maxY else { continue }
                let padded = Rect(x: r.x - 1, y: r.y, width: r.width + 2, height: 1)
                if taken.contains(where: { !$0.intersection(padded).isEmpty }) { continue }
                taken.append(padded)
                out.append(PlacedLabel(text: text, x: r.x, y: r.y, role: t.municipality ? .hudValue : .hudLabel))
                break
            }
        }
        return out
    }
}
