import SkateCore

/// How far to trust a street's class on the skateability layer, drawn as the pen's weight.
public enum SkateConfidence: Int, Sendable, CaseIterable, Comparable {
    /// Measured on a ride or rated by a rider: bold.
    case solid = 0
    /// OSM `surface`/`smoothness` tags: plain.
    case tagged
    /// The highway class's default or an unreadable surface value: dim.
    case guessed

    /// The confidence of a router evidence kind.
    public init(_ evidence: SurfaceEvidence) {
        switch evidence {
        case .measured, .rated: self = .solid
        case .tag: self = .tagged
        case .guess: self = .guessed
        }
    }

    /// Legend word.
    public var name: String {
        switch self {
        case .solid: return "measured/rated"
        case .tagged: return "from tags"
        case .guessed: return "guessed"
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// The skateability layer's facts per edge, read from the planner's own edge table (the map's
/// derived facts patched with the store's measured and rated roughness): the class and source
/// the router costs, and the braking metres the costing charges. No second estimate.
public struct SkateLayer: Sendable {
    /// The planner's table (`Planner.table`).
    public let table: EdgeTable

    /// Braking-grade metres (either direction, `BrakingGrade.metres`, what the costing charges)
    /// from which a street is marked steep: one metre, so rounding noise of a flat edge is not.
    public static let steepMinBrakingMetres: Float = 1

    /// Per edge, read once: pen index (class × 3 + confidence) in the low bits, `steepBit` when
    /// steep, so a frame reads one byte per street.
    let codes: [UInt8]
    static let steepBit: UInt8 = 0x80

    public init(table: EdgeTable) {
        self.table = table
        let n = table.rms.count
        var c = [UInt8](repeating: 0, count: n)
        for e in 0..<n {
            let cls = RoughnessClass(rms: Double(table.rms[e])).rawValue
            let conf = SkateConfidence((RoughnessSource(rawValue: Int(table.rmsSource[e])) ?? .highwayDefault).evidence).rawValue
            let steep = max(table.derived.brakingMetresFwd[e], table.derived.brakingMetresBwd[e]) >= Self.steepMinBrakingMetres
            c[e] = UInt8(cls * 3 + conf) | (steep ? Self.steepBit : 0)
        }
        codes = c
    }

    /// The roughness class the router uses for edge `e`.
    @inline(__always)
    public func roughnessClass(ofEdge e: Int) -> RoughnessClass { RoughnessClass(rawValue: penIndex(ofEdge: e) / 3) ?? .crusty }

    /// How the class is known for edge `e`.
    @inline(__always)
    public func confidence(ofEdge e: Int) -> SkateConfidence { SkateConfidence(rawValue: penIndex(ofEdge: e) % 3) ?? .guessed }

    /// True when riding edge `e` one way or the other has braking-grade metres.
    @inline(__always)
    public func isSteep(_ e: Int) -> Bool { codes[e] & Self.steepBit != 0 }

    /// Pen index (0..<12) of an edge: class × 3 + confidence.
    @inline(__always)
    func penIndex(ofEdge e: Int) -> Int { Int(codes[e] & ~Self.steepBit) }
}
