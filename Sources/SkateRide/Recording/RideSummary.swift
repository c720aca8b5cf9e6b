import FoundationEssentials
import Glibc
import SkateCore

/// Measured roughness and events of one map edge over a ride (all passes).
public struct EdgeRoughness: Sendable, Equatable, Codable {
    /// Edge index in the ride's map.
    public var edge: Int
    /// OSM way id and the OSM node ids of the edge's ends (`edgeFrom`, `edgeTo`).
    public var wayId: Int64 = 0
    public var fromNode: Int64 = 0
    public var toNode: Int64 = 0
    /// Passes over the edge with motion.
    public var passes = 0
    /// Events (short transients) on the edge, all passes.
    public var events = 0
    /// Clean 10 Hz windows behind the figure.
    public var windows = 0
    /// Robust RMS (g, speed-normalised) of each pass that had enough clean windows.
    public var passRMS: [Double] = []

    public init(edge: Int) { self.edge = edge }

    /// Median of the passes' robust RMS, g (nil without a measured pass).
    public var rms: Double? {
        guard !passRMS.isEmpty else { return nil }
        let v = passRMS.sorted()
        return v.count % 2 == 1 ? v[v.count / 2] : (v[v.count / 2 - 1] + v[v.count / 2]) / 2
    }

    enum CodingKeys: String, CodingKey {
        case edge, passes, events, windows
        case wayId = "way", fromNode = "from_node", toNode = "to_node"
        case passRMS = "pass_rms_g"
        case rms = "rms_g", roughnessClass = "class"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        edge = try c.decode(Int.self, forKey: .edge)
        wayId = try c.decode(Int64.self, forKey: .wayId)
        fromNode = try c.decode(Int64.self, forKey: .fromNode)
        toNode = try c.decode(Int64.self, forKey: .toNode)
        passes = try c.decode(Int.self, forKey: .passes)
        events = try c.decode(Int.self, forKey: .events)
        windows = try c.decode(Int.self, forKey: .windows)
        passRMS = try c.decode([Double].self, forKey: .passRMS)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(edge, forKey: .edge)
        try c.encode(wayId, forKey: .wayId)
        try c.encode(fromNode, forKey: .fromNode)
        try c.encode(toNode, forKey: .toNode)
        try c.encode(passes, forKey: .passes)
        try c.encode(events, forKey: .events)
        try c.encode(windows, forKey: .windows)
        try c.encode(passRMS.map { RideSummary.round($0, 4) }, forKey: .passRMS)
        try c.encode(rms.map { RideSummary.round($0, 4) }, forKey: .rms)
        try c.encode(rms.map { RoughnessClass(rms: $0).name }, forKey: .roughnessClass)
    }
}

/// The end-of-ride figures. Encodes with the CLI's JSON keys.
public struct RideSummary: Sendable, Equatable, Codable {
    /// Ride time from the first to the last input, seconds.
    public var duration: Double
    /// Distance ridden (fix to fix, outliers left out), metres.
    public var distance: Double
    /// Mean speed over the ride, m/s.
    public var averageSpeed: Double
    /// Highest speed over a few seconds, m/s.
    public var maxSpeed: Double
    /// Share of fixes that matched the route (0 on a free ride).
    public var matchedFraction: Double
    /// Number of reroutes.
    public var reroutes: Int
    /// Seconds from the first fix beyond 25 m to each reroute.
    public var rerouteLatencies: [Double]
    /// Every cue of the ride.
    public var cues: [Cue]
    /// Metres ridden per measured roughness class (planned class when there is no motion).
    public var metresByClass: [String: Double]
    /// Fixes and motion samples read.
    public var fixes: Int
    public var motionSamples: Int
    /// Roughness observations sent to the sink (edge passes).
    public var edgeObservations: Int
    /// Repairs and skipped input.
    public var warnings: [String]
    /// The ride log, if one was written.
    public var logPath: String?
    /// Fixes dropped: implausible jumps (> `maxFixSpeed`), repeated times, the wrong first fixes
    /// before a start-up jump.
    public var droppedFixes = 0
    /// Relocations (several fixes agreeing on a far-away position), start-up jumps included.
    public var gpsJumps = 0
    /// The speed limit applied to fixes, m/s.
    public var maxFixSpeed = FixFilter.defaultMaxFixSpeed
    /// Events (short transients) measured over the ride.
    public var events = 0
    /// Events per minute of ride with motion, nil without motion.
    public var eventsPerMinute: Double?
    /// Events per 100 m ridden, nil without motion or distance.
    public var eventsPer100m: Double?
    /// Measured roughness and events per edge, in first-ridden order.
    public var edges: [EdgeRoughness] = []
    /// The motion stream was (at times) stuck: those stretches were not measured.
    public var motionDegraded = false
    /// Seconds not auto-paused (see `AutoPause`), nil when no position was ever known; `duration` is the elapsed time.
    public var movingTime: Double?
    /// How many times the recording auto-paused.
    public var autoPauses: Int?
    /// What became of the ride's impacts for learning (present when the ride learns, or when
    /// a flood or the cap withheld some).
    public var impacts: ImpactLearningReport?
    /// The ride's robust roughness: the median (g, to 0.1 mg) of its clean speed-normalised 10 Hz
    /// windows (impacts and stuck stretches left out; `RideRoughnessMedian`); nil without motion.
    public var robustRMS: Double?
    /// Bumpiness beside it (issue 28): impacts and body motion in every band, while rolling and
    /// neither pushing nor carving, or why a degraded stream has none; nil without motion.
    public var bumpiness: RideBumpiness?

