import FoundationEssentials

/// One step across a square (issue 30 must-have 2): the unnamed footways inside a square split at
/// every bend, and each piece read "across <square>" on its own — Marsiliusplatz, Heidelberg, was
/// "Continue across", "Turn sharp left across", "Turn right across" (50 + 33 + 71 m; the "sharp
/// left" is the heading of a 0.3 m leg between two nodes of the square's outline). A rider sees
/// one square: the pieces merge into one step that says how the line leaves it.
extension PlanBuilder {
    /// Pass 3b (after `mergeSameStreet`): unnamed ride steps in a row that all read "across" the
    /// same square merge, unless the line turns back (a U-turn stays a step of its own). The merged
    /// step keeps its phrase (`LegGroup.phrase`: its own middle point may sit farther from the
    /// square than `WayDescriptionRules.squareRadius`) and states its exit turn (`exitTurn`).
    /// `shapes` holds the legs' points (`legShapes(legs)`). Each unnamed ride group's
    /// `wayPhrase` read here is kept in `LegGroup.written` for its step's text.
    func mergeAcrossSquare(_ input: [LegGroup], _ legs: [RouteLeg], _ shapes: LegShapes) -> [LegGroup] {
        guard input.count > 1 else { return input }
        var groups = input
        var phrases: [WayPhrase?] = []
        phrases.reserveCapacity(groups.count)
        for k in groups.indices {
            let g = groups[k]
            guard g.kind == .ride, dominantName(legs: legs, range: g.range).isEmpty else { phrases.append(nil); continue }
            let p: WayPhrase
            if let fixed = g.phrase { p = fixed } else {
                p = wayPhrase(legs: legs, range: g.range, shapes: shapes)
                groups[k].written = p
            }
            phrases.append(p.preposition == Self.acrossPreposition ? p : nil)
        }
        // A ride step on a way that carries the square's own name (its outline, a pedestrian way
        // named for it) is on the same square as an unnamed piece "across" it beside it: a route
        // that starts on Marsiliusplatz read "Depart west on Marsiliusplatz — 20 m" then "Turn
        // sharp left across Marsiliusplatz". Only beside an "across" piece: a named street alone
        // stays "onto" it.
        func square(_ k: Int) -> WayPhrase? {
            if let p = phrases[k] { return p }
            guard groups[k].kind == .ride else { return nil }
            let name = dominantName(legs: legs, range: groups[k].range)
            return name.isEmpty ? nil : WayPhrase(preposition: Self.acrossPreposition, object: name)
        }
        var k = 1
        while k < groups.count {
            if phrases[k - 1] != nil || phrases[k] != nil, let a = square(k - 1), let b = square(k), a == b,
               abs(groups[k].turn) < ManeuverAngles.sharpMax {
                groups[k - 1].range = groups[k - 1].range.lowerBound..<groups[k].range.upperBound
                groups[k - 1].phrase = a
                groups[k - 1].written = nil
                groups[k - 1].exitTurn = exitTurn(groups[k - 1].range, shapes)
                groups.remove(at: k)
                phrases.remove(at: k)
                phrases[k - 1] = a
            } else {
                k += 1
            }
        }
        return groups
    }

    /// The preposition `wayPhrase` gives a step on a square.
    static let acrossPreposition = "across"

    /// The line's heading into and out of a square is read over this many metres (a chord), not
    /// from one segment: footways inside a square bend at nodes centimetres apart (a 0.3 m leg on
    /// Marsiliusplatz, a 3 m jog at the end of Willy-Brandt-Platz's) and one segment's bearing
    /// would name that jog instead of the way the rider leaves.
    static let squareHeadingMetres = 20.0

    /// The signed change of direction (degrees) inside legs `r`: from the chord of their first
    /// `squareHeadingMetres` to the chord of their last (0 on a line too short to have both);
    /// `shapes` holds the legs' points.
    func exitTurn(_ r: Range<Int>, _ shapes: LegShapes) -> Double {
        var pts: [Coordinate] = []
        for li in r { pts += shapes.points[li] }
        guard let first = pts.first, let last = pts.last else { return 0 }
        func along(_ seq: [Coordinate]) -> Coordinate {
            var acc = 0.0
            for i in seq.indices.dropFirst() {
                acc += Geo.distance(seq[i - 1], seq[i])
                if acc >= Self.squareHeadingMetres { return seq[i] }
            }
            return seq[seq.count - 1]
        }
        let entry = along(pts), exit = along(pts.reversed())
        guard Geo.distance(first, entry) > 0, Geo.distance(exit, last) > 0 else { return 0 }
        return Geo.turnAngle(from: Geo.bearing(first, entry), to: Geo.bearing(exit, last))
    }

    /// " and leave it to the right": how a merged step across a square leaves it.
    static func exitClause(_ turn: Double) -> String {
        let how: String
        switch Maneuver(turn: turn) {
        case .slightLeft: how = "bearing left"
        case .left: how = "to the left"
        case .sharpLeft: how = "sharp left"
        case .slightRight: how = "bearing right"
        case .right: how = "to the right"
        case .sharpRight: how = "sharp right"
        case .uTurn: how = "back the way you came in"
        default: how = "straight on"
        }
        return " and leave it " + how
    }
}
