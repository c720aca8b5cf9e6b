import FoundationEssentials
import Glibc

/// Turns a `RoutePath` into a `RoutePlan`: geometry, profile, braking zones, speed profile,
/// steps with maneuvers and contexts, and the summary.
public struct PlanBuilder: Sendable {
    public let map: SkateMap
    public let costing: SkateCosting
    public let knowledge: RoadKnowledge
    /// Places a step's description looks for, gathered on first use (`PlacesByKind`).
    let placesByKind = PlacesByKind()

    /// Steps shorter than this (metres) are folded into a neighbour: no "after 0 m turn right".
    public static let minStepLength: Double = 15
    /// Turns at least this sharp (degrees) between unnamed ways start a new step.
    public static let unnamedTurnSplit: Double = 30
    /// Profile sample spacing in metres.
    public static let profileSpacing: Double = 5
    /// Caution: grade ≤ −6 % sustained over ≥ 30 m.
    public static let cautionGradePct = -6.0, cautionLength = 30.0
    /// Braking: grade ≤ −8 % sustained over ≥ 50 m.
    public static let brakingGradePct = -8.0, brakingLength = 50.0
    /// A braking zone (or too-fast stretch) marks a step when it covers at least this much of it
    /// (metres; the whole step when shorter): one short dip must not flag a 480 m boulevard.
    public static let brakingStepOverlap = 30.0
    /// A zone's part inside a step is listed in the step's text from this many metres: the zone's
    /// ends are known to two profile samples, so a shorter sliver is the neighbour step's zone.
    public static let zoneSpanMinMetres = 10.0

    public init(map: SkateMap, costing: SkateCosting, knowledge: RoadKnowledge) {
        self.map = map; self.costing = costing; self.knowledge = knowledge
    }

    // MARK: Leg helpers

    /// Points of a leg in travel order.
    public func legGeometry(_ leg: RouteLeg) -> [Coordinate] { legPoints(leg).points }

    /// Points of a leg in travel order with each one's offset along the edge (metres from its
    /// `edgeFrom` end, scaled to the stored length).
    func legPoints(_ leg: RouteLeg) -> (points: [Coordinate], offsets: [Double]) {
        let g = map.geometry(ofEdge: leg.edge)
        let len = Double(map.edgeLength[leg.edge])
        // Cumulative distances along the edge, scaled to the stored length (one buffer, filled
        // in place: the appends and the scaling `map` were a third of this function's cost).
        var cum = [Double](repeating: 0, count: g.count)
        var acc = 0.0
        for i in 0..<(g.count - 1) {
            acc += Geo.distance(lat1: g[i].lat, lon1: g[i].lon, lat2: g[i + 1].lat, lon2: g[i + 1].lon)
            cum[i + 1] = acc
        }
        let scale = acc > 0 ? len / acc : 1
        for i in cum.indices { cum[i] *= scale }
        func point(at off: Double) -> Coordinate {
            let o = min(max(off, 0), len)
            var k = 0
            while k + 2 < cum.count && cum[k + 1] < o { k += 1 }
            let segLen = cum[k + 1] - cum[k]
            let t = segLen > 0 ? (o - cum[k]) / segLen : 0
            return Coordinate(lat: g[k].lat + t * (g[k + 1].lat - g[k].lat),
                              lon: g[k].lon + t * (g[k + 1].lon - g[k].lon))
        }
        let lo = min(leg.startOffset, leg.endOffset), hi = max(leg.startOffset, leg.endOffset)
        var pts = [point(at: lo)], offs = [lo]
        pts.reserveCapacity(g.count + 1)
        offs.reserveCapacity(g.count + 1)
        for k in 0..<cum.count where cum[k] > lo + 0.01 && cum[k] < hi - 0.01 {
            pts.append(g[k]); offs.append(cum[k])
        }
        pts.append(point(at: hi)); offs.append(hi)
        if leg.reversed { pts.reverse(); offs.reverse() }
        return (pts, offs)
    }

