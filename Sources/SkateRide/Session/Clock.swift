import FoundationEssentials
import Glibc

/// Ride time in seconds. Every ride engine reads time from one of these and never from the wall
/// clock, so a whole ride replays headless, deterministically, far faster than real time.
public protocol SimulationClock: AnyObject {
    /// Current ride time in seconds (monotone non-decreasing).
    var now: Double { get }
}

/// Ride time that moves only when told: tests and headless replay run as fast as the CPU allows.
public final class VirtualClock: SimulationClock {
    /// Current ride time in seconds.
    public private(set) var now: Double

    /// - Parameter start: the initial ride time in seconds.
    public init(start: Double = 0) { now = start }

    /// Moves ride time forward by `seconds` (negative or non-finite values are ignored: time never
    /// runs backwards).
    public func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        now += seconds
    }

    /// Moves ride time to `time` in seconds if it is later than now; earlier times are ignored.
    public func advance(to time: Double) {
        guard time.isFinite, time > now else { return }
        now = time
    }
}

/// A source of monotone wall time in seconds, injected into `PacedClock` so tests can drive it.
public protocol WallTimeSource {
    /// Seconds from an arbitrary fixed origin; must never decrease.
    func seconds() -> Double
}

/// A wall-time source backed by a closure (tests pass a closure over a variable they advance).
public struct ClosureWallTime: WallTimeSource {
    let read: () -> Double
    public init(_ read: @escaping () -> Double) { self.read = read }
    public func seconds() -> Double { read() }
}

/// The live wall-time source for the CLI's paced ride view: the process's monotonic clock.
/// The only place in SkateRide that touches real time, and only when the caller injects it.
public struct MonotonicWallTime: WallTimeSource {
    private let origin = ContinuousClock.now
    public init() {}
    public func seconds() -> Double {
        let d = ContinuousClock.now - origin
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}

/// Ride time paced against wall time for live viewing: speed factor 0.25×…60×, pause, resume
/// and single-step. Ride time = anchor ride time + (wall − anchor wall) × speed while running.
public final class PacedClock: SimulationClock {
    /// The speed steps `faster()` / `slower()` move between (× real time).
    public static let speedSteps: [Double] = [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60]
    /// Slowest allowed factor: a quarter of real time is slow enough to watch a cue fire.
    public static let minSpeed: Double = 0.25
    /// Fastest allowed factor: 60× plays an hour's ride in a minute, still readable on screen.
    public static let maxSpeed: Double = 60
    /// Ride seconds one `step()` advances by default: one 10 Hz roughness publication.
    public static let defaultStep: Double = 0.1

    private let wall: WallTimeSource
    private var anchorWall: Double
    private var anchorRide: Double
    /// Speed factor (× real time), clamped to `minSpeed…maxSpeed`.
    public private(set) var speed: Double
    /// True while paused: ride time stands still until `resume()` or `step()`.
    public private(set) var isPaused: Bool

    /// - Parameters:
    ///   - wall: the wall-time source (seconds).
    ///   - start: ride time in seconds at the moment of creation.
    ///   - speed: initial speed factor, clamped to 0.25…60.
    ///   - paused: start paused.
    public init(wall: WallTimeSource, start: Double = 0, speed: Double = 1, paused: Bool = false) {
        self.wall = wall
        anchorWall = wall.seconds()
        anchorRide = start
        self.speed = PacedClock.clamp(speed)
        isPaused = paused
    }

    /// Current ride time in seconds.
    public var now: Double {
        if isPaused { return anchorRide }
        return anchorRide + max(0, wall.seconds() - anchorWall) * speed
    }

    /// Re-anchors at the current instant so later changes apply from now on.
    private func reanchor() {
        let t = now
        anchorWall = wall.seconds()
        anchorRide = t
    }

    private static func clamp(_ s: Double) -> Double {
        guard s.isFinite else { return 1 }
        return min(maxSpeed, max(minSpeed, s))
    }

    /// Sets the speed factor (clamped to 0.25…60) without a jump in ride time.
    public func setSpeed(_ factor: Double) {
        reanchor()
        speed = PacedClock.clamp(factor)
    }

    /// Moves to the next faster standard step (stays at 60×).
    public func faster() {
        let next = PacedClock.speedSteps.first { $0 > speed + 1e-9 } ?? PacedClock.maxSpeed
        setSpeed(next)
    }

    /// Moves to the next slower standard step (stays at 0.25×).
    public func slower() {
        let next = PacedClock.speedSteps.last { $0 < speed - 1e-9 } ?? PacedClock.minSpeed
        setSpeed(next)
    }

    /// Freezes ride time.
    public func pause() {
        guard !isPaused else { return }
        reanchor()
        isPaused = true
    }

    /// Lets ride time run again from where it stopped.
    public func resume() {
        guard isPaused else { return }
        anchorWall = wall.seconds()
        isPaused = false
    }

    /// Pauses (if running) and advances ride time by `seconds` (default one 10 Hz tick).
    public func step(by seconds: Double = PacedClock.defaultStep) {
        pause()
        if seconds.isFinite, seconds > 0 { anchorRide += seconds }
    }

    /// Wall seconds to wait until ride time reaches `rideTime` (0 if already there; infinity
    /// while paused), for a live loop that sleeps between events.
    public func wallDelay(until rideTime: Double) -> Double {
        let t = now
        if rideTime <= t { return 0 }
        if isPaused { return .infinity }
        return (rideTime - t) / speed
    }
}
