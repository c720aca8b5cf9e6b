import SkateCore

/// What the ride screen accumulates while a ride plays, for the arrival panel.
public struct RideStats: Hashable, Sendable {
    /// Fastest speed, m/s: the ride engines' own figure (`RideFrame.maxSpeed`, the ride summary's
    /// max speed, windowed over the session's speed baseline with GPS jumps left out) when the
    /// feed gives one; else over windows of at least `speedWindow` seconds of progress along the
    /// route (single fixes carry GPS jitter: a 1 s jump of 3 m reads as 10 km/h extra).
    public var maxSpeed: Double = 0
    /// True once a frame carried the engines' figure (the windowed fallback then stops).
    var engineMax = false
    /// Seconds of ride time a max-speed window spans.
    public static let speedWindow: Double = 2
    /// Start of the current max-speed window: ride time and route metres.
    var anchorT: Double?
    var anchorAlong: Double = 0
    /// Metres ridden per surface class (measured where there is motion, else the plan's class).
    public var metresByClass: [RoughnessClass: Double] = [:]
    /// Route metres at the previous frame.
    public var lastAlong: Double?
    /// Hazards filed (and not undone) during the ride.
    public var hazardsFiled = 0
    public init() {}

    /// Adds a frame: the speed, and the metres since the last frame in the frame's class.
    public mutating func add(_ f: RideFrame) {
        if let m = f.maxSpeed, m.isFinite {
            maxSpeed = m
            engineMax = true
        } else if f.position != nil, !engineMax {
            if let t0 = anchorT {
                if f.t - t0 >= Self.speedWindow {
                    maxSpeed = max(maxSpeed, max(0, f.distanceAlong - anchorAlong) / (f.t - t0))
                    anchorT = f.t; anchorAlong = f.distanceAlong
                }
            } else { anchorT = f.t; anchorAlong = f.distanceAlong }
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
public enum ArrivalPanel {
    /// Label/value rows for a finished ride.
    public static func rows(_ s: RideScreenState) -> [(String, String)] {
        let f = s.frame
        let t = f.t
        let dist = f.distanceAlong
        let avg = t > 0 ? dist / t * 3.6 : 0
        var out: [(String, String)] = [
            ("Time", Format.clock(t)),
            ("Distance", Format.distance(dist)),
            ("Speed", "avg " + String(format1: avg) + " km/h, max " + String(format1: s.stats.maxSpeed * 3.6) + " km/h"),
        ]
        if let p = s.plan?.plan {
            let (climb, descent) = climbDescent(p, upTo: dist)
            out.append(("Climb", p.hasElevation ? "+\(Int(climb.rounded())) m / -\(Int(descent.rounded())) m" : "no elevation data"))
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
        out.append(("Log", s.start.logPath.map { Sanitizer.clean($0) } ?? "not recorded"))
        return out
    }

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
        let labelW = 10
        let valueW = rows.map { DisplayWidth.of($0.1) }.max() ?? 0
        let footer = "Enter: back to plan   Esc: route   q: quit"
        let w = min(area.width, max(labelW + valueW, footer.count) + 4)
        let h = min(area.height, rows.count + 4)
        let box = area.centered(width: w, height: h)
        guard box.width >= 20, box.height >= 5 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Arrived")
        for (i, r) in rows.enumerated() where i < box.height - 4 {
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
