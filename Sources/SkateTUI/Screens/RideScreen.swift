import FoundationEssentials
import Glibc
import SkateCore
import SkateRide

/// State of the ride screen. Ride time is the app's: ticks add `dt × simSpeed` unless paused;
/// the feed is asked to catch up to it (a command), and its answer becomes `frame`.
public struct RideScreenState: Hashable, Sendable {
    public var start: RideStart
    /// The route followed now (replaced on a reroute).
    public var plan: PlanRef?
    public var frame: RideFrame
    /// Ride time asked of the feed, seconds.
    public var rideTime: Double
    /// × real time, one of `PacedClock.speedSteps`.
    public var simSpeed: Double
    public var paused: Bool
    public var viewport: MapViewport
    /// The route drawn under the rider.
    public var overlay: RouteOverlay
    /// The screen to go back to.
    public var returnTo: ScreenID
    /// The arrival banner was shown.
    public var announcedEnd: Bool
    /// Speeds, metres per class and reports so far (the arrival panel).
    public var stats = RideStats()
    /// Wall-clock seconds (Unix) when ride time 0 was; the HUD's arrival clock counts from it.
    public var startWall: Double = 0
    /// Route metres where the rider is drawn (glided between fixes, see `RideGlide`); nil off
    /// route or on a free ride (the fix is drawn as it is).
    public var shownAlong: Double?
    /// Ride time and route metres of the latest fix, and its position.
    var fixTime: Double = 0
    var fixAlong: Double = 0
    var lastPosition: Coordinate?
    /// The zoom keys multiply the speed-following scale by this.
    public var zoomFactor: Double = 1
    /// Heading-up map (turned so the way ahead is up, the rider low) instead of north-up.
    public var headingUp = false
    /// The destination's name, written beside B (sanitised when drawn).
    public var destinationName: String?
    /// Where the ride's impacts were felt, oldest first: the map marks each on the ridden line
    /// (issue 28; at most `RideScreen.maxImpactMarks`).
    public var impactMarks: [Coordinate] = []
    /// The HUD's impact flash ("pothole 3.6 g") and the wall seconds it stays up.
    public var impactFlash: String?
    public var impactFlashRemaining: Double = 0
    /// The arrival question about the ride's bumps, once a recorded ride taught the store some.
    public var impactPrompt: ImpactPrompt?

    public init(start: RideStart, viewport: MapViewport, overlay: RouteOverlay, simSpeed: Double, returnTo: ScreenID) {
        self.start = start; plan = start.plan; frame = RideFrame(); rideTime = 0; self.simSpeed = simSpeed
        paused = false; self.viewport = viewport; self.overlay = overlay; self.returnTo = returnTo; announcedEnd = false
    }

    /// True while ride time should move.
    public var isRunning: Bool { !paused && !frame.finished }
}

/// The live ride: the map following the rider, the HUD beside it, cue banners on top.
public enum RideScreen {
    /// Map scale when a ride starts: 1 m per dot shows ~100 m around the rider on 100 columns.
    public static let startMetresPerDot: Double = 1
    /// Seconds a cue banner stays up (app time).
    public static let bannerSeconds: Double = 4
    /// Ride seconds one `.` advances.
    public static let singleStep = PacedClock.defaultStep
    /// Rows the ride panel's elevation chart needs (label, two bar rows, braking marks, axis),
    /// and the most it takes.
    static let profileMinRows = 5, profileMaxRows = 7
    /// Speed factor of a new ride (the CLI can ask for another).
    public static let defaultSimSpeed: Double = 1
    /// Wall seconds an impact's HUD flash stays up: long enough to read two words, short enough
    /// that the next impact a few seconds on flashes anew.
    public static let impactFlashSeconds: Double = 1.5
    /// Impact marks a ride map keeps: a loose sensor's flood is capped (and named in the
    /// summary); 200 marks is more than any sound ride of an hour.
    public static let maxImpactMarks = 200

    static func body(_ size: Size) -> Rect { ScreenLayout.body(size) }

    /// The map part: all the body but the HUD column.
    public static func mapArea(_ size: Size) -> Rect {
        let b = body(size)
        return Rect(x: b.x, y: b.y, width: b.width - HUDWidget.width(columns: size.width) - 1, height: b.height)
    }

    static func hudArea(_ size: Size) -> Rect {
        let b = body(size), w = HUDWidget.width(columns: size.width)
        return Rect(x: b.maxX - w, y: b.y, width: w, height: b.height)
    }

