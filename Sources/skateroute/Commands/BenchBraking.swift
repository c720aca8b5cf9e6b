import FoundationEssentials
import Glibc
import SkateCore
import SkateImport

/// `bench --braking`: the braking-weight trade-off (issue 26 item 2). For several values of
/// smoothest's `brakingSecondsPerMetre` (caution at the same share of it as the table's), plans
/// 30 seeded pairs per map and scores every line — ours and Routino's foot and bicycle on the same
/// pairs — with one scorer that is not the planner's (`LineScorer`): each line matched to the
/// map's edges by bearing and continuity (`LineMatcher`), sampled every `sampleMetres` on those
/// edges' stored profiles, braking metres where a window of ≥ 50 m averages ≤ −8 %, caution metres
/// where one of ≥ 30 m averages ≤ −6 % (and not braking), crusty metres where the matched edge is
/// crusty; beside it the naive nearest-edge reading and the raw DEM.
struct BrakingBenchmark {
    /// A map to bench: its compiled map, OSM extract (for Routino) and DEM files (for the scorer).
    struct MapSet {
        var name: String
        var srmap: String
        var pbf: String
        var dem: [String]
    }

    /// Origin/destination pairs are this far apart in a straight line (metres), the terrain
    /// bench's band: a skate trip that crosses hills.
    static let minPairDistance = 800.0, maxPairDistance = 3000.0
    /// Pairs per map (the issue's 30).
    static let pairCount = 30
    /// The ends of the shipped steep-descent ride (`Rides/descent-jardin-exotique`, Jardin
    /// Exotique → Stade Louis II) and its plan's length (m): each steep variant prints its route,
    /// since a variant once sent it up a lift and down a road without a sidewalk.
    static let jardinExotique = Coordinate(lat: 43.73125, lon: 7.41395), stadeLouisII = Coordinate(lat: 43.72765, lon: 7.41434)
    static let jardinShippedMetres = 722.9
    /// Scorer sample spacing along a line, metres.
    static let sampleMetres = 5.0
    /// Longest window the scorer averages over, metres (a sustained descent longer than this is
    /// still caught: every sub-window of it qualifies).
    static let maxWindowMetres = 300.0
    /// How far a scored sample may lie from an edge to take its roughness, metres.
    static let snapMetres = 15.0

    let sets: [MapSet]
    let weights: [Double]
    let seed: UInt64
    /// Also print why smoothest still brakes (`printBounds`).
    var bounds = false
    /// Folder for `<map>-edges.tsv` (way id, metres, roughness class, source, surface, smoothness
    /// per edge: what `scripts/surface-crosscheck.py` compares with the OSM tags), or nil.
    var auditDir: String? = nil
    /// Smoothest's steep-aware choice with other values (`SteepLineRule.override`), each with
    /// its label, planned at the table's weights beside the table's own.
    var steepVariants: [(label: String, values: SteepLineRule.Values)] = []
    /// Per entry of `weights`: smoothest's caution weight (s/m), or nil for the table's share of
    /// the braking weight.
    var cautionWeights: [Double?] = []
    /// Print each pair's figures for Routino bicycle and every smoothest line (`printPerPair`).
    var perPair = false
    /// With `bounds`: braking metres per metre of distance at which the summed bound also picks
    /// each pair's line (`printSummedBound`), e.g. the μ fitted on another seed.
    var fixedMu: [Double] = []
    /// With `bounds`: only smoothest's line and the exact bound (`printExactBound`), without the
    /// candidate sweeps (≈ 19 searches per pair without landmarks: most of the bench's time).
    var exactOnly = false

