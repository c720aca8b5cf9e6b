import FoundationEssentials
import Glibc

/// One traversal of (part of) an edge. Offsets are metres along the edge's drawing direction;
/// a reversed leg runs from `startOffset` down to `endOffset`.
public struct RouteLeg: Sendable, Equatable, Hashable {
    public var edge: Int
    public var reversed: Bool
    public var startOffset: Double
    public var endOffset: Double

    public init(edge: Int, reversed: Bool, startOffset: Double, endOffset: Double) {
        self.edge = edge; self.reversed = reversed; self.startOffset = startOffset; self.endOffset = endOffset
    }

    /// Length travelled on this leg, metres.
    public var length: Double { abs(endOffset - startOffset) }
}

/// A path found by the router, before it becomes a `RoutePlan`.
public struct RoutePath: Sendable, Equatable {
    public var legs: [RouteLeg]
    /// Total effort cost (mode-weighted seconds).
    public var cost: Double
    /// False when the 100 m continuous-crusty rule could not be met (no alternative exists).
    public var crustyRuleMet: Bool

    public init(legs: [RouteLeg], cost: Double, crustyRuleMet: Bool) {
        self.legs = legs; self.cost = cost; self.crustyRuleMet = crustyRuleMet
    }

    public var length: Double { legs.reduce(0) { $0 + $1.length } }
}

/// Why a route could not be planned.
public enum RoutingError: Error, CustomStringConvertible, Equatable {
    case noEdgeNear(Coordinate, radius: Double)
    case disconnected(from: Coordinate, to: Coordinate)
    /// No round trip leaves the start and comes back to it (`Planner.loop`).
    case noLoop(from: Coordinate)

    public var description: String {
        switch self {
        case .noEdgeNear(let c, let r):
            return "no rideable street within \(Int(r)) m of \(c)"
        case .disconnected(let a, let b):
            return "no route from \(a) to \(b): the two points are not connected by ways a skater may use"
        case .noLoop(let a):
            return "no loop from \(a): the streets here are reached one way only (a lift, an escalator or a one-way stretch), so no line comes back to them; start from a street nearby"
        }
    }
}
