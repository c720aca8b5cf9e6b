import FoundationEssentials
import Glibc

/// Renders plans as text, JSON (sorted keys, byte-stable), GPX 1.1 and GeoJSON.
public enum PlanFormats {
    /// Snap distances (metres) worth telling the rider about in text output.
    public static let snapNoteMetres = 15.0

    /// Rounds to a fixed number of decimals so JSON stays byte-identical across runs and platforms.
    static func r(_ x: Double, _ d: Int = 1) -> Double {
        guard x.isFinite else { return 0 }
        let p = pow(10, Double(d))
        let v = (x * p).rounded() / p
        return v == 0 ? 0 : v  // no "-0"
    }

    // MARK: JSON

    static func n(_ x: Double, _ d: Int = 1) -> JSONText { .number(r(x, d)) }

    static func stepJSON(_ s: RouteStep) -> JSONText {
        let c = s.context
        var o: JSONObject = [
            "index": .number(Double(s.index)), "instruction": .string(s.instruction), "maneuver": .string(s.maneuver.rawValue),
            "street": .string(s.street),
            "distance_m": n(c.distance), "grade_pct": n(c.gradePct), "braking_zone": .string(c.braking.name),
            "roughness_rms": n(c.roughnessRMS, 3), "roughness_class": .string(c.roughnessClass.name),
            "roughness_source": .string(c.roughnessSource.name),
            "crossings_per_km": n(c.crossingsPerKm), "has_bike_lane": .bool(c.hasBikeLane), "hazard_score": n(c.hazardScore, 2),
            "legality_score": n(c.legalityScore, 2), "freshness": n(c.freshness, 2), "too_fast": .bool(c.tooFast), "walk": .bool(c.walk),
            "duration_s": n(s.seconds),
        ]
        if let from = c.brakeFromM, c.braking != .none {
            o["brake_from_m"] = n(from); o["brake_length_m"] = n(c.brakeLengthM)
        }
        o["crusty_spans"] = .array(c.roughSpans.map {
            .object(["from_m": n($0.fromM), "length_m": n($0.lengthM), "surface": $0.surface.isEmpty ? .null : .string($0.surface)])
        })
        o["zones"] = .array(c.zoneSpans.map {
            .object(["level": .string($0.level.name), "from_m": n($0.fromM), "length_m": n($0.lengthM), "zone_index": .number(Double($0.zone))])
        })
        return .object(o)
    }

    static func zoneJSON(_ z: BrakingZone) -> JSONObject {
        ["start_m": n(z.start), "end_m": n(z.end), "length_m": n(z.length), "level": .string(z.level.name),
         "grade_pct": n(z.gradePct), "min_grade_pct": n(z.minGradePct), "steepest_30m_pct": n(z.minGradePct),
         "step_indices": .array(z.stepIndices.map { .number(Double($0)) })]
    }

    /// A step's JSON with its legality, stairs and lift facts: `legality` (`ok|penalised|forbidden`,
    /// with `legality_reason` when not ok), `walk_m` and `step_count` (stairs), `connector`
    /// (`{kind: lift|escalator, name, seconds}` or null).
    static func fullStepJSON(_ s: RouteStep) -> JSONText {
        guard case .object(var d) = stepJSON(s) else { return stepJSON(s) }
        let c = s.context
        d["legality"] = .string(c.legality.name)
        if c.legality != .ok { d["legality_reason"] = .string(c.accessReason.explanation) }
        d["forbidden_m"] = n(c.forbiddenMetres)
        d["walk_m"] = n(c.walkMetres)
        if c.stepCount > 0 { d["step_count"] = .number(Double(c.stepCount)) }
        d["connector"] = c.connector.map { .object(["kind": .string($0.kind.rawValue), "name": .string($0.name), "seconds": n($0.seconds),
                                                    "lifts": .number(Double(c.liftsTaken)), "escalators": .number(Double(c.escalatorsTaken))]) } ?? .null
        d["access_notes"] = .array(c.accessNotes.map {
            .object(["legality": .string($0.accessClass.name), "reason": .string($0.reason.explanation), "metres": n($0.metres)])
        })
        return .object(d)
    }