    /// One line's scored figures (metres).
    struct Score {
        var distance = 0.0, climb = 0.0, braking = 0.0, caution = 0.0, crusty = 0.0, count = 0
        /// The same rules on the map's stored profiles of the edges the line is matched to
        /// (`LineMatcher`: bearing and continuity), stairs and lifts not counted (walked or carried).
        var brakingMap = 0.0, cautionMap = 0.0
        /// The naive baseline: each sample's nearest rideable edge's profile, whatever its layer.
        var brakingNearest = 0.0, cautionNearest = 0.0
        /// Metres of the line matched to an edge, and not.
        var matched = 0.0, unmatched = 0.0
        /// Of `brakingMap`, the metres within the line's first and last `ends` metres.
        var brakingMapEnds = 0.0
        mutating func add(_ o: Score) {
            distance += o.distance; climb += o.climb; braking += o.braking; caution += o.caution; crusty += o.crusty; count += o.count
            brakingMap += o.brakingMap; cautionMap += o.cautionMap; brakingMapEnds += o.brakingMapEnds
            brakingNearest += o.brakingNearest; cautionNearest += o.cautionNearest; matched += o.matched; unmatched += o.unmatched
        }
    }

    func run(tmp: String) {
        for set in sets { runSet(set, tmp: tmp) }
    }

