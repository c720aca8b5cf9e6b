import FoundationEssentials
import Glibc
import SkateCore

/// Turns progress along a plan into cues: turns ahead and imminent, coalesced turns, braking
/// zones, hazards ahead and the arrival. Feed it the rider's progress on every fix and every
/// 100 ms tick (dead-reckoned between fixes); it returns the cues due at that moment, each once.
///
/// Turn cue distances scale with speed so each leaves at least `minimumLeadSeconds`:
/// `near = max(nearDistance, v × 3 s)` and `far = max(farDistance, near + v × 3 s)`.
/// Turns closer than `max(coalesceDistance, v × coalesceSeconds)` to the next one are announced
/// together ("Turn left onto X, then right onto Y") and the second one's far cue is dropped.
/// A distance under `nowDistance` reads "now": no cue ever says "in 0 m".
public struct CueEngine: Sendable {
    /// Nominal far cue distance (m): BRouter/OsmAnd-style ~40 m ahead at skating speed.
    public static let farDistance: Double = 40
    /// Nominal near ("turn now") cue distance (m).
    public static let nearDistance: Double = 15
    /// Each cue leaves at least this many seconds before the next event (s).
    public static let minimumLeadSeconds: Double = 3
    /// Turns whose gap is under this many metres are announced together.
    public static let coalesceDistance: Double = 25
    /// …or under this many seconds at the current speed.
    public static let coalesceSeconds: Double = 5
    /// Hazards are announced this far ahead (m).
    public static let hazardAhead: Double = 50
    /// Braking cues come this many seconds before the zone starts (at least `brakingLeadMin` metres).
    public static let brakingLeadSeconds: Double = 3
    public static let brakingLeadMin: Double = 10
    /// Under this distance (m) a cue says "now" instead of a distance.
    public static let nowDistance: Double = 10
    /// Distances in texts are rounded to this step (m).
    public static let textRounding: Double = 5
    /// A maneuver passed by more than this (m) is never announced any more.
    public static let passedTolerance: Double = 3

    struct Maneuver {
        var step: Int
        var at: Double
        var maneuver: SkateCore.Maneuver
        /// The step's own instruction ("Turn left onto X", "Turn right and walk down 16 steps"):
        /// a cue says what the step list says.
        var text: String
        var farDone = false
        var nearDone = false
    }

    private var maneuvers: [Maneuver]
    private var nextManeuver = 0
    private let zones: [BrakingZone]
    private var zoneDone: [Bool]
    private let hazards: [(distance: Double, hazard: EdgeHazard)]
    private var hazardDone: [Bool]
    private let end: Double
    private let lastStep: Int
    private var arrived = false
    private let stepStarts: [Double]

    /// - Parameters:
    ///   - plan: the route being ridden.
    ///   - hazards: hazards on the route with their distance from the start (see `RouteLine.hazardPositions`).
    public init(plan: RoutePlan, hazards: [(distance: Double, hazard: EdgeHazard)] = []) {
        maneuvers = plan.steps.filter { $0.index > 0 && $0.maneuver.isTurn }.map {
            Maneuver(step: $0.index, at: $0.startDistance, maneuver: $0.maneuver, text: $0.instruction)
        }
        zones = plan.brakingZones
        zoneDone = Array(repeating: false, count: plan.brakingZones.count)
        self.hazards = hazards
        hazardDone = Array(repeating: false, count: hazards.count)
        end = plan.distance
        lastStep = max(0, plan.steps.count - 1)
        stepStarts = plan.steps.map(\.startDistance)
    }

    /// The near cue distance (m) at speed `v` (m/s).
    public static func nearThreshold(speed v: Double) -> Double { max(nearDistance, max(0, v) * minimumLeadSeconds) }
    /// The far cue distance (m) at speed `v` (m/s).
    public static func farThreshold(speed v: Double) -> Double {
        max(farDistance, nearThreshold(speed: v) + max(0, v) * minimumLeadSeconds)
    }

    /// "in 40 m" or "now"; metric unless `system` says otherwise, as cue text is logged (logs
    /// stay metric) — the TUI rewrites the phrase in the active units when it shows a cue.
    public static func distanceText(_ d: Double, in system: UnitSystem = .metric) -> String {
        guard d >= nowDistance else { return "now" }
        let r = max(nowDistance, (d / textRounding).rounded() * textRounding)
        return "in " + UnitFormatter.length(r, in: system)
    }

