import SkateCore
import SkateRide

/// What the ride screen accumulates while a ride plays, for the arrival panel.
public struct RideStats: Hashable, Sendable {
    /// Fastest speed, m/s, held over `speedWindow` seconds of progress along the route (sliding
    /// windows, one ending at every frame, each starting when its progress was first reached).
    /// Route progress comes from the matcher, snapped to the line, so wander across the street
    /// does not count; what is left of the fix noise along the line (σ ≈ 4 m, correlated) is
    /// divided by the window: the maximum of many 5 s windows still came out 5–7 km/h high on the
    /// bundled descent (31–33 km/h against a planned top of 25), 10 s windows say 27 km/h, where
    /// the session's own 3 s figure says 46.7 from one bad fix. Restamping progress that stood still
    /// while bad fixes were dropped read the catch-up as 40 km/h; samples keep their first time.
    public var maxSpeed: Double = 0
    /// Seconds of ride time a max-speed window spans: long enough to average out the fix noise
    /// (see `maxSpeed`), short enough for a Monaco descent (the steep ones last 15–40 s).
    public static let speedWindow: Double = 10
    /// Recent (ride time, route metres) samples: the oldest at least `speedWindow` old starts the window.
    var progress: [ProgressSample] = []
    /// Metres ridden per surface class (measured where there is motion, else the plan's class).
    public var metresByClass: [RoughnessClass: Double] = [:]
    /// Route metres at the previous frame.
    public var lastAlong: Double?
    /// Hazards filed (and not undone) during the ride.
    public var hazardsFiled = 0
    public init() {}

    struct ProgressSample: Hashable, Sendable { var t: Double; var along: Double }

    /// Adds a frame: the speed, and the metres since the last frame in the frame's class.
    public mutating func add(_ f: RideFrame) {
        if f.position != nil, !f.offRoute {
            // Progress going back (a reroute starts a new route at 0) starts the windows afresh.
            if let last = progress.last, f.distanceAlong < last.along - 1 || f.t < last.t { progress.removeAll() }
            // A sample is stamped when progress last changed: while fixes are dropped progress
            // stands still, and restamping it would read the catch-up as a burst of speed.
            if progress.last.map({ abs($0.along - f.distanceAlong) > 0.01 }) ?? true {
                progress.append(ProgressSample(t: f.t, along: f.distanceAlong))
            }
            while progress.count > 2, f.t - progress[1].t >= Self.speedWindow { progress.removeFirst() }
            if let first = progress.first, f.t - first.t >= Self.speedWindow {
                maxSpeed = max(maxSpeed, max(0, f.distanceAlong - first.along) / (f.t - first.t))
            }
        }
        if let last = lastAlong, let c = f.surface, f.distanceAlong > last {
            metresByClass[c, default: 0] += f.distanceAlong - last
        }
        lastAlong = f.distanceAlong
    }
}

/// The panel shown when a ride ends: time, distance, speeds, climb and descent, crusty metres,
/// braking zones passed, hazards filed, roughness per class and the ride log; Enter goes back to
/// the plan screen.
enum ArrivalPanel {
    /// Label/value rows for a finished ride.
    public static func rows(_ s: RideScreenState) -> [(String, String)] {
        let f = s.frame
        let t = f.t
        let dist = f.distanceAlong
        let avg = t > 0 ? dist / t : 0
        var out: [(String, String)] = [
            // A duration, not a time of day (issue 34 item 7).
            ("Ride time", Format.elapsed(t)),
            ("Distance", Format.distance(dist)),
            ("Speed", "avg " + UnitFormatter.speed(avg, decimals: 1) + ", max " + UnitFormatter.speed(s.stats.maxSpeed, decimals: 1)),
        ]
        if let p = s.plan?.plan {
            let (climb, descent) = climbDescent(p, upTo: dist)
            out.append(("Climb", p.hasElevation ? "+\(UnitFormatter.length(climb)) / -\(UnitFormatter.length(descent))" : "no elevation data"))
            let passed = p.brakingZones.filter { $0.end <= dist + CueBanner.passedTolerance }.count
            out.append(("Braking", "\(passed) of \(p.brakingZones.count) zones passed"))
        }
        out.append(("Crusty", Format.metres(s.stats.metresByClass[.crusty] ?? 0)))
        out.append(("Hazards", "\(s.stats.hazardsFiled) filed"))
        let rough = RoughnessClass.allCases.compactMap { c -> String? in
            guard let m = s.stats.metresByClass[c], m >= 1 else { return nil }
            return c.name + " " + Format.distance(m)
        }
        out.append(("Surface", rough.isEmpty ? "not measured" : rough.joined(separator: ", ")))
        if let b = f.bumpiness { out.append(("Bumpiness", bumpinessText(b, robust: f.robustRMS))) }
        out.append(("Log", s.start.logPath.map { TerminalSafe.clean($0) } ?? "not recorded"))
        // Issue 28: what a recorded ride taught the store (a simulated rider teaches nothing).
        if let l = s.frame.learning { out.append(("Learned", l.text)) }
        return out
    }

