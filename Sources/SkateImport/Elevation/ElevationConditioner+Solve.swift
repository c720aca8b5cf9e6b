/// The conditioner's linear solve: one height per graph node minimising
/// Σ w·(z − data)² + Σ (T/L)·s·(z_to − z_from − goal)² with T = one DEM cell, by successive
/// over-relaxed Gauss–Seidel in node order, every node in every sweep, until no node's step
/// reaches `TerrainConditioning.solveTolerance` (or `solveIterations` sweeps).
///
/// Issue 31, fifth round: the sweep reads flat buffers (neighbours as Int32, each node's data
/// term and denominator summed once, in the order the sweep summed them every time), so every
/// height comes out bit for bit as before. A worklist that sweeps only where heights still move
/// (771302e) cut a K = 3 region's import CPU by a third but stopped slow parts at other iterates,
/// up to 5.7 m away (docs/region-scale.md, fifth round), so it is not used.
///
/// Seventh round: the sweep reads only ties to finite neighbours (`liveTies`, one 24-byte entry
/// each), so it tests no neighbour's height per tie. Skipping nodes whose update would repeat
/// its last one exactly was tried and saves nothing: with over-relaxation 1.9 a converged node
/// keeps stepping by an ulp or two, and 98 % of the updates still changed a height (K = 3).
extension ElevationConditioner {
    /// Per node, its tied neighbours as a compressed row: `neighbour[start[v] ..< start[v + 1]]`,
    /// each with its tie's weight (`cell / length × strength`) and the offset the tie asks for
    /// (`z_v ≈ z_neighbour + offset`).
    struct Ties {
        var start: [Int]
        var neighbour: [Int32]
        var weight: [Double]
        var offset: [Double]
    }

    func ties(goal: [Double], strength: [Double]) -> Ties {
        let n = raw.count
        var start = [Int](repeating: 0, count: nodeCount + 1)
        for e in 0..<n where !Self.untied(flags[e]) && from[e] != to[e] { start[from[e] + 1] += 1; start[to[e] + 1] += 1 }
        for i in 0..<nodeCount { start[i + 1] += start[i] }
        var fill = start
        let m = start[nodeCount]
        var nb = [Int32](repeating: 0, count: m), k = [Double](repeating: 0, count: m), off = [Double](repeating: 0, count: m)
        for e in 0..<n where !Self.untied(flags[e]) && from[e] != to[e] {
            let c = cellSize / max(length[e], 1) * strength[e]
            // From `from`'s side the neighbour suggests z_to − goal; from `to`'s side z_from + goal.
            nb[fill[from[e]]] = Int32(to[e]); k[fill[from[e]]] = c; off[fill[from[e]]] = -goal[e]; fill[from[e]] += 1
            nb[fill[to[e]]] = Int32(from[e]); k[fill[to[e]]] = c; off[fill[to[e]]] = goal[e]; fill[to[e]] += 1
        }
        return Ties(start: start, neighbour: nb, weight: k, offset: off)
    }

    /// One tie of a node to a neighbour with a height, as the sweep reads it.
    struct LiveTie {
        var neighbour: Int32
        var weight: Double
        var offset: Double
    }

    /// The ties to neighbours with a finite height, in their order in `t`: which heights are
    /// finite never changes during a solve, so the sweep need not test them tie by tie.
    static func liveTies(z: [Double], ties t: Ties) -> (start: [Int], ties: [LiveTie]) {
        var start = [Int](repeating: 0, count: z.count + 1)
        var live: [LiveTie] = []
        live.reserveCapacity(t.neighbour.count)
        for v in z.indices {
            if z[v].isFinite {
                for j in t.start[v]..<t.start[v + 1] where z[Int(t.neighbour[j])].isFinite {
                    live.append(LiveTie(neighbour: t.neighbour[j], weight: t.weight[j], offset: t.offset[j]))
                }
            }
            start[v + 1] = live.count
        }
        return (start, live)
    }

    /// Heights per node (NaN stays NaN: a node without DEM data and without a start height is
    /// never solved). `initial` starts from earlier heights instead of `data`.
    func solve(data: [Double], weight: [Double], goal: [Double], strength: [Double], from initial: [Double]? = nil) -> [Double] {
        let t = ties(goal: goal, strength: strength)
        var z = initial ?? data
        // Which nodes are finite never changes, so neither does a node's denominator (0 for a
        // node without a height: `den > 0` is the sweep's whole test).
        let (dataTerm, den) = Self.nodeTerms(z: z, data: data, weight: weight, ties: t)
        let (liveStart, live) = Self.liveTies(z: z, ties: t)
        let omega = TerrainConditioning.overRelaxation, tolerance = TerrainConditioning.solveTolerance
        let nodes = nodeCount
        z.withUnsafeMutableBufferPointer { z in
            liveStart.withUnsafeBufferPointer { start in
            live.withUnsafeBufferPointer { tie in
            dataTerm.withUnsafeBufferPointer { dataTerm in
            den.withUnsafeBufferPointer { den in
                for _ in 0..<TerrainConditioning.solveIterations {
                    var change = 0.0
                    for v in 0..<nodes where den[v] > 0 {
                        var num = dataTerm[v]
                        for j in start[v]..<start[v + 1] { num += tie[j].weight * (z[Int(tie[j].neighbour)] + tie[j].offset) }
                        let step = num / den[v] - z[v]
                        change = max(change, abs(step))
                        z[v] += omega * step
                    }
                    if change < tolerance { break }
                }
            }}}}
        }
        return z
    }

    /// Per node, the DEM's part of the update (`weight · data`, 0 without data) and the update's
    /// denominator (`weight` plus the ties to finite neighbours), summed in the sweep's order.
    static func nodeTerms(z: [Double], data: [Double], weight: [Double], ties t: Ties) -> (dataTerm: [Double], den: [Double]) {
        var dataTerm = [Double](repeating: 0, count: z.count), den = [Double](repeating: 0, count: z.count)
        for v in z.indices where z[v].isFinite {
            dataTerm[v] = data[v].isFinite ? weight[v] * data[v] : 0
            var d = data[v].isFinite ? weight[v] : 0
            for j in t.start[v]..<t.start[v + 1] where z[Int(t.neighbour[j])].isFinite { d += t.weight[j] }
            den[v] = d
        }
        return (dataTerm, den)
    }
}
