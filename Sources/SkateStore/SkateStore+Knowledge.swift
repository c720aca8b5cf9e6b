import FoundationEssentials
import SkateCore

extension SkateStore {
    /// Hazards snap to the nearest rideable edge within this many metres (GPS error plus the width
    /// of a street); farther ones (in a park, on a roof) concern no edge.
    public static let hazardSnapRadius: Double = 20

    /// What riders know about `map`'s edges at `now`: per edge the preferred aged surface figure
    /// (fresh measurements over ratings, see `SurfaceAging.preferred`) and the live hazards snapped
    /// to it, each with its offset along the edge. Edges are matched by `EdgeKey`, so knowledge
    /// survives map rebuilds.
    /// - Throws: a database error.
    public func loadKnowledge(for map: SkateMap, now: Date) throws -> RoadKnowledge {
        var k = RoadKnowledge()
        let surfaces = try allSurfaces(now: now)
        let stretches = try allStretches(now: now)
        if !surfaces.isEmpty || !stretches.isEmpty {
            let index = EdgeKey.index(of: map)
            for (key, s) in surfaces {
                guard let edges = index[key], let obs = SurfaceAging.preferred(measured: s.measured, rating: s.rating) else { continue }
                for e in edges { k.observations[e] = obs }
            }
            // Measured stretches (issue 28) replace an edge's one median, unless a fresher rating rules it.
            for (key, figs) in stretches {
                guard let edges = index[key] else { continue }
                let freshest = figs.map(\.observation.freshness).max() ?? 0
                for e in edges {
                    let own = k.observations[e]
                    if let o = own, o.source == .rating, o.freshness > freshest { continue }
                    guard let r = Self.stretchRMS(figs, length: Double(map.edgeLength[e]), rest: own?.rms) else { continue }
                    k.observations[e] = EdgeObservation(rms: r, source: .measured, freshness: max(freshest, own?.freshness ?? 0),
                                                        count: figs.reduce(0) { $0 + $1.observation.count })
                }
            }
        }
        for s in try hazards(now: now) {
            let h = s.hazard
            // Reports made while watching a replay or simulation count only once confirmed.
            if h.source == .simulated && h.confirmations == 0 { continue }
            guard let snap = map.nearestEdge(to: h.position, maxDistance: Self.hazardSnapRadius, where: map.isRideable) else { continue }
            // A detected hazard nobody confirmed weighs lightly (`ImpactRules.detectedConfidenceFactor`).
            let confidence = h.source == .detected && h.confirmations == 0 ? s.confidence * ImpactRules.detectedConfidenceFactor : s.confidence
            k.hazards[snap.edge, default: []].append(EdgeHazard(
                id: h.id, kind: h.kind.rawValue, severity: h.severity, confidence: confidence,
                position: h.position, offset: snap.offset, source: h.source.rawValue))
        }
        for e in k.hazards.keys { k.hazards[e]!.sort { $0.offset != $1.offset ? $0.offset < $1.offset : $0.id < $1.id } }
        return k
    }

    /// `loadKnowledge(for:now:)`, or `.empty` when the database cannot be read, so routing falls
    /// back to OSM tags instead of failing.
    public func knowledge(for map: SkateMap, now: Date) -> RoadKnowledge {
        (try? loadKnowledge(for: map, now: now)) ?? .empty
    }
}
