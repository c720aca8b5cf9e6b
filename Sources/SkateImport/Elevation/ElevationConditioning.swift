import SkateCore

/// How raw DEM heights become the elevation profiles a map stores — every constant in one place.
///
/// A 3″ SRTM cell is ~90 m wide, its heights carry several metres of noise, and in a city it is a
/// surface model (roofs, trees, cliff edges, the sea set to 0). Fed straight into 10 m samples it
/// invents bumps, dips and 20 % "ramps" on flat seafront boulevards. The pipeline, once per import:
///
/// 1. **Raw profiles**: the DEM sampled every ≤ 10 m along each edge (bilinear between cells); the
///    first and last samples sit exactly on the edge's graph nodes.
/// 2. **One elevation per graph node, smoothed along the network.** Node heights minimise
///    Σ w·(z − d)² + Σ_edges (T / L)·(z_a − z_b − g·L)², where d is the DEM at the node, w the
///    node's share of street length (half its edges' lengths) over the smoothing length T (one DEM
///    cell), L an edge's length and g its tagged grade (0 when untagged). This is a discrete
///    smoothing spline on the street graph (solved by Gauss–Seidel): noise shorter than a cell is
///    averaged away, a street that keeps an even slope keeps its grade exactly (the penalty is
///    zero on a straight line), and nothing is smoothed *across* space that the network does not
///    join — a road at the foot of a cliff never sees the cliff top. Stairs and lift connectors do
///    not tie their ends (they are meant to be steep or vertical).
///    - a numeric `incline` tag wins: its edges tie with `inclineTieFactor` times the strength
///      towards their tagged grade (not in tunnels and on bridges, which span their ends) —
///      unless the DEM's rise over its way has the other sign and differs from the tag's by more
///      than the DEM's noise (`inclineContradictionNoiseShare`): then it is a reversed way or a
///      grade for the other direction, and the way is smoothed like an untagged one;
///    - a **flat street** — all ways of one name (or one unnamed way) whose raw profile swings
///      (max − min) no more than twice the DEM's noise — asks every node on it for the street's
///      mean height, and its edges' interiors are straight lines between their nodes: the DEM
///      cannot tell it from level ground;
///    - `incline=up|down` fix the sign: an edge whose solved grade disagrees is re-solved towards
///      ±`ElevationSampling.minTaggedGradePct`.

