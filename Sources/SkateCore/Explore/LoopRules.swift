/// Round trips (`Planner.loop`): where the loops come from and what a loop must meet.
/// Every threshold with its reason; the bounds are issue 32's.
public enum LoopRules {
    /// A loop may miss the asked length by this share either way (issue 32: ±15 %).
    public static let lengthTolerance = 0.15
    /// At most this share of a loop's metres may be ridden twice (issue 32: ≤ 10 %).
    public static let maxReuseShare = 0.10
    /// Shortest and longest loop asked for, metres: below 300 m a loop is a lap of one block;
    /// above 100 km no city map holds it and the search would only spin.
    public static let lengthRange: ClosedRange<Double> = 300...100_000
    /// First guess of street metres per metre of the waypoint polygon (street networks wind
    /// ~1.3–1.5×); every attempt learns the factor from the one before.
    static let initialDetourFactor = 1.3
    /// The learned factor (street metres per metre of the ideal polygon) stays in this band: one
    /// attempt far off must not send the next radius off the map (0.4: a coast shrinks the
    /// snapped polygon to well under the circle's).
    static let detourFactorRange: ClosedRange<Double> = 0.4...3.0
    /// Exponent of the length miss applied to the factor after each attempt: below 1 so the
    /// radius moves most of the way, not past the target when the heading changes the shape.
    static let radiusLearningRate = 0.8
    /// Waypoints on the circle besides the start, cycled per attempt: 3 goes round, 2 is a
    /// triangle that fits a narrow map (a coast, a valley), 4 and 5 round a wide one or stretch a
    /// long loop over more streets.
    static let waypointCounts = [3, 2, 4, 5]
    /// Attempts (headings × radii × waypoint counts) before settling for the best loop found.
    public static let maxAttempts = 24
    /// Attempts made before taking the first loop that meets the bounds, so the cheapest of a
    /// few (smoothest: the butter one) wins rather than the first.
    static let minAttempts = 5
    /// After this many attempts, a length no attempt reached half of is out of the map's reach
    /// (an island of streets): the search stops with the best found instead of trying the rest.
    static let hopelessAfterAttempts = 8
    static let hopelessShare = 0.5
    /// Heading step between attempts, degrees: the golden angle spreads any number of headings
    /// evenly round the start.
    static let headingStep = 137.507_764
    /// Cost multiplier on edges the loop already rides, so later legs look for new streets
    /// (penalised reuse, as GraphHopper's round trips do); high enough to take a street twice
    /// only where no other way exists.
    static let reusePenalty = 8.0
    /// Factor applied when an attempt found too few waypoints on streets: the next circle of that
    /// shape is a quarter wider.
    static let widenOnEmpty = 0.8
    /// Ranking weight of the length error among loops that meet the bounds: a loop 15 % off
    /// counts as 30 % more effort per metre, enough to prefer the asked length over a small gain
    /// in smoothness.
    static let lengthErrorWeight = 2.0
    /// Ranking weight of the share ridden twice: 10 % reuse counts as 20 % more effort.
    static let reuseWeight = 2.0
    /// A waypoint that snaps closer than this to the previous one adds nothing (metres).
    static let waypointMergeMetres = 40.0
}
