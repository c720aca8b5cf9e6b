import SkateCore
@testable import SkateImport
import Testing

/// The conditioner's node-height solve (`ElevationConditioner.solve`) reads flat buffers and
/// sums each node's fixed terms once (issue 31, fifth round); its heights must be the former
/// solve's bit for bit, so imported maps stay byte-identical.
@Suite struct TerrainSolveTests {
    /// One 3″ SRTM cell in metres (the smoothing length the import uses for such a tile).
    static let cell = 92.6

    /// The solve as it was before (9246719), verbatim but for the struct it reads: the reference.
    static func formerSolve(_ c: ElevationConditioner, data: [Double], weight: [Double], goal: [Double], strength: [Double],
                            from initial: [Double]? = nil) -> [Double] {
        let n = c.raw.count, nodeCount = c.nodeCount, from = c.from, to = c.to, flags = c.flags, length = c.length
        var start = [Int](repeating: 0, count: nodeCount + 1)
        for e in 0..<n where !ElevationConditioner.untied(flags[e]) && from[e] != to[e] { start[from[e] + 1] += 1; start[to[e] + 1] += 1 }
        for i in 0..<nodeCount { start[i + 1] += start[i] }
        var fill = start
        let m = start[nodeCount]
        var nb = [Int](repeating: 0, count: m), k = [Double](repeating: 0, count: m), off = [Double](repeating: 0, count: m)
        for e in 0..<n where !ElevationConditioner.untied(flags[e]) && from[e] != to[e] {
            let cc = c.cellSize / max(length[e], 1) * strength[e]
            nb[fill[from[e]]] = to[e]; k[fill[from[e]]] = cc; off[fill[from[e]]] = -goal[e]; fill[from[e]] += 1
            nb[fill[to[e]]] = from[e]; k[fill[to[e]]] = cc; off[fill[to[e]]] = goal[e]; fill[to[e]] += 1
        }
        var z = initial ?? data
        for _ in 0..<TerrainConditioning.solveIterations {
            var change = 0.0
            for v in 0..<nodeCount where z[v].isFinite {
                var num = data[v].isFinite ? weight[v] * data[v] : 0, den = data[v].isFinite ? weight[v] : 0
                for j in start[v]..<start[v + 1] where z[nb[j]].isFinite { num += k[j] * (z[nb[j]] + off[j]); den += k[j] }
                guard den > 0 else { continue }
                let step = num / den - z[v]
                change = max(change, abs(step))
                z[v] += TerrainConditioning.overRelaxation * step
            }
            if change < TerrainConditioning.solveTolerance { break }
        }
        return z
    }

    /// A seeded random network: `nodes` nodes, edges of 1–200 m between random pairs (some
    /// stairs, some repeated, some loops), DEM heights with ±5 m noise and a few nodes without
    /// DEM data (NaN), tagged grades on some edges, and a start that is not the data.
    static func network(nodes: Int, edges: Int, seed: UInt64) -> (ElevationConditioner, data: [Double], weight: [Double], goal: [Double], strength: [Double], start: [Double]) {
        var g = SplitMix64(seed: seed)
        func u() -> Double { Double(g.next() % 1_000_000) / 1_000_000 }
        var from: [Int] = [], to: [Int] = [], length: [Double] = [], flags: [EdgeFlags] = []
        for _ in 0..<edges {
            let a = Int(g.next() % UInt64(nodes))
            // Mostly near neighbours in node order (as a way's nodes are), sometimes anywhere.
            let b = u() < 0.8 ? min(nodes - 1, a + 1 + Int(g.next() % 3)) : Int(g.next() % UInt64(nodes))
            from.append(a); to.append(b); length.append(1 + 199 * u() * u())
            flags.append(u() < 0.05 ? .steps : [])
        }
        let data = (0..<nodes).map { _ in u() < 0.03 ? Double.nan : 100 + (u() * 2 - 1) * 5 }
        let weight = (0..<nodes).map { _ in max(200 * u(), TerrainConditioning.minNodeShare) / cell }
        let goal = length.map { u() < 0.1 ? (u() * 2 - 1) * 0.08 * $0 : 0 }
        let strength = goal.map { $0 != 0 ? TerrainConditioning.inclineTieFactor : 1 }
        let start = data.map { $0.isFinite ? $0 + (u() * 2 - 1) : $0 }
        let c = ElevationConditioner(raw: Array(repeating: [], count: edges), length: length, from: from, to: to,
                                     flags: flags, incline: Array(repeating: nil, count: edges),
                                     street: Array(repeating: 0, count: edges), nodeCount: nodes, noise: 5, cellSize: cell)
        return (c, data, weight, goal, strength, start)
    }

    @Test("heights are the former solve's bit for bit, from the data and from a given start (seeded networks)",
          arguments: [UInt64(1), 2, 3, 4])
    func sameHeightsAsBefore(seed: UInt64) {
        let (c, data, weight, goal, strength, start) = Self.network(nodes: 3000, edges: 4000, seed: seed)
        for initial in [nil, start] {
            let now = c.solve(data: data, weight: weight, goal: goal, strength: strength, from: initial)
            let before = Self.formerSolve(c, data: data, weight: weight, goal: goal, strength: strength, from: initial)
            let differing = zip(now, before).filter { $0.bitPattern != $1.bitPattern }.count
            let moved = zip(now, data).filter { $0.isFinite && $0 != $1 }.count
            print("seed \(seed), start \(initial == nil ? "data" : "given"): \(moved) heights moved by the solve, \(differing) differ from the former solve")
            #expect(moved > 0, "the network must make the solve do something")
            #expect(differing == 0)
        }
    }
}
