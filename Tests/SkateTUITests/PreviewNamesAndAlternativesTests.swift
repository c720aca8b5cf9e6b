import Foundation
@testable import SkateCore
import Testing
@testable import SkateTUI

/// Issue 14 must-adds on the preview: names on the map, alternatives dimmed and selectable,
/// Enter on a step zooms to it; and the small defects (lift class, braking wording).
@Suite struct PreviewNamesAndAlternativesTests {
    let size = Size(width: 100, height: 30)

    func preview(_ app: TUIApp, theme: Theme? = nil) -> AppModel {
        RouteFixture.press(app, [.char("/")] + RouteFixture.typing("skate") + [.enter] + RouteFixture.typing("place s") + [.enter, .enter],
                           from: app.initialModel(size: size)).0
    }

    /// The map part of a rendered screen, row by row.
    func mapText(_ app: TUIApp, _ m: AppModel) -> [String] {
        let a = PreviewScreen.mapArea(m.size, plan: m.preview?.plan.plan)
        return app.render(m).lines[a.y..<a.maxY].map { String(Array($0).dropFirst(a.x).prefix(a.width)) }
    }

    @Test func streetNamesAndTheDestinationAreOnTheMap() {
        let app = RouteFixture.app()
        let m = preview(app)
        #expect(m.screen == .preview)
        let map = mapText(app, m).joined(separator: "\n")
        #expect(map.contains("Place Sud"), "\(map)")
        let streets = ["Rue Haute", "Rue Basse", "Rue Est"].filter { map.contains($0) }
        #expect(!streets.isEmpty, "\(map)")
        // The markers are still there: no label wrote over A or B.
        #expect(map.contains("A") && map.contains("B"))
    }

    @Test func labelsNeverCollideNorCoverMarkersAndAreSanitised() {
        let a = Coordinate(lat: 43.7300, lon: 7.4200), b = Coordinate(lat: 43.7300, lon: 7.4230)
        let line = [a, b]
        var o = RouteOverlay(segments: [OverlaySegment(points: line, roughness: .okay)], start: a, end: b)
        // Many names on the same short line: most cannot fit and must be skipped, not stacked.
        o.names = (0..<12).map { NamedLine(name: "Rue Numero \($0)", points: line, priority: Double(12 - $0)) }
        o.names.append(NamedLine(name: "Rue \u{1B}]0;pwned\u{07}Sale\u{1B}[2J", points: line, priority: 100))
        o.endName = "Place \u{1B}[31mRouge"
        let area = Rect(x: 0, y: 0, width: 60, height: 12)
        var vp = MapViewport(origin: a, metresPerDot: 1, size: Size(width: area.width, height: area.height))
        vp.fit(o.boundingBox)
        let labels = MapLabels.place(o, viewport: vp, area: area, glyphs: .unicode) { _, _ in false }
        #expect(labels.count >= 3 && labels.count < 14)
        for (i, l) in labels.enumerated() {
            #expect(!l.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(l.text)")
            #expect(l.x >= 0 && l.x + l.width <= area.width && l.y >= 0 && l.y < area.height)
            for m in labels[(i + 1)...] where m.y == l.y {
                // One blank column at least between two labels on a row.
                #expect(l.x + l.width < m.x || m.x + m.width < l.x, "\(l) overlaps \(m)")
            }
            for c in [a, b] {
                let cell = vp.cell(c)!
                #expect(!(l.y == cell.y && cell.x >= l.x && cell.x < l.x + l.width), "\(l.text) covers a marker")
            }
        }
        #expect(labels.contains { $0.text.contains("Rouge") && $0.role == .end })
        // Drawn: the screen holds A and B and no escape character.
        var buf = ScreenBuffer(width: area.width, height: area.height)
        MapRenderer.render(map: RouteFixture.map, overlay: o, viewport: vp, theme: Theme(colorMode: .none, glyphMode: .unicode), into: &buf, area: area)
        let text = buf.lines.joined(separator: "\n")
        #expect(text.contains("A") && text.contains("B") && !text.contains("\u{1B}"))
    }