    /// The plan's legality facts: `legal`, the `forbidden` stretches, stairs walked and lifts taken.
    static func legalityJSON(_ p: RoutePlan) -> JSONObject {
        ["legal": .bool(p.legal),
         "forbidden": .array(p.forbidden.map {
             .object(["start_m": n($0.start), "length_m": n($0.length), "name": .string($0.name), "reason": .string($0.reason.explanation)])
         }),
         "walk_m": n(p.walkMetres), "lifts_used": .number(Double(p.liftsUsed)), "escalators_used": .number(Double(p.escalatorsUsed))]
    }

    static func coordinates(_ g: [Coordinate]) -> JSONText {
        .array(g.map { .array([n($0.lon, 6), n($0.lat, 6)]) })
    }

    /// `[lon, lat, ele]` per point when `elevation` has one value per point (metres, 1 decimal),
    /// else `[lon, lat]`.
    static func coordinates(_ g: [Coordinate], elevation: ArraySlice<Double>) -> JSONText {
        guard elevation.count == g.count else { return coordinates(g) }
        return .array(zip(g, elevation).map { c, z in .array([n(c.lon, 6), n(c.lat, 6), n(z, 1)]) })
    }

    /// A step's points with their elevations (the plan's, from the step's first point).
    static func stepCoordinates(_ p: RoutePlan, _ st: RouteStep) -> JSONText {
        let a = st.firstPoint, b = st.firstPoint + st.geometry.count
        guard a >= 0, b <= p.geometryElevation.count else { return coordinates(st.geometry) }
        return coordinates(st.geometry, elevation: p.geometryElevation[a..<b])
    }

    /// The honest-detour facts: `shortest_walk_m`, `direct_m`, `crow_flies_m` (null when not
    /// computed or no such line), `detour` (`{ratio, shortest_walk_m, direct_ratio, extra_climb_m,
    /// why: [...]}` or null) and, on an offered direct line, `label` ("walk" or "not legal").
    static func detourJSON(_ p: RoutePlan) -> JSONObject {
        let r = p.walkReference
        var o: JSONObject = [
            "shortest_walk_m": r?.shortestWalkM.map { n($0) } ?? .null, "direct_m": r?.directM.map { n($0) } ?? .null,
            "crow_flies_m": r.map { n($0.crowFliesM) } ?? .null,
            "detour": p.detour.map { d in .object([
                "ratio": n(d.ratio, 2), "shortest_walk_m": n(d.shortestWalkM), "direct_ratio": n(d.directRatio, 2),
                "extra_climb_m": n(d.extraClimbM), "why": .array(d.why.map { .string($0.name) }),
            ]) } ?? .null,
        ]
        if !p.label.isEmpty { o["label"] = .string(p.label) }
        return o
    }

    /// "detour: 4.0× the shortest legal walk (200 m; 180 m as the crow flies), 0 m more climb; the
    /// direct line is not skateable: road tunnel" — nil when the plan is no detour.
    public static func detourLine(_ p: RoutePlan) -> String? {
        guard let d = p.detour else { return nil }
        var s = "detour: \(f(d.ratio, 1))× the shortest legal walk (\(km(d.shortestWalkM))"
        if let c = p.walkReference?.crowFliesM { s += "; \(km(c)) as the crow flies" }
        s += "), \(len(max(0, d.extraClimbM))) more climb"
        if d.directRatio > d.ratio + 0.05 { s += ", \(f(d.directRatio, 1))× the direct line" }
        return s + "; the direct line is not skateable: " + d.why.map(\.name).joinedText(separator: ", ")
    }

    /// "alternative 2" or "alternative 2 (not legal)".
    static func alternativeTitle(_ a: RoutePlan, _ i: Int) -> String {
        "alternative \(i)" + (a.label.isEmpty ? "" : " (\(a.label))")
    }

    /// `details`: per key, `[from, to, value]` intervals over the geometry's point indices.
    static func detailsJSON(_ d: PathDetails) -> JSONText {
        .object(JSONObject(pairs: PathDetails.keys.map { key in
            (key, .array(d[key].map { iv -> JSONText in
                let v: JSONText
                switch iv.value {
                case .integer(let i): v = .int(i)
                case .number(let x): v = n(x, 1)
                case .text(let s): v = .string(s)
                case .none: v = .null
                }
                return .array([.number(Double(iv.from)), .number(Double(iv.to)), v])
            }))
        }))
    }

