/// The conditioner's linear solve: one height per graph node minimising
/// Σ w·(z − data)² + Σ (T/L)·s·(z_to − z_from − goal)² with T = one DEM cell, by successive
/// over-relaxed Gauss–Seidel in node order.
///
/// A node's update reads only its tied neighbours, so a part of the network whose heights have
/// settled need not be swept again while another part still moves. `solve` keeps a worklist:
/// a node is solved again in a sweep when its own last step reached
/// `TerrainConditioning.solveTolerance` or its neighbours have since moved, weighted by their
/// ties, by `solveRevisitMove` in sum; it stops when no node is left (or after `solveIterations`
/// sweeps). On a region (issue 31) one slow corner used to keep every node of the map sweeping
/// until the corner settled. `solveEverywhere` is that former solve (every node, every sweep,
/// until no step reaches the tolerance), kept as the reference the tests compare against.
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

    /// How a solve went: sweeps made and single-node updates done.
    struct SolveWork: Equatable {
        var sweeps = 0
        var updates = 0
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

    /// Heights per node (NaN stays NaN: a node without DEM data and without a start height is
    /// never solved). `initial` starts from earlier heights instead of `data`.
    func solve(data: [Double], weight: [Double], goal: [Double], strength: [Double], from initial: [Double]? = nil) -> [Double] {
        solveCounting(data: data, weight: weight, goal: goal, strength: strength, from: initial).z
    }

    /// `solve`, with the work it did.
    func solveCounting(data: [Double], weight: [Double], goal: [Double], strength: [Double],
                       from initial: [Double]? = nil) -> (z: [Double], work: SolveWork) {
        let t = ties(goal: goal, strength: strength)
        var z = initial ?? data
        var work = SolveWork()
        let omega = TerrainConditioning.overRelaxation, tolerance = TerrainConditioning.solveTolerance
        let revisit = TerrainConditioning.solveRevisitMove
        let words = (nodeCount + 63) >> 6
        // This sweep's nodes still to solve, and the next sweep's (bit v & 63 of word v >> 6).
        var now = [UInt64](repeating: 0, count: words), next = [UInt64](repeating: 0, count: words)
        for v in 0..<nodeCount where z[v].isFinite { now[v >> 6] |= 1 << UInt64(v & 63) }
        // The same sums as `solveEverywhere`, in the same order: a node's denominator does not
        // change (which neighbours are finite never does), so it is summed once.
        let (dataTerm, den) = Self.nodeTerms(z: z, data: data, weight: weight, ties: t)
        // Per node: its neighbours' moves since it was last solved, each × tie / denominator.
        var moved = [Double](repeating: 0, count: nodeCount)
        z.withUnsafeMutableBufferPointer { z in
            t.start.withUnsafeBufferPointer { start in
            t.neighbour.withUnsafeBufferPointer { nb in
            t.weight.withUnsafeBufferPointer { k in
            t.offset.withUnsafeBufferPointer { off in
            moved.withUnsafeMutableBufferPointer { moved in
            now.withUnsafeMutableBufferPointer { now in
            next.withUnsafeMutableBufferPointer { next in
                var any = true
                while any && work.sweeps < TerrainConditioning.solveIterations {
                    work.sweeps += 1
                    for w in 0..<words {
                        var word = now[w]
                        while word != 0 {
                            let bit = word.trailingZeroBitCount, v = w << 6 | bit
                            now[w] &= ~(1 << UInt64(bit))
                            work.updates += 1
                            moved[v] = 0
                            if den[v] > 0 {
                                var num = dataTerm[v]
                                for j in start[v]..<start[v + 1] where z[Int(nb[j])].isFinite { num += k[j] * (z[Int(nb[j])] + off[j]) }
                                let step = num / den[v] - z[v]
                                z[v] += omega * step
                                if abs(step) >= tolerance { next[w] |= 1 << UInt64(bit) }
                                let move = abs(omega * step)
                                if move > 0 {
                                    for j in start[v]..<start[v + 1] {
                                        let u = Int(nb[j])
                                        guard z[u].isFinite, den[u] > 0 else { continue }
                                        moved[u] += k[j] * move / den[u]
                                        // A later node still comes in this sweep, as Gauss–Seidel would take it.
                                        if moved[u] >= revisit {
                                            if u > v { now[u >> 6] |= 1 << UInt64(u & 63) } else { next[u >> 6] |= 1 << UInt64(u & 63) }
                                        }
                                    }
                                }
                            }
                            word = now[w]
                        }
                    }
                    any = false
                    for w in 0..<words { now[w] = next[w]; next[w] = 0; if now[w] != 0 { any = true } }
                }
            }}}}}}}
        }
        return (z, work)
    }

    /// Per node, the DEM's part of the update (`weight · data`, 0 without data) and the update's
    /// denominator (`weight` plus the ties to finite neighbours), summed as the sweep always has.
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

    /// The former solve, for comparison: every node in every sweep until no node's step reaches
    /// the tolerance.
    func solveEverywhere(data: [Double], weight: [Double], goal: [Double], strength: [Double],
                         from initial: [Double]? = nil) -> (z: [Double], work: SolveWork) {
        let t = ties(goal: goal, strength: strength)
        var z = initial ?? data
        var work = SolveWork()
        let (dataTerm, den) = Self.nodeTerms(z: z, data: data, weight: weight, ties: t)
        for _ in 0..<TerrainConditioning.solveIterations {
            work.sweeps += 1
            var change = 0.0
            for v in 0..<nodeCount where z[v].isFinite {
                work.updates += 1
                var num = dataTerm[v]
                for j in t.start[v]..<t.start[v + 1] where z[Int(t.neighbour[j])].isFinite { num += t.weight[j] * (z[Int(t.neighbour[j])] + t.offset[j]) }
                guard den[v] > 0 else { continue }
                let step = num / den[v] - z[v]
                change = max(change, abs(step))
                z[v] += TerrainConditioning.overRelaxation * step
            }
            if change < TerrainConditioning.solveTolerance { break }
        }
        return (z, work)
    }
}