    @Test func alternativesAreDimmedAndSelectable() throws {
        let app = RouteFixture.app(theme: Theme(colorMode: .truecolor, glyphMode: .unicode))
        let m = preview(app)
        let p = try #require(m.preview)
        try #require(p.routes.count >= 2, "the fixture plans A-B-C-F and A-D-E-F")
        let other = p.routes[1].plan
        // A point on the alternative only (its middle, away from the shared ends).
        let mid = other.geometry(from: other.distance * 0.45, to: other.distance * 0.55)[0]
        let cell = try #require(p.map.viewport.cell(mid))
        let area = PreviewScreen.mapArea(size, plan: p.plan.plan)
        let before = app.render(m)[area.x + cell.x, area.y + cell.y]
        #expect(before.style.attrs.contains(.dim), "alternative not dimmed: \(before)")
        let steps0 = app.render(m).lines.joined()
        // `a` selects it: it draws in full colour, the summary and steps follow.
        let (n, _) = RouteFixture.press(app, [.char("a")], from: m)
        let q = try #require(n.preview)
        #expect(q.selected == 1 && q.plan == p.routes[1])
        // (The view refits to the selected route and the step panel follows its steps.)
        let area2 = PreviewScreen.mapArea(size, plan: q.plan.plan)
        let cell2 = try #require(q.map.viewport.cell(mid))
        let after = app.render(n)[area2.x + cell2.x, area2.y + cell2.y]
        #expect(!after.style.attrs.contains(.dim) && after.glyph != " ", "selected route still dim: \(after)")
        let text = app.render(n).lines.joined(separator: "\n")
        #expect(text.contains("route 2 of \(p.routes.count)") && text != steps0)
        #expect(text.contains(Format.distance(other.distance)))
        // Back on the plan screen the list keeps the choice; riding takes the selected route.
        #expect(RouteFixture.press(app, [.escape], from: n).0.plan.selectedRoute == 1)
        let (_, cmds) = app.update(n, .key(.char("r")))
        #expect(cmds == [.startRide(.synthesize(p.routes[1]))])
    }

    @Test func enterOnAStepZoomsTheMapToIt() throws {
        let app = RouteFixture.app()
        let m = preview(app)
        let p = try #require(m.preview)
        let (n, _) = RouteFixture.press(app, [.char("j"), .char("j")], from: m)
        #expect(n.preview?.stepCursor == 1)
        let (z, _) = RouteFixture.press(app, [.enter], from: n)
        let vp = try #require(z.preview?.map.viewport)
        #expect(vp.metresPerDot < p.map.viewport.metresPerDot, "\(vp.metresPerDot) vs \(p.map.viewport.metresPerDot)")
        // The step's middle is on screen, near the centre.
        let step = p.plan.plan.steps[1]
        let c = try #require(vp.cell(step.geometry[step.geometry.count / 2]))
        #expect(abs(c.x - vp.size.width / 2) < vp.size.width / 3 && abs(c.y - vp.size.height / 2) < vp.size.height / 3)
        // The row is highlighted; f fits the route again.
        #expect(app.render(z).lines.contains { $0.contains("▶") })
        #expect(RouteFixture.press(app, [.char("f")], from: z).0.preview!.map.viewport.metresPerDot > vp.metresPerDot)
    }

    @Test func liftStepsSayLiftAndBrakingZonesAreSaidOnce() throws {
        let p = try PlanRenderTests.plan()
        var step = p.steps[0]
        step.context.roughnessClass = .butter
        step.context.connector = StepConnector(kind: .lift, name: "Ascenseur", limitedHours: false, seconds: 50)
        var b = ScreenBuffer(width: 60, height: 1)
        PreviewScreen.renderStep(step, theme: Theme(colorMode: .none, glyphMode: .unicode), into: &b, x: 0, y: 0, width: 60)
        #expect(b.lines[0].contains("lift") && !b.lines[0].contains("butter"), "\(b.lines[0])")
        step.context.connector?.kind = .escalator
        PreviewScreen.renderStep(step, theme: Theme(colorMode: .none, glyphMode: .unicode), into: &b, x: 0, y: 0, width: 60)
        #expect(b.lines[0].contains("escalator") && !b.lines[0].contains("butter"), "\(b.lines[0])")

        let app = RouteFixture.app()
        let text = app.render(preview(app)).lines.joined(separator: "\n")
        #expect(!text.contains("zone(s)"), "\(text)")
        #expect(text.components(separatedBy: "braking zone").count - 1 <= 1, "\(text)")
        #expect(PreviewScreen.brakingPhrase(1) == "1 braking zone" && PreviewScreen.brakingPhrase(3) == "3 braking zones")
    }
}