    static func planJSON(_ p: RoutePlan, includeAlternatives: Bool) -> JSONText {
        let gs = p.gradeSummary
        var d: JSONObject = [
            "mode": .string(p.mode.rawValue), "distance_m": n(p.distance), "duration_s": n(p.duration), "score": n(p.score),
            "grade_summary": .object([
                "max_grade_pct": n(gs.maxGradePct), "min_grade_pct": n(gs.minGradePct),
                "mean_grade_pct": n(gs.meanGradePct), "climb_m": n(gs.climbM),
                "descent_m": n(gs.descentM), "braking_steps": .array(gs.brakingSteps.map { .number(Double($0)) }),
                "braking_zone_count": .number(Double(p.brakingZoneCount)), "caution_zone_count": .number(Double(p.cautionZoneCount)),
            ]),
            "braking_zones": .array(p.brakingZones.map { .object(zoneJSON($0)) }),
            "too_fast_stretches": .array(p.tooFastStretches.map {
                .object(["start_m": n($0.start), "end_m": n($0.end), "length_m": n($0.length), "step_indices": .array($0.stepIndices.map { .number(Double($0)) })])
            }),
            "steps": .array(p.steps.map(fullStepJSON)),
            "geometry": coordinates(p.geometry, elevation: p.geometryElevation[...]),
            "details": detailsJSON(p.details),
            "metres_by_class": .object(JSONObject(pairs: RoughnessClass.allCases.map { ($0.name, n(p.metresByClass[$0])) })),
            "longest_crusty_m": n(p.longestCrustyRun),
            "spots": .array(p.spots.map { .string($0) }), "notes": .array(p.notes.map { .string($0) }), "has_elevation": .bool(p.hasElevation),
        ]
        if let a = p.startSnap, let b = p.endSnap {
            d["snap"] = .object(["from_m": n(a.distance), "to_m": n(b.distance)])
        }
        d.merge(legalityJSON(p)) { a, _ in a }
        d.merge(detourJSON(p)) { a, _ in a }
        if includeAlternatives { d["alternatives"] = .array(p.alternatives.map { planJSON($0, includeAlternatives: false) }) }
        return .object(d)
    }

    /// Document kinds (`DocumentSchema`) of the plan outputs.
    public static let jsonSchemaKind = "plan"
    public static let geojsonSchemaKind = "plan.geojson"

    /// JSON with sorted keys and a `schema` field (`skateroute.plan/1`); byte-identical for identical
    /// plans and stamps. With a stamp, `attribution` (the map's) and `created_at` (ISO 8601 UTC) too.
    public static func json(_ p: RoutePlan, stamp: OutputStamp? = nil, ends: PlanEnds? = nil) -> String {
        guard case .object(var o) = planJSON(p, includeAlternatives: true) else { return "" }
        if let ends { o.merge(ends.jsonMembers) { _, new in new } }
        if let stamp { o.merge(stampJSON(stamp)) { _, new in new } }
        return DocumentSchema.document(jsonSchemaKind, o).text(pretty: true)
    }

    /// `attribution` and `created_at` for a JSON or GeoJSON document's top level.
    static func stampJSON(_ s: OutputStamp) -> JSONObject {
        ["attribution": .string(s.attribution), "created_at": .string(s.createdISO)]
    }

    /// The text footer: the map's attribution and the creation time.
    static func stampText(_ s: OutputStamp) -> String {
        "attribution: \(s.attribution)\ncreated: \(s.createdISO)\n"
    }

    // MARK: Text

    static func km(_ m: Double) -> String { UnitFormatter.distance(m, decimals: 2) }
    /// A short length in the active units ("30 m", "98 ft").
    static func len(_ m: Double) -> String { UnitFormatter.length(m) }

    /// "too fast for 48 m from 111 m into this step": the step's too-fast metres, not the whole
    /// step (a 1 km step with 48 m where gravity passes the speed cap once read just "too fast").
    static func tooFastPhrase(_ c: StepContext) -> String {
        guard let from = c.tooFastFromM, c.tooFastMetres > 0 else { return "too fast" }
        if c.tooFastMetres >= c.distance - 1 && from < 1 { return "too fast for the whole step" }
        return "too fast for \(len(c.tooFastMetres)) from \(len(from)) into this step"
    }
    /// `%.Nf` without Foundation's locale machinery (the plan path stays fast in a fresh process).
    static func f(_ x: Double, _ decimals: Int) -> String { FixedDecimal.string(x, decimals: decimals) }
    /// `%+.Nf`.
    static func sf(_ x: Double, _ decimals: Int) -> String { FixedDecimal.signed(x, decimals: decimals) }
    static func duration(_ s: Double) -> String {
        let m = Int(s / 60), sec = Int(s.rounded()) % 60
        return m > 0 ? "\(m) min \(sec) s" : "\(sec) s"
    }

