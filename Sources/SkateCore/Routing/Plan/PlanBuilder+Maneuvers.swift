import FoundationEssentials
import Glibc

/// The maneuver builder (issue 30): a route's legs become the steps a rider follows, in passes
/// in the spirit of Valhalla's `odin` and OSRM's guidance — group legs by street and by what the
/// rider does (ride, walk stairs, take a lift or escalator), fold slivers into their neighbours,
/// merge repeated turns onto the same street and the pieces of a line across one square, chain
/// connectors, then write each step's text.
/// One step list feeds text, JSON, GeoJSON, GPX, the TUI list and the ride cues.
extension PlanBuilder {
    /// What the rider does on a run of legs.
    enum StepKind: Equatable {
        case ride, walk, connector
    }

    /// A run of legs that becomes one step; `turn` is the signed turn (degrees) at its start.
    /// A struct, not a tuple: an array of tuples holding a `Range<Int>` is built from runtime
    /// metadata whose `Comparable` requirement costs a conformance scan (`IntKeyedTable`).
    struct LegGroup {
        var range: Range<Int>
        var turn: Double
        var kind: StepKind
        /// The way phrase a pass fixed for the group ("across Marsiliusplatz"), else nil: written
        /// from the legs.
        var phrase: WayPhrase? = nil
        /// For pieces merged across one square: the turn (degrees) from entering it to leaving it.
        var exitTurn: Double? = nil
        /// `wayPhrase` of the group's legs where a pass already read it (an unnamed ride group
        /// in `mergeAcrossSquare`), else nil: the step's text reuses it.
        var written: WayPhrase? = nil
    }

    /// The thresholds of the passes, one reason each.
    enum ManeuverRules {
        /// A ride step this short (metres) between two steps it cannot fold into (stairs, lifts,
        /// escalators) folds into them: the 2 m "Turn right" between two escalators.
        static let connectorFoldMetres = 10.0
        /// …unless the line turns this much (degrees) across it: then the turn is the step.
        static let connectorFoldTurn = 60.0
        /// A step of another street this short (metres) between two steps on the same street
        /// merges with them ("left onto X, left, left onto X" is one step on X)…
        static let sameStreetGapMetres = 30.0
        /// …unless the line turns back across it (degrees): a U-turn is a step of its own.
        static let sameStreetMaxTurn = ManeuverAngles.sharpMax
        /// Unnamed ways of one kind split only at a turn at least this sharp (degrees); between
        /// kinds `unnamedTurnSplit` still splits: two "Bear left onto the footway" in a row say nothing.
        static let unnamedSameKindSplit = ManeuverAngles.slightMax
        /// A connector chain rises or falls this many metres before the text says "up"/"down".
        static let connectorRiseMetres = 2.0
        /// Stairs rise or fall this many metres (when no `incline` is tagged) before "up"/"down".
        static let stairsRiseMetres = 1.0
    }

    func stepKind(_ leg: RouteLeg) -> StepKind {
        let f = map.flags(ofEdge: leg.edge)
        if f.contains(.connector) { return .connector }
        if f.contains(.steps) { return .walk }
        return .ride
    }

    /// `shapes` holds the legs' points (`legShapes(legs)`).
    func makeSteps(legs: [RouteLeg], legStart: [Double], shapes: LegShapes) -> [RouteStep] {
        guard !legs.isEmpty else { return [] }
        let chords = RouteChords(legs: legs, points: shapes.points)
        var groups = groupLegs(legs, chords)
        groups = foldShortGroups(groups, legs, chords)
        groups = mergeSameStreet(groups, legs, chords)
        groups = mergeAcrossSquare(groups, legs, shapes)
        groups = chainConnectors(groups)
        var steps: [RouteStep] = []
        for (k, g) in groups.enumerated() {
            let ctx = context(legs: legs, range: g.range)
            let street = g.kind == .connector ? "" : dominantName(legs: legs, range: g.range)
            let maneuver: Maneuver = k == 0 ? .depart : g.kind == .connector ? .continue : Maneuver(turn: g.turn)
            var geom: [Coordinate] = []
            for li in g.range {
                let pts = shapes.points[li]
                if let l = geom.last, let f = pts.first, Geo.distance(l, f) < 0.5 { geom.append(contentsOf: pts.dropFirst()) } else { geom.append(contentsOf: pts) }
            }
            let instr: String
            switch g.kind {
            case .connector:
                let next = k + 1 < groups.count ? dominantName(legs: legs, range: groups[k + 1].range) : ""
                instr = Self.connectorInstruction(ctx, rise: rise(legs, g.range), to: next)
            case .walk:
                instr = walkInstruction(maneuver: maneuver, ctx: ctx, legs: legs, range: g.range)
            case .ride:
                let way = g.phrase ?? (street.isEmpty ? g.written ?? wayPhrase(legs: legs, range: g.range, shapes: shapes)
                                                      : WayPhrase(preposition: "onto", object: street))
                instr = instruction(maneuver: maneuver, way: way, heading: Self.headingOut(shapes.points[g.range.lowerBound]))
                    + (g.exitTurn.map(Self.exitClause) ?? "")
            }
            steps.append(RouteStep(index: k, maneuver: maneuver, instruction: instr, street: street, context: ctx, geometry: geom,
                                   startDistance: legStart[g.range.lowerBound], seconds: 0, legs: g.range))
        }
        return steps
    }