/// 3. **Edge interiors**: the raw samples shifted linearly onto the two node heights, then
///    **Ramer–Douglas–Peucker in (distance, height)** with the DEM's noise as vertical tolerance
///    (GraphHopper's "ramer" edge smoothing works the same way): samples within the noise of a
///    chord become the chord. Keeping a subset of samples and interpolating between them makes every
///    slope an average of existing slopes, so it never invents nor sharpens one (a moving average
///    shifts and blunts real ramps; BRouter's elevation hysteresis only damps climb costs).
///    A **cliff artefact** — an edge (not stairs) with a stretch steeper than `cliffGradePct` while
///    its ends are not that far apart in height — becomes the line between its nodes.
///    Nodes at either end of a lift or escalator do not listen to the DEM (one position, two
///    floors): their heights come from the ways on their own floor.
/// 4. **Bridges, tunnels and lift connectors** span their end nodes in a straight line (a DEM sees
///    the valley under a bridge and the hill over a tunnel).
/// 5. **Last resort**: an edge (not stairs) still steeper than ±`EdgeTable.maxGradePct` between
///    samples becomes the line between its nodes when that line is within the limit; when even
///    that line is steeper the router clamps its grade and the edge is counted
///    (`TerrainReport.edgesClamped`).
///
/// An exact source (noise 0, e.g. a test's analytic terrain) skips steps 2's smoothing and 3's
/// filter: its profiles are the DEM's.
public enum TerrainConditioning {
    /// Method name stored in the map and printed by `map info`.
    public static let method = "network smoothing spline over one DEM cell, flat streets, per-edge RDP (tolerance = DEM noise), bridges spanned"
    /// Steepest grade (percent) believed inside an edge whose ends are not that steep: steeper
    /// bumps are cliff-edge interpolation, not road. Monaco's steepest streets are ~20 %; 25 %
    /// leaves room for real ramps.
    public static let cliffGradePct = 25.0
    /// A tagged incline ties its edge this many times harder than the DEM: a mapper who measured
    /// the grade beats a 90 m cell.
    public static let inclineTieFactor = 20.0
    /// A numeric `incline` is not tied where the DEM contradicts its direction: over its way (end
    /// to end) the DEM's rise has the other sign, or none, and differs from the tag's by more than
    /// this many times the DEM's noise. A DEM blurs a steep street (same sign, gentler: the tag
    /// stays, as a mapper's measure) but does not turn a real 6 m climb into a descent. On
    /// Heidelberg 55 of the 493 tagged ways are contradicted so (a path tagged 25 % that the DEM
    /// drops 45 m along; Drei-Eichen-Pfad +10 % over 545 m, −72 m by the DEM): reversed ways and
    /// grades for the other direction. Tied 20× they bent the streets they meet (Grabengasse's
    /// −5 %, where SRTM rises 1 m, lifted a Hauptstraße node 3.4 m: a −30 % "BRAKE" on 8 m of
    /// level pedestrian street). Such a way is smoothed from the DEM like an untagged one.
    public static let inclineContradictionNoiseShare = 1.0
    /// Nodes with less street around them than this (metres) weigh as if they had this much, so a
    /// node on two 1 m edges still listens to the DEM a little.
    static let minNodeShare = 5.0
    /// Gauss–Seidel sweeps at most, and the largest height change (metres) that ends them early
    /// (2 mm: a 0.02-point grade error on a 10 m edge; heights are stored as Float anyway).
    static let solveIterations = 3000
    static let solveTolerance = 0.002
    /// Successive over-relaxation factor for the Gauss–Seidel sweeps (1 = plain Gauss–Seidel; the
    /// system is symmetric positive definite, so any value in (0, 2) converges): strongly tied
    /// chains of short edges converge in a few hundred sweeps instead of over a thousand.
    static let overRelaxation = 1.9

    /// Vertical noise in metres of a DEM by its cell size in metres (used when a source does not
    /// state its own): 3″ SRTM's relative height error is specified at 10 m (90 %) and measured
    /// at about half that (Rodríguez et al. 2006) → 5 m; 1″ products (SRTM1, Copernicus GLO-30,
    /// LE90 < 4 m) → 3 m; 5–20 m national grids → 1 m; lidar (< 5 m cells) → 0.3 m.
    public static func noise(forCellSize metres: Double) -> Double {
        if !(metres > 0) { return 0 }
        if metres >= 60 { return 5 }
        if metres >= 20 { return 3 }
        if metres >= 5 { return 1 }
        return 0.3
    }
}

/// Runs the pipeline described in `TerrainConditioning` over raw per-edge profiles.
struct ElevationConditioner {
    /// Per edge: raw DEM heights at equal spacing from `from` to `to` (empty without DEM data).
    var raw: [[Double]]
    var length: [Double]
    var from: [Int]
    var to: [Int]
    var flags: [EdgeFlags]
    /// Numeric `incline` tag per edge in percent along the drawing direction.
    var incline: [Double?]
    /// Street name id per edge (0 = unnamed: each unnamed way is its own street).
    var street: [UInt32]
    var nodeCount: Int
    /// DEM vertical noise and cell size in metres (0 = exact).
    var noise: Double
    var cellSize: Double

    /// Edges that take their end nodes' heights instead of the DEM's.
    static func spans(_ f: EdgeFlags) -> Bool { f.contains(.bridge) || f.contains(.tunnel) || f.contains(.connector) }
    /// Edges whose ends are not tied together (meant to be steep or vertical).
    static func untied(_ f: EdgeFlags) -> Bool { f.contains(.steps) || f.contains(.connector) }

