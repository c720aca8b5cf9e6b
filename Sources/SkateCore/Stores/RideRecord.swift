import FoundationEssentials
import Glibc

/// One recorded ride as the history index keeps it (read from its NDJSON log).
public struct RideRecord: Sendable, Equatable {
    public var rideId: String
    /// The log file.
    public var path: String
    /// Ride start, seconds since 1970.
    public var startEpoch: Double
    /// Map name ("" for a free ride).
    public var map: String
    public var mode: String
    /// Metres.
    public var distance: Double
    /// Elapsed seconds, first fix to last.
    public var duration: Double
    /// Seconds not stationary (see `MotionStateMachine`).
    public var movingTime: Double
    /// Metres climbed and descended along the matched edges' elevation (0 without a map).
    public var climb: Double
    public var descent: Double
    /// Metres on crusty surface (measured class).
    public var crustyMetres: Double
    /// m/s.
    public var maxSpeed: Double
    /// False when the log ended without its summary line (a crash or a cut file): the figures
    /// then come from the samples that were there.
    public var complete: Bool

    public init(rideId: String, path: String, startEpoch: Double, map: String, mode: String, distance: Double, duration: Double,
                movingTime: Double, climb: Double, descent: Double, crustyMetres: Double, maxSpeed: Double, complete: Bool) {
        self.rideId = rideId; self.path = path; self.startEpoch = startEpoch; self.map = map; self.mode = mode
        self.distance = distance; self.duration = duration; self.movingTime = movingTime; self.climb = climb
        self.descent = descent; self.crustyMetres = crustyMetres; self.maxSpeed = maxSpeed; self.complete = complete
    }
}

extension RideRecord {
    /// The name of the first figure outside what a ride can hold (`PlausibleRange`), or nil.
    /// A log or index row with one is refused or skipped, never formatted (issue 29: a stored
    /// climb of 1e300 made every later `stats` trap).
    public var implausibleField: String? {
        let checks: [(String, Double, ClosedRange<Double>)] = [
            ("start time", startEpoch, PlausibleRange.time),
            ("distance", distance, PlausibleRange.distanceM),
            ("duration", duration, PlausibleRange.durationS),
            ("moving time", movingTime, PlausibleRange.durationS),
            ("climb", climb, PlausibleRange.climbM),
            ("descent", descent, PlausibleRange.climbM),
            ("crusty metres", crustyMetres, PlausibleRange.distanceM),
            ("top speed", maxSpeed, PlausibleRange.speedMS),
        ]
        return checks.first { !PlausibleRange.holds($0.1, $0.2) }?.0
    }
}
