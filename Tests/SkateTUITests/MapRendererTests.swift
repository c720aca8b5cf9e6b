import SkateCore
import Testing
@testable import SkateTUI

@Suite struct MapRendererTests {
    let map = TinyMap.make()

    func render(_ theme: Theme, overlay: RouteOverlay? = nil) -> ScreenBuffer {
        var b = ScreenBuffer(width: 20, height: 6)
        MapRenderer.render(map: map, overlay: overlay, viewport: TinyMap.viewport(), theme: theme, into: &b, area: b.area)
        return b
    }

    @Test func contextStreetsInBraille() {
        let b = render(Theme(colorMode: .ansi256, glyphMode: .unicode))
        expectLines(b, [
            "          ⡄         ",
            "          ⡇         ",
            "          ⡇         ",
            "⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⡏⠉⠉⠉⠉⠉⠉⠉⠉⠉",
            "          ⡇         ",
            "          ⠃         ",
        ])
        #expect(b[0, 3].fg == .indexed(242))
        #expect(b[0, 0] == .blank)
    }

    @Test func contextStreetsInAscii() {
        let b = render(Theme(colorMode: .none, glyphMode: .ascii))
        expectLines(b, [
            "          .         ",
            "          .         ",
            "          .         ",
            "....................",
            "          .         ",
            "          .         ",
        ])
        #expect(b[3, 3].attrs == .dim)
    }

    @Test func onlyEdgesNearTheViewAreDrawn() {
        var vp = TinyMap.viewport()
        #expect(MapRenderer.visibleEdges(map: map, viewport: vp).sorted() == [0, 1])
        vp.center(on: TinyMap.at(5000, 5000))
        #expect(MapRenderer.visibleEdges(map: map, viewport: vp).isEmpty)
    }

    @Test func crustyRouteWithMarkersWithoutColour() {
        let overlay = RouteOverlay(segments: [OverlaySegment(points: [TinyMap.at(1, -1), TinyMap.at(31, -1)], roughness: .crusty)],
                                   start: TinyMap.at(1, -1), end: TinyMap.at(31, -1), hazards: [TinyMap.at(-20, -1)],
                                   spots: [TinyMap.at(-30, 10)])
        let b = render(Theme(colorMode: .none, glyphMode: .unicode), overlay: overlay)
        expectLines(b, [
            "          ⡄         ",
            "  *       ⡇         ",
            "          ⡇         ",
            "⠉⠉⠉⠉⠉!⠉⠉⠉⠉A######B⠉⠉",
            "          ⡇         ",
            "          ⠃         ",
        ])
        #expect(b[12, 3].attrs.contains(.bold))
        #expect(b[10, 3].attrs.contains(.reverse))
    }

    @Test func brakingDashesOverRoughnessColour() {
        let overlay = RouteOverlay(segments: [OverlaySegment(points: [TinyMap.at(1, -1), TinyMap.at(31, -1)], roughness: .butter, braking: .braking)],
                                   rider: RiderMark(position: TinyMap.at(-30, -1), headingDegrees: 90))
        let theme = Theme(colorMode: .truecolor, glyphMode: .unicode)
        let b = render(theme, overlay: overlay)
        expectLines(b, [
            "          ⡄         ",
            "          ⡇         ",
            "          ⡇         ",
            // The route is two dots wide, its braking dashes too.
            "⠉⠉→⠉⠉⠉⠉⠉⠉⠉⠛⠛⠛⠛⠛⠛⠛⠛⠉⠉",
            "          ⡇         ",
            "          ⠃         ",
        ])
        let braking = theme.style(.braking).fg, butter = theme.style(.butter).fg
        // 4 dots on, 8 off: two braking cells, then four cells in the class colour.
        #expect([10, 11, 12, 13, 14, 15, 16, 17].map { b[$0, 3].fg } == [braking, braking, butter, butter, butter, butter, braking, braking])
        #expect(b[2, 3].style == theme.style(.rider))
    }

    @Test func renderIntoASubArea() {
        var b = ScreenBuffer(width: 24, height: 8, fill: Cell("x"))
        MapRenderer.render(map: map, overlay: nil, viewport: TinyMap.viewport(), theme: Theme(colorMode: .none, glyphMode: .ascii),
                           into: &b, area: Rect(x: 2, y: 1, width: 20, height: 6))
        #expect(b.lines[0] == String(repeating: "x", count: 24))
        #expect(b.lines[4] == "xx....................xx")
    }
}