    // MARK: Passes

    /// Pass 1: runs of legs on one street doing one thing; every lift or escalator leg alone.
    func groupLegs(_ legs: [RouteLeg], _ chords: RouteChords) -> [LegGroup] {
        var groups: [LegGroup] = []
        var start = 0, startTurn = 0.0
        // Each name read once (~6 % of `skateroute bench`'s Heidelberg instructions when read
        // twice per leg, callgrind, issue 30 fifth round).
        // Names through `EdgeNames`: `map.name(ofEdge:)` inlined here copied the whole map
        // struct twice per leg (4.5 M instructions of a 106 M chill plan, callgrind, tenth round).
        let names = EdgeNames(map)
        var nc = legs.isEmpty ? "" : names.name(ofEdge: legs[0].edge)
        for i in 1..<max(1, legs.count) where legs.count > 1 {
            let prev = legs[i - 1], cur = legs[i]
            // Read over the line's chords (`RouteChords`): across a lift (0 m) the chord in is
            // the way before it; a jog of a few metres between nodes is no turn.
            let turn = chords.turn(atLeg: i)
            let np = nc
            nc = names.name(ofEdge: cur.edge)
            let kp = stepKind(prev), kc = stepKind(cur)
            var split = np != nc || kp != kc || kc == .connector || abs(turn) >= ManeuverAngles.sharpMax
            if !split && nc.isEmpty && abs(turn) >= Self.unnamedTurnSplit {
                split = abs(turn) >= ManeuverRules.unnamedSameKindSplit || wayKind(ofEdge: prev.edge) != wayKind(ofEdge: cur.edge)
            }
            if split {
                groups.append(LegGroup(range: start..<i, turn: startTurn, kind: stepKind(legs[start])))
                start = i
                startTurn = turn
            }
        }
        groups.append(LegGroup(range: start..<legs.count, turn: startTurn, kind: stepKind(legs[start])))
        return groups
    }

    func length(_ legs: [RouteLeg], _ r: Range<Int>) -> Double { r.reduce(0) { $0 + legs[$1].length } }

    /// Pass 2: ride steps shorter than `minStepLength` fold into a ride neighbour (the previous
    /// one, or the next); stairs and connectors are never folded. A ride step shorter than
    /// `connectorFoldMetres` with no ride neighbour folds into the stairs or connector beside it
    /// unless the line turns more than `connectorFoldTurn` across it.
    func foldShortGroups(_ input: [LegGroup], _ legs: [RouteLeg], _ chords: RouteChords) -> [LegGroup] {
        var groups = input
        var changed = true
        while changed && groups.count > 1 {
            changed = false
            for k in groups.indices where groups[k].kind == .ride && length(legs, groups[k].range) < Self.minStepLength {
                let len = length(legs, groups[k].range)
                let prevRide = k > 0 && groups[k - 1].kind == .ride, nextRide = k + 1 < groups.count && groups[k + 1].kind == .ride
                let sliver = len < ManeuverRules.connectorFoldMetres && abs(chords.turn(across: groups[k].range)) <= ManeuverRules.connectorFoldTurn
                if prevRide || (!nextRide && sliver && k > 0) {
                    groups[k - 1].range = groups[k - 1].range.lowerBound..<groups[k].range.upperBound
                } else if nextRide || (sliver && k + 1 < groups.count) {
                    groups[k + 1].range = groups[k].range.lowerBound..<groups[k + 1].range.upperBound
                    groups[k + 1].turn = groups[k].turn
                } else {
                    continue
                }
                groups.remove(at: k)
                changed = true
                break
            }
        }
        return groups
    }