    /// A readable turn list with distances, grades, surface class and braking marks.
    /// With a stamp, the footer names the map's attribution and the creation time.
    public static func text(_ p: RoutePlan, from: String, to: String, stamp: OutputStamp? = nil, ends: PlanEnds? = nil) -> String {
        var out = "\(from) → \(to)  [\(p.mode.rawValue)]\n" + (ends?.textLines ?? "")
        if let a = p.startSnap, let b = p.endSnap, max(a.distance, b.distance) >= PlanFormats.snapNoteMetres {
            out += "(start joins the network \(len(a.distance)) away, destination \(len(b.distance)) away)\n"
        }
        for s in p.steps {
            let c = s.context
            if s.maneuver == .arrive {
                out += FixedDecimal.padLeft(String(s.index + 1), 3) + "  \(s.maneuver.arrow) \(s.instruction)\n"
                continue
            }
            var marks: [String] = []
            // Every zone inside the step, only the metres actually inside it.
            for span in c.zoneSpans {
                let word = span.level == .braking ? "BRAKE" : "caution"
                let whole = span.lengthM >= c.distance - 1 && span.fromM < 1
                marks.append(whole ? "\(word) for the whole step" : "\(word): brake for \(len(span.lengthM)) from \(len(span.fromM)) into this step")
            }
            if c.tooFast { marks.append(tooFastPhrase(c)) }
            marks += c.roughSpans.map(\.phrase)
            if c.walkMetres > 0 {
                marks.append("walk: \(len(c.walkMetres)) of stairs" + (c.stepCount > 0 ? " (\(c.stepCount) step\(c.stepCount == 1 ? "" : "s"))" : ""))
            }
            marks += accessMarks(c)
            if c.hazardScore > 0 { marks.append("hazards " + f(c.hazardScore, 1)) }
            if let lift = c.connector {
                out += FixedDecimal.padLeft(String(s.index + 1), 3) + "  \(s.maneuver.arrow) \(s.instruction) — "
                    + "\(f(lift.seconds, 0)) s wait and ride\n"
                continue
            }
            let dist = km(c.distance)
            out += FixedDecimal.padLeft(String(s.index + 1), 3) + "  \(s.maneuver.arrow) \(s.instruction) — \(dist), \(gradeText(c.gradePct, p))"
                + c.roughnessClass.name + bracketed(marks) + "\n"
        }
        out += summaryLine(p) + "\n"
        if let d = detourLine(p) { out += d + "\n" }
        out += zonesText(p)
        for n in p.notes { out += "note: \(n)\n" }
        if !p.spots.isEmpty { out += "spot: \(p.spots.joinedText(separator: ", "))\n" }
        for (i, a) in p.alternatives.enumerated() {
            out += alternativeTitle(a, i + 1) + ": " + summaryLine(a) + "\n"
            // Each alternative's own notes (those the plan above does not already carry).
            for n in a.notes where !p.notes.contains(n) { out += "  note: \(n)\n" }
        }
        if let stamp { out += stampText(stamp) }
        return out
    }

    /// One line per braking/caution zone with its distance from the start ("" when none).
    public static func zonesText(_ p: RoutePlan) -> String {
        var out = ""
        for z in p.brakingZones {
            let steps = z.stepIndices.isEmpty ? "" : (z.stepIndices.count == 1 ? ", step \(z.stepIndices[0] + 1)" : ", steps \(z.stepIndices.first! + 1)–\(z.stepIndices.last! + 1)")
            out += (z.level == .braking ? "brake:   " : "caution: ") + "\(UnitFormatter.lengthNumber(z.start))–\(len(z.end)) from the start, "
                + "\(len(z.length)) at \(sf(z.gradePct, 1)) % (steepest \(len(ZoneRules.steepestWindow)) \(sf(z.minGradePct, 1)) %)" + steps + "\n"
        }
        return out
    }