    /// A new ride screen for a started ride.
    public static func make(_ start: RideStart, services: TUIServices, context: TUIContext, size: Size, simSpeed: Double, returnTo: ScreenID) -> RideScreenState {
        let area = mapArea(size)
        let overlay = start.plan.map { overlayFor($0.plan, services: services) } ?? RouteOverlay()
        let first = start.plan?.plan.geometry.first ?? context.map.bbox.center
        let vp = MapViewport(origin: first, center: first, metresPerDot: startMetresPerDot, size: Size(width: area.width, height: area.height))
        var s = RideScreenState(start: start, viewport: vp, overlay: overlay, simSpeed: simSpeed, returnTo: returnTo)
        s.startWall = services.now().timeIntervalSince1970
        return s
    }

    static func overlayFor(_ plan: RoutePlan, services: TUIServices) -> RouteOverlay {
        PlanOverlay.make(plan, hazards: PlanOverlay.near(plan, services.knownHazards), spots: PlanOverlay.near(plan, services.spots))
    }

    public static func resized(_ s: RideScreenState, size: Size) -> RideScreenState {
        var s = s
        let a = mapArea(size)
        s.viewport.size = Size(width: a.width, height: a.height)
        return s
    }

    /// Applies a ride key; returns the new state and the ride time to advance to, if any.
    public static func apply(_ action: KeyAction, to state: RideScreenState) -> (RideScreenState, advanceTo: Double?) {
        var s = state
        switch action {
        case .togglePause:
            if s.frame.finished { return (s, nil) }
            s.paused.toggle()
        case .faster:
            s.simSpeed = PacedClock.speedSteps.first { $0 > s.simSpeed + 1e-9 } ?? PacedClock.maxSpeed
        case .slower:
            s.simSpeed = PacedClock.speedSteps.last { $0 < s.simSpeed - 1e-9 } ?? PacedClock.minSpeed
        case .singleStep:
            if s.frame.finished { return (s, nil) }
            s.paused = true
            s.rideTime += singleStep
            return (s, s.rideTime)
        case .toggleHeadingUp:
            s.headingUp.toggle()
            turn(&s, wall: 1 / turnEase)
            keepInView(&s, force: true)
        case .zoomIn:
            s.viewport.zoomIn()
            s.zoomFactor = max(1 / 8, s.zoomFactor / MapViewport.zoomStep)
        case .zoomOut:
            s.viewport.zoomOut()
            s.zoomFactor = min(8, s.zoomFactor * MapViewport.zoomStep)
        default: break
        }
        return (s, nil)
    }

    /// Time passed: the ride time to advance to while running.
    public static func tick(_ state: RideScreenState, dt: Double) -> (RideScreenState, advanceTo: Double?) {
        var s = state
        if s.impactFlash != nil {
            s.impactFlashRemaining -= dt
            if s.impactFlashRemaining <= 0 { s.impactFlash = nil }
        }
        guard s.isRunning else { return (s, nil) }
        s.rideTime = min(s.start.duration, s.rideTime + dt * s.simSpeed)
        follow(&s, wall: dt)
        return (s, s.rideTime)
    }

    /// A new frame from the feed: follow the rider, swap the route after a reroute.
    public static func advanced(_ state: RideScreenState, _ u: RideUpdate, services: TUIServices) -> RideScreenState {
        var s = state
        let dt = max(0, u.frame.t - s.frame.t)
        s.frame = u.frame
        s.stats.add(u.frame)
        if let p = u.reroute {
            s.plan = p
            s.overlay = overlayFor(p.plan, services: services)
            s.shownAlong = nil
        }
        noteFix(&s, u.frame)
        glide(&s, dt: dt)
        keepInView(&s, force: u.reroute != nil)
        noteImpacts(&s, u.frame)
        return s
    }

    /// Impacts of a new frame: a mark where each was felt, the last one flashed in the HUD; on
    /// the finished frame of a ride that stored some, the arrival question.
    static func noteImpacts(_ s: inout RideScreenState, _ f: RideFrame) {
        for i in f.newImpacts {
            if let p = i.position, s.impactMarks.count < maxImpactMarks { s.impactMarks.append(p) }
        }
        if let last = f.newImpacts.last {
            s.impactFlash = last.kind.rawValue + " " + String(format1: last.peak) + " g"
            s.impactFlashRemaining = impactFlashSeconds
        }
        if s.impactPrompt == nil, let l = f.learning, l.notLearning == nil, l.impacts > 0 {
            s.impactPrompt = ImpactPrompt(rideId: l.rideId, count: l.impacts)
        }
    }

