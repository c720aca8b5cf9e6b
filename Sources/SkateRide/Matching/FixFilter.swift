import DequeModule
import FoundationEssentials
import Glibc
import SkateCore

/// Turns raw GPS fixes into what a ride can trust: drops repeated times and implausible jumps,
/// recognises a relocation (several jumps that agree), and measures speed, heading and ridden
/// distance over a few seconds of fixes so GPS wander neither inflates the distance nor the speed.
public struct FixFilter: Sendable {
    /// Seconds of fixes behind the speed and heading estimate: long enough to average out
    /// correlated GPS wander (σ ≈ 4 m), short enough to follow a stop.
    public static let speedBaseline: Double = 3
    /// Default for `maxFixSpeed`: 60 km/h (16.7 m/s). No skater rides that fast on the flat (a
    /// fast downhill is ~40 km/h); a 20–40 m GPS jump between 1 Hz fixes implies 70–140 km/h,
    /// and a 300 m start-up jump far more.
    public static let defaultMaxFixSpeed: Double = 60 / 3.6
    /// Fixes closer in time than this (s) to the last good one are repeats (a file whose points
    /// all carry one timestamp): dropped and counted, never turned into an infinite speed.
    public static let minFixInterval: Double = 0.05
    /// A relocation (a run of agreeing "outliers") within this many seconds of the first fix is a
    /// start-up jump: the receiver's first fixes were the wrong ones.
    public static let startupWindow: Double = 30
    /// Consecutive "outliers" that agree with each other are a real relocation, not noise.
    public static let outlierRunLimit = 3
    /// A speed is taken only over fixes at least this many seconds apart (shorter spans are all noise).
    static let minSpeedSpan: Double = 0.5
    /// The maximum speed is the fastest ridden distance over at least this many seconds: over the
    /// 3 s baseline one bad fix read 46.7 km/h on a bundled descent planned at 25 km/h; over 10 s
    /// of anchor distances it reads 27–29 km/h, as the TUI's route-progress figure does.
    public static let maxSpeedWindow: Double = 10
    /// Metres the fix-to-fix path between two distance anchors may exceed their chord from GPS
    /// wander alone (1 Hz legs wobble ~1 m sideways under σ 3–4 m noise correlated over ~20 s:
    /// ~0.3 m over a 3 s span); beyond it the fixes drew a bend, and its path is the ridden distance.
    public static let bendAllowance: Double = 2
    /// Metres: fix-to-fix legs shorter than this lie within a second's wander (~1 m per axis) of
    /// each other; only a span whose every leg is longer traces its bend (a sparse track's vertices).
    public static let minBendLeg: Double = 3
    /// Degrees: a sharper turn at one fix inside a span is a blip out and back (a 12 m blip across a
    /// 5 m/s ride turns 135°), not a bend; such a span keeps its chord.
    public static let maxBendTurn: Double = 120
    /// A span's longest leg over its shortest: a bend drawn at one riding speed keeps its legs
    /// within 2× of each other; a 12 m blip across a 5 m/s ride makes a 13 m leg beside 5 m ones
    /// (also when the blip is the anchor, where no turn inside the span shows it).
    public static let maxBendLegRatio: Double = 2

    /// A relocation: several fixes agreed on a new place this far (metres) from the last good one.
    public struct Relocation: Sendable, Equatable {
        /// Within `startupWindow` of the first fix: what came before was dropped.
        public var startup: Bool
        public var jump: Double
    }

    /// What the filter made of one fix.
    public enum Outcome: Sendable, Equatable {
        /// At (nearly) the same time as the last good fix: says nothing new; dropped.
        case repeated
        /// An implausible jump from the last good fix: dropped, matches nothing.
        case outlier
        /// Accepted; `addedDistance` metres were ridden since the last distance anchor.
        case accepted(addedDistance: Double, relocation: Relocation?)
    }

    /// Fixes implying more than this speed (m/s) from the last good one are dropped (unless
    /// several agree: a relocation).
    public var maxFixSpeed: Double = FixFilter.defaultMaxFixSpeed

    /// Speed over the last `speedBaseline` seconds, m/s.
    public private(set) var speed = 0.0
    /// Heading over the same fixes, degrees from north; nil when the rider barely moved.
    public private(set) var heading: Double?
    /// Ridden distance, metres.
    public private(set) var distance = 0.0
    /// Largest speed held over `maxSpeedWindow` seconds of ridden distance, m/s (0 for a shorter ride).
    public private(set) var maxSpeed = 0.0
    /// Fixes dropped (repeats, outliers, and those before a start-up jump).
    public private(set) var dropped = 0
    public private(set) var repeatedTime = 0
    public private(set) var gpsJumps = 0
    public private(set) var startupJumps = 0

    private struct FixPoint { var t: Double; var x: Double; var y: Double }
    private var projection: LocalProjection?
    private var recent = Deque<FixPoint>()
    private var lastGood: FixPoint?
    private var distanceAnchor: FixPoint?
    /// Fix-to-fix path (m) since the distance anchor, its shortest and longest legs (m), its
    /// sharpest turn (degrees) and its last leg (local metres), for `spanDistance`.
    private var spanPath = 0.0
    private var spanShortestLeg = Double.infinity
    private var spanLongestLeg = 0.0
    private var spanMaxTurn = 0.0
    private var spanLastLeg: (x: Double, y: Double)?
    private var outlierRun = 0
    private var firstFixTime: Double?
    private var accepted = 0
    /// (ride time, distance) at each distance anchor within the last `maxSpeedWindow` seconds and one before.
    private var marks = Deque<(t: Double, d: Double)>()