    func runSet(_ set: MapSet, tmp: String) {
        guard let base = try? MapFormat.load(path: set.srmap) else { print("braking \(set.name): cannot load \(set.srmap)"); return }
        var box = BoundingBox.empty
        for v in 0..<base.nodeCount { let c = base.coordinate(ofNode: v); box.minLat = min(box.minLat, c.lat); box.maxLat = max(box.maxLat, c.lat); box.minLon = min(box.minLon, c.lon); box.maxLon = max(box.maxLon, c.lon) }
        guard let dem = try? CompositeDEM.load(paths: set.dem, window: box) else { print("braking \(set.name): cannot read the DEM \(set.dem)"); return }
        let od = Self.pairs(map: base, seed: seed)
        let table = EdgeTable(map: base, knowledge: .empty)
        if let dir = auditDir { Self.writeAudit(map: base, to: dir + "/\(set.name)-edges.tsv") }
        let scorer = LineScorer(map: base, table: table, dem: dem)
        print("braking \(set.name) (seed \(seed), \(od.count) pairs \(Int(Self.minPairDistance))–\(Int(Self.maxPairDistance)) m apart; braking ≥ 50 m at ≤ −8 %, caution ≥ 30 m at ≤ −6 %, every \(Int(Self.sampleMetres)) m; matched = the map's profiles of the edges the line is matched to by bearing and continuity (LineMatcher), the scorer the targets use; nearest = naive baseline, each sample's nearest rideable edge; raw DEM = the surface model):")
        print("  line                         | matched: braking m  caution m  brk+cau m | nearest: braking m  brk+cau m | raw DEM: braking m  brk+cau m | matched km  unmatched m | crusty m  distance km  climb m  pairs")
        func line(_ label: String, _ s: Score) {
            print(String(printf: "  %-28@ | %18.0f  %9.0f  %9.0f | %18.0f  %9.0f | %18.0f  %9.0f | %10.2f  %11.0f | %8.0f  %11.2f  %7.0f  %5d", label,
                         s.brakingMap, s.cautionMap, s.brakingMap + s.cautionMap, s.brakingNearest, s.brakingNearest + s.cautionNearest,
                         s.braking, s.braking + s.caution, s.matched / 1000, s.unmatched, s.crusty, s.distance / 1000, s.climb, s.count))
        }
        // Per-pair scores, so every line's sums cover the pairs every line routed.
        var peerScores: [(String, [Score?])] = []
        if let router = PeerBenchmark.which("routino-router"), let splitter = PeerBenchmark.which("planetsplitter") {
            let dir = tmp + "/routino-braking-\(set.name)"
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            if PeerBenchmark.time(splitter, ["--dir=\(dir)", "--prefix=map", "--tagging=/usr/share/routino/tagging.xml", set.pbf]) != nil {
                for transport in ["foot", "bicycle"] {
                    let per = od.map { (a, b) in Self.routino(router, dir: dir, transport: transport, from: a, to: b, scratch: dir + "/out.txt").map { scorer.score($0) } }
                    peerScores.append(("routino " + transport, per))
                }
            }
        } else {
            print("  (routino-router/planetsplitter not installed: no peer lines)")
        }
        let common = od.indices.filter { i in peerScores.allSatisfy { $0.1[i] != nil } }
        func sum(_ per: [Score?]) -> Score {
            var s = Score()
            for i in common { if let x = per[i] { s.add(x) } }
            return s
        }
        print("  (sums over the \(common.count) of \(od.count) pairs every line routed)")
        for (l, per) in peerScores { line(l, sum(per)) }
        let defaults = ModeWeights.table(for: .smoothest)
        let cautionShare = defaults.brakingSecondsPerMetre > 0 ? defaults.cautionSecondsPerMetre / defaults.brakingSecondsPerMetre : 0.3
        var curve: [(weight: Double, score: Score)] = []
        // Per-pair scores of every smoothest line, for `perPair`.
        var perPairLines: [(String, [Score?])] = []
        /// Per smoothest line (same order) and pair: metres of steps walked (`.steps` edges).
        var perPairStairs: [[Double]] = []
        func stairs(_ p: RoutePlan, _ m: SkateMap) -> Double { p.path.legs.reduce(0) { $0 + (m.flags(ofEdge: $1.edge).contains(.steps) ? $1.length : 0) } }
        for (i, b) in weights.enumerated() {
            var w = defaults
            w.brakingSecondsPerMetre = b
            let c = i < cautionWeights.count ? cautionWeights[i] : nil
            w.cautionSecondsPerMetre = c ?? b * cautionShare
            var st: [Double] = []
            let per = ModeWeights.$override.withValue([.smoothest: w]) { () -> [Score?] in
                // Loaded inside the override: the map's derived costs are recomputed for these weights.
                guard let m = try? MapFormat.load(path: set.srmap) else { return [] }
                let planner = Planner(map: m)
                return od.map { (a, b) in (try? planner.plan(from: a, to: b, mode: .smoothest)).map { st.append(stairs($0, m)); return scorer.score($0.geometry) } ?? { st.append(0); return nil }() }
            }
            perPairStairs.append(st)
            let s = sum(per)
            let label = String(printf: "smoothest brake %.2f s/m", b) + (c.map { String(printf: " cau %.2f", $0) } ?? "")
            line(label + (b == defaults.brakingSecondsPerMetre && c == nil ? " *" : ""), s)
            perPairLines.append((label, per))
            curve.append((b, s))
        }
        let planner = Planner(map: base)
        for mode in [RideMode.chillFewCrossings, .fastMildRoughness] {
            line(mode.rawValue + " (table)", sum(od.map { (a, b) in (try? planner.plan(from: a, to: b, mode: mode)).map { scorer.score($0.geometry) } }))
        }
        if !steepVariants.isEmpty {
            let std = SteepLineRule.Values.standard
            let table = String(printf: "%g/", std.lineBrakingShare) + std.searchFactors.map { String(printf: "%g", $0) }.joined(separator: "+") + "/\(std.penaltyRounds) (table)"
            for (label, values) in [(table, std)] + steepVariants {
                let n0 = SearchCounters.searches
                var plans = 0
                var st: [Double] = []
                let per = SteepLineRule.$override.withValue(values) { () -> [Score?] in
                    od.map { (a, b) in (try? planner.plan(from: a, to: b, mode: .smoothest)).map { plans += 1; st.append(stairs($0, base)); return scorer.score($0.geometry) } ?? { st.append(0); return nil }() }
                }
                perPairStairs.append(st)
                let s = sum(per)
                line("steep " + label, s)
                perPairLines.append(("steep " + label, per))
                if let bike = peerScores.first(where: { $0.0 == "routino bicycle" }).map({ sum($0.1) }), bike.brakingMap + bike.cautionMap > 0 {
                    print(String(printf: "  %-28@   ratio to routino bicycle: braking %.3f×  brk+cau %.3f×  distance %.3f×  crusty %.0f m (bicycle %.0f)", "",
                                 s.brakingMap / max(1, bike.brakingMap), (s.brakingMap + s.cautionMap) / (bike.brakingMap + bike.cautionMap), s.distance / max(1, bike.distance), s.crusty, bike.crusty))
                }
                print(String(printf: "  %-28@   searches per plan %.1f (%d plans)", "", Double(SearchCounters.searches - n0) / Double(max(1, plans)), plans))
                if set.name == "Monaco", let p = SteepLineRule.$override.withValue(values, operation: { try? planner.plan(from: Self.jardinExotique, to: Self.stadeLouisII, mode: .smoothest) }) {
                    // The choice's measure (gravity beats the applied cap on a road without a sidewalk), whatever the variant's share.
                    var counting = values
                    counting.tooFastRoadShare = 1
                    let fastRoad = planner.tooFastRoadMetres(p.path, builder: PlanBuilder(map: base, costing: planner.router(for: .smoothest).costing, knowledge: planner.knowledge), rule: counting)
                    print(String(printf: "  %-28@   shipped ride's route (Rides/descent-jardin-exotique, %.1f m when shipped): %.1f m, %d lifts, too fast %.0f m (road without a sidewalk, gravity past the applied cap: %.0f m), braking zones %.0f m, caution zones %.0f m",
                                 "", Self.jardinShippedMetres, p.distance, p.liftsUsed, p.tooFastStretches.reduce(0) { $0 + $1.end - $1.start }, fastRoad,
                                 p.brakingZones.filter { $0.level == .braking }.reduce(0) { $0 + $1.end - $1.start }, p.brakingZones.filter { $0.level == .caution }.reduce(0) { $0 + $1.end - $1.start }))
                }
            }
        }
        print("  (* = the table's weight; caution s/m = \(String(printf: "%.2f", cautionShare)) × braking s/m; steep share/factors/rounds = SteepLineRule's whole-line share, extra search factors, penalty rounds)")
        if let bike = peerScores.first(where: { $0.0 == "routino bicycle" }).map({ sum($0.1) }) {
            Self.printCurve(curve, bicycle: bike, foot: peerScores.first { $0.0 == "routino foot" }.map { sum($0.1) }, table: defaults.brakingSecondsPerMetre)
        }
        if perPair, let bike = peerScores.first(where: { $0.0 == "routino bicycle" })?.1 {
            print("  per pair (matched scorer): brk+cau m / crusty m / km — routino bicycle, then each smoothest line in the order above, with its metres of steps (s) where it walks any")
            for i in common {
                let (a, b) = od[i]
                var row = String(printf: "    pair %2d %.5f,%.5f → %.5f,%.5f  bicycle %5.0f/%5.0f/%5.2f", i, a.lat, a.lon, b.lat, b.lon,
                                 (bike[i]?.brakingMap ?? 0) + (bike[i]?.cautionMap ?? 0), bike[i]?.crusty ?? 0, (bike[i]?.distance ?? 0) / 1000)
                for (j, (_, per)) in perPairLines.enumerated() {
                    let x = i < per.count ? per[i] : nil
                    row += String(printf: " | %5.0f/%5.0f/%5.2f", (x?.brakingMap ?? 0) + (x?.cautionMap ?? 0), x?.crusty ?? 0, (x?.distance ?? 0) / 1000)
                    if j < perPairStairs.count, i < perPairStairs[j].count, perPairStairs[j][i] > 0 { row += String(printf: " s%.0f", perPairStairs[j][i]) }
                }
                print(row)
            }
        }
        if bounds { printBounds(map: base, od: od, common: common, scorer: scorer, bicycle: peerScores.first { $0.0 == "routino bicycle" }?.1, foot: peerScores.first { $0.0 == "routino foot" }?.1) }
    }

