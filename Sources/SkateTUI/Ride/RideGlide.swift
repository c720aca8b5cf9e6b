import FoundationEssentials
import Glibc
import SkateCore

/// The ride map as a navigator draws it: the rider glides along the route line between GPS
/// fixes at the tick rate, the part already ridden is grey, and the scale follows the speed.
extension RideScreen {
    /// At most this many ride seconds are guessed past the last fix at its speed (a fix comes
    /// every second; a missing one should not carry the rider far on a guess).
    public static let maxGlideAheadSeconds: Double = 1.5
    /// Share of the gap to the target closed per ride second (1/s): a new fix eases in over
    /// about a quarter second instead of jumping.
    public static let glideRate: Double = 4
    /// A gap larger than this (metres) is not glided but jumped (a reroute, a GPS jump): an
    /// animation across a block would show the rider where it never was.
    public static let glideSnapMetres: Double = 30

    /// Seconds of riding the map shows from the rider to the top edge: zoom follows speed so
    /// the next ~20 s of route are always on screen (OsmAnd's auto-zoom works the same way).
    public static let zoomLookaheadSeconds: Double = 20
    /// Closest and farthest speed-following scale, metres per dot: standing still shows about
    /// 150 m across 100 columns; at 40 km/h about 800 m.
    public static let minRideMetresPerDot: Double = 0.75
    public static let maxRideMetresPerDot: Double = 4
    /// Share of the gap to the speed's scale closed per wall second (1/s): the zoom breathes
    /// with the speed without pumping on every fix.
    public static let zoomEase: Double = 1.5

    /// Where heading-up draws the rider, as a fraction of the map height from the top: low, so
    /// about three quarters of the map is road ahead (phone navigators put it at 70–80 %).
    public static let headingUpAnchor: Double = 0.75
    /// Share of the turn toward the heading made per wall second (1/s) in heading-up: corners
    /// turn the map within about half a second, GPS heading noise does not shake it.
    public static let turnEase: Double = 3

    /// The map is moved only when the rider strays this many cells from its place (columns) or
    /// rows (half as many: cells are twice as tall): between moves only the rider's cell and the
    /// HUD change, so a live ride redraws a few cells per tick instead of the whole map (the
    /// terminal output, not the drawing, is what costs CPU at 10 Hz).
    public static let followSlackColumns = 2
    public static let followSlackRows = 1
    /// The scale is only eased toward the speed's when they differ by more than this share, and
    /// the heading-up map only turned when it is more than `turnSlackDegrees` off: a steady ride
    /// leaves the map still.
    public static let zoomSlack: Double = 0.08
    public static let turnSlackDegrees: Double = 12

    /// The scale (metres per dot) the speed asks for on a map `dotHeight` dots tall, with the
    /// rider drawn `anchor` of the height from the top (the look-ahead is the part above it).
    public static func speedScale(speed: Double, dotHeight: Int, anchor: Double = 0.5) -> Double {
        let half = max(1, Double(dotHeight) * anchor) * MapViewport.dotAspect
        return min(maxRideMetresPerDot, max(minRideMetresPerDot, max(0, speed) * zoomLookaheadSeconds / half))
    }

    /// Notes a new frame: a moved position is a new fix (its time and route metres anchor the glide).
    static func noteFix(_ s: inout RideScreenState, _ f: RideFrame) {
        guard let p = f.position, p != s.lastPosition else { return }
        s.lastPosition = p
        s.fixTime = f.t
        s.fixAlong = f.distanceAlong
    }

    /// Moves the drawn rider toward where it should be now (`dt`: ride seconds since the last
    /// move): the fix's route metres plus its speed times the time since, never backwards by a
    /// little (a fix behind the drawn rider waits until the target passes it), never beyond the
    /// end. Off route or without a plan nothing is glided: the fix is drawn where it is.
    static func glide(_ s: inout RideScreenState, dt: Double) {
        guard let plan = s.plan?.plan, s.frame.position != nil, !s.frame.offRoute, plan.geometry.count >= 2 else {
            s.shownAlong = nil
            return
        }
        let ahead = s.frame.finished ? 0 : min(maxGlideAheadSeconds, max(0, s.rideTime - s.fixTime)) * s.frame.speed
        let target = min(plan.distance, s.fixAlong + ahead)
        guard let shown = s.shownAlong, abs(target - shown) <= glideSnapMetres else {
            s.shownAlong = target
            return
        }
        if target < shown { return }
        s.shownAlong = shown + (target - shown) * min(1, max(0, dt) * glideRate)
    }