    public init(maxFixSpeed: Double = FixFilter.defaultMaxFixSpeed) { self.maxFixSpeed = maxFixSpeed }

    /// Takes one fix at ride time `t` (seconds).
    public mutating func push(_ c: Coordinate, t: Double) -> Outcome {
        let proj = projection ?? LocalProjection(origin: c)
        projection = proj
        let p = proj.project(c)
        let here = FixPoint(t: t, x: p.x, y: p.y)
        if firstFixTime == nil { firstFixTime = t }
        if let g = lastGood, t - g.t < Self.minFixInterval {
            dropped += 1
            repeatedTime += 1
            return .repeated
        }
        var relocation: Relocation?
        if let g = lastGood {
            let d = hypot(here.x - g.x, here.y - g.y)
            if d / (t - g.t) > maxFixSpeed {
                guard outlierRun + 1 >= Self.outlierRunLimit else {
                    outlierRun += 1
                    dropped += 1
                    return .outlier
                }
                // Several fixes agree on the new place: a relocation. The jump itself is not
                // ridden distance and no speed may be taken across it.
                outlierRun = 0
                relocation = Relocation(startup: t - (firstFixTime ?? t) <= Self.startupWindow, jump: d)
            } else {
                outlierRun = 0
            }
        }
        if let r = relocation {
            gpsJumps += 1
            if r.startup {
                // The first fixes were the wrong ones: forget what they added.
                startupJumps += 1
                dropped += accepted
                distance = 0
                maxSpeed = 0
            }
            recent.removeAll()
            marks.removeAll()
            distanceAnchor = nil
            lastGood = nil
            resetSpan()
            speed = 0
            heading = nil
        }
        accepted += 1
        // Distance over anchors ≥ speedBaseline apart (chords, or the path over a bend): fix-to-fix
        // sums would add the GPS wander.
        var added = 0.0
        if let a = distanceAnchor {
            if let g = lastGood { extendSpan(from: g, to: here) }
            if t - a.t >= Self.speedBaseline - 1e-9 {
                added = spanDistance(from: a, to: here)
                distance += added
                distanceAnchor = here
                mark(t)
            }
        } else {
            distanceAnchor = here
            mark(t)
        }
        lastGood = here
        recent.append(here)
        while let first = recent.first, t - first.t > Self.speedBaseline + 1e-9, recent.count > 2 { recent.removeFirst() }
        if let first = recent.first, t - first.t > Self.minSpeedSpan {
            let d = hypot(here.x - first.x, here.y - first.y)
            speed = d / (t - first.t)
            heading = d >= RouteMatcher.minHeadingMove ? Geo.bearing(proj.unproject(x: first.x, y: first.y), c) : nil
        }
        return .accepted(addedDistance: added, relocation: relocation)
    }

    /// Ends the ride: the stretch from the last distance anchor to the last good fix, metres (added to `distance`).
    public mutating func finish() -> Double {
        guard let a = distanceAnchor, let g = lastGood, g.t > a.t else { return 0 }
        let d = spanDistance(from: a, to: g)
        distance += d
        distanceAnchor = g
        mark(g.t)
        return d
    }

    /// Adds the leg from the last good fix to `here` to the span since the distance anchor.
    private mutating func extendSpan(from g: FixPoint, to here: FixPoint) {
        let leg = (x: here.x - g.x, y: here.y - g.y)
        let length = hypot(leg.x, leg.y)
        spanPath += length
        spanShortestLeg = min(spanShortestLeg, length)
        spanLongestLeg = max(spanLongestLeg, length)
        if let p = spanLastLeg {
            let turn = abs(atan2(p.x * leg.y - p.y * leg.x, p.x * leg.x + p.y * leg.y)) * 180 / .pi
            spanMaxTurn = max(spanMaxTurn, turn)
        }
        spanLastLeg = leg
    }

    /// Ridden metres from anchor `a` to fix `b`, and a new span: the chord (fix-to-fix sums would
    /// add the wander), unless the fixes between drew a bend (`bendAllowance`, `minBendLeg`,
    /// `maxBendLegRatio`, `maxBendTurn`): then their path, so a sparse track's hairpin is not cut short.
    private mutating func spanDistance(from a: FixPoint, to b: FixPoint) -> Double {
        let chord = hypot(b.x - a.x, b.y - a.y)
        let bend = spanPath - chord > Self.bendAllowance && spanShortestLeg >= Self.minBendLeg
            && spanLongestLeg <= Self.maxBendLegRatio * spanShortestLeg && spanMaxTurn <= Self.maxBendTurn
        let d = bend ? spanPath : chord
        resetSpan()
        return d
    }

    private mutating func resetSpan() {
        spanPath = 0; spanShortestLeg = .infinity; spanLongestLeg = 0; spanMaxTurn = 0; spanLastLeg = nil
    }

    /// Records the distance at an anchor and takes the speed over the window ending there.
    private mutating func mark(_ t: Double) {
        marks.append((t, distance))
        while marks.count > 2, t - marks[1].t >= Self.maxSpeedWindow - 1e-9 { marks.removeFirst() }
        if let first = marks.first, t - first.t >= Self.maxSpeedWindow - 1e-9 {
            maxSpeed = max(maxSpeed, (distance - first.d) / (t - first.t))
        }
    }
}