    /// The issue's targets for smoothest against Routino bicycle on the same pairs (matched
    /// scorer): braking ≤ 0.35×, braking + caution ≤ 0.9×, distance ≤ 1.3×.
    static let targetBraking = 0.35, targetSteep = 0.9, targetDistance = 1.3

    /// The trade-off curve (braking metres against distance per weight, as ratios to Routino
    /// bicycle and foot) and its knee: the weight farthest below the straight line from the
    /// lightest to the heaviest weight, with braking and distance each scaled to the curve's range.
    static func printCurve(_ curve: [(weight: Double, score: Score)], bicycle: Score, foot: Score?, table: Double) {
        guard !curve.isEmpty, bicycle.brakingMap > 0, bicycle.distance > 0 else { return }
        print("  trade-off (matched scorer; × = ratio to Routino bicycle on the same pairs; targets: braking ≤ \(targetBraking)×, braking + caution ≤ \(targetSteep)×, distance ≤ \(targetDistance)×):")
        if let f = foot, f.brakingMap > 0 {
            print(String(printf: "    %-22@ braking %6.0f m (%.2f×)  brk+cau %6.0f m (%.2f×)  %7.2f km (%.2f×)", "routino foot", f.brakingMap, f.brakingMap / bicycle.brakingMap,
                         f.brakingMap + f.cautionMap, (f.brakingMap + f.cautionMap) / (bicycle.brakingMap + bicycle.cautionMap), f.distance / 1000, f.distance / bicycle.distance))
        }
        print(String(printf: "    %-22@ braking %6.0f m (1.00×)  brk+cau %6.0f m (1.00×)  %7.2f km (1.00×)", "routino bicycle", bicycle.brakingMap, bicycle.brakingMap + bicycle.cautionMap, bicycle.distance / 1000))
        let knee = kneeIndex(curve.map { ($0.score.distance, $0.score.brakingMap) })
        for (k, c) in curve.enumerated() {
            let s = c.score
            let rb = s.brakingMap / bicycle.brakingMap, rs = (s.brakingMap + s.cautionMap) / (bicycle.brakingMap + bicycle.cautionMap), rd = s.distance / bicycle.distance
            let met = (rb <= targetBraking ? "met" : "not met") + "/" + (rs <= targetSteep ? "met" : "not met") + "/" + (rd <= targetDistance ? "met" : "not met")
            let naive = bicycle.brakingNearest > 0 ? s.brakingNearest / bicycle.brakingNearest : .nan
            print(String(printf: "    %-22@ braking %6.0f m (%.2f×)  brk+cau %6.0f m (%.2f×)  %7.2f km (%.2f×)  targets %@  [naive nearest-edge braking %.2f×]%@%@", String(printf: "smoothest %.2f s/m", c.weight),
                         s.brakingMap, rb, s.brakingMap + s.cautionMap, rs, s.distance / 1000, rd, met, naive, k == knee ? "  ← knee" : "", c.weight == table ? "  *" : ""))
        }
    }