    func run() -> ([[Double]], TerrainReport) {
        var report = TerrainReport()
        report.demNoiseM = noise
        let n = raw.count
        // DEM height at each node (the edges' end samples).
        var d = [Double](repeating: .nan, count: nodeCount)
        for e in 0..<n where !raw[e].isEmpty {
            if d[from[e]].isNaN { d[from[e]] = raw[e].first! }
            if d[to[e]].isNaN { d[to[e]] = raw[e].last! }
        }
        var z = d
        var flat = [Bool](repeating: false, count: n)
        if noise > 0 && cellSize > 0 {
            // Flat streets ask their nodes for the street's mean.
            var target = d
            var flatSum = [Double](repeating: 0, count: nodeCount), flatCount = [Double](repeating: 0, count: nodeCount)
            for group in streets() {
                var lo = Double.infinity, hi = -Double.infinity, sum = 0.0, cnt = 0.0
                for e in group { for v in raw[e] { lo = min(lo, v); hi = max(hi, v); sum += v; cnt += 1 } }
                guard cnt > 0, hi - lo <= 2 * noise else { continue }
                report.streetsFlat += 1
                for e in group {
                    flat[e] = true
                    for v in [from[e], to[e]] { flatSum[v] += sum / cnt; flatCount[v] += 1 }
                }
            }
            for v in 0..<nodeCount where flatCount[v] > 0 { target[v] = flatSum[v] / flatCount[v] }
            // Node weights: share of street length over the smoothing length.
            var share = [Double](repeating: 0, count: nodeCount)
            for e in 0..<n where !Self.untied(flags[e]) { share[from[e]] += length[e] / 2; share[to[e]] += length[e] / 2 }
            var w = share.map { max($0, TerrainConditioning.minNodeShare) / cellSize }
            // A lift's ends share one position but not one height: the DEM cannot say which floor
            // it reads, so they take their heights from the ways on their own floor alone.
            for e in 0..<n where flags[e].contains(.connector) {
                for v in [from[e], to[e]] where share[v] > 0 { w[v] = 0 }
            }
            // …unless their floor is nothing but lift ends (a corridor between two lifts): a piece
            // of network with no DEM vote at all would float, so it keeps its DEM heights.
            var root = Array(0..<nodeCount)
            func find(_ x: Int) -> Int { var x = x; while root[x] != x { root[x] = root[root[x]]; x = root[x] }; return x }
            for e in 0..<n where !Self.untied(flags[e]) { root[find(from[e])] = find(to[e]) }
            var votes = [Double](repeating: 0, count: nodeCount)
            for v in 0..<nodeCount where d[v].isFinite { votes[find(v)] += w[v] }
            for v in 0..<nodeCount where votes[find(v)] == 0 { w[v] = max(share[v], TerrainConditioning.minNodeShare) / cellSize }
            var goal = [Double](repeating: 0, count: n)  // target z_to − z_from per edge
            var strength = [Double](repeating: 1, count: n)
            let agrees = inclineAgreesWithDEM(d)
            for e in 0..<n where agrees[e] {
                // Tunnels and bridges span their portals instead: a tagged grade over a long tunnel
                // (Tunnel Albert II, 6 % over ~1 km) would otherwise lift its portals off the DEM.
                if let g = incline[e], !flags[e].contains(.steps), !Self.spans(flags[e]) {
                    let limit = Double(EdgeTable.maxGradePct)
                    goal[e] = max(-limit, min(limit, g)) / 100 * length[e]; strength[e] = TerrainConditioning.inclineTieFactor
                    report.edgesInclineTag += 1
                }
            }
            z = solve(data: target, weight: w, goal: goal, strength: strength)
            // incline=up|down: re-solve edges whose sign disagrees.
            var fixed = 0
            for e in 0..<n where incline[e] == nil && length[e] > 0 && !Self.untied(flags[e]) && z[from[e]].isFinite && z[to[e]].isFinite {
                let g = (z[to[e]] - z[from[e]]) / length[e] * 100
                let m = ElevationSampling.minTaggedGradePct
                if flags[e].contains(.inclineUp) && g < m { goal[e] = m / 100 * length[e]; strength[e] = TerrainConditioning.inclineTieFactor; fixed += 1 }
                else if flags[e].contains(.inclineDown) && g > -m { goal[e] = -m / 100 * length[e]; strength[e] = TerrainConditioning.inclineTieFactor; fixed += 1 }
            }
            if fixed > 0 { z = solve(data: target, weight: w, goal: goal, strength: strength, from: z) }
            report.edgesInclineSign = fixed
        }
        // Edge interiors.
        var result = [[Double]](repeating: [], count: n)
        let limit = Double(EdgeTable.maxGradePct)
        for e in 0..<n where !raw[e].isEmpty {
            let k = raw[e].count
            let a = z[from[e]], b = z[to[e]]
            guard k >= 2, a.isFinite, b.isFinite else { result[e] = raw[e]; continue }
            func line() -> [Double] { (0..<k).map { a + (b - a) * Double($0) / Double(k - 1) } }
            if Self.spans(flags[e]) {
                result[e] = line(); report.edgesSpanned += 1
                if !flags[e].contains(.connector), length[e] > 0, abs(b - a) / length[e] * 100 > limit + 1e-9 { report.edgesClamped += 1 }
                continue
            }
            // A flat street's interior has nothing the DEM can tell from its noise.
            if flat[e] {
                result[e] = line()
                if length[e] > 0, abs(b - a) / length[e] * 100 > limit + 1e-9 { report.edgesClamped += 1 }
                continue
            }
            let p = raw[e]
            let ca = a - p[0], cb = b - p[k - 1]
            var q = (0..<k).map { p[$0] + ca + (cb - ca) * Double($0) / Double(k - 1) }
            let s = (0..<k).map { length[e] * Double($0) / Double(k - 1) }
            if noise > 0 {
                q = Self.rdp(s: s, z: q, tolerance: noise)
                report.edgesFiltered += 1
                let ends = length[e] > 0 ? abs(b - a) / length[e] * 100 : 0
                if !flags[e].contains(.steps), Self.steepest(s: s, z: q) > TerrainConditioning.cliffGradePct,
                   ends <= TerrainConditioning.cliffGradePct {
                    q = line(); report.edgesCliff += 1
                }
            }
            if length[e] > 0, Self.steepest(s: s, z: q) > limit + 1e-9 {
                if flags[e].contains(.steps) { report.stepsSteeperThanClamp += 1 }
                else if abs(b - a) / length[e] * 100 <= limit { q = line(); report.edgesSpikeRemoved += 1 }
                else { report.edgesClamped += 1 }
            }
            result[e] = q
        }
        return (result, report)
    }

