import FoundationEssentials
import Glibc
import SkateCore

/// A reroute that happened during a ride.
public struct Reroute: Sendable, Equatable, Codable {
    /// Ride time of the reroute, seconds.
    public var t: Double
    /// Ride time of the first fix beyond the off-route distance, seconds.
    public var since: Double
    /// `t - since`: seconds from leaving the route to the new plan.
    public var latency: Double
    /// Where the rider was.
    public var from: Coordinate
    /// Length of the new plan, metres.
    public var distance: Double
    /// Distance from the fix to the old route, metres.
    public var offRouteDistance: Double

    enum CodingKeys: String, CodingKey {
        case t, since, from
        case latency = "latency_s"
        case distance = "distance_m"
        case offRouteDistance = "off_route_m"
    }
}

/// Something that happened during a ride, in ride time.
public enum RideEvent: Sendable, Equatable {
    /// A cue for the rider.
    case cue(Cue)
    /// A new plan from the rider's position replaced the old one.
    case reroute(Reroute)
    /// Back within the route's band after being off route.
    case backOnRoute(t: Double)
    /// No input for `seconds` (a pause or a hole in the recording).
    case gap(t: Double, seconds: Double)
    /// Something repaired or skipped (time jump, bad sample rate, a failed reroute).
    case warning(t: Double, message: String)
    /// A roughness event (pothole, bump, crack) felt at a place: for the HUD's mark and flash.
    case impact(RoughnessImpact)

    /// Ride time in seconds.
    public var t: Double {
        switch self {
        case .cue(let c): return c.t
        case .reroute(let r): return r.t
        case .backOnRoute(let t), .gap(let t, _), .warning(let t, _): return t
        case .impact(let i): return i.t
        }
    }
}

/// The map edge a ride sample was matched to, in ids that survive a map rebuild.
public struct MatchedEdge: Sendable, Hashable {
    /// Edge index in the ride's map.
    public var edge: Int
    /// OSM way id of the edge.
    public var wayId: Int64
    /// OSM node ids at the edge's drawing start (`edgeFrom`) and end (`edgeTo`).
    public var fromNode: Int64
    public var toNode: Int64
    /// Metres along the edge from `fromNode` to the matched point (at the latest fix).
    public var offset: Double

    public init(edge: Int, wayId: Int64, fromNode: Int64, toNode: Int64, offset: Double) {
        self.edge = edge; self.wayId = wayId; self.fromNode = fromNode; self.toNode = toNode; self.offset = offset
    }

    /// The edge `e` of `map` at `offset` metres.
    public init(map: SkateMap, edge e: Int, offset: Double) {
        self.init(edge: e, wayId: map.edgeWayId[e], fromNode: map.nodeOsmId[Int(map.edgeFrom[e])],
                  toNode: map.nodeOsmId[Int(map.edgeTo[e])], offset: offset)
    }
}

/// What a ride view renders: the latest state of the ride.
public struct RideState: Sendable, Equatable {
    /// Ride time in seconds.
    public var t: Double = 0
    /// Latest fix, if any.
    public var position: Coordinate?
    /// Speed in m/s (from fixes over a few seconds).
    public var speed: Double = 0
    /// Bearing of travel in degrees, nil when not moving.
    public var heading: Double?
    /// The latest fix matched the route.
    public var matched = false
    /// Step the rider is on (last matched), nil on a free ride or before the first match.
    public var step: Int?
    /// Metres along the route.
    public var distanceAlong: Double = 0
    /// Metres from the latest fix to the route.
    public var distanceToRoute: Double?
    /// Metres left to the destination, nil on a free ride.
    public var distanceLeft: Double?
    /// Ride time (s) of arrival from the plan's speed profile, nil on a free ride.
    public var eta: Double?
    /// Latest clean roughness window RMS in g, nil before any motion.
    public var rms: Double?
    /// Class of `rms`.
    public var roughnessClass: RoughnessClass?
    /// Ride stability 0–100 %.
    public var stability: Double = 100
    /// Local grade of the route in percent (uphill positive), 0 on a free ride.
    public var grade: Double = 0
    /// Most recent cue.
    public var lastCue: Cue?
    /// Confirmed off route.
    public var offRoute = false
    /// The edge the latest fix was matched to for roughness (nil when none).
    public var matchedEdge: MatchedEdge?
    /// The latest roughness event felt (also sent as `RideEvent.impact` when it happened).
    public var lastImpact: RoughnessImpact?
    /// Roughness events felt so far.
    public var impacts = 0

    public init() {}
}


/// A sink that keeps every observation in memory (tests, summaries).
public final class CollectingObservationSink: SegmentObservationSink {
    public struct Observation: Sendable, Equatable {
        public var edge: Int
        public var rms: Double
        public var samples: Int
        public var at: Date
    }
    public private(set) var observations: [Observation] = []
    public init() {}
    public func record(edge: Int, rms: Double, samples: Int, at: Date) {
        observations.append(Observation(edge: edge, rms: rms, samples: samples, at: at))
    }
}