    /// The knee of a curve of (distance, braking) points in sweep order: the point farthest
    /// below the chord from the first to the last, each axis scaled to its range (nil when flat).
    static func kneeIndex(_ pts: [(distance: Double, braking: Double)]) -> Int? {
        guard pts.count >= 3 else { return pts.isEmpty ? nil : pts.count - 1 }
        let dMin = pts.map(\.distance).min()!, dMax = pts.map(\.distance).max()!
        let bMin = pts.map(\.braking).min()!, bMax = pts.map(\.braking).max()!
        guard bMax > bMin else { return nil }
        let x = pts.map { dMax > dMin ? ($0.distance - dMin) / (dMax - dMin) : 0 }, y = pts.map { ($0.braking - bMin) / (bMax - bMin) }
        let (x0, y0, x1, y1) = (x.first!, y.first!, x.last!, y.last!)
        var best: Int?, bestGap = 0.0
        for i in pts.indices.dropFirst().dropLast() {
            // Signed distance below the chord (braking lower than the chord at this distance).
            let gap = ((x1 - x0) * (y[i] - y0) - (y1 - y0) * (x[i] - x0)) / max(1e-12, ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot())
            if -gap > bestGap { bestGap = -gap; best = i }
        }
        return best ?? pts.count - 1
    }