    /// The legality, stairs and lift facts of a step in words, for the TUI's step list
    /// ("walk: 50 m of stairs (30 steps)", "crusty for 44 m from 833 m into this step (cobblestone)",
    /// "FORBIDDEN: road tunnel…"); "" when there are none.
    public static func accessNote(_ c: StepContext) -> String {
        var parts: [String] = []
        if c.walkMetres > 0 { parts.append("walk: \(len(c.walkMetres)) of stairs" + (c.stepCount > 0 ? " (\(c.stepCount) step\(c.stepCount == 1 ? "" : "s"))" : "")) }
        parts += c.roughSpans.map(\.phrase)
        for note in c.accessNotes where note.accessClass == .forbidden { parts.append(accessMark(note)) }
        if let lift = c.connector { parts.append("\(f(lift.seconds, 0)) s wait and ride") }
        return parts.joinedText(separator: ", ")
    }

    /// "FORBIDDEN: road tunnel without a sidewalk for 120 m", "careful: tertiary road without a
    /// sidewalk for 40 m": one legality note with the metres of the step that carry it.
    public static func accessMark(_ n: StepAccessNote) -> String {
        (n.accessClass == .forbidden ? "FORBIDDEN: " : "careful: ") + n.reason.explanation + " for \(len(n.metres))"
    }

    /// Every legality note of a step, worst first (`StepContext.accessNotes`).
    public static func accessMarks(_ c: StepContext) -> [String] { c.accessNotes.map(accessMark) }

    /// " [a, b]" or "" (a loop rather than `joined`, which costs a generic set-up in a fresh process).
    static func bracketed(_ marks: [String]) -> String {
        guard !marks.isEmpty else { return "" }
        var s = " ["
        for (i, m) in marks.enumerated() { if i > 0 { s += ", " }; s += m }
        return s + "]"
    }

    /// "no braking or caution zones", "1 braking zone, 2 caution zones": the two levels counted apart.
    public static func zoneCounts(_ p: RoutePlan) -> String {
        let b = p.brakingZoneCount, c = p.cautionZoneCount
        if b == 0 && c == 0 { return "no braking or caution zones" }
        return "\(b) braking zone\(b == 1 ? "" : "s"), \(c) caution zone\(c == 1 ? "" : "s")"
    }

    public static func summaryLine(_ p: RoutePlan) -> String {
        let crusty = p.metresByClass[.crusty]
        let g = p.gradeSummary
        // A map imported without a DEM has every grade 0: that is "not known", not "flat", so the
        // line says so instead of printing climbs, grades and zone counts it cannot know.
        let terrain = p.hasElevation
            ? "climb \(len(g.climbM)), descent \(len(g.descentM)), max \(sf(g.maxGradePct, 1)) % / min \(sf(g.minGradePct, 1)) %, \(zoneCounts(p))"
            : unknownTerrain
        return "\(km(p.distance)), \(duration(p.duration)), \(terrain), crusty \(len(crusty)), score \(f(p.score, 0))"
    }

    /// What the summary says in place of climbs, grades and zones on a map without elevation.
    public static let unknownTerrain = "climb, grades and braking unknown (no elevation)"

    /// A step's grade and the comma after it ("-3.2 %, "); nothing on a map without elevation,
    /// where every grade reads 0 and would tell the rider "flat" without knowing it.
    static func gradeText(_ pct: Double, _ p: RoutePlan) -> String {
        p.hasElevation ? "\(sf(pct, 1)) %, " : ""
    }

    // MARK: GPX

    /// XML text for `s`: through `TerminalSafe` first (a GPX is read in terminals and viewers too:
    /// no escape sequence survives, not even as its printable tail), then the XML specials escaped.
    public static func xmlEscape(_ s: String) -> String {
        var o = ""
        for ch in TerminalSafe.clean(s).unicodeScalars {
            switch ch {
            case "&": o += "&amp;"
            case "<": o += "&lt;"
            case ">": o += "&gt;"
            case "\"": o += "&quot;"
            default: if ch.value >= 0x20 || ch == "\t" { o.unicodeScalars.append(ch) }
            }
        }
        return o
    }

    /// The ODbL's address, for GPX `<copyright><license>` when the map's attribution names the ODbL.
    public static let odblLicenseURL = "https://opendatacommons.org/licenses/odbl/1-0/"

