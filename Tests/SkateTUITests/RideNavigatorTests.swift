import Foundation
import SkateCore
import SkateStore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// Issue 14, "ride view like a navigator": the rider glides on the line between fixes, the
/// ridden part is grey, the zoom follows speed, names and the current street on the ride map,
/// and the arrival's max speed held over 5 s of route progress.
@Suite struct RideNavigatorTests {
    let size = Size(width: 100, height: 30)

    func riding(_ app: TUIApp) -> AppModel {
        RouteFixture.press(app, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter, .enter, .char("r")],
                           from: app.initialModel(size: size)).0
    }

    /// Metres from `c` to the polyline `line`.
    func offLine(_ c: Coordinate, _ line: [Coordinate]) -> Double {
        let proj = LocalProjection(origin: line[0])
        let p = proj.project(c)
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            let u = proj.project(a), v = proj.project(b)
            let dx = v.x - u.x, dy = v.y - u.y
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? min(1, max(0, ((p.x - u.x) * dx + (p.y - u.y) * dy) / len2)) : 0
            best = min(best, hypot(p.x - (u.x + t * dx), p.y - (u.y + t * dy)))
        }
        return best
    }

    @Test func riderGlidesOnTheLineBetweenFixes() throws {
        let app = RouteFixture.app()
        var m = riding(app)
        let line = try #require(m.ride?.plan?.plan.geometry)
        // Five seconds in, then 3 s of 10 Hz frames.
        for _ in 0..<50 { m = app.step(m, .tick(0.1)).0 }
        var marks: [Coordinate] = [], fixes = Set<String>(), alongs: [Double] = []
        for _ in 0..<30 {
            m = app.step(m, .tick(0.1)).0
            let r = try #require(m.ride)
            let mark = try #require(RideScreen.riderMark(r))
            marks.append(mark.position)
            if let p = r.frame.position { fixes.insert("\(p.lat),\(p.lon)") }
            alongs.append(try #require(r.shownAlong))
        }
        let distinct = Set(marks.map { "\($0.lat),\($0.lon)" }).count
        // More drawn positions than fixes: the rider moves between fixes.
        #expect(distinct > fixes.count + 5, "\(distinct) drawn positions for \(fixes.count) fixes")
        // Every drawn position is on the route line, and the rider never steps back.
        for c in marks { #expect(offLine(c, line) < 0.5, "\(offLine(c, line)) m off the line") }
        for (a, b) in zip(alongs, alongs.dropFirst()) { #expect(b >= a - 1e-9) }
        // Drawn on screen where the mark is (the map follows it).
        let r = try #require(m.ride)
        #expect(r.viewport.cell(marks.last!) != nil)
    }

    @Test func riddenPartIsGreyAndWhatIsLeftKeepsItsColours() throws {
        let theme = Theme(colorMode: .truecolor, glyphMode: .unicode)
        let app = RouteFixture.app(theme: theme)
        var m = riding(app)
        for _ in 0..<25 { m = app.step(m, .tick(1)).0 }
        let r = try #require(m.ride)
        let plan = try #require(r.plan?.plan)
        let along = try #require(r.shownAlong)
        try #require(along > 40 && along < plan.distance - 40)
        let o = RideScreen.mapOverlay(r, extraHazards: [])
        #expect(o.ridden.count >= 2)
        let area = RideScreen.mapArea(size)
        let buf = app.render(m)
        func style(at d: Double) -> CellStyle? {
            guard let c = plan.geometry(from: d - 0.5, to: d).last, let cell = r.viewport.cell(c) else { return nil }
            return buf[area.x + cell.x, area.y + cell.y].style
        }
        let grey = theme.style(.textDim).fg
        let behind = try #require(style(at: along - 15))
        let ahead = try #require(style(at: along + 15))
        #expect(behind.fg == grey, "ridden part not grey: \(behind)")
        #expect(ahead.fg != grey && ahead.fg != theme.style(.context).fg, "route ahead lost its colour: \(ahead)")
    }

    @Test func zoomFollowsSpeedAndTheZoomKeysScaleIt() throws {
        let h = 28 * BrailleCanvas.dotsPerCellY
        let still = RideScreen.speedScale(speed: 0, dotHeight: h)
        let slow = RideScreen.speedScale(speed: 4, dotHeight: h)
        let fast = RideScreen.speedScale(speed: 9, dotHeight: h)
        #expect(still == RideScreen.minRideMetresPerDot && still < slow && slow < fast && fast <= RideScreen.maxRideMetresPerDot)
        // 20 s at 9 m/s fit between the rider (centre) and the top edge.
        #expect(abs(fast * Double(h) / 2 - 9 * RideScreen.zoomLookaheadSeconds) < 1 || fast == RideScreen.maxRideMetresPerDot)

        let app = RouteFixture.app()
        var m = riding(app)
        for _ in 0..<100 { m = app.step(m, .tick(0.1)).0 }
        let r = try #require(m.ride)
        try #require(r.frame.speed > 1)
        let want = RideScreen.speedScale(speed: r.frame.speed, dotHeight: r.viewport.dotHeight)
        #expect(abs(r.viewport.metresPerDot - want) / want < 0.35, "\(r.viewport.metresPerDot) vs \(want)")
        // `-` zooms out and the speed-following keeps the new factor.
        var z = RouteFixture.press(app, [.char("-")], from: m).0
        for _ in 0..<40 { z = app.step(z, .tick(0.1)).0 }
        let zr = try #require(z.ride)
        #expect(zr.zoomFactor > 1.4 && zr.viewport.metresPerDot > r.viewport.metresPerDot * 1.2)
    }

    @Test func currentStreetAndNamesOnTheRideMap() throws {
        let app = RouteFixture.app()
        var m = riding(app)
        for _ in 0..<3 { m = app.step(m, .tick(1)).0 }
        let r = try #require(m.ride)
        #expect(r.destinationName == "Place Sud")
        let street = try #require(RideScreen.currentStreet(r))
        let area = RideScreen.mapArea(size)
        let lines = app.render(m).lines
        let bottom = String(Array(lines[area.maxY - 1]).dropFirst(area.x).prefix(area.width))
        #expect(bottom.contains(street), "\(bottom)")
        // The overlay names the streets and the destination; the next turn's street comes first.
        let o = RideScreen.mapOverlay(r, extraHazards: [])
        #expect(o.endName == "Place Sud" && !o.names.isEmpty)
        if let next = RideScreen.nextManeuver(r)?.street, !next.isEmpty {
            #expect(o.names.max(by: { $0.priority < $1.priority })?.name == next)
        }
    }

    @Test func turnedViewportRoundTripsAndTurnsTheRightWay() {
        let o = Coordinate(lat: 43.73, lon: 7.42)
        var vp = MapViewport(origin: o, metresPerDot: 1, size: Size(width: 60, height: 20))
        vp.rotationDegrees = 90  // facing east
        vp.anchorY = 0.75
        let east = LocalProjection(origin: o).unproject(x: 30, y: 0), north = LocalProjection(origin: o).unproject(x: 0, y: 30)
        let c = vp.dot(o), e = vp.dot(east), n = vp.dot(north)
        #expect(abs(c.y - Double(vp.dotHeight) * 0.75) < 1e-6)
        #expect(e.y < c.y - 25 && abs(e.x - c.x) < 1e-6, "east is up when facing east")
        #expect(n.x < c.x - 25 && abs(n.y - c.y) < 1e-6, "north is to the left when facing east")
        let back = vp.coordinate(dotX: e.x, dotY: e.y)
        #expect(Geo.distance(back, east) < 0.01)
        #expect(vp.visibleBox.contains(east))
    }

    @Test func headingUpTurnsTheMapSoTheWayAheadIsUp() throws {
        let app = RouteFixture.app()
        var m = riding(app)
        for _ in 0..<30 { m = app.step(m, .tick(0.2)).0 }
        m = RouteFixture.press(app, [.char("n")], from: m).0
        #expect(m.ride?.headingUp == true)
        for _ in 0..<20 { m = app.step(m, .tick(0.2)).0 }
        let r = try #require(m.ride)
        let plan = try #require(r.plan?.plan)
        let mark = try #require(RideScreen.riderMark(r))
        var d = (mark.headingDegrees - r.viewport.rotationDegrees).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        #expect(abs(d) < 15, "map turned to \(r.viewport.rotationDegrees), heading \(mark.headingDegrees)")
        // The rider is drawn low, pointing up; the route 15 m ahead is above it.
        let cell = try #require(r.viewport.cell(mark.position))
        #expect(Double(cell.y) > Double(r.viewport.size.height) * 0.6, "\(cell)")
        let area = RideScreen.mapArea(size)
        #expect(app.render(m)[area.x + cell.x, area.y + cell.y].glyph == "↑")
        let ahead = try #require(RideScreen.onRoute(plan, along: (r.shownAlong ?? 0) + 15)?.0)
        #expect(r.viewport.dot(ahead).y < r.viewport.dot(mark.position).y - 5)
        #expect(app.render(m).lines.joined().contains("N"))
        // n again: north-up, rider in the middle.
        m = RouteFixture.press(app, [.char("n")], from: m).0
        #expect(m.ride?.viewport.rotationDegrees == 0 && m.ride?.viewport.anchorY == 0.5)
    }

    @Test func arrivalMaxSpeedIsHeldOverTenSecondsOfProgress() throws {
        // Unit: a steady 5 m/s with one frame whose progress jumps 20 m ahead and back (a bad fix).
        var st = RideStats()
        for k in 0...200 {
            let t = Double(k) * 0.1
            let along = 5 * t + (k == 100 ? 20 : 0)
            st.add(RideFrame(t: t, position: Coordinate(lat: 0, lon: 0), speed: 5, distanceAlong: along))
        }
        #expect(st.maxSpeed > 4.9 && st.maxSpeed < 5 + 20 / RideStats.speedWindow + 0.01, "\(st.maxSpeed)")
        // A reroute (progress back to 0) starts afresh instead of reading a negative speed.
        st.add(RideFrame(t: 20.1, position: Coordinate(lat: 0, lon: 0), speed: 5, distanceAlong: 0))
        #expect(st.progress.count == 1)

        // The bundled descent, ridden to the end: near the fastest speed the simulated rider was
        // planned to hold, not a GPS spike (the session's 3 s figure reads 46.7 km/h here).
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let services = TUIServices(map: map, store: nil, storeProblem: "no store in tests", ridesDirectory: "/nonexistent-rides",
                                   zones: NoReportZones(zones: []), now: { RouteFixture.now })
        let app = TUIApp(map: map, theme: Theme(colorMode: .none, glyphMode: .unicode), services: services)
        var m = RouteFixture.press(app, [.char("/")] + RouteFixture.typing("casino") + [.tab] + RouteFixture.typing("stade louis") + [.enter, .enter, .char("r")],
                                   from: app.initialModel(size: size)).0
        try #require(m.screen == .ride)
        var n = 0
        while m.ride?.frame.finished != true, n < 3000 { m = app.step(m, .tick(1)).0; n += 1 }
        let r = try #require(m.ride)
        let planned = try #require(r.plan?.plan.profile.map(\.speed).max())
        #expect(r.stats.maxSpeed > planned * 0.8 && r.stats.maxSpeed < planned * 1.2, "max \(r.stats.maxSpeed * 3.6) km/h, planned \(planned * 3.6)")
        let text = app.render(m).lines.joined(separator: "\n")
        #expect(text.contains("max " + String(format1: r.stats.maxSpeed * 3.6) + " km/h"), "\(text)")
    }
}

/// Issue 14: the replay picker shows map, distance, duration, date and mode for each ride.
@Suite struct ReplayPickerFactsTests {
    @Test func pickerRowsShowMapModeDistanceDurationAndDate() throws {
        let dir = TestData.projectRoot.appendingPathComponent("Rides").path
        let list = RideInputs.listRides(in: dir)
        try #require(!list.isEmpty, "Rides/ holds the bundled rides")
        for r in list {
            #expect(r.map != nil && r.mode != nil, "\(r.title)")
            let d = try #require(r.distance), t = try #require(r.duration), start = try #require(r.startTime)
            #expect(d > 100 && d < 20_000 && t > 30 && t < 7200 && start > 1_600_000_000, "\(r.title): \(d) m \(t) s")
        }
        let app = RouteFixture.app(ridesDirectory: dir)
        for size in [Size(width: 80, height: 24), Size(width: 120, height: 40)] {
            var m = app.initialModel(size: size)
            m = RouteFixture.press(app, [.escape, .char("p")], from: m).0
            let text = app.render(m).lines.joined(separator: "\n")
            let r = list[0]
            for fact in [r.mode!, r.map!, Format.distance(r.distance!), Format.clock(r.duration!)] {
                #expect(text.contains(fact), "\(size): \(fact) missing\n\(text)")
            }
            if size.width >= 120 { #expect(text.contains(RidePicker.date(r.startTime!)), "\(text)") }
        }
        #expect(RidePicker.date(1_777_629_600) == "2026-05-01 10:00")
    }

    @Test func unreadableGpxLeavesFactsBlankNotACrash() throws {
        let dir = TestData.temporaryDirectory("picker-facts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ride = dir.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: ride, withIntermediateDirectories: true)
        try Data("{\"gpx\": \"../../etc/passwd\", \"map\": \"Monaco\\u001b[2J\", \"mode\": \"smoothest\"}".utf8)
            .write(to: ride.appendingPathComponent("ride.json"))
        let list = RideInputs.listRides(in: dir.path)
        #expect(list.count == 1 && list[0].distance == nil && list[0].map == "Monaco")
    }
}