    /// Elevation (metres) at an offset along an edge, or nil when unknown. A zero-length edge (a
    /// lift) has no offsets: `entering` picks its end — the `to` end when true, else `from`.
    ///
    /// Reads the map's elevation arrays themselves (`SkateMap.elevationProfile`'s samples, through
    /// `EdgeElevations`): a call of a `SkateMap` method from here copied the whole 2.3 KB map
    /// struct and retained its arrays (perf: memmove and retains under `profile` and `routeLine`,
    /// ~3 % of bench CPU). A loop over many samples takes one `EdgeElevations` for all of them.
    func elevation(edge e: Int, offset: Double, entering fromTo: Bool = false) -> Double? {
        EdgeElevations(map).at(edge: e, offset: offset, entering: fromTo)
    }

    /// Stretches (metres from the start) where the speed profile had to brake to hold the cap:
    /// runs of flagged samples, each from the sample before the first flag to the last flag.
    static func stretches(distance s: [Double], flagged: [Bool]) -> [Stretch] {
        var out: [Stretch] = []
        var i = 0
        while i < flagged.count {
            guard flagged[i] else { i += 1; continue }
            var j = i
            while j + 1 < flagged.count && flagged[j + 1] { j += 1 }
            out.append(Stretch(start: s[max(0, i - 1)], end: s[j]))
            i = j + 1
        }
        return out
    }

    /// The metres of `[a, b)` covered by stretches, and where the first covering one starts (metres into it).
    static func coverage(_ a: Double, _ b: Double, _ stretches: [(Double, Double)]) -> (covered: Double, firstOffset: Double?, firstLength: Double) {
        var covered = 0.0, first: Double?, firstLength = 0.0
        for (z0, z1) in stretches {
            let o = min(b, z1) - max(a, z0)
            guard o > 0 else { continue }
            covered += o
            if first == nil { first = max(a, z0) - a; firstLength = o }
        }
        return (covered, first, firstLength)
    }

    // MARK: Steps

    func legHeadingOut(_ leg: RouteLeg) -> Double { Self.headingOut(legGeometry(leg)) }

    /// The bearing (degrees) of a leg's first segment, from its points in travel order (0 for one point).
    static func headingOut(_ g: [Coordinate]) -> Double { g.count >= 2 ? Geo.bearing(g[0], g[1]) : 0 }

    /// Slots of the per-reason metres: one past the largest `AccessReason` raw value.
    static let reasonSlots = Int(AccessReason.allCases.map(\.rawValue).max() ?? 0) + 1

    /// The reason with the most metres; among equal metres the one with the lowest raw value;
    /// `.none` when no reason has any entry.
    static func mostMetres(_ metres: [Double?]) -> AccessReason {
        var best: (raw: Int, metres: Double)?
        for raw in metres.indices {
            guard let m = metres[raw] else { continue }
            if best == nil || m > best!.metres { best = (raw, m) }
        }
        return best.flatMap { AccessReason(rawValue: UInt8($0.raw)) } ?? .none
    }

    func dominantName(legs: [RouteLeg], range: Range<Int>) -> String {
        // Name-table ids and metres in a short list (a step has a handful of names): no hashing.
        var ids: [UInt32] = [], metres: [Double] = []
        for li in range {
            let id = map.edgeName[legs[li].edge]
            if let k = ids.firstIndex(of: id) { metres[k] += legs[li].length } else { ids.append(id); metres.append(legs[li].length) }
        }
        var best = "", bestM = -Double.infinity
        for (k, id) in ids.enumerated() {
            let name = map.string(id)
            if metres[k] > bestM || (metres[k] == bestM && name < best) { best = name; bestM = metres[k] }
        }
        return best
    }

    static func compass(_ bearing: Double) -> String {
        let names = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
        return names[Int(((bearing + 22.5) / 45).rounded(.down)) % 8]
    }