    /// The point `along` metres down the route and the route's heading there (degrees from north).
    public static func onRoute(_ plan: RoutePlan, along: Double) -> (Coordinate, Double)? {
        let g = plan.geometry
        guard g.count >= 2 else { return nil }
        let a = min(max(0, along), plan.distance)
        let back = plan.geometry(from: max(0, a - 3), to: max(a, 0.01))
        let fwd = plan.geometry(from: a, to: a + 3)
        let here = back.last ?? g[0]
        let from = back.first ?? here, to = fwd.last ?? here
        let heading = from == to ? 0 : Geo.bearing(from, to)
        return (here, heading)
    }

    /// Where the rider is drawn and which way it points: on the route line at the glided metres,
    /// else at the fix.
    public static func riderMark(_ s: RideScreenState) -> RiderMark? {
        if let a = s.shownAlong, let p = s.plan?.plan, let (c, h) = onRoute(p, along: a) {
            return RiderMark(position: c, headingDegrees: s.frame.speed > 0.3 ? h : (s.frame.heading ?? h))
        }
        return s.frame.position.map { RiderMark(position: $0, headingDegrees: s.frame.heading ?? 0) }
    }

    /// Eases the scale toward the speed's (times the rider's own zoom) and centres on the rider.
    /// `wall`: wall seconds since the last tick.
    static func follow(_ s: inout RideScreenState, wall: Double) {
        let target = min(MapViewport.maxMetresPerDot, max(MapViewport.minMetresPerDot,
                         speedScale(speed: s.frame.finished ? 0 : s.frame.speed, dotHeight: s.viewport.dotHeight, anchor: s.viewport.anchorY) * s.zoomFactor))
        let k = min(1, max(0, wall) * zoomEase)
        let moved = abs(target - s.viewport.metresPerDot) > zoomSlack * s.viewport.metresPerDot
        if moved { s.viewport.metresPerDot += (target - s.viewport.metresPerDot) * k }
        let turned = turn(&s, wall: wall)
        keepInView(&s, force: moved || turned)
    }

    /// Re-centres the map on the rider when it strayed past the slack (or when `force`).
    static func keepInView(_ s: inout RideScreenState, force: Bool = false) {
        guard let r = riderMark(s) else { return }
        let d = s.viewport.dot(r.position)
        let ax = Double(s.viewport.dotWidth) / 2, ay = Double(s.viewport.dotHeight) * s.viewport.anchorY
        let off = (abs(d.x - ax) / Double(BrailleCanvas.dotsPerCellX), abs(d.y - ay) / Double(BrailleCanvas.dotsPerCellY))
        if force || !(off.0 <= Double(followSlackColumns) && off.1 <= Double(followSlackRows)) { s.viewport.center(on: r.position) }
    }

    /// Heading-up: turns the map toward the rider's heading (the short way round) and puts the
    /// rider low; north-up: straight back to north, rider in the middle.
    /// - Returns: true when the view changed.
    @discardableResult
    static func turn(_ s: inout RideScreenState, wall: Double) -> Bool {
        let before = (s.viewport.rotationDegrees, s.viewport.anchorY)
        guard s.headingUp else {
            s.viewport.rotationDegrees = 0
            s.viewport.anchorY = 0.5
            return before != (0, 0.5)
        }
        s.viewport.anchorY = headingUpAnchor
        guard let h = riderMark(s)?.headingDegrees, s.frame.position != nil else { return before.1 != headingUpAnchor }
        var d = (h - s.viewport.rotationDegrees).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        // Within the slack the map stays (unless heading-up was just switched on).
        if abs(d) <= turnSlackDegrees, before.1 == headingUpAnchor { return false }
        var r = s.viewport.rotationDegrees + d * min(1, max(0, wall) * turnEase)
        r = r.truncatingRemainder(dividingBy: 360)
        if r < 0 { r += 360 }
        s.viewport.rotationDegrees = r
        return true
    }
}
