import FoundationEssentials
import SkateCore

/// An edge whose measured roughness contradicts what its OSM tags imply: a hint for mappers.
public struct SurfaceDisagreement: Sendable, Equatable {
    /// Edge index in the map it was computed for.
    public var edge: Int
    public var key: EdgeKey
    public var name: String
    public var surface: Surface
    public var smoothness: Smoothness
    /// What the tags imply.
    public var implied: RoughnessClass
    /// What rides measured (aged median).
    public var measured: EdgeObservation
    public var measuredClass: RoughnessClass { RoughnessClass(rms: measured.rms) }
}

extension SkateStore {
    /// Edges of `map` whose measured roughness (rides only, not ratings) at `now` contradicts their
    /// tags (see `TagImpliedRoughness`), ordered by edge index.
    public func disagreements(for map: SkateMap, now: Date) throws -> [SurfaceDisagreement] {
        let surfaces = try allSurfaces(now: now)
        guard !surfaces.isEmpty else { return [] }
        var measured: [EdgeKey: EdgeObservation] = [:]
        for (key, s) in surfaces { if let m = s.measured { measured[key] = m } }
        return SurfaceDisagreement.find(measured: measured, map: map)
    }
}

extension SurfaceDisagreement {
    /// Edges of `map` whose measured roughness contradicts their tags, ordered by edge index:
    /// the store's figures or a fresh ride log's alike.
    public static func find(measured: [EdgeKey: EdgeObservation], map: SkateMap) -> [SurfaceDisagreement] {
        guard !measured.isEmpty else { return [] }
        let index = EdgeKey.index(of: map)
        var out: [SurfaceDisagreement] = []
        for (key, m) in measured {
            guard let edges = index[key] else { continue }
            for e in edges {
                let surface = map.surface(ofEdge: e), smoothness = map.smoothness(ofEdge: e)
                guard let implied = TagImpliedRoughness.implied(surface: surface, smoothness: smoothness),
                      TagImpliedRoughness.contradicts(measured: RoughnessClass(rms: m.rms), implied: implied) else { continue }
                out.append(SurfaceDisagreement(edge: e, key: key, name: map.name(ofEdge: e), surface: surface,
                                               smoothness: smoothness, implied: implied, measured: m))
            }
        }
        return out.sorted { $0.edge < $1.edge }
    }
}