    func context(legs: [RouteLeg], range: Range<Int>) -> StepContext {
        var dist = 0.0, rmsSum = 0.0, bike = 0.0, legal = 0.0, fresh = 0.0, hazard = 0.0, crossings = 0.0, walk = 0.0
        var weakest = RoughnessSource.measured
        // Metres per reason at the worst class so far, by raw value (an array: see `IntKeyedTable`).
        var legality = AccessClass.ok, reasonMetres = [Double?](repeating: nil, count: Self.reasonSlots), forbidden = 0.0, stepCount = 0
        var connector: StepConnector?
        var lifts = 0, escalators = 0, connectorSeconds = 0.0
        var notes: [StepAccessNote] = []
        for li in range {
            let leg = legs[li], e = leg.edge, len = leg.length
            let f = map.flags(ofEdge: e)
            dist += len
            rmsSum += Double(costing.table.rms[e]) * len
            if f.contains(.bikeLane) { bike += len }
            if f.contains(.steps) { walk += len }
            // Legality from the one access table (`AccessModel`), as the costing reads it.
            let access = AccessModel.decision(of: f)
            legal += AccessModel.score(access.accessClass) * len
            if access.accessClass > legality { legality = access.accessClass; reasonMetres = [Double?](repeating: nil, count: Self.reasonSlots) }
            if access.accessClass == legality && legality != .ok { reasonMetres[Int(access.reason.rawValue)] = (reasonMetres[Int(access.reason.rawValue)] ?? 0) + len }
            if access.accessClass == .forbidden { forbidden += len }
            if access.accessClass != .ok && len > 0 {
                if let i = notes.firstIndex(where: { $0.reason == access.reason }) { notes[i].metres += len }
                else { notes.append(StepAccessNote(accessClass: access.accessClass, reason: access.reason, metres: len)) }
            }
            if f.contains(.steps) {
                let full = Double(map.edgeLength[e])
                stepCount += full > 0 ? Int((Double(map.stepCount(ofEdge: e)) * len / full).rounded()) : 0
            }
            if f.contains(.connector) {
                let kind: StepConnector.Kind = map.highway(ofEdge: e) == .elevator ? .lift : .escalator
                // One lift or escalator may be several edges of one way: counted once.
                let sameWay = li > range.lowerBound && map.flags(ofEdge: legs[li - 1].edge).contains(.connector)
                    && map.edgeWayId[legs[li - 1].edge] == map.edgeWayId[e]
                if !sameWay { if kind == .lift { lifts += 1 } else { escalators += 1 } }
                connectorSeconds += costing.table.seconds(e, reversed: leg.reversed)
                if connector == nil {
                    connector = StepConnector(kind: kind, name: map.name(ofEdge: e), limitedHours: f.contains(.limitedHours), seconds: 0)
                } else if f.contains(.limitedHours) {
                    connector?.limitedHours = true
                }
            }
            fresh += Double(costing.table.freshness[e]) * len
            weakest = max(weakest, RoughnessSource(rawValue: Int(costing.table.rmsSource[e])) ?? .highwayDefault)
            if let hs = knowledge.hazards[e] {
                let lo = min(leg.startOffset, leg.endOffset), hi = max(leg.startOffset, leg.endOffset)
                hazard += hs.filter { $0.offset >= lo - 1 && $0.offset <= hi + 1 }.reduce(0) { $0 + Double($1.severity) * $1.confidence }
            }
            let full = Double(map.edgeLength[e])
            crossings += Double(map.edgeCrossings[e]) * (full > 0 ? len / full : 0)
            if f.contains(.isCrossing) && map.edgeCrossings[e] == 0 { crossings += 1 }
            // A crossing node where this leg ends (and the next begins).
            if li + 1 < legs.count || li < range.upperBound - 1 {
                let node = Int(leg.reversed ? map.edgeFrom[e] : map.edgeTo[e])
                if map.flags(ofNode: node).contains(.crossing) && leg.length >= (leg.reversed ? leg.startOffset : full - leg.startOffset) - 0.01 { crossings += 1 }
            }
        }
        connector?.seconds = connectorSeconds
        // The worst class first, then the most metres (a stable order for equal metres).
        notes.sort { ($0.accessClass.rawValue, $0.metres, -Int($0.reason.rawValue)) > ($1.accessClass.rawValue, $1.metres, -Int($1.reason.rawValue)) }
        let rms = dist > 0 ? rmsSum / dist : 0
        var ctx = StepContext(distance: dist, gradePct: 0, braking: .none,
                           crossingsPerKm: dist > 0 ? crossings / dist * 1000 : 0,
                           hasBikeLane: bike > dist / 2, roughnessRMS: rms, roughnessClass: RoughnessClass(rms: rms),
                           roughnessSource: weakest, hazardScore: hazard, legalityScore: dist > 0 ? legal / dist : 1,
                           freshness: dist > 0 ? fresh / dist : 0, tooFast: false, walk: walk > 0,
                           legality: legality, accessReason: Self.mostMetres(reasonMetres),
                           forbiddenMetres: forbidden, walkMetres: walk, stepCount: stepCount, connector: connector)
        ctx.accessNotes = notes
        ctx.liftsTaken = lifts
        ctx.escalatorsTaken = escalators
        return ctx
    }

