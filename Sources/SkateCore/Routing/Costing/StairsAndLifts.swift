/// Time a vertical connector takes (seconds): a public lift's wait and ride, an escalator's
/// boarding and ride. Connector edges have no grade and no speed of their own.
public enum ConnectorTiming {
    /// Mean wait for a public lift (s): half a ~60 s cycle (doors, a ~30 m ride, doors) of
    /// Monaco's public lifts, which run continuously.
    public static let liftWaitSeconds = 30.0
    /// The ride itself (s): ~30 m of rise at ~1.5 m/s plus doors.
    public static let liftRideSeconds = 20.0
    /// Stepping on and off an escalator or moving walkway with a board under the arm (s).
    public static let escalatorBoardSeconds = 5.0
    /// Escalator speed along its length (m/s): the EN 115 nominal 0.5 m/s.
    public static let escalatorSpeed = 0.5

    /// Seconds to use a connector edge of `length` metres (lifts: wait + ride; escalators: board + ride).
    public static func seconds(highway: HighwayClass, length: Double) -> Double {
        highway == .elevator ? liftWaitSeconds + liftRideSeconds : escalatorBoardSeconds + length / escalatorSpeed
    }
}

/// The cost of walking a flight of steps with the board in hand, on top of the walking time.
///
/// Break-even: riding costs ≈ 0.45–0.5 effort s/m (okay asphalt or pavers, flat, `smoothest`),
/// so the dismount alone (150 s) is worth ≈ +300 m of riding, and each metre of steps (walking
/// 1.7 s + 6 s) ≈ 16 m more: a typical 30 m Monaco flight (≈ 380 s) is worth a detour of
/// ≈ +800 m, about 1.5× a 1.5 km route. Longer detours than that make the stairs the better
/// line, walked.
public enum StairsCost {
    /// Getting off, picking the board up, and back on at the other end (effort s, once per flight).
    public static let dismountSeconds = 150.0
    /// Effort seconds per metre of steps beyond the walking time: carrying the board, in walkers' way.
    public static let secondsPerMetre = 6.0
    /// Share of the dismount and per-metre penalty that steps with a ramp (`ramp:*=yes`) keep:
    /// the board rolls down the ramp beside the rider.
    public static let rampShare = 0.3
    /// Horizontal going of one step in metres (stair treads are 0.28–0.32 m): a flight whose
    /// `step_count` says it is longer than drawn (many are mapped as a short stroke) costs that length.
    public static let treadMetres = 0.3

    /// The length (metres) a flight is costed at: as drawn, or its steps' going when longer.
    public static func flightMetres(length: Double, stepCount: Int) -> Double {
        max(length, Double(stepCount) * treadMetres)
    }
}