    /// GPX 1.1: one `rte/rtept` per route — the plan first, then each alternative (`<type>alternative</type>`,
    /// named "alternative N: …") — one point per step (named by its instruction, the arrive step
    /// last), and the plan's geometry as the one track (what `ride` replays). With a stamp, the
    /// metadata carries the map's attribution (`<copyright author=…>`, with the ODbL as licence when
    /// it names it) and the creation time.
    public static func gpx(_ p: RoutePlan, name: String, stamp: OutputStamp? = nil, ends: PlanEnds? = nil) -> String {
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        s += "<gpx version=\"1.1\" creator=\"SkateRoute\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        // The description names the legal-line warning and the trick spots threaded (trickSpotCrawl).
        let descParts = p.notes.filter { $0.hasPrefix("no legal line") } + (UnitSystem.$current.withValue(.metric) { detourLine(p) }.map { [$0] } ?? [])
            + (p.spots.isEmpty ? [] : ["spot: " + p.spots.joinedText(separator: ", ")])
        s += "  <metadata><name>\(xmlEscape(name))</name>" + (descParts.isEmpty ? "" : "<desc>\(xmlEscape(descParts.joinedText(separator: "; ")))</desc>")
        if let stamp {
            s += "<copyright author=\"\(xmlEscape(stamp.attribution))\">"
                + (stamp.attribution.containsText("ODbL") ? "<license>\(odblLicenseURL)</license>" : "") + "</copyright>"
                + "<time>\(stamp.createdISO)</time>"
        }
        s += "</metadata>\n" + (ends?.gpxWaypoints ?? "")
        for (i, route) in ([p] + p.alternatives).enumerated() {
            let title = i == 0 ? name : alternativeTitle(route, i) + ": \(name)"
            s += "  <rte>\n    <name>\(xmlEscape(title))</name>\n"
            s += "    <desc>\(xmlEscape(route.mode.rawValue + ", " + UnitSystem.$current.withValue(.metric) { summaryLine(route) }))</desc>\n"
            s += "    <number>\(i)</number>\n    <type>\(i == 0 ? "plan" : "alternative")</type>\n"
            for st in route.steps {
                guard let c = st.geometry.first else { continue }
                let desc = "\(f(st.context.distance, 0)) m, \(gradeText(st.context.gradePct, route))\(st.context.roughnessClass.name)"
                s += "    <rtept lat=\"\(f(c.lat, 7))\" lon=\"\(f(c.lon, 7))\"><name>\(xmlEscape(st.instruction))</name><desc>\(xmlEscape(desc))</desc></rtept>\n"
            }
            s += "  </rte>\n"
        }
        s += "  <trk>\n    <name>\(xmlEscape(name))</name>\n    <trkseg>\n"
        var dist = 0.0
        var prev: Coordinate?
        let pointElevation = p.geometryElevation.count == p.geometry.count
        for (k, c) in p.geometry.enumerated() {
            if let pr = prev { dist += Geo.distance(pr, c) }
            prev = c
            // Each point's own elevation (a lift's two ends are its two floors); the profile's otherwise.
            let e = pointElevation ? p.geometryElevation[k] : elevationAt(p, distance: dist)
            s += "      <trkpt lat=\"\(f(c.lat, 7))\" lon=\"\(f(c.lon, 7))\">" + (p.hasElevation ? "<ele>\(f(e, 1))</ele>" : "") + "</trkpt>\n"
        }
        s += "    </trkseg>\n  </trk>\n</gpx>\n"
        return s
    }

    /// A zone's cut line with elevations from the profile (linear between samples; zones never
    /// span a lift, so no two samples share a distance inside one), `[lon, lat]` without elevation.
    static func zoneCoordinates(_ p: RoutePlan, _ g: [Coordinate], from start: Double) -> JSONText {
        guard p.hasElevation, p.profile.count >= 2 else { return coordinates(g) }
        var z: [Double] = [], s = start, k = 0
        for (i, c) in g.enumerated() {
            if i > 0 { s += Geo.distance(g[i - 1], c) }
            while k + 2 < p.profile.count && p.profile[k + 1].distance < s { k += 1 }
            let a = p.profile[k], b = p.profile[k + 1]
            let t = b.distance > a.distance ? min(1, max(0, (s - a.distance) / (b.distance - a.distance))) : 1
            z.append(a.elevation + (b.elevation - a.elevation) * t)
        }
        return coordinates(g, elevation: z[...])
    }

    static func elevationAt(_ p: RoutePlan, distance: Double) -> Double {
        guard let i = p.profile.firstIndex(where: { $0.distance >= distance }) else { return p.profile.last?.elevation ?? 0 }
        return p.profile[i].elevation
    }