    /// True when an update is worth the bell (the app rings it when the bell is on): an impact felt.
    public static func ringsBell(_ u: RideUpdate) -> Bool { !u.frame.newImpacts.isEmpty && !u.frame.finished }

    /// The rider answers the arrival question: the new state and the store command, nil when
    /// there is no open question (a simulated ride never asks, so never files anything).
    static func answerImpacts(_ state: RideScreenState, confirm: Bool) -> (RideScreenState, AppCommand?) {
        guard state.frame.finished, var p = state.impactPrompt, p.answer == nil else { return (state, nil) }
        var s = state
        p.answer = confirm
        s.impactPrompt = p
        return (s, .answerImpacts(rideId: p.rideId, confirm: confirm))
    }

    /// The maneuver the HUD shows as NEXT: the first turn (or the arrival) after the step the
    /// rider is on.
    public static func nextManeuver(_ s: RideScreenState) -> RouteStep? {
        guard let p = s.plan?.plan else { return nil }
        let here = s.frame.step ?? 0
        return p.steps.first(where: { $0.index > here && ($0.maneuver.isTurn || $0.maneuver == .arrive) })
    }

    /// Below this speed (m/s) the countdown uses the plan's pace instead of the rider's: a
    /// standing rider would give "∞ s".
    public static let minPaceSpeed: Double = 1

    /// Seconds to cover `d` metres: at the rider's speed when rolling, else at the plan's pace.
    static func secondsTo(_ d: Double, _ f: RideFrame) -> Double? {
        if f.speed >= minPaceSpeed { return d / f.speed }
        if let left = f.distanceLeft, let secs = f.secondsLeft, left > 0, secs > 0 { return d * secs / left }
        return nil
    }

    /// The next braking zone or stairs ahead of `along` (or the one the rider is in).
    static func ahead(_ p: RoutePlan, along: Double) -> AheadInfo? {
        var best: AheadInfo?
        func consider(_ a: AheadInfo) { if best == nil || a.distanceMetres < best!.distanceMetres { best = a } }
        if let z = p.brakingZones.first(where: { $0.end > along }) {
            consider(AheadInfo(what: z.level == .braking ? "BRAKE" : "caution", distanceMetres: max(0, z.start - along), role: z.level == .braking ? .braking : .caution))
        }
        if let w = p.steps.first(where: { $0.context.walk && $0.startDistance + $0.context.distance > along }) {
            consider(AheadInfo(what: "stairs", distanceMetres: max(0, w.startDistance - along), role: .hazard))
        }
        return best
    }

    /// What the HUD shows for a frame.
    public static func hud(_ s: RideScreenState) -> HUDData {
        let f = s.frame
        var next: ManeuverInfo?, then: ManeuverInfo?, ahead: AheadInfo?
        if let p = s.plan?.plan {
            if let st = nextManeuver(s) {
                let d = max(0, st.startDistance - f.distanceAlong)
                next = ManeuverInfo(arrow: ManeuverArrow(st.maneuver), distanceMetres: d,
                                    street: st.street.isEmpty ? st.instruction : st.street, seconds: secondsTo(d, f))
                if let st2 = p.steps.first(where: { $0.index > st.index && ($0.maneuver.isTurn || $0.maneuver == .arrive) }) {
                    then = ManeuverInfo(arrow: ManeuverArrow(st2.maneuver), distanceMetres: max(0, st2.startDistance - st.startDistance),
                                        street: st2.street.isEmpty ? st2.instruction : st2.street)
                }
            }
            if !f.finished { ahead = Self.ahead(p, along: f.distanceAlong) }
        }
        // The ETA is ride time; at another simulation speed the real wait is said beside it.
        let real = s.simSpeed == 1 ? nil : f.secondsLeft.map { $0 / s.simSpeed }
        // Standing at the end: the last fix's drift is not a speed.
        return HUDData(speedKmh: f.position == nil ? nil : (f.finished ? 0 : f.speed * 3.6), stability: f.stability,
                       // No elevation on the map: the grade is unknown (a dash), not 0 %.
                       gradePercent: s.plan?.plan.hasElevation == false ? nil : f.grade, surface: f.surface,
                       braking: f.braking, next: next, distanceLeftMetres: f.distanceLeft, etaSeconds: f.secondsLeft,
                       rideClockSeconds: f.t, simSpeed: s.simSpeed, paused: s.paused, recording: s.start.recording && !f.finished,
                       then: then, ahead: ahead, realSecondsLeft: real)
    }

