import SkateCore

/// A stretch of route drawn in one roughness class and braking level.
public struct OverlaySegment: Hashable, Sendable {
    /// The shape, in travel order.
    public var points: [Coordinate]
    public var roughness: RoughnessClass
    public var braking: BrakingLevel

    public init(points: [Coordinate], roughness: RoughnessClass, braking: BrakingLevel = .none) {
        self.points = points; self.roughness = roughness; self.braking = braking
    }
}

/// A street name and the stretch of route it belongs to, for a label along it.
public struct NamedLine: Hashable, Sendable {
    /// The name as mapped (sanitised when drawn).
    public var name: String
    /// The stretch, in travel order.
    public var points: [Coordinate]
    /// Higher places first (the next turn's street before the rest).
    public var priority: Double
    public init(name: String, points: [Coordinate], priority: Double) { self.name = name; self.points = points; self.priority = priority }
}

/// The rider's position and heading.
public struct RiderMark: Hashable, Sendable {
    public var position: Coordinate
    /// Heading in degrees clockwise from north.
    public var headingDegrees: Double
    public init(position: Coordinate, headingDegrees: Double) { self.position = position; self.headingDegrees = headingDegrees }
}

/// Everything drawn over the context streets: the seam where plans and rides plug into the
/// map. The planner/ride screens build one from a route plan and ride state; the renderer
/// knows nothing of either.
public struct RouteOverlay: Hashable, Sendable {
    public var segments: [OverlaySegment]
    /// Braking and caution stretches drawn as dashes over the segments (exact zone extents, so
    /// the rest of a step keeps its surface colour); their `roughness` is not drawn.
    public var brakingStretches: [OverlaySegment] = []
    public var start: Coordinate?
    public var end: Coordinate?
    public var hazards: [Coordinate]
    /// Skateparks, plazas and other spots worth a stop.
    public var spots: [Coordinate]
    public var rider: RiderMark?
    /// A map cursor (picking a point, filing a report), drawn as a crosshair.
    public var cursor: Coordinate?
    /// Street names along the route, written where they fit (`MapLabels`), most important first.
    public var names: [NamedLine] = []
    /// The destination's name, written beside `end` (sanitised when drawn).
    public var endName: String?
    /// Other routes (the plan's alternatives), drawn dimmed under the route.
    public var alternatives: [[OverlaySegment]] = []
    /// The part of the route already ridden, drawn grey over the route.
    public var ridden: [Coordinate] = []

    public init(segments: [OverlaySegment] = [], start: Coordinate? = nil, end: Coordinate? = nil,
                hazards: [Coordinate] = [], spots: [Coordinate] = [], rider: RiderMark? = nil, cursor: Coordinate? = nil) {
        self.segments = segments; self.start = start; self.end = end
        self.hazards = hazards; self.spots = spots; self.rider = rider; self.cursor = cursor
    }

    /// Box around the route, its ends and the rider; hazards and spots count only when there is
    /// nothing else (they may lie off the route, and fitting to them would shrink the route).
    public var boundingBox: BoundingBox {
        var b = BoundingBox.empty
        for s in segments { for p in s.points { b.extend(lat: p.lat, lon: p.lon) } }
        for p in [start, end, rider?.position].compactMap({ $0 }) { b.extend(lat: p.lat, lon: p.lon) }
        if b.isEmpty { for p in hazards + spots { b.extend(lat: p.lat, lon: p.lon) } }
        return b
    }
}