    enum CodingKeys: String, CodingKey {
        case duration = "duration_s"
        case distance = "distance_m"
        case averageSpeed = "average_speed_mps"
        case maxSpeed = "max_speed_mps"
        case matchedFraction = "matched_fraction"
        case reroutes
        case rerouteLatencies = "reroute_latency_s"
        case cues
        case metresByClass = "metres_by_class"
        case fixes, warnings
        case motionSamples = "motion_samples"
        case edgeObservations = "edge_observations"
        case logPath = "log_path"
        case droppedFixes = "dropped_fixes"
        case gpsJumps = "gps_jumps"
        case maxFixSpeed = "max_fix_speed_mps"
        case events
        case eventsPerMinute = "events_per_min"
        case eventsPer100m = "events_per_100m"
        case edges
        case motionDegraded = "motion_degraded"
        case movingTime = "moving_s"
        case autoPauses = "auto_pauses"
        case impacts
        case robustRMS = "robust_rms_g"
        case bumpiness
    }

    /// Sorted-key JSON with numbers rounded for stable output (`rounded()`), with its `schema`
    /// (`skateroute.ride/1`). The ride log's summary line holds the same object.
    public func json() throws -> String {
        try JSONText.text(of: SchemaTagged("ride", rounded()), pretty: true)
    }

    /// The figures as written: durations to 0.01 s, distances to 0.1 m, speeds to 0.01 m/s,
    /// fractions to 1e-4, rates to 0.01.
    public func rounded() -> RideSummary {
        var copy = self
        copy.duration = Self.round(duration, 2); copy.distance = Self.round(distance, 1)
        copy.averageSpeed = Self.round(averageSpeed, 2); copy.maxSpeed = Self.round(maxSpeed, 2)
        copy.matchedFraction = Self.round(matchedFraction, 4)
        copy.rerouteLatencies = rerouteLatencies.map { Self.round($0, 2) }
        copy.metresByClass = metresByClass.mapValues { Self.round($0, 1) }
        copy.cues = cues.map { var c = $0; c.t = Self.round(c.t, 2); c.distance = Self.round(c.distance, 1); return c }
        copy.maxFixSpeed = Self.round(maxFixSpeed, 2)
        copy.eventsPerMinute = eventsPerMinute.map { Self.round($0, 2) }
        copy.eventsPer100m = eventsPer100m.map { Self.round($0, 2) }
        copy.movingTime = movingTime.map { Self.round($0, 2) }
        copy.robustRMS = robustRMS.map { Self.round($0, 4) }
        copy.bumpiness = bumpiness?.rounded()
        return copy
    }

    static func round(_ x: Double, _ d: Int) -> Double {
        guard x.isFinite else { return 0 }
        let p = pow(10, Double(d))
        let v = (x * p).rounded() / p
        return v == 0 ? 0 : v
    }