    // MARK: GeoJSON

    /// One FeatureCollection for the plan and its alternatives (RFC 7946): per route, one
    /// LineString per step (the arrive step, and a lift or escalator with both ends at one
    /// position, as a Point) and one per braking/caution zone, each feature's properties
    /// carrying `alternative` (0 the plan, 1… the alternatives). The plan's own figures are the
    /// foreign member `skateroute` (a FeatureCollection MUST NOT have `properties`, §7.1). With a
    /// stamp, the top level carries `attribution` and `created_at`.
    public static func geojson(_ p: RoutePlan, stamp: OutputStamp? = nil, ends: PlanEnds? = nil) -> String {
        var features: [JSONText] = []
        for (i, route) in ([p] + p.alternatives).enumerated() {
            features += routeFeatures(route, alternative: i)
        }
        var top: JSONObject = ["type": .string("FeatureCollection"), "features": .array(features),
                                       "skateroute": .object(["mode": .string(p.mode.rawValue), "distance_m": n(p.distance),
                                                              "duration_s": n(p.duration), "score": n(p.score), "legal": .bool(p.legal),
                                                              "braking_zone_count": .number(Double(p.brakingZoneCount)),
                                                              "caution_zone_count": .number(Double(p.cautionZoneCount)),
                                                              "notes": .array(p.notes.map { .string($0) }),
                                                              "spots": .array(p.spots.map { .string($0) }),
                                                              "alternatives": .number(Double(p.alternatives.count)),
                                                              "detour": detourJSON(p)["detour"] ?? .null,
                                                              "shortest_walk_m": detourJSON(p)["shortest_walk_m"] ?? .null])]
        if let stamp { top.merge(stampJSON(stamp)) { _, new in new } }
        if let ends { top.merge(ends.jsonMembers) { _, new in new } }
        return DocumentSchema.document(geojsonSchemaKind, top).text()
    }

    /// True when `g` holds two positions that differ as written (6 decimals of a degree).
    static func hasTwoPositions(_ g: [Coordinate]) -> Bool {
        func key(_ c: Coordinate) -> (Double, Double) { ((c.lon * 1e6).rounded(), (c.lat * 1e6).rounded()) }
        guard let first = g.first.map(key) else { return false }
        return g.contains { key($0) != first }
    }

    /// The features of one route (steps, arrive point, zones), tagged with its alternative number.
    static func routeFeatures(_ p: RoutePlan, alternative: Int) -> [JSONText] {
        var features: [JSONText] = []
        for st in p.steps {
            let geometry: JSONText
            if st.geometry.count >= 2 && hasTwoPositions(st.geometry) {
                geometry = .object(["type": .string("LineString"), "coordinates": stepCoordinates(p, st)])
            } else if let c = st.geometry.first, st.maneuver == .arrive || st.geometry.count >= 2 {
                // The arrive step, and a lift or escalator whose ends share one position (a
                // LineString needs two distinct positions, RFC 7946 §3.1.4): a Point where it starts.
                let atStart = st.firstPoint >= 0 && st.firstPoint < p.geometryElevation.count ? p.geometryElevation[st.firstPoint] : nil
                let z = (st.maneuver == .arrive ? p.geometryElevation.last : atStart).map { [n($0, 1)] } ?? []
                geometry = .object(["type": .string("Point"), "coordinates": .array([n(c.lon, 6), n(c.lat, 6)] + z)])
            } else {
                continue
            }
            guard case .object(var props) = fullStepJSON(st) else { continue }
            props["alternative"] = .number(Double(alternative))
            if !p.label.isEmpty { props["label"] = .string(p.label) }
            features.append(.object(["type": .string("Feature"), "geometry": geometry, "properties": .object(props)]))
        }
        for z in p.brakingZones {
            let g = p.geometry(from: z.start, to: z.end)
            guard g.count >= 2 else { continue }
            var props = zoneJSON(z)
            props["kind"] = .string(z.level == .braking ? "braking_zone" : "caution_zone")
            props["alternative"] = .number(Double(alternative))
            features.append(.object([
                "type": .string("Feature"),
                "geometry": .object(["type": .string("LineString"), "coordinates": zoneCoordinates(p, g, from: z.start)]),
                "properties": .object(props),
            ]))
        }
        return features
    }
}