    /// Writes one line per edge: way id, metres, class, source, surface, smoothness (tab-separated).
    static func writeAudit(map: SkateMap, to path: String) {
        var text = "way_id\tmetres\tclass\tsource\tsurface\tsmoothness\n"
        for e in 0..<map.edgeCount {
            let est = map.surfaceEstimate(ofEdge: e)
            text += "\(map.edgeWayId[e])\t\(map.edgeLength[e])\t\(est.roughnessClass.name)\t\(est.evidence.rawValue)\t\(map.surfaceTag(ofEdge: e).isEmpty ? "-" : map.surfaceTag(ofEdge: e))\t\(map.smoothnessTag(ofEdge: e).isEmpty ? "-" : map.smoothnessTag(ofEdge: e))\n"
        }
        guard let f = RawFile(writingTo: path), f.write(Array(text.utf8)) else { print("braking: cannot write \(path)"); return }
        f.close()
    }

    /// Seeded pairs on the main network, `minPairDistance`–`maxPairDistance` apart.
    static func pairs(map: SkateMap, seed: UInt64) -> [(Coordinate, Coordinate)] {
        let planner = Planner(map: map)
        var rng = SplitMix64(seed: seed)
        let main = (0..<map.edgeCount).filter { planner.components.isMain(edge: $0) && map.isRideable(edge: $0) }
            .sorted(by: map.edgePrecedesInOSMOrder)
        guard !main.isEmpty else { return [] }
        var od: [(Coordinate, Coordinate)] = []
        var tries = 0
        while od.count < pairCount && tries < 100_000 {
            tries += 1
            let a = map.coordinate(ofNode: Int(map.edgeFrom[main[Int(rng.next() % UInt64(main.count))]]))
            let b = map.coordinate(ofNode: Int(map.edgeTo[main[Int(rng.next() % UInt64(main.count))]]))
            let d = Geo.distance(a, b)
            if d >= minPairDistance && d <= maxPairDistance { od.append((a, b)) }
        }
        return od
    }

    /// Routino's line between two points (every point, `--output-text-all`), or nil.
    static func routino(_ exe: String, dir: String, transport: String, from a: Coordinate, to b: Coordinate, scratch: String) -> [Coordinate]? {
        let args = ["--dir=\(dir)", "--prefix=map", "--profiles=/usr/share/routino/profiles.xml",
                    "--translations=/usr/share/routino/translations.xml", "--transport=\(transport)",
                    "--lat1=\(a.lat)", "--lon1=\(a.lon)", "--lat2=\(b.lat)", "--lon2=\(b.lon)",
                    "--quickest", "--output-text-all", "--output-stdout"]
        guard SpawnToFile.run(exe, args, stdout: scratch), let text = try? String(contentsOfFile: scratch, encoding: .utf8) else { return nil }
        var pts: [Coordinate] = []
        for l in text.split(whereSeparator: \.isNewline) where !l.hasPrefix("#") {
            let f = l.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if f.count >= 2, let la = Double(f[0]), let lo = Double(f[1]) { pts.append(Coordinate(lat: la, lon: lo)) }
        }
        return pts.count >= 2 ? pts : nil
    }
}

/// The bench's own scorer of a line (see `BrakingBenchmark`): independent of the planner's
/// costing and zone builder, the same for every router's line. Each line is matched to the map's
/// edges by bearing and continuity (`LineMatcher`), and its elevation read from the matched
/// edges' stored profiles; the old nearest-edge reading (each sample's nearest rideable edge,
/// whatever its layer or bearing) is kept beside it as the naive baseline.
struct LineScorer {
    let map: SkateMap
    let table: EdgeTable
    let dem: CompositeDEM?

    /// The elevation of edge `e`'s stored profile at `offset` metres from `edgeFrom`, or nil.
    func profileElevation(_ e: Int, offset: Double) -> Double? {
        let prof = map.elevationProfile(ofEdge: e)
        let len = Double(map.edgeLength[e])
        guard prof.count >= 2, len > 0 else { return prof.first.map(Double.init) }
        let x = min(max(offset / len, 0), 1) * Double(prof.count - 1)
        let i0 = min(Int(x), prof.count - 2), t = x - Double(i0)
        return Double(prof[prof.startIndex + i0]) * (1 - t) + Double(prof[prof.startIndex + i0 + 1]) * t
    }

    /// Edges walked or ridden standing (stairs, lifts, escalators): their gaps never count and no
    /// window spans them, as in the planner's profile.
    static let walkFlags: EdgeFlags = [.steps, .connector]