    /// Per edge, false where the DEM contradicts its numeric `incline`'s direction
    /// (`TerrainConditioning.inclineContradictionNoiseShare`): over each run of consecutive edges of
    /// one way (each starting where the last ends, one name, one tagged grade, no steps, bridge,
    /// tunnel or connector), the tag's rise end to end against the DEM's heights `d` at the run's
    /// two ends. True where either end has no DEM height or meets a tunnel or a bridge.
    func inclineAgreesWithDEM(_ d: [Double]) -> [Bool] {
        let n = raw.count, limit = Double(EdgeTable.maxGradePct)
        var agrees = [Bool](repeating: true, count: n)
        // Steps, bridges, tunnels and connectors take no tie from a tag: they end a run (a run
        // across a tunnel would weigh the hill over it against the ramps' grade).
        func tied(_ k: Int) -> Bool { !flags[k].contains(.steps) && !Self.spans(flags[k]) }
        // A ramp to a tunnel or a bridge runs in a cutting or on an embankment, where the DEM
        // reads the ground beside it: there the tag stands (Tunnel Albert II's 6 % approach).
        var portal = [Bool](repeating: false, count: nodeCount)
        for k in 0..<n where flags[k].contains(.tunnel) || flags[k].contains(.bridge) { portal[from[k]] = true; portal[to[k]] = true }
        var e = 0
        while e < n {
            guard let g = incline[e], tied(e) else { e += 1; continue }
            var last = e
            while last + 1 < n, incline[last + 1] == g, street[last + 1] == street[e], to[last] == from[last + 1], tied(last + 1) { last += 1 }
            var tagRise = 0.0
            for k in e...last { tagRise += max(-limit, min(limit, g)) / 100 * length[k] }
            let demRise = d[to[last]] - d[from[e]]
            if demRise.isFinite, !portal[from[e]], !portal[to[last]], tagRise * demRise <= 0, abs(tagRise - demRise) > TerrainConditioning.inclineContradictionNoiseShare * noise {
                for k in e...last { agrees[k] = false }
            }
            e = last + 1
        }
        return agrees
    }

