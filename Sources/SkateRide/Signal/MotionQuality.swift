import FoundationEssentials
import Glibc

/// A named problem with a motion stream: `code` is stable (for scripts and tests), `message` is
/// one readable line.
public struct MotionWarning: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Stable snake_case name, e.g. `stuck_axis`, `low_effective_rate`.
    public var code: String
    public var message: String
    /// True when the warning means the roughness figures cannot be trusted (the result is
    /// degraded), false for a note (e.g. gravity on −z, which the engine handles).
    public var degrades: Bool

    public var description: String { "\(code): \(message)" }
}

/// Measures what a motion stream really carries, sample by sample, in constant memory: its
/// effective rate (how often the values actually change), stuck axes, repeated timestamps, gaps,
/// non-finite values and where gravity points.
///
/// A stream that repeats the same value 94 % of the time has a nominal 100 Hz but an effective
/// 6 Hz: it cannot carry the 4–40 Hz band, and a band-pass over it reads a staircase, not the
/// surface. Such a stream gets a `low_effective_rate` warning and a degraded (not smooth) result.
public struct MotionQuality: Sendable {
    /// An axis whose consecutive values change in fewer than this share of samples may be stuck:
    /// a rolling MEMS axis changes on nearly every sample (≥ 97 % on the e-scooter set at
    /// 0.01 m/s² resolution). A quiet one (parked) toggles by one step less often (12–40 % on the
    /// standing windows), so a low share alone is not enough: see `holdJumpFactor`.
    public static let stuckChangeShare: Double = 0.2
    /// Below `stuckChangeShare`, an axis is stuck when its changes are at least this many times
    /// its smallest step (a sample-and-hold of a moving signal jumps by many steps; a quiet live
    /// sensor toggles by one or two), or when it changes in under `deadChangeShare` of samples.
    public static let holdJumpFactor: Double = 3
    /// An axis changing in fewer than this share of samples is dead whatever its steps (2 %: a
    /// live sensor's noise toggles the last bit far more often).
    public static let deadChangeShare: Double = 0.02
    /// An interval longer than this many times the nominal sample interval (and ≥ 50 ms) is a gap.
    public static let gapFactor: Double = 5
    /// Shortest interval (s) ever called a gap.
    public static let minimumGap: Double = 0.05
    /// Mean acceleration magnitude (g) below which gravity has been removed from the input.
    public static let minimumGravity: Double = 0.5
    /// Mean acceleration magnitude (g) above which the units are suspect (m/s² read as g gives 9.8).
    public static let maximumGravity: Double = 2
    /// Samples per block of the running stuck check (`isStuckNow`): ~2.5 s at 100 Hz.
    public static let blockSamples = 256

    public private(set) var count = 0
    public private(set) var nonFinite = 0
    public private(set) var repeatedTimes = 0
    public private(set) var backwardTimes = 0
    public private(set) var gaps = 0
    public private(set) var gapSeconds = 0.0
    private var changes = (0, 0, 0)
    private var jumpSum = (0.0, 0.0, 0.0)
    private var minStep = (Double.infinity, Double.infinity, Double.infinity)
    private var last: MotionSample?
    private var sum = (0.0, 0.0, 0.0)
    private var finiteCount = 0
    private var firstT: Double?
    private var lastT = 0.0
    private let nominalInterval: Double?
    // Running block check.
    private var blockCount = 0
    private var blockChanges = 0
    private var blockJump = 0.0
    /// True when the last full block of `blockSamples` changed value (on its most active axis) in
    /// fewer than `stuckChangeShare` of samples.
    public private(set) var isStuckNow = false

    /// - Parameter nominalRate: the stream's rate in Hz when known (for the gap check).
    public init(nominalRate: Double? = nil) {
        nominalInterval = nominalRate.flatMap { $0 > 0 && $0.isFinite ? 1 / $0 : nil }
    }

    /// Feeds one sample (any values, in g).
    public mutating func push(_ s: MotionSample) {
        count += 1
        guard s.t.isFinite, s.ax.isFinite, s.ay.isFinite, s.az.isFinite else { nonFinite += 1; return }
        finiteCount += 1
        sum.0 += s.ax; sum.1 += s.ay; sum.2 += s.az
        if firstT == nil { firstT = s.t }
        if let p = last {
            let dt = s.t - p.t
            if dt == 0 { repeatedTimes += 1 } else if dt < 0 { backwardTimes += 1 }
            if let ni = nominalInterval, dt > max(Self.minimumGap, Self.gapFactor * ni) { gaps += 1; gapSeconds += dt }
            let dx = abs(s.ax - p.ax), dy = abs(s.ay - p.ay), dz = abs(s.az - p.az)
            if dx > 0 { changes.0 += 1; jumpSum.0 += dx; minStep.0 = min(minStep.0, dx) }
            if dy > 0 { changes.1 += 1; jumpSum.1 += dy; minStep.1 = min(minStep.1, dy) }
            if dz > 0 { changes.2 += 1; jumpSum.2 += dz; minStep.2 = min(minStep.2, dz) }
            if dx > 0 || dy > 0 || dz > 0 { blockChanges += 1; blockJump += max(dx, dy, dz) }
            blockCount += 1
            if blockCount >= Self.blockSamples {
                let share = Double(blockChanges) / Double(blockCount)
                let step = min(minStep.0, minStep.1, minStep.2)
                let meanJump = blockChanges > 0 ? blockJump / Double(blockChanges) : 0
                isStuckNow = share < Self.deadChangeShare
                    || (share < Self.stuckChangeShare && step.isFinite && meanJump >= Self.holdJumpFactor * step)
                blockCount = 0; blockChanges = 0; blockJump = 0
            }
        }
        lastT = s.t
        last = s
    }