    public static func render(_ s: RideScreenState, context: TUIContext, extraHazards: [Coordinate], into buffer: inout ScreenBuffer, keyContext: ScreenID) {
        let theme = context.theme
        let size = buffer.size
        let status = s.frame.finished ? "finished" : (s.paused ? "paused" : (s.frame.offRoute ? "OFF ROUTE" : "riding"))
        TitleBar.render("Ride: " + TerminalSafe.clean(s.start.name), context: context, right: status, into: &buffer)
        let area = mapArea(size)
        let overlay = mapOverlay(s, extraHazards: extraHazards)
        let street = s.frame.finished ? nil : currentStreet(s)
        let chip = street.map { streetChip($0, area: area, glyphs: theme.glyphs) }
        MapRenderer.render(map: context.map, overlay: overlay, viewport: s.viewport, theme: theme, into: &buffer, area: area,
                           avoid: [Rect(x: area.x, y: area.maxY - 1, width: ScaleBar.maxCells + 10, height: 1)] + (chip.map { [$0.rect] } ?? []), detail: context.detail)
        ScaleBar.render(s.viewport, theme: theme, into: &buffer, x: area.x + 1, y: area.maxY - 1, maxWidth: area.width / 2)
        if let c = chip { buffer.write(c.text, x: c.rect.x, y: c.rect.y, style: theme.style(.keyBarKey), maxWidth: c.rect.width) }
        drawImpactMarks(s, theme: theme, into: &buffer, area: area)
        // Heading-up: a compass in the map's top-right corner (under a cue banner's row) says
        // where north went.
        if s.headingUp {
            buffer.write(theme.glyphs.arrow(headingDegrees: -s.viewport.rotationDegrees) + "N", x: area.maxX - 3, y: area.y + 1, style: theme.style(.hudValue))
        }
        if s.frame.finished { ArrivalPanel.render(s, theme: theme, into: &buffer, area: area) }
        let hudRect = hudArea(size)
        let v = theme.glyphs.box.vertical
        for yy in hudRect.y..<hudRect.maxY { buffer.set(x: hudRect.x - 1, y: yy, Cell(v, style: theme.style(.border))) }
        let used = HUDWidget.render(hud(s), theme: theme, into: &buffer, area: Rect(x: hudRect.x, y: hudRect.y + 1, width: hudRect.width, height: hudRect.height - 1))
        // The impact flash on the HUD's free top row.
        if let f = s.impactFlash, !s.frame.finished {
            buffer.write(" " + impactGlyph(theme.glyphs) + " " + f + " ", x: hudRect.x, y: hudRect.y, style: theme.style(.hazard), maxWidth: hudRect.width)
        }
        // The elevation ahead and behind, the rider marked, where the panel has rows to spare.
        let free = hudRect.maxY - used - 1
        if let p = s.plan?.plan, p.hasElevation, free >= profileMinRows {
            let rows = min(free, profileMaxRows)
            PreviewScreen.renderProfile(p, theme: theme, into: &buffer, area: Rect(x: hudRect.x, y: hudRect.maxY - rows, width: hudRect.width, height: rows),
                                        marker: s.shownAlong ?? s.frame.distanceAlong, compact: true)
        }
        KeyBarWidget.render(keyMap: context.keyMap, screen: keyContext, theme: theme, into: &buffer, area: Rect(size: size).splitBottom(1).bottom)
    }
}

extension RideScreen {
    /// The mark of an impact on the ride map and in the HUD flash: a cross, unlike a known hazard's `!`.
    public static func impactGlyph(_ g: GlyphMode) -> String { g == .unicode ? "×" : "x" }

    /// Marks where the ride's impacts were felt (`impactGlyph`, hazard colours), except
    /// under the rider, who stays visible.
    static func drawImpactMarks(_ s: RideScreenState, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        guard !s.impactMarks.isEmpty else { return }
        let rider = riderMark(s).flatMap { s.viewport.cell($0.position) }
        for p in s.impactMarks {
            guard let c = s.viewport.cell(p), rider.map({ $0 != c }) ?? true else { continue }
            buffer.set(x: area.x + c.x, y: area.y + c.y, Cell(impactGlyph(theme.glyphs), style: theme.style(.hazard)))
        }
    }
}