    /// Edges grouped into streets: connected edges sharing a name (unnamed edges group by their
    /// OSM way piece, i.e. stay with the consecutive edges of the same unnamed run). Stairs,
    /// spans and edges without DEM data are left out.
    func streets() -> [[Int]] {
        var parent = Array(0..<raw.count)
        func find(_ x: Int) -> Int { var x = x; while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }; return x }
        // Edges meeting at a node with the same name join (unnamed: only consecutive edges, e and e+1).
        var byNode: [Int: [Int]] = [:]
        for e in 0..<raw.count where !raw[e].isEmpty && !Self.spans(flags[e]) && !flags[e].contains(.steps) {
            if street[e] != 0 { byNode[from[e], default: []].append(e); byNode[to[e], default: []].append(e) }
            else if e + 1 < raw.count, street[e + 1] == 0, to[e] == from[e + 1], !raw[e + 1].isEmpty,
                    !Self.spans(flags[e + 1]), !flags[e + 1].contains(.steps) {
                parent[find(e + 1)] = find(e)
            }
        }
        for (_, es) in byNode {
            for i in 0..<es.count { for j in (i + 1)..<es.count where street[es[i]] == street[es[j]] { parent[find(es[j])] = find(es[i]) } }
        }
        var groups: [Int: [Int]] = [:]
        for e in 0..<raw.count where !raw[e].isEmpty && !Self.spans(flags[e]) && !flags[e].contains(.steps) {
            groups[find(e), default: []].append(e)
        }
        return groups.keys.sorted().map { groups[$0]! }
    }

    /// Steepest |grade| in percent between consecutive samples.
    static func steepest(s: [Double], z: [Double]) -> Double {
        var m = 0.0
        for i in 1..<max(1, z.count) where s[i] > s[i - 1] { m = max(m, abs(z[i] - z[i - 1]) / (s[i] - s[i - 1]) * 100) }
        return m
    }

    /// Ramer–Douglas–Peucker on a height profile with a vertical tolerance: keeps the samples
    /// that stand more than `tolerance` metres off the chord of their span and interpolates the
    /// rest linearly between kept samples.
    static func rdp(s: [Double], z: [Double], tolerance: Double) -> [Double] {
        let n = z.count
        guard n > 2 else { return z }
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true; keep[n - 1] = true
        var stack = [(0, n - 1)]
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            var worst = -1.0, at = -1
            let span = s[b] - s[a]
            for i in (a + 1)..<b {
                let t = span > 0 ? (s[i] - s[a]) / span : 0
                let d = abs(z[i] - (z[a] + (z[b] - z[a]) * t))
                if d > worst { worst = d; at = i }
            }
            if worst > tolerance { keep[at] = true; stack.append((a, at)); stack.append((at, b)) }
        }
        var out = z
        var last = 0
        for i in 1..<n where keep[i] {
            let span = s[i] - s[last]
            for j in (last + 1)..<i { out[j] = z[last] + (z[i] - z[last]) * (span > 0 ? (s[j] - s[last]) / span : 0) }
            last = i
        }
        return out
    }
}