    /// "right onto Y" for the second half of a coalesced cue.
    static func thenPhrase(_ m: Maneuver) -> String {
        var p = m.text
        if p.hasPrefix("Turn ") { p.removeFirst(5) } else { p = p.prefix(1).lowercased() + p.dropFirst() }
        return p
    }

    private func coalesces(_ i: Int, speed v: Double) -> Bool {
        guard i + 1 < maneuvers.count else { return false }
        let gap = maneuvers[i + 1].at - maneuvers[i].at
        return gap <= max(Self.coalesceDistance, max(0, v) * Self.coalesceSeconds)
    }

    /// The cues due now.
    /// - Parameters:
    ///   - progress: metres along the route.
    ///   - speed: the rider's speed in m/s.
    ///   - time: ride time in seconds.
    public mutating func update(progress s: Double, speed v: Double, time t: Double) -> [Cue] {
        var out: [Cue] = []
        while nextManeuver < maneuvers.count, maneuvers[nextManeuver].at < s - Self.passedTolerance { nextManeuver += 1 }
        let near = Self.nearThreshold(speed: v), far = Self.farThreshold(speed: v)
        var i = nextManeuver
        while i < maneuvers.count {
            let d = maneuvers[i].at - s
            if d > far { break }
            let m = maneuvers[i]
            let then = coalesces(i, speed: v) ? ", then " + Self.thenPhrase(maneuvers[i + 1]) : ""
            if !m.nearDone && d <= near {
                maneuvers[i].nearDone = true; maneuvers[i].farDone = true
                let dd = max(0, d)
                out.append(Cue(t: t, kind: .turnNow, step: m.step, distance: dd,
                               text: "\(m.text) \(Self.distanceText(dd))\(then)"))
                if !then.isEmpty { maneuvers[i + 1].farDone = true }
            } else if !m.farDone && d > near {
                maneuvers[i].farDone = true
                out.append(Cue(t: t, kind: .turn, step: m.step, distance: d,
                               text: "\(m.text) \(Self.distanceText(d))\(then)"))
                if !then.isEmpty { maneuvers[i + 1].farDone = true }
            }
            i += 1
        }
        for k in zones.indices where !zoneDone[k] {
            let z = zones[k]
            if s >= z.end { zoneDone[k] = true; continue }
            let lead = max(Self.brakingLeadMin, max(0, v) * Self.brakingLeadSeconds)
            guard s >= z.start - lead else { continue }
            zoneDone[k] = true
            let d = max(0, z.start - s)
            let what = z.level == .braking ? "Brake" : "Control your speed"
            let grade = String(printf: "%.0f", z.gradePct)
            out.append(Cue(t: t, kind: .braking, step: stepAt(z.start), distance: d,
                           text: "\(what): \(grade) % downhill for \(Int((z.end - max(s, z.start)).rounded())) m \(d >= Self.nowDistance ? Self.distanceText(d) : "from here")"))
        }
        for k in hazards.indices where !hazardDone[k] {
            let d = hazards[k].distance - s
            if d < -Self.passedTolerance { hazardDone[k] = true; continue }
            guard d <= Self.hazardAhead else { continue }
            hazardDone[k] = true
            let h = hazards[k].hazard
            let dd = max(0, d)
            out.append(Cue(t: t, kind: .hazard, step: stepAt(hazards[k].distance), distance: dd,
                           text: "\(h.kind.prefix(1).uppercased() + h.kind.dropFirst()) ahead \(Self.distanceText(dd))"))
        }
        if !arrived, end - s <= near {
            arrived = true
            let d = max(0, end - s)
            out.append(Cue(t: t, kind: .arrive, step: lastStep, distance: d,
                           text: d >= Self.nowDistance ? "Destination \(Self.distanceText(d))" : "Arrived at destination"))
        }
        return out
    }

    private func stepAt(_ s: Double) -> Int {
        var best = 0
        for (k, a) in stepStarts.enumerated() where a <= s && k < lastStep { best = k }
        return best
    }
}
