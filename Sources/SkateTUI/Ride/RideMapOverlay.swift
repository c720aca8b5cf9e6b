import SkateCore

/// What the ride map draws over the streets: the route with the ridden part grey, the rider on
/// the line, street names (the next turn's street first), the destination's name at B, and the
/// current street in a chip at the bottom of the map.
extension RideScreen {
    /// Label priorities on the ride map: the street of the next turn, then the one being ridden,
    /// then the rest by length (`MapLabels.names`).
    static let nextStreetPriority: Double = 2e9
    static let currentStreetPriority: Double = 1e9
    /// Columns kept free at the left of the bottom row for the scale bar.
    static let scaleBarColumns = ScaleBar.maxCells + 10

    /// The overlay of the ride map at this frame.
    static func mapOverlay(_ s: RideScreenState, extraHazards: [Coordinate]) -> RouteOverlay {
        var o = s.overlay
        o.hazards += extraHazards
        o.rider = riderMark(s)
        o.endName = s.destinationName
        if let p = s.plan?.plan {
            let along = s.shownAlong ?? s.frame.distanceAlong
            if along > 0 { o.ridden = p.geometry(from: 0, to: along) }
            let next = nextManeuver(s)?.street ?? ""
            let here = currentStreet(s) ?? ""
            o.names = o.names.map { n in
                var n = n
                if !next.isEmpty, n.name == next { n.priority += nextStreetPriority } else if !here.isEmpty, n.name == here { n.priority += currentStreetPriority }
                return n
            }
        }
        return o
    }

    /// The name of the street the rider is on (nil when unnamed or on a free ride).
    public static func currentStreet(_ s: RideScreenState) -> String? {
        guard let p = s.plan?.plan, let i = s.frame.step, p.steps.indices.contains(i) else { return nil }
        let name = p.steps[i].street
        return name.isEmpty ? nil : name
    }

    /// The chip naming the current street: right-aligned on the map's bottom row, clear of the
    /// scale bar, sanitised and cut to fit.
    static func streetChip(_ name: String, area: Rect, glyphs: GlyphMode) -> (text: String, rect: Rect) {
        let room = max(0, area.width - scaleBarColumns - 1)
        let text = " " + DisplayWidth.clip(name, maxColumns: max(0, room - 2), ellipsis: glyphs.ellipsis) + " "
        let w = DisplayWidth.of(text)
        return (text, Rect(x: area.maxX - w - 1, y: area.maxY - 1, width: w, height: 1))
    }
}