    /// Share of consecutive sample pairs whose value changed, per axis (x, y, z), 0…1.
    public var changeShare: (x: Double, y: Double, z: Double) {
        let n = Double(max(1, finiteCount - 1))
        return (Double(changes.0) / n, Double(changes.1) / n, Double(changes.2) / n)
    }

    /// True when axis k (0 = x, 1 = y, 2 = z) looks stuck (see `stuckChangeShare`).
    public func isStuck(axis k: Int) -> Bool {
        let c = changeShare
        let share = [c.x, c.y, c.z][k]
        guard share < Self.stuckChangeShare else { return false }
        if share < Self.deadChangeShare { return true }
        let n = [changes.0, changes.1, changes.2][k], sum = [jumpSum.0, jumpSum.1, jumpSum.2][k], step = [minStep.0, minStep.1, minStep.2][k]
        return n > 0 && step.isFinite && sum / Double(n) >= Self.holdJumpFactor * step
    }

    /// Mean acceleration (g) per axis: gravity, for a stream that includes it.
    public var meanVector: (x: Double, y: Double, z: Double) {
        let n = Double(max(1, finiteCount))
        return (sum.0 / n, sum.1 / n, sum.2 / n)
    }

    /// Rate in Hz from the sample count over the time span (nil with < 2 samples or no span).
    public var spanRate: Double? {
        guard let f = firstT, lastT > f, finiteCount > 1 else { return nil }
        return Double(finiteCount - 1) / (lastT - f)
    }

    /// The axis carrying gravity (largest mean magnitude), z when gravity is absent.
    public var verticalAxis: Int {
        let m = meanVector
        let ax = [abs(m.x), abs(m.y), abs(m.z)]
        guard (m.x * m.x + m.y * m.y + m.z * m.z).squareRoot() >= Self.minimumGravity else { return 2 }
        return ax.firstIndex(of: ax.max()!)!
    }

    /// The effective rate in Hz: `rate` times the change share of the axis that carries gravity
    /// (the vertical signal), or of the most active axis when gravity is absent.
    public func effectiveRate(rate: Double) -> Double {
        let c = changeShare, m = meanVector
        let ax = [abs(m.x), abs(m.y), abs(m.z)]
        let shares = [c.x, c.y, c.z]
        let magnitude = (m.x * m.x + m.y * m.y + m.z * m.z).squareRoot()
        let share = magnitude >= Self.minimumGravity ? shares[ax.firstIndex(of: ax.max()!)!] : shares.max()!
        return rate * share
    }

    /// The named warnings for this stream at `rate` Hz (nominal or estimated), in a fixed order.
    public func warnings(rate: Double?) -> [MotionWarning] {
        var out: [MotionWarning] = []
        if nonFinite > 0 {
            out.append(MotionWarning(code: "non_finite_values", message: "\(nonFinite) of \(count) samples hold NaN or infinity: skipped", degrades: nonFinite * 10 > count))
        }
        if backwardTimes > 0 {
            out.append(MotionWarning(code: "time_backwards", message: "time goes back \(backwardTimes) time(s): the engine restarts there", degrades: false))
        }
        if repeatedTimes > 0 {
            let share = Double(repeatedTimes) / Double(max(1, finiteCount - 1))
            out.append(MotionWarning(code: "repeated_timestamps", message: String(printf: "%d timestamps (%.0f %%) repeat the previous one: times printed too coarsely; rate taken from the time span", repeatedTimes, share * 100), degrades: false))
        }
        if gaps > 0 {
            out.append(MotionWarning(code: "gaps", message: String(printf: "%d gap(s) in the stream, %.2f s in all", gaps, gapSeconds), degrades: false))
        }
        let names = ["ax", "ay", "az"]
        let c = changeShare
        let shares = [c.x, c.y, c.z]
        if finiteCount > 10 {
            for k in 0..<3 where isStuck(axis: k) {
                out.append(MotionWarning(code: "stuck_axis", message: String(printf: "axis %@ repeats its previous value in %.0f %% of samples", names[k], (1 - shares[k]) * 100), degrades: false))
            }
        }
        if let r = rate, finiteCount > 10, isStuck(axis: verticalAxis) {
            let eff = effectiveRate(rate: r)
            out.append(MotionWarning(code: "low_effective_rate", message: String(printf: "the vertical axis changes at only %.1f Hz of a nominal %.4g Hz (stuck or sample-and-hold): the stream cannot carry the %.0f–%.0f Hz band; roughness not trusted", eff, r, RoughnessBands.lowEdgeHz, RoughnessBands(sampleRate: r).roughness.high), degrades: true))
        }
        if finiteCount > 0 {
            let m = meanVector
            let mag = (m.x * m.x + m.y * m.y + m.z * m.z).squareRoot()
            if mag < Self.minimumGravity {
                out.append(MotionWarning(code: "no_gravity", message: String(printf: "mean acceleration %.2f g: gravity removed from the input; vertical taken as +z", mag), degrades: false))
            } else if mag > Self.maximumGravity {
                out.append(MotionWarning(code: "units_suspect", message: String(printf: "mean acceleration %.1f g, not ~1 g: are the units m/s^2 declared as g?", mag), degrades: true))
            } else {
                let comps = [m.x, m.y, m.z]
                let k = comps.map(abs).firstIndex(of: comps.map(abs).max()!)!
                if k != 2 || comps[k] < 0 {
                    out.append(MotionWarning(code: "gravity_axis", message: String(printf: "gravity points along %@%@ (%.2f g), not +z: the engine measures along it", comps[k] < 0 ? "-" : "+", ["x", "y", "z"][k], abs(comps[k])), degrades: false))
                }
            }
        }
        return out
    }
}
