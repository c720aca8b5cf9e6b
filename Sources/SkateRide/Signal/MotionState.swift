import FoundationEssentials
import Glibc

/// What the rider is doing, from speed (and board vibration when a motion sensor is there).
public enum MotionState: String, Sendable, Equatable, CaseIterable {
    case stationary, walking, rolling
}

/// A stationary / walking / rolling classifier with hysteresis: a new state must hold for a while
/// before it is taken, and the thresholds to enter and to leave a state differ, so GPS speed
/// noise at a red light or a slow push does not flicker between states.
///
/// Thresholds (m/s, g, s), with their source:
/// - GPS speed at a standstill wanders 0–0.5 m/s on phone receivers (the shipped rides' stops
///   read 0.1–0.4 m/s), so stationary is entered below `stopSpeed` 0.5 and left above
///   `goSpeed` 0.8.
/// - Walking pace is 1.2–1.8 m/s (4.3–6.5 km/h); a skateboard cruises at 3–6 m/s and pushes off
///   above 2 m/s, so rolling is entered above `rollSpeed` 2.5 and left below `walkSpeed` 1.8.
/// - Wheels on pavement shake the deck continuously (the shipped motion files: 0.05–0.3 g RMS
///   while rolling, under 0.03 g in a hand or pocket at walking pace), so a window RMS of at least
///   `rollingRMS` 0.05 g counts as rolling at any moving speed (slow pushes up a hill).
/// - A state must hold `stopHold` 3 s to become stationary, `moveHold` 1 s to leave it, and
///   `switchHold` 2 s to switch between walking and rolling.
public struct MotionStateMachine: Sendable {
    public static let stopSpeed = 0.5
    public static let goSpeed = 0.8
    public static let rollSpeed = 2.5
    public static let walkSpeed = 1.8
    public static let rollingRMS = 0.05
    public static let stopHold = 3.0
    public static let moveHold = 1.0
    public static let switchHold = 2.0

    public private(set) var state: MotionState
    /// Ride time (s) the current state was entered.
    public private(set) var since: Double
    private var candidate: MotionState?
    private var candidateSince = 0.0

    public init(state: MotionState = .stationary, at t: Double = 0) {
        self.state = state
        since = t
    }

    /// What the raw reading suggests, with the current state's hysteresis band.
    func suggested(speed: Double, rms: Double?) -> MotionState {
        let shaking = (rms ?? 0) >= Self.rollingRMS
        switch state {
        case .stationary:
            if speed <= Self.goSpeed { return .stationary }
            return speed >= Self.rollSpeed || shaking ? .rolling : .walking
        case .walking:
            if speed < Self.stopSpeed { return .stationary }
            return speed >= Self.rollSpeed || shaking ? .rolling : .walking
        case .rolling:
            if speed < Self.stopSpeed { return .stationary }
            return speed < Self.walkSpeed && !shaking ? .walking : .rolling
        }
    }

    /// Feeds one reading at ride time `t` (s): speed in m/s, vibration RMS in g (nil without a
    /// motion sensor). Returns the (possibly new) state.
    @discardableResult
    public mutating func update(t: Double, speed: Double, rms: Double? = nil) -> MotionState {
        let s = suggested(speed: speed.isFinite ? speed : 0, rms: rms)
        guard s != state else { candidate = nil; return state }
        if candidate != s { candidate = s; candidateSince = t }
        let hold = s == .stationary ? Self.stopHold : (state == .stationary ? Self.moveHold : Self.switchHold)
        if t - candidateSince >= hold {
            state = s
            // The state began when the reading first suggested it.
            since = candidateSince
            candidate = nil
        }
        return state
    }
}

/// Auto-pause for a recording: paused once the rider has been stationary for more than
/// `pauseAfter` seconds, resumed when they move; it adds up moving and paused time.
public struct AutoPause: Sendable {
    /// Default seconds of standstill before a recording pauses: longer than a typical traffic
    /// light's red phase is not wanted (those are part of the ride), 10 s skips kerb-side fiddles.
    public static let defaultPauseAfter = 10.0

    public let pauseAfter: Double
    public private(set) var motion = MotionStateMachine()
    public private(set) var paused = false
    /// Seconds counted as paused so far (whole stops longer than `pauseAfter`, from their start).
    public private(set) var pausedTime = 0.0
    private var first: Double?
    private var last = 0.0
    private var pauseStart = 0.0

    public init(pauseAfter: Double = AutoPause.defaultPauseAfter) { self.pauseAfter = pauseAfter }

    /// A pause or resume at ride time `t`.
    public enum Change: Sendable, Equatable {
        case paused(at: Double)
        case resumed(at: Double, pausedFor: Double)
    }

    /// Feeds one reading; returns a change when the recording pauses or resumes.
    @discardableResult
    public mutating func update(t: Double, speed: Double, rms: Double? = nil) -> Change? {
        if first == nil { first = t; motion = MotionStateMachine(state: speed > MotionStateMachine.goSpeed ? .rolling : .stationary, at: t) }
        last = max(last, t)
        let s = motion.update(t: t, speed: speed, rms: rms)
        if !paused, s == .stationary, t - motion.since > pauseAfter {
            paused = true
            pauseStart = motion.since
            return .paused(at: pauseStart)
        }
        if paused, s != .stationary {
            paused = false
            let d = motion.since - pauseStart
            pausedTime += d
            return .resumed(at: motion.since, pausedFor: d)
        }
        return nil
    }

    /// Seconds from the first reading to the last.
    public var elapsed: Double { first.map { last - $0 } ?? 0 }
    /// Elapsed minus paused time (an open pause counts up to the last reading).
    public var movingTime: Double { max(0, elapsed - pausedTime - (paused ? last - pauseStart : 0)) }
}