    /// The matched samples' elevations: each matched sample from its edge's profile, unmatched
    /// runs interpolated between the matched samples around them (held at the line's ends).
    static func matchedElevation(_ m: LineMatcher.Matched, scorer: LineScorer) -> [Double]? {
        let n = m.points.count
        var z = [Double?](repeating: nil, count: n)
        // A sample reads the edge of the gap leaving it (the last sample the gap arriving), as the
        // planner's profile does at a change of leg: a vertex sample on a node may have been
        // matched to another edge there, whose profile can end at another height.
        for k in 0..<n {
            guard let h = m.hits[k] else { continue }
            // A lift's edge has no length: its floors are read from the streets at either end,
            // the floor before the lift from the street arriving (the chain may have put the lift's
            // gap on the street at the other floor, which shares the spot). The same for any walked
            // gap (stairs, escalators, connectors): the sample where the riding stops reads the
            // ridden edge arriving, so a ridden window ends at the height the rider stops at. Read
            // off the walked edge, it took that edge's height at the sample's snapped offset: on
            // Monaco the chain put the top of a ridden-down escalator on the up escalator beside
            // it, 2 m (1.1 m of height) down it, and a 76 m footway at −6.7 % read −8.2 % (four of
            // the bench's 30 pairs, 303 m of braking the line never rides).
            func ridden(_ g: Int) -> Int? {
                guard g >= 0, g < n - 1, !(g < m.liftGap.count && m.liftGap[g]), let e = m.gapEdge[g],
                      scorer.map.flags(ofEdge: e).isDisjoint(with: Self.walkFlags) else { return nil }
                return Double(scorer.map.edgeLength[e]) > LineMatcher.liftMetres ? e : nil
            }
            let e = ridden(k) ?? ridden(k - 1) ?? h.edge
            let offset = e == h.edge ? h.offset : (scorer.map.snap(m.points[k], toEdge: e)?.offset ?? h.offset)
            z[k] = scorer.profileElevation(e, offset: offset)
        }
        let known = z.indices.filter { z[$0] != nil }
        guard let first = known.first else { return nil }
        var out = [Double](repeating: z[first]!, count: n)
        var prev = first
        for k in 0..<n {
            if let v = z[k] { out[k] = v; prev = k; continue }
            guard k > first else { continue }
            if let nx = known.first(where: { $0 > k }) {
                let t = (m.distance[k] - m.distance[prev]) / max(1e-9, m.distance[nx] - m.distance[prev])
                out[k] = z[prev]! + (z[nx]! - z[prev]!) * t
            } else { out[k] = z[prev]! }
        }
        return out
    }

    /// The issue's rule, written here apart from the planner's `BrakingGrade.lineLevels` so the
    /// test that compares them can fail: a gap brakes when it lies inside some window of ≥ 50 m
    /// (≤ `BrakingBenchmark.maxWindowMetres`) averaging ≤ −8 %, needs caution inside one of
    /// ≥ 30 m at ≤ −6 % (and does not brake); windows never span a walked gap.
    static func levels(_ dist: [Double], _ z: [Double], walked: [Bool] = []) -> [BrakingLevel] {
        let n = dist.count
        guard n >= 2 else { return [] }
        func mark(minLength: Double, gradePct: Double) -> [Bool] {
            var flags = [Bool](repeating: false, count: n - 1)
            var reach = 0
            for i in 0..<(n - 1) {
                if i < walked.count && walked[i] { reach = i + 1; continue }
                var j = i + 1, far = -1
                while j < n && dist[j] - dist[i] <= BrakingBenchmark.maxWindowMetres {
                    if j - 1 < walked.count && walked[j - 1] { break }
                    let len = dist[j] - dist[i]
                    if len >= minLength && (z[j] - z[i]) / len * 100 <= gradePct { far = j }
                    j += 1
                }
                reach = max(reach, far)
                if i < reach { flags[i] = true }
            }
            return flags
        }
        let b = mark(minLength: PlanBuilder.brakingLength, gradePct: PlanBuilder.brakingGradePct)
        let c = mark(minLength: PlanBuilder.cautionLength, gradePct: PlanBuilder.cautionGradePct)
        return (0..<(n - 1)).map { b[$0] ? .braking : (c[$0] ? .caution : .none) }
    }

