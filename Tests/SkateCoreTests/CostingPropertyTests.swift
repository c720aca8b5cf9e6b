import Foundation
import SkateCore
import SkateTestSupport
import Testing

typealias SeededRNG = SplitMix64

/// Invariants of the costing on randomly drawn edges: all else equal, rougher never scores
/// better, more uphill never better, more crossings never better in chillFewCrossings.
@Suite struct CostingPropertyTests {
    static let seed: UInt64 = UInt64(ProcessInfo.processInfo.environment["SKATEROUTE_SEED"] ?? "") ?? 20_261_122
    static let trials = 300

    static let surfaces = ["asphalt", "concrete", "paving_stones", "sett", "cobblestone", "gravel", "compacted", "wood"]
    static let smooth = ["excellent", "good", "intermediate", "bad", "very_bad", "horrible"]
    static let highways = ["residential", "footway", "cycleway", "primary", "service", "pedestrian", "path", "living_street"]

    /// A two-node, one-edge map with the given tags and grade; the edge cost both ways per mode.
    func edgeCost(tags: [String: String], gradePct: Double, crossings: Int = 0, mode: RideMode) -> Double {
        let art = "A" + String(repeating: "-", count: 3) + String(repeating: "-", count: 4) + "B"
        // Interior crossing nodes X, Y, Z split the way into pieces; sum the whole path cost.
        var line = Array(art)
        let marks: [Character] = ["X", "Y", "Z"]
        for k in 0..<crossings { line[2 + 2 * k] = marks[k] }
        let letters = String(line.filter { $0.isLetter })
        let nodeTags = Dictionary(uniqueKeysWithValues: marks.prefix(crossings).map { ($0, ["highway": "crossing"]) })
        let m = AsciiMap(String(line), ways: [(letters, tags)], nodeTags: nodeTags, elevation: { x, _ in 50 + gradePct / 100 * x })
        let planner = Planner(map: m.map)
        let plan = try! planner.plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: mode)
        return plan.path.cost
    }

    func randomTags(_ rng: inout SeededRNG) -> [String: String] {
        var t = ["highway": Self.highways.randomElement(using: &rng)!]
        if Bool.random(using: &rng) { t["lit"] = Bool.random(using: &rng) ? "yes" : "no" }
        if Bool.random(using: &rng) { t["cycleway"] = "lane" }
        return t
    }

    @Test func rougherNeverScoresBetter() {
        var rng = SeededRNG(seed: Self.seed)
        for trial in 0..<40 {
            let base = randomTags(&rng)
            let mode = RideMode.allCases.randomElement(using: &rng)!
            let grade = Double.random(in: -6...6, using: &rng)
            let i = Int.random(in: 0..<(Self.smooth.count - 1), using: &rng)
            let j = Int.random(in: (i + 1)..<Self.smooth.count, using: &rng)
            var smoother = base, rougher = base
            smoother["smoothness"] = Self.smooth[i]; rougher["smoothness"] = Self.smooth[j]
            let a = edgeCost(tags: smoother, gradePct: grade, mode: mode)
            let b = edgeCost(tags: rougher, gradePct: grade, mode: mode)
            #expect(b >= a, "seed \(Self.seed) trial \(trial): \(rougher) cost \(b) < \(smoother) cost \(a) in \(mode)")
        }
    }

    @Test func moreUphillNeverBetter() {
        var rng = SeededRNG(seed: Self.seed &+ 1)
        for trial in 0..<40 {
            var tags = randomTags(&rng)
            tags["surface"] = Self.surfaces.randomElement(using: &rng)!
            let mode = RideMode.allCases.randomElement(using: &rng)!
            let g1 = Double.random(in: 0...12, using: &rng)
            let g2 = g1 + Double.random(in: 0.5...8, using: &rng)
            let a = edgeCost(tags: tags, gradePct: g1, mode: mode)
            let b = edgeCost(tags: tags, gradePct: g2, mode: mode)
            #expect(b >= a, "seed \(Self.seed &+ 1) trial \(trial): +\(g2)% cost \(b) < +\(g1)% cost \(a) for \(tags) in \(mode)")
        }
    }

    @Test func moreCrossingsNeverBetterInChillMode() {
        var rng = SeededRNG(seed: Self.seed &+ 2)
        for trial in 0..<30 {
            var tags = randomTags(&rng)
            tags["highway"] = "footway"
            let grade = Double.random(in: -3...3, using: &rng)
            let n = Int.random(in: 0...2, using: &rng)
            let a = edgeCost(tags: tags, gradePct: grade, crossings: n, mode: .chillFewCrossings)
            let b = edgeCost(tags: tags, gradePct: grade, crossings: n + 1, mode: .chillFewCrossings)
            #expect(b > a, "seed \(Self.seed &+ 2) trial \(trial): \(n + 1) crossings cost \(b) ≤ \(n) crossings \(a)")
        }
    }

    @Test func surfaceTableOrdersClasses() {
        #expect(RoughnessClass(rms: SurfaceRoughness.rms(smoothness: .excellent)!) == .butter)
        #expect(RoughnessClass(rms: SurfaceRoughness.rms(surface: .asphalt)!) == .okay)
        #expect(RoughnessClass(rms: SurfaceRoughness.rms(surface: .pavingStones)!) == .meh)
        #expect(RoughnessClass(rms: SurfaceRoughness.rms(surface: .sett)!) == .crusty)
        #expect(SurfaceRoughness.rms(surface: .gravel)! >= 0.35)
    }

    @Test func physicsIsMonotone() {
        // Faster on smoother, slower uphill, walking above 8 %.
        #expect(SkatePhysics.cruiseSpeed(gradePct: 0, rms: 0.03) > SkatePhysics.cruiseSpeed(gradePct: 0, rms: 0.25))
        #expect(SkatePhysics.cruiseSpeed(gradePct: 4, rms: 0.05) < SkatePhysics.cruiseSpeed(gradePct: 0, rms: 0.05))
        #expect(SkatePhysics.cruiseSpeed(gradePct: 9, rms: 0.05) == SkatePhysics.walkSpeed)
        #expect(abs(SkatePhysics.pushSpeed(gradePct: 0, rms: 0.0) - 12 / 3.6) < 0.05)
        #expect(SkatePhysics.cruiseSpeed(gradePct: -10, rms: 0.05) <= SkatePhysics.speedCap)
    }
}
