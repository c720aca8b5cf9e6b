import FoundationEssentials
import Glibc
import SkateCore

/// The direction of the next maneuver, as the HUD and cue banner draw it. The ride screen maps
/// the router's maneuver type onto it.
public enum ManeuverArrow: String, Hashable, Sendable, CaseIterable {
    case straight, slightLeft, left, sharpLeft, slightRight, right, sharpRight, uTurn, arrive, depart

    public func glyph(_ g: GlyphMode) -> String {
        g == .unicode ? glyphs.unicode : glyphs.ascii
    }

    /// The arrow's Unicode and ASCII glyph, side by side.
    private var glyphs: (unicode: String, ascii: String) {
        switch self {
        case .straight, .depart: return ("↑", "^")
        case .slightLeft: return ("↖", "\\")
        case .left: return ("←", "<")
        case .sharpLeft: return ("↙", "<<")
        case .slightRight: return ("↗", "/")
        case .right: return ("→", ">")
        case .sharpRight: return ("↘", ">>")
        case .uTurn: return ("↶", "U")
        case .arrive: return ("◎", "@")
        }
    }
}

/// The next maneuver as the HUD shows it.
public struct ManeuverInfo: Hashable, Sendable {
    public var arrow: ManeuverArrow
    /// Distance to the maneuver in metres.
    public var distanceMetres: Double
    /// Street after the maneuver (sanitised by the widget).
    public var street: String
    /// Seconds to the maneuver at the present pace, nil when unknown.
    public var seconds: Double?
    public init(arrow: ManeuverArrow, distanceMetres: Double, street: String, seconds: Double? = nil) {
        self.arrow = arrow; self.distanceMetres = distanceMetres; self.street = street; self.seconds = seconds
    }
}

/// The next thing on the route a skater must act on besides turns.
public struct AheadInfo: Hashable, Sendable {
    /// "BRAKE", "caution", "stairs".
    public var what: String
    /// Metres to it (0 when already in it).
    public var distanceMetres: Double
    public var role: PaletteRole
    public init(what: String, distanceMetres: Double, role: PaletteRole) { self.what = what; self.distanceMetres = distanceMetres; self.role = role }
}

/// Everything the ride HUD shows; nil fields show "–".
public struct HUDData: Hashable, Sendable {
    /// Speed in km/h.
    public var speedKmh: Double?
    /// Stability 0…1 (1 = perfectly steady).
    public var stability: Double?
    /// Grade here in percent (negative downhill).
    public var gradePercent: Double?
    public var surface: RoughnessClass?
    public var braking: BrakingLevel
    public var next: ManeuverInfo?
    /// Distance left in metres.
    public var distanceLeftMetres: Double?
    /// Time left in seconds.
    public var etaSeconds: Double?
    /// Time since the ride started in seconds.
    public var rideClockSeconds: Double
    /// Simulation speed factor (1 = real time).
    public var simSpeed: Double
    public var paused: Bool
    public var recording: Bool
    /// The maneuver after the next one.
    public var then: ManeuverInfo?
    /// The next braking zone or stairs.
    public var ahead: AheadInfo?
    /// Seconds left in real (wall) time when the simulation runs faster or slower than real
    /// time; nil at ×1 or when unknown. The ETA itself is ride time (issue 34 item 7).
    public var realSecondsLeft: Double?

    public init(speedKmh: Double? = nil, stability: Double? = nil, gradePercent: Double? = nil, surface: RoughnessClass? = nil,
                braking: BrakingLevel = .none, next: ManeuverInfo? = nil, distanceLeftMetres: Double? = nil, etaSeconds: Double? = nil,
                rideClockSeconds: Double = 0, simSpeed: Double = 1, paused: Bool = false, recording: Bool = false,
                then: ManeuverInfo? = nil, ahead: AheadInfo? = nil, realSecondsLeft: Double? = nil) {
        self.speedKmh = speedKmh; self.stability = stability; self.gradePercent = gradePercent; self.surface = surface
        self.braking = braking; self.next = next; self.distanceLeftMetres = distanceLeftMetres; self.etaSeconds = etaSeconds
        self.rideClockSeconds = rideClockSeconds; self.simSpeed = simSpeed; self.paused = paused; self.recording = recording
        self.then = then; self.ahead = ahead; self.realSecondsLeft = realSecondsLeft
    }
}