    /// Scores a line; `ends` = (head, tail) metres whose braking is also counted apart.
    func score(_ line: [Coordinate], ends: (head: Double, tail: Double) = (0, 0)) -> BrakingBenchmark.Score {
        var s = BrakingBenchmark.Score()
        s.count = 1
        let m = LineMatcher(map: map).match(line, step: BrakingBenchmark.sampleMetres)
        let pts = m.points, dist = m.distance, n = pts.count
        guard n >= 2 else { return s }
        s.distance = dist.last!
        s.matched = m.matchedMetres
        s.unmatched = m.unmatchedMetres
        // Raw DEM (a surface model: roofs, hills over tunnels).
        var z = pts.map { dem?.elevation(lat: $0.lat, lon: $0.lon) ?? .nan }
        for i in z.indices where z[i].isNaN { z[i] = i > 0 ? z[i - 1] : .nan }
        let hasDEM = !z.contains { $0.isNaN }
        if hasDEM { for i in 1..<n where z[i] > z[i - 1] { s.climb += z[i] - z[i - 1] } }
        // The naive baseline: each sample's nearest rideable edge within 15 m, its stored profile.
        var zNear = hasDEM ? z : [Double](repeating: 0, count: n)
        var snapped = [Int](repeating: -1, count: n)
        for k in 0..<n {
            guard let sn = map.nearestEdge(to: pts[k], maxDistance: BrakingBenchmark.snapMetres, where: { map.isRideable(edge: $0) || map.flags(ofEdge: $0).contains(.steps) }) else { continue }
            snapped[k] = sn.edge
            if let v = profileElevation(sn.edge, offset: sn.offset) { zNear[k] = v }
        }
        let zMatch = Self.matchedElevation(m, scorer: self) ?? zNear
        if !hasDEM { s.climb = 0; for i in 1..<n where zMatch[i] > zMatch[i - 1] { s.climb += zMatch[i] - zMatch[i - 1] } }
        func isWalked(_ e: Int) -> Bool { e >= 0 && !map.flags(ofEdge: e).isDisjoint(with: Self.walkFlags) }
        let walked: [Bool] = m.gapEdge.indices.map { (k: Int) -> Bool in isWalked(m.gapEdge[k] ?? -1) || (k < m.liftGap.count && m.liftGap[k]) }
        let walkedNear: [Bool] = (0..<(n - 1)).map { (k: Int) -> Bool in isWalked(snapped[k]) || isWalked(snapped[k + 1]) }
        let raw: [BrakingLevel] = hasDEM ? Self.levels(dist, z) : []
        let near = Self.levels(dist, zNear, walked: walkedNear)
        let matched = Self.levels(dist, zMatch, walked: walked)
        for k in 0..<(n - 1) {
            let d = dist[k + 1] - dist[k]
            if k < raw.count { if raw[k] == .braking { s.braking += d } else if raw[k] == .caution { s.caution += d } }
            if !walkedNear[k] { if near[k] == .braking { s.brakingNearest += d } else if near[k] == .caution { s.cautionNearest += d } }
            if !walked[k] {
                if matched[k] == .braking { s.brakingMap += d } else if matched[k] == .caution { s.cautionMap += d }
                if matched[k] == .braking && (dist[k] < ends.head || dist[k + 1] > s.distance - ends.tail) { s.brakingMapEnds += d }
            }
            if let e = m.gapEdge[k], !walked[k], Double(table.rms[e]) >= CostingConstants.crustyRMS { s.crusty += d }
        }
        return s
    }
}

/// Runs a command with its standard output into a file (standard error to /dev/null).
enum SpawnToFile {
    static func run(_ exe: String, _ args: [String], stdout path: String) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([exe] + args).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, exe, &actions, nil, argv, environ) == 0 else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 && ((status >> 8) & 0xFF) == 0
    }
}
