import FoundationEssentials
import Glibc
import SkateCore

/// `bench` terrain section: how much of a route the plan tells the rider to brake on, and whether
/// each reported zone is true to its own rule on the plan's profile.
struct TerrainBenchmark {
    /// Origin/destination pairs are drawn this far apart in a straight line (metres), the issue's
    /// 0.8–3 km band: long enough to cross Monaco's hills, short enough to be a skate trip.
    static let minPairDistance = 800.0, maxPairDistance = 3000.0
    /// Pairs per run.
    static let pairCount = 30

    let map: SkateMap
    let seed: UInt64

    func run(name: String) {
        let planner = Planner(map: map)
        var rng = SplitMix64(seed: seed)
        let main = (0..<map.edgeCount).filter { planner.components.isMain(edge: $0) && map.isRideable(edge: $0) }
        guard !main.isEmpty else { return }
        var od: [(Coordinate, Coordinate)] = []
        var tries = 0
        while od.count < Self.pairCount && tries < 100_000 {
            tries += 1
            let a = map.coordinate(ofNode: Int(map.edgeFrom[main[Int(rng.next() % UInt64(main.count))]]))
            let b = map.coordinate(ofNode: Int(map.edgeTo[main[Int(rng.next() % UInt64(main.count))]]))
            let d = Geo.distance(a, b)
            if d >= Self.minPairDistance && d <= Self.maxPairDistance { od.append((a, b)) }
        }
        var total = 0.0, braking = 0.0, caution = 0.0, brakingZones = 0, cautionZones = 0
        var stepFlagged = 0.0, stepBraking = 0.0, stepTooFast = 0.0, falseBraking = 0, falseCaution = 0, failures = 0
        // Rule 3 (issue 26): zones the old greedy rule reported that hold ≥ 60 m gentler than −4 %.
        var oldZones = 0, oldSplit = 0
        // Honest detours (issue 26): plans flagged, by which rule, and the reasons named.
        var detours = 0, byWalk = 0, byClimb = 0, byDirect = 0, ratios: [Double] = []
        var reasons = [Int](repeating: 0, count: DetourReason.allCases.count)
        for (a, b) in od {
            guard let p = try? planner.plan(from: a, to: b, mode: .smoothest) else { failures += 1; continue }
            total += p.distance
            if let r = p.walkReference, let w = r.shortestWalkM, w > 0 { ratios.append(p.distance / w) }
            if let d = p.detour {
                detours += 1
                if d.ratio > DetourRules.walkRatio { byWalk += 1 }
                if d.extraClimbM >= DetourRules.extraClimbM { byClimb += 1 }
                if !(p.walkReference?.directLegal ?? true) && d.directRatio > DetourRules.directRatio { byDirect += 1 }
                for w in d.why { reasons[w.rawValue] += 1 }
            }
            let s = p.profile.map(\.distance), e = p.profile.map(\.elevation)
            for z in PlanBuilder.brakingZones(distance: s, elevation: e, walked: p.profile.dropFirst().map(\.walked), splitGentle: false) {
                oldZones += 1
                if let i = s.firstIndex(where: { abs($0 - z.start) < 1e-6 }), let j = s.lastIndex(where: { abs($0 - z.end) < 1e-6 }),
                   ZoneRules.containsGentleStretch(distance: s, elevation: e, from: i, to: j) { oldSplit += 1 }
            }
            for z in p.brakingZones {
                let len = z.end - z.start
                if z.level == .braking {
                    braking += len; brakingZones += 1
                    if !(z.gradePct <= PlanBuilder.brakingGradePct + 1e-9 && len >= PlanBuilder.brakingLength - 1e-6) { falseBraking += 1 }
                } else {
                    caution += len; cautionZones += 1
                    if !(z.gradePct <= PlanBuilder.cautionGradePct + 1e-9 && len >= PlanBuilder.cautionLength - 1e-6) { falseCaution += 1 }
                }
            }
            for s in p.steps where s.context.braking != .none || s.context.tooFast { stepFlagged += s.context.distance }
            for s in p.steps where s.context.braking == .braking { stepBraking += s.context.distance }
            for s in p.steps where s.context.tooFast { stepTooFast += s.context.distance }
        }
        func pct(_ x: Double) -> String { total > 0 ? String(printf: "%.1f %%", x / total * 100) : "-" }
        print("terrain \(name) (seed \(seed), \(od.count) pairs \(Int(Self.minPairDistance))–\(Int(Self.maxPairDistance)) m apart, smoothest, \(String(printf: "%.1f", total / 1000)) km, \(failures) failed):")
        print("  inside braking zones \(pct(braking)) (target ≤ 15 %); braking+caution \(pct(braking + caution)) (target ≤ 30 %)")
        print(String(printf: "  braking zones per km %.2f; caution zones per km %.2f", total > 0 ? Double(brakingZones) / total * 1000 : 0, total > 0 ? Double(cautionZones) / total * 1000 : 0))
        print("  zones false to their own rule on the plan profile: braking \(falseBraking) of \(brakingZones), caution \(falseCaution) of \(cautionZones)")
        ratios.sort()
        let named = DetourReason.allCases.filter { reasons[$0.rawValue] > 0 }.map { "\($0.name) \(reasons[$0.rawValue])" }
        print("  detours flagged: \(detours) of \(od.count) plans (> \(Int(DetourRules.walkRatio))× walk \(byWalk), ≥ \(Int(DetourRules.extraClimbM)) m more climb \(byClimb), > \(Int(DetourRules.directRatio))× an illegal direct line \(byDirect)); why: \(named.isEmpty ? "-" : named.joined(separator: ", "))")
        if !ratios.isEmpty {
            print(String(printf: "  route ÷ shortest legal walk: median %.2f, max %.2f", ratios[ratios.count / 2], ratios.last!))
        }
        print("  zones rule 3 splits (held ≥ 60 m gentler than −4 % under the old greedy rule): \(oldSplit) of \(oldZones)")
        print("  steps flagged braking/caution/too-fast cover \(pct(stepFlagged)) of route length; BRAKE steps \(pct(stepBraking)), too-fast steps \(pct(stepTooFast))")
        // Edges whose stored profile has a sample-to-sample grade past the ±30 % clamp.
        var steep = 0
        for e in 0..<map.edgeCount {
            let prof = map.elevationProfile(ofEdge: e)
            guard prof.count >= 2, map.edgeLength[e] > 0, !map.flags(ofEdge: e).contains(.steps) else { continue }
            let ds = Double(map.edgeLength[e]) / Double(prof.count - 1)
            var i = prof.startIndex
            while i + 1 < prof.endIndex {
                if abs(Double(prof[i + 1] - prof[i])) / ds * 100 > Double(EdgeTable.maxGradePct) + 1e-3 { steep += 1; break }
                i += 1
            }
        }
        print(String(printf: "  edges (not stairs) with a stored sample-to-sample grade past ±%.0f %%: %d of %d (%.2f %%)", Double(EdgeTable.maxGradePct), steep, map.edgeCount, Double(steep) / Double(max(1, map.edgeCount)) * 100))
    }
}
