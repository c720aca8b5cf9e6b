import SkateCore
import SkateRide

/// What the ride screen shows at one ride time: a value, so the model can compare it.
public struct RideFrame: Hashable, Sendable {
    /// Ride time in seconds.
    public var t: Double
    public var position: Coordinate?
    /// Degrees clockwise from north; nil when standing still.
    public var heading: Double?
    /// Metres per second.
    public var speed: Double
    /// Latest roughness window RMS in g (nil before motion, or without motion).
    public var rms: Double?
    /// Surface class here: measured when there is motion, else the plan's class for the step.
    public var surface: RoughnessClass?
    /// Stability 0…1 (nil without motion).
    public var stability: Double?
    /// Grade here in percent (uphill positive).
    public var grade: Double?
    /// Braking level of the step here.
    public var braking: BrakingLevel
    /// Step of the plan the rider is on.
    public var step: Int?
    /// Metres along the route.
    public var distanceAlong: Double
    /// Metres left, nil on a free ride.
    public var distanceLeft: Double?
    /// Seconds left from the plan's speed profile, nil on a free ride.
    public var secondsLeft: Double?
    public var offRoute: Bool
    /// True once every input was played.
    public var finished: Bool
    /// Issue 28 hook: the latest roughness event felt up to this frame (pothole, bump, crack with
    /// its place), nil before the first. A view flashes "bump" / marks the ridden line when its
    /// `t` is new; set by `SessionRideFeed`, outside the initialiser so other feeds need not know it.
    public var impact: RoughnessImpact? = nil
    /// Impacts felt since the previous frame, oldest first: the ride map marks each, the HUD
    /// flashes the last (issue 28). Empty from feeds without motion.
    public var newImpacts: [RoughnessImpact] = []
    /// What the ride taught the store, on the finished frame of a feed that knows (nil before).
    public var learning: RideLearning? = nil
    /// The ride's bumpiness and robust roughness (g) from its summary, on the finished frame of a
    /// feed with motion (issue 28 must-have 5); nil before and without motion.
    public var bumpiness: RideBumpiness? = nil
    public var robustRMS: Double? = nil

    public init(t: Double = 0, position: Coordinate? = nil, heading: Double? = nil, speed: Double = 0, rms: Double? = nil,
                surface: RoughnessClass? = nil, stability: Double? = nil, grade: Double? = nil, braking: BrakingLevel = .none,
                step: Int? = nil, distanceAlong: Double = 0, distanceLeft: Double? = nil, secondsLeft: Double? = nil,
                offRoute: Bool = false, finished: Bool = false) {
        self.t = t; self.position = position; self.heading = heading; self.speed = speed; self.rms = rms
        self.surface = surface; self.stability = stability; self.grade = grade; self.braking = braking; self.step = step
        self.distanceAlong = distanceAlong; self.distanceLeft = distanceLeft; self.secondsLeft = secondsLeft
        self.offRoute = offRoute; self.finished = finished
    }
}

/// The seam between the ride screen and the ride engines: something that can be advanced to a
/// ride time and says what the rider sees then. Ride time is decided by the app (its clock, the
/// sim speed, pause and single steps); a feed only plays its inputs up to it.
public protocol RideFeed: AnyObject {
    /// The route being followed now (changes after a reroute), nil for a free ride.
    var currentPlan: RoutePlan? { get }
    /// Ride seconds from the first to the last input.
    var duration: Double { get }
    /// True while a ride log is written.
    var isRecording: Bool { get }
    /// Plays every input up to ride time `t` (seconds; earlier times change nothing).
    /// - Returns: the frame at `t`, the cues that fired on the way, and a new plan if the
    ///   rider was rerouted.
    func advance(to t: Double) -> (frame: RideFrame, cues: [RideCue], rerouted: RoutePlan?)
    /// Ends the ride (closes the log). Idempotent.
    func stop()
}
