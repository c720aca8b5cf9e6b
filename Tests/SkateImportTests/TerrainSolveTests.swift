import SkateCore
@testable import SkateImport
import Testing

/// The conditioner's node-height solve (`ElevationConditioner.solveCounting`): it solves again
/// only where heights still move, and lands where sweeping every node lands.
@Suite struct TerrainSolveTests {
    /// One 3″ SRTM cell in metres (the smoothing length the import uses for such a tile).
    static let cell = 92.6
    /// Largest height difference (metres) allowed between the two solves: both stop with every
    /// node's residual under a few tolerances, and on a chain of strongly tied 1 m edges a
    /// residual spreads along the chain before the DEM's weak pull absorbs it, so the iterates may
    /// differ by more than one tolerance — but not by a height a rider could notice (1 cm).
    static let agreement = 0.01

    /// A network with a part that settles slowly (a chain of 1 m edges, each node tied to its
    /// neighbours ~100 times harder than to the DEM) and parts that settle in a few sweeps
    /// (pairs of nodes on 200 m edges), in interleaved node order as an import's may be, with
    /// seeded DEM noise of ±`noise` metres.
    static func network(chain: Int, pairs: Int, noise: Double, seed: UInt64) -> (ElevationConditioner, data: [Double], weight: [Double]) {
        var from: [Int] = [], to: [Int] = [], length: [Double] = []
        let nodes = chain + 2 * pairs
        // Chain nodes take the even numbers below 2 × chain (interleaved with the pairs'), the rest the pairs.
        var chainNode: [Int] = [], pairNode: [Int] = []
        for v in 0..<nodes { if v % 2 == 0 && chainNode.count < chain { chainNode.append(v) } else { pairNode.append(v) } }
        for i in 1..<chain { from.append(chainNode[i - 1]); to.append(chainNode[i]); length.append(1) }
        for p in 0..<pairs { from.append(pairNode[2 * p]); to.append(pairNode[2 * p + 1]); length.append(200) }
        var g = SplitMix64(seed: seed)
        let data = (0..<nodes).map { _ in 100 + (Double(g.next() % 10_000) / 10_000 * 2 - 1) * noise }
        var share = [Double](repeating: 0, count: nodes)
        for e in from.indices { share[from[e]] += length[e] / 2; share[to[e]] += length[e] / 2 }
        let weight = share.map { max($0, TerrainConditioning.minNodeShare) / cell }
        let edges = from.count
        let c = ElevationConditioner(raw: Array(repeating: [], count: edges), length: length, from: from, to: to,
                                     flags: Array(repeating: [], count: edges), incline: Array(repeating: nil, count: edges),
                                     street: Array(repeating: 0, count: edges), nodeCount: nodes, noise: 5, cellSize: cell)
        return (c, data, weight)
    }

    @Test("a part of the network that has settled is not swept again while another still moves (seeded noise)",
          arguments: [UInt64(1), 2, 3])
    func settledPartsStop(seed: UInt64) {
        let (c, data, weight) = Self.network(chain: 400, pairs: 2000, noise: 5, seed: seed)
        let edges = c.from.count
        let goal = [Double](repeating: 0, count: edges), strength = [Double](repeating: 1, count: edges)
        let local = c.solveCounting(data: data, weight: weight, goal: goal, strength: strength)
        let everywhere = c.solveEverywhere(data: data, weight: weight, goal: goal, strength: strength)
        let worst = zip(local.z, everywhere.z).map { abs($0 - $1) }.max() ?? 0
        print("seed \(seed): worklist \(local.work.sweeps) sweeps, \(local.work.updates) updates; every node \(everywhere.work.sweeps) sweeps, \(everywhere.work.updates) updates; max |Δz| \(worst) m")
        #expect(everywhere.work.sweeps > 10, "the chain must need many sweeps for the test to mean anything")
        // The pairs (4 000 of 4 400 nodes) settle in a few sweeps; only the chain keeps going.
        #expect(local.work.updates * 4 < everywhere.work.updates)
        #expect(worst <= Self.agreement)
    }
}