    /// Pass 3: ride steps on the same named street in a row merge (a sharp turn or a folded
    /// sliver split them), and so do two steps on one street around a short step of another
    /// (`sameStreetGapMetres`) unless the line turns back across the three.
    func mergeSameStreet(_ input: [LegGroup], _ legs: [RouteLeg], _ chords: RouteChords) -> [LegGroup] {
        var groups = input
        func name(_ g: LegGroup) -> String { dominantName(legs: legs, range: g.range) }
        var k = 1
        while k < groups.count {
            let a = groups[k - 1], b = groups[k]
            if a.kind == .ride, b.kind == .ride, abs(b.turn) < ManeuverAngles.sharpMax, !name(a).isEmpty, name(a) == name(b) {
                groups[k - 1].range = a.range.lowerBound..<b.range.upperBound
                groups.remove(at: k)
                continue
            }
            if k + 1 < groups.count {
                let c = groups[k + 1]
                if a.kind == .ride, b.kind == .ride, c.kind == .ride, !name(a).isEmpty, name(a) == name(c),
                   length(legs, b.range) < ManeuverRules.sameStreetGapMetres,
                   abs(chords.turn(across: b.range)) < ManeuverRules.sameStreetMaxTurn {
                    groups[k - 1].range = a.range.lowerBound..<c.range.upperBound
                    groups.removeSubrange(k...(k + 1))
                    continue
                }
            }
            k += 1
        }
        return groups
    }

    /// Pass 4: lifts and escalators in a row (with the slivers folded between them) are one
    /// step; so are flights of stairs in a row.
    func chainConnectors(_ input: [LegGroup]) -> [LegGroup] {
        var groups: [LegGroup] = []
        for g in input {
            if g.kind != .ride, let last = groups.last, last.kind == g.kind {
                groups[groups.count - 1].range = last.range.lowerBound..<g.range.upperBound
            } else {
                groups.append(g)
            }
        }
        return groups
    }

    // MARK: Text

    /// Metres gained from the start of legs `r` to their end (nil without elevation).
    func rise(_ legs: [RouteLeg], _ r: Range<Int>) -> Double? {
        guard let first = legs[r].first, let last = legs[r].last,
              let z0 = elevation(edge: first.edge, offset: first.startOffset, entering: first.reversed),
              let z1 = elevation(edge: last.edge, offset: last.endOffset, entering: !last.reversed) else { return nil }
        return z1 - z0
    }

    /// "Walk down 16 steps", "Turn left and walk up the steps": up or down from the flight's
    /// `incline` tag in the direction walked, else from the elevation.
    func walkInstruction(maneuver: Maneuver, ctx: StepContext, legs: [RouteLeg], range: Range<Int>) -> String {
        var up = 0.0
        for li in range {
            let f = map.flags(ofEdge: legs[li].edge)
            guard f.contains(.steps) else { continue }
            let sign = legs[li].reversed ? -1.0 : 1.0
            if f.contains(.inclineUp) { up += sign * legs[li].length } else if f.contains(.inclineDown) { up -= sign * legs[li].length }
        }
        var dir = ""
        if up > 0 { dir = " up" } else if up < 0 { dir = " down" } else if let z = rise(legs, range), abs(z) >= ManeuverRules.stairsRiseMetres { dir = z > 0 ? " up" : " down" }
        let what = ctx.stepCount > 0 ? " \(ctx.stepCount) step\(ctx.stepCount == 1 ? "" : "s")" : " the steps"
        switch maneuver {
        case .depart, .continue, .arrive: return "Walk" + dir + what
        default: return maneuver.phrase + " and walk" + dir + what
        }
    }

    /// "Take 4 escalators and the lift up to Avenue X", "Take the lift (Place des Moulins)".
    static func connectorInstruction(_ c: StepContext, rise: Double?, to next: String) -> String {
        var parts: [String] = []
        func count(_ n: Int, _ word: String) -> String { n == 1 ? "the \(word)" : "\(n) \(word)s" }
        if c.escalatorsTaken > 0 { parts.append(count(c.escalatorsTaken, "escalator")) }
        if c.liftsTaken > 0 { parts.append(count(c.liftsTaken, "lift")) }
        if parts.isEmpty, let k = c.connector?.kind { parts.append("the " + (k == .lift ? "lift" : "escalator")) }
        var s = "Take " + parts.joinedText(separator: " and ")
        if c.liftsTaken + c.escalatorsTaken == 1, let name = c.connector?.name, !name.isEmpty { s += " (\(name))" }
        if let z = rise, abs(z) >= ManeuverRules.connectorRiseMetres { s += z > 0 ? " up" : " down" }
        if !next.isEmpty { s += " to \(next)" }
        return s
    }

    /// "Turn left onto Rue Grimaldi", "Bear right through Parc Princesse Antoinette", "Depart
    /// north on the footway".
    func instruction(maneuver: Maneuver, way: WayPhrase, heading: Double) -> String {
        switch maneuver {
        case .depart:
            let on = way.preposition == "onto" ? "on" : way.preposition
            return "Depart \(Self.compass(heading))" + (way.object.isEmpty ? "" : " \(on) \(way.object)")
        case .arrive: return "Arrive at destination"
        default:
            return maneuver.phrase + (way.object.isEmpty ? "" : " \(way.preposition) \(way.object)")
        }
    }
}