    /// A few readable lines.
    public func text() -> String {
        var lines: [String] = []
        let m = Int(duration) / 60, s = Int(duration.rounded()) % 60
        lines.append(String(printf: "ride: %d min %02d s, ", m, s) + (UnitSystem.active == .metric ? String(printf: "%.2f km", distance / 1000) : UnitFormatter.distance(distance, decimals: 2)) + ", average "
                     + UnitFormatter.speed(averageSpeed, decimals: 1) + ", max " + UnitFormatter.speed(maxSpeed, decimals: 1))
        if let mv = movingTime {
            let mm = Int(mv) / 60, ms = Int(mv.rounded()) % 60
            lines.append(String(printf: "moving: %d min %02d s of %d min %02d s elapsed (%d auto-pause%@)", mm, ms, m, s, autoPauses ?? 0,
                                (autoPauses ?? 0) == 1 ? "" : "s"))
        }
        lines.append(String(printf: "fixes %d, motion samples %d, matched %.1f %%", fixes, motionSamples, matchedFraction * 100))
        let lat = rerouteLatencies.map { String(printf: "%.1f s", $0) }.joined(separator: ", ")
        lines.append("reroutes: \(reroutes)" + (lat.isEmpty ? "" : " (latency \(lat))"))
        let metric = UnitSystem.active == .metric
        let classes = RoughnessClass.allCases.map { c in
            "\(c.name) " + (metric ? String(printf: "%.0f m", metresByClass[c.name] ?? 0) : UnitFormatter.length(metresByClass[c.name] ?? 0))
        }.joined(separator: ", ")
        lines.append("surface: \(classes)")
        if droppedFixes > 0 || gpsJumps > 0 {
            let over = metric ? String(printf: "%.0f km/h", maxFixSpeed * 3.6) : UnitFormatter.speed(maxFixSpeed)
            lines.append(String(printf: "gps: %d fix(es) dropped (over %@, repeated times or before a start-up jump), %d jump(s)", droppedFixes, over, gpsJumps))
        }
        if motionSamples > 0 {
            var e = "events: \(events)"
            if let m = eventsPerMinute { e += String(printf: " (%.1f per min", m) + (eventsPer100m.map { String(printf: ", %.1f per 100 m", $0) } ?? "") + ")" }
            if motionDegraded { e += "; motion stream stuck at times: those stretches not measured" }
            lines.append(e)
        }
        if let b = bumpiness {
            var line = "roughness: robust " + (robustRMS.map { String(printf: "%.3f g", $0) } ?? "not measured")
            if let g = b.rms {
                line += String(printf: ", bumpiness %.3f g (%.0f s rolling counted, %.0f s pushing or carving left out)", g, b.countedSeconds, b.bodyMotionSeconds)
            } else {
                line += ", bumpiness not measured: " + (b.degraded.map { "degraded motion (\($0))" } ?? "no rolling without pushing or carving")
            }
            lines.append(line)
        }
        if let i = impacts {
            var line = "impacts learned: \(i.learned)"
            var not: [String] = []
            if i.inTrain > 0 { not.append("\(i.inTrain) in trains") }
            if i.onsets > 0 { not.append("\(i.onsets) at a rougher surface's onset") }
            if i.offEdge > 0 { not.append("\(i.offEdge) off the map's edges") }
            if i.capped > 0 { not.append("\(i.capped) over the cap") }
            if !not.isEmpty { line += " (not: " + not.joined(separator: ", ") + ")" }
            if let w = i.withheld { line += "; withheld: \(w)" }
            lines.append(line)
        }
        let measured = edges.filter { $0.rms != nil || $0.events > 0 }
        if !measured.isEmpty { lines.append("edges measured: \(measured.count)") }
        lines.append("cues: \(cues.count)")
        for c in cues {
            let kind = c.kind.rawValue.padded(toLength: 9)
            lines.append(String(printf: "  %7.1f s  ", c.t) + kind + " " + c.text)
        }
        for w in warnings { lines.append("warning: \(w)") }
        if let p = logPath { lines.append("log: \(p)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