/// Number formats shared by widgets.
public enum Format {
    /// "42 m", "850 m" (10 m steps from 100 m), "2.4 km" above; imperial: `UnitFormatter`'s
    /// "420 ft", "0.7 mi".
    public static func distance(_ m: Double) -> String {
        guard m.isFinite else { return "–" }
        if UnitSystem.active == .imperial { return UnitFormatter.distance(m) }
        if m < 100 { return "\(Int(m.rounded())) m" }
        if m < 1000 { return "\(Int((m / 10).rounded()) * 10) m" }
        return String(format1: m / 1000) + " km"
    }

    /// "h:mm:ss" or "m:ss".
    public static func clock(_ s: Double) -> String {
        guard s.isFinite, s >= 0 else { return "–" }
        let t = Int(s.rounded(.down))
        let h = t / 3600, m = (t / 60) % 60, sec = t % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(sec))" : "\(m):\(two(sec))"
    }

    /// "45 s", "12 min", "1 h 05".
    public static func duration(_ s: Double) -> String {
        guard s.isFinite, s >= 0 else { return "–" }
        if s < 60 { return "\(Int(s.rounded())) s" }
        let m = Int((s / 60).rounded())
        if m < 60 { return "\(m) min" }
        return "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60)"
    }

    /// "45 s", "13 min 31 s", "1 h 05 min": an elapsed time that cannot be read as a clock.
    public static func elapsed(_ s: Double) -> String {
        guard s.isFinite, s >= 0 else { return "–" }
        let t = Int(s.rounded())
        if t < 60 { return "\(t) s" }
        if t < 3600 { return "\(t / 60) min \(t % 60) s" }
        let m = (t / 60) % 60
        return "\(t / 3600) h \(m < 10 ? "0" : "")\(m) min"
    }

    /// Simulation speed as "×0.25", "×1", "×60" ("x" in ASCII).
    public static func simSpeed(_ f: Double, glyphs: GlyphMode = .unicode) -> String {
        if f == f.rounded() { return glyphs.times + "\(Int(f))" }
        var s = String(f)
        while s.hasSuffix("0") { s.removeLast() }
        return glyphs.times + s
    }
}

extension String {
    /// One decimal, locale-independent.
    init(format1 v: Double) {
        let r = (v * 10).rounded() / 10
        let whole = Int(r.magnitude.rounded(.towardZero))
        let tenth = Int(((r.magnitude - Double(whole)) * 10).rounded())
        self = (r < 0 ? "-" : "") + "\(whole).\(tenth)"
    }
}

/// The ride HUD: a column of label/value rows.
enum HUDWidget {
    /// "18:32": hours and minutes of `date` in the local time zone.
    public static func clockTime(_ date: Date, timeZone: TimeZone = .current) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        let c = cal.dateComponents([.hour, .minute], from: date)
        let h = c.hour ?? 0, m = c.minute ?? 0
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// Cells of the stability bar.
    public static let barWidth = 10
    /// Width the HUD is designed for (it clips gracefully when narrower).
    public static let preferredWidth = 28
    /// Width on small terminals (under `roomyColumns`… `smallColumns`): the map keeps the room.
    public static let smallWidth = 22
    /// Width on wide terminals: street names in full.
    public static let wideWidth = 36
    /// Terminal widths where the HUD narrows or widens.
    static let smallColumns = 80, roomyColumns = 120

    /// The HUD's width on a terminal `columns` wide (issue 34 item 4: it shrinks on small
    /// terminals and grows where names need it).
    public static func width(columns: Int) -> Int {
        columns < smallColumns ? smallWidth : (columns >= roomyColumns ? wideWidth : preferredWidth)
    }