    /// How a forbidden stretch's note opens: on the plan ("no legal line joins the ends") and on an
    /// alternative beside a legal plan ("this line is not legal").
    public static let noLegalLinePrefix = "no legal line: ", notLegalPrefix = "not legal: "

    /// Metres below which a forbidden stretch is not worth a note of its own (map noise at a junction).
    public static let forbiddenNoteMinMetres = 1.0

    /// Adds the legality facts to a plan: forbidden stretches (and `legal`), the notes that say
    /// so plainly, stairs walked, lifts taken (with their wait and ride in the timing).
    func withLegality(_ p: RoutePlan) -> RoutePlan {
        var plan = p
        var s = 0.0
        var stretches: [ForbiddenStretch] = []
        // Metres per street name in each stretch (pairs, not a `[String: Double]`: see `IntKeyedTable`).
        struct NameMetres { var name: String; var metres: Double }
        var names: [[NameMetres]] = []
        for leg in plan.path.legs {
            let f = map.flags(ofEdge: leg.edge)
            let d = AccessModel.decision(of: f)
            if d.accessClass == .forbidden && leg.length > 0 {
                let name = map.name(ofEdge: leg.edge)
                if let last = stretches.last, abs(last.start + last.length - s) < 0.01 {
                    stretches[stretches.count - 1].length += leg.length
                    if let i = names[names.count - 1].firstIndex(where: { $0.name == name }) {
                        names[names.count - 1][i].metres += leg.length
                    } else {
                        names[names.count - 1].append(NameMetres(name: name, metres: leg.length))
                    }
                } else {
                    stretches.append(ForbiddenStretch(start: s, length: leg.length, name: name, reason: d.reason))
                    names.append([NameMetres(name: name, metres: leg.length)])
                }
            }
            if f.contains(.connector) {
                if map.highway(ofEdge: leg.edge) == .elevator { plan.liftsUsed += 1 } else { plan.escalatorsUsed += 1 }
            }
            if f.contains(.steps) { plan.walkMetres += leg.length }
            s += leg.length
        }
        for k in stretches.indices {
            // The name with the most metres; among equal metres the least name.
            stretches[k].name = names[k].max { ($0.metres, $1.name) < ($1.metres, $0.name) }?.name ?? ""
        }
        plan.forbidden = stretches
        plan.legal = stretches.isEmpty
        var notes: [String] = []
        for st in stretches where st.length >= Self.forbiddenNoteMinMetres || stretches.count == 1 {
            let place = st.name.isEmpty ? "" : " through \(st.name)"
            notes.append(Self.noLegalLinePrefix + "\(FixedDecimal.string(st.length, decimals: 0)) m\(place) (\(st.reason.explanation))")
        }
        // Lifts and escalators: their wait and ride, and a note where they keep hours.
        for k in plan.steps.indices {
            guard let c = plan.steps[k].context.connector else { continue }
            plan.steps[k].seconds = c.seconds
            if c.limitedHours {
                notes.append("the \(c.kind.rawValue)\(c.name.isEmpty ? "" : " (\(c.name))") keeps opening hours: it may be closed")
            }
        }
        plan.duration = plan.steps.reduce(0) { $0 + $1.seconds }
        plan.notes.insert(contentsOf: notes, at: 0)
        return plan
    }
}
