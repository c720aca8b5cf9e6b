import Foundation
import SkateCore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// The preview draws braking dashes over a zone's extent only; the rest of the step keeps its
/// surface colour.
@Suite struct BrakingStretchTests {
    @Test("a 60 m dip in a 400 m street: dashes cover about 60/400 of the drawn route, steps carry no braking")
    func dashesOnlyOverTheZone() throws {
        let m = AsciiMap("A---------------B", ways: [("AB", ["highway": "residential", "surface": "asphalt", "name": "Flat Street"])],
                         elevation: { x, _ in 50 - 0.09 * min(max(x - 170, 0), 60) })
        let plan = try Planner(map: m.map).plan(from: m.nodes["A"]!, to: m.nodes["B"]!, mode: .smoothest)
        let o = PlanOverlay.make(plan)
        #expect(o.segments.allSatisfy { $0.braking == .none })
        #expect(o.brakingStretches.count == 1)
        let pts = try #require(o.brakingStretches.first?.points)
        var len = 0.0
        for (p, q) in zip(pts, pts.dropFirst()) { len += Geo.distance(p, q) }
        #expect(abs(len - plan.brakingZones[0].length) < 1, "stretch \(len) m vs zone \(plan.brakingZones[0].length) m")
        // Render at 5 m per dot across 100 cells: the route spans ~80 columns, dashes ~12.
        let size = Size(width: 100, height: 5)
        let vp = MapViewport(origin: AsciiMap.origin, center: Coordinate(lat: (plan.geometry.first!.lat + plan.geometry.last!.lat) / 2, lon: (plan.geometry.first!.lon + plan.geometry.last!.lon) / 2), metresPerDot: 2.5, size: size)
        let theme = Theme(colorMode: .truecolor, glyphMode: .unicode)
        var b = ScreenBuffer(width: size.width, height: size.height)
        MapRenderer.render(map: m.map, overlay: o, viewport: vp, theme: theme, into: &b, area: b.area)
        let brakingFg = theme.style(.braking).fg
        var cols: [Int] = []
        for y in 0..<size.height { for x in 0..<size.width where b[x, y].fg == brakingFg { cols.append(x) } }
        let span = (cols.max() ?? 0) - (cols.min() ?? 0) + 1
        // 60 m at 2.5 m per dot and 2 dots per cell = 12 columns (± a dash gap at either end).
        #expect(!cols.isEmpty && span >= 8 && span <= 16, "braking columns \(cols.min() ?? -1)…\(cols.max() ?? -1)")
    }
}