    /// Draws the HUD into `area` (cleared first).
    /// - Returns: the first row below what was written.
    @discardableResult
    public static func render(_ d: HUDData, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) -> Int {
        guard !area.isEmpty else { return area.y }
        buffer.fill(area)
        let label = theme.style(.hudLabel), value = theme.style(.hudValue)
        let labelW = 9
        var y = area.y
        let u = theme.glyphs == .unicode
        func row(_ name: String, _ parts: [(String, CellStyle)]) {
            guard y < area.maxY else { return }
            buffer.write(name, x: area.x + 1, y: y, style: label, maxWidth: labelW)
            var x = area.x + 1 + labelW
            for (text, style) in parts where x < area.maxX {
                x += buffer.write(text, x: x, y: y, style: style, maxWidth: area.maxX - x)
            }
            y += 1
        }
        let dash = theme.glyphs.unknown
        // Names wrap by words onto at most `nameRows` rows under their label.
        let nameRows = 2
        func names(_ text: String) {
            for line in PlanScreen.wrap(TerminalSafe.clean(text), width: max(1, area.width - labelW - 2)).prefix(nameRows) {
                row("", [(line, theme.style(.text))])
            }
        }
        row("SPEED", [(d.speedKmh.map { String(format1: UnitFormatter.speedValue($0 / 3.6)) } ?? dash, value), (" " + UnitFormatter.speedUnit(), label)])
        if let s = d.stability {
            let f = min(1, max(0, s))
            // A narrow panel (small terminals) shortens the bar so the percentage still shows.
            let cells = max(3, min(barWidth, area.width - labelW - 6))
            let filled = Int((f * Double(cells)).rounded())
            let bar = String(repeating: u ? "█" : "#", count: filled) + String(repeating: u ? "░" : ".", count: cells - filled)
            let role: PaletteRole = f >= 0.7 ? .okay : (f >= 0.4 ? .meh : .crusty)
            row("STABLE", [(bar, theme.style(role)), (" \(Int((f * 100).rounded()))%", value)])
        } else { row("STABLE", [(dash, value)]) }
        if let g = d.gradePercent {
            let role: PaletteRole = d.braking == .braking ? .braking : (d.braking == .caution ? .caution : .hudValue)
            row("GRADE", [((g > 0 ? "+" : "") + String(format1: g) + " %", theme.style(role))])
        } else { row("GRADE", [(dash, value)]) }
        if let s = d.surface {
            let ink = theme.routeInk(s)
            row("SURFACE", [(theme.sample(ink), ink.style), (" " + s.name, value)])
        } else { row("SURFACE", [(dash, value)]) }
        if let n = d.next {
            var secs = n.seconds.map { "  " + Format.duration($0) } ?? ""
            // The seconds go when the panel is too narrow for them whole.
            if 2 + DisplayWidth.of(Format.distance(n.distanceMetres)) + DisplayWidth.of(secs) > area.width - labelW - 1 { secs = "" }
            row("NEXT", [(n.arrow.glyph(theme.glyphs), value), (" " + Format.distance(n.distanceMetres), value), (secs, label)])
            names(n.street)
        } else { row("NEXT", [(dash, value)]) }
        if let t = d.then {
            row("THEN", [(t.arrow.glyph(theme.glyphs), value), (" " + Format.distance(t.distanceMetres), value)])
            names(t.street)
        }
        if let a = d.ahead {
            row("AHEAD", [(a.what, theme.style(a.role)), (" " + (a.distanceMetres < 1 ? "now" : Format.distance(a.distanceMetres)), value)])
        }
        row("LEFT", [(d.distanceLeftMetres.map(Format.distance) ?? dash, value)])
        row("ETA", [(d.etaSeconds.map(Format.duration) ?? dash, value)])
        // Ride time above; the real wait under it when the simulation runs at another speed.
        if let r = d.realSecondsLeft { row("", [("real " + Format.duration(r), label)]) }
        row("CLOCK", [(Format.clock(d.rideClockSeconds), value)])
        row("SIM", [(Format.simSpeed(d.simSpeed, glyphs: theme.glyphs), value), (d.paused ? (u ? "  ❚❚ paused" : "  || paused") : "", label)])
        if d.recording { row("", [((u ? "● " : "* ") + "REC", theme.style(.recording))]) }
        return y
    }
}