    /// "0.095 g (road 0.061 g)": how much the rider was shaken beside the robust roughness of the
    /// road, both in g; or why it was not measured ("degraded motion (gaps)").
    static func bumpinessText(_ b: RideBumpiness, robust: Double?) -> String {
        guard let g = b.rms else {
            return "not measured: " + (b.degraded.map { "degraded motion (\($0))" } ?? "no rolling without pushing or carving")
        }
        return FixedDecimal.string(g, decimals: 3) + " g" + (robust.map { " (road " + FixedDecimal.string($0, decimals: 3) + " g)" } ?? "")
    }

    /// The question about the ride's bumps and its keys (or what the answer did); empty without one.
    public static func promptLines(_ s: RideScreenState) -> [String] {
        guard let p = s.impactPrompt else { return [] }
        return p.answer == nil ? [p.text, promptKeys] : [p.text]
    }

    /// The keys of the bumps question (`KeyMap.standard`: `y` is `.yes`, `c` `.dismissImpacts`).
    static let promptKeys = "y: yes, potholes   c: no, dismiss them"

    /// Climb and descent (m) of the plan's profile up to `along` route metres.
    static func climbDescent(_ p: RoutePlan, upTo along: Double) -> (Double, Double) {
        var up = 0.0, down = 0.0
        let pts = p.profile.filter { $0.distance <= along + 1 }
        for (a, b) in zip(pts, pts.dropFirst()) {
            let d = b.elevation - a.elevation
            if d > 0 { up += d } else { down -= d }
        }
        return (up, down)
    }

    /// Draws the panel centred in `area`.
    public static func render(_ s: RideScreenState, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let rows = rows(s)
        let prompt = promptLines(s)
        let labelW = 10
        let valueW = rows.map { DisplayWidth.of($0.1) }.max() ?? 0
        let footer = "Enter: back to plan   Esc: route   q: quit"
        let promptW = prompt.map { DisplayWidth.of($0) }.max() ?? 0
        let w = min(area.width, max(labelW + valueW, footer.count, promptW) + 4)
        let promptRows = prompt.isEmpty ? 0 : prompt.count + 1
        let h = min(area.height, rows.count + promptRows + 4)
        let box = area.centered(width: w, height: h)
        guard box.width >= 20, box.height >= 5 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Arrived")
        // The question goes first when rows must give way: it waits for an answer.
        let shownRows = max(0, min(rows.count, box.height - 4 - promptRows))
        for (i, line) in prompt.enumerated() {
            let y = box.maxY - 3 - prompt.count + i
            guard y > box.y else { continue }
            buffer.write(line, x: box.x + 2, y: y, style: theme.style(i == 0 && s.impactPrompt?.answer == nil ? .hazard : .hudValue), maxWidth: box.width - 4)
        }
        for (i, r) in rows.enumerated() where i < shownRows {
            let y = box.y + 1 + i
            buffer.write(r.0, x: box.x + 2, y: y, style: theme.style(.hudLabel), maxWidth: labelW)
            // Long values (the log path) keep their end, where the file name is.
            let room = box.width - labelW - 4
            var v = r.1
            if DisplayWidth.of(v) > room, room > 2 { v = theme.glyphs.ellipsis + String(v.suffix(room - 1)) }
            buffer.write(v, x: box.x + 2 + labelW, y: y, style: theme.style(.hudValue), maxWidth: room)
        }
        buffer.write(footer, x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: box.width - 4)
    }
}
