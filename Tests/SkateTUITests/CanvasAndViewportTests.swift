import SkateCore
import Testing
@testable import SkateTUI

@Suite struct BrailleCanvasTests {
    let context = Ink(style: CellStyle(attrs: .dim), layer: 1, glyph: .sparse)
    let route = Ink(style: CellStyle(fg: .indexed(214)), layer: 2)

    func text(_ c: BrailleCanvas, _ g: GlyphMode) -> [String] {
        var b = ScreenBuffer(width: c.width, height: c.height)
        c.render(into: &b, at: (0, 0), glyphs: g)
        return b.lines
    }

    @Test func dotsMapToBrailleBits() {
        var c = BrailleCanvas(width: 2, height: 1)
        let k = c.register(route)
        c.setDot(x: 0, y: 0, ink: k)  // dot 1
        c.setDot(x: 1, y: 3, ink: k)  // dot 8
        c.setDot(x: 2, y: 3, ink: k)  // next cell, dot 7
        #expect(c.dotBits(atCellX: 0, y: 0) == 0x81)
        #expect(text(c, .unicode) == ["⢁⡀"])
        c.setDot(x: 99, y: 0, ink: k)  // outside: ignored
        #expect(text(c, .unicode) == ["⢁⡀"])
    }

    @Test func higherLayerReplacesLowerIsIgnored() {
        var c = BrailleCanvas(width: 1, height: 1)
        let lo = c.register(context), hi = c.register(route)
        c.setDot(x: 0, y: 0, ink: lo)
        c.setDot(x: 1, y: 0, ink: hi)  // route takes the cell and drops the context dot
        #expect(c.dotBits(atCellX: 0, y: 0) == 0x08)
        c.setDot(x: 0, y: 3, ink: lo)  // context cannot paint over the route
        #expect(c.dotBits(atCellX: 0, y: 0) == 0x08)
        #expect(c.ink(atCellX: 0, y: 0) == route)
    }

    @Test func linesInBrailleAndAscii() {
        var c = BrailleCanvas(width: 6, height: 3)
        let k = c.register(route)
        c.line(x0: 0.5, y0: 1.5, x1: 11.5, y1: 1.5, ink: k)   // horizontal across the top row
        c.line(x0: 0.5, y0: 11.5, x1: 11.5, y1: 4.5, ink: k)  // rising diagonal
        #expect(text(c, .unicode) == ["⠒⠒⠒⠒⠒⠒", "   ⣀⠔⠊", "⡠⠔⠉   "])
        #expect(text(c, .ascii) == ["------", "   ///", "///   "])
    }

    @Test func dashedLinesAlternateRuns() {
        var c = BrailleCanvas(width: 8, height: 1)
        let k = c.register(route)
        var phase = 0
        c.line(x0: 0.5, y0: 0.5, x1: 15.5, y1: 0.5, ink: k, dash: (on: 4, off: 4), phase: &phase)
        #expect(text(c, .unicode) == ["⠉⠉  ⠉⠉  "])
        #expect(phase == 16)
    }

    @Test func clipsLinesFarOutside() {
        var c = BrailleCanvas(width: 4, height: 1)
        let k = c.register(route)
        c.line(x0: -1e6, y0: 1.5, x1: 1e6, y1: 1.5, ink: k)
        #expect(text(c, .unicode) == ["⠒⠒⠒⠒"])
        c.line(x0: -10, y0: -10, x1: -5, y1: -50, ink: k)  // entirely outside: nothing
        c.line(x0: .nan, y0: 0, x1: 3, y1: 3, ink: k)
        #expect(text(c, .unicode) == ["⠒⠒⠒⠒"])
    }
}

@Suite struct MapViewportTests {
    @Test func originSitsInTheMiddle() {
        let vp = TinyMap.viewport()
        let d = vp.dot(TinyMap.origin)
        #expect(abs(d.x - 20) < 1e-9 && abs(d.y - 12) < 1e-9)
        #expect(vp.cell(TinyMap.origin)! == (10, 3))
        #expect(vp.cell(TinyMap.at(500, 0)) == nil)
    }

    @Test func cellsAreTwiceAsTallAsWide() {
        let vp = TinyMap.viewport()
        let east = vp.dot(TinyMap.at(20, 0)), north = vp.dot(TinyMap.at(0, 20))
        // Square dots: 20 m is 10 dots either way…
        #expect(abs((east.x - 20) - 10) < 1e-6 && abs((12 - north.y) - 10) < 1e-6)
        // …which is 5 cells east but only 2.5 cells north.
        #expect(vp.cell(TinyMap.at(20.5, 0))!.x == 15)
        #expect(vp.cell(TinyMap.at(0, 20.5))!.y == 0)
    }

    @Test func cellCoordinateRoundTrip() {
        let vp = TinyMap.viewport()
        for (x, y) in [(0, 0), (7, 2), (19, 5)] {
            #expect(vp.cell(vp.coordinate(cellX: x, cellY: y))! == (x, y))
        }
    }

    @Test func panZoomAndClamp() {
        var vp = TinyMap.viewport()
        vp.pan(dx: 0.25, dy: 0)
        #expect(vp.center.lon > TinyMap.origin.lon && abs(vp.center.lat - TinyMap.origin.lat) < 1e-12)
        #expect(abs(Geo.distance(vp.center, TinyMap.origin) - 20) < 0.01)  // a quarter of 80 m
        vp.pan(dx: 0, dy: 0.25)
        #expect(vp.center.lat > TinyMap.origin.lat)
        vp.zoomIn()
        #expect(abs(vp.metresPerDot - 2 / 1.5) < 1e-12)
        for _ in 0..<30 { vp.zoomIn() }
        #expect(vp.metresPerDot == MapViewport.minMetresPerDot)
        for _ in 0..<60 { vp.zoomOut() }
        #expect(vp.metresPerDot == MapViewport.maxMetresPerDot)
    }

    @Test func fitShowsTheWholeBox() {
        var vp = MapViewport(origin: TinyMap.origin, metresPerDot: 50, size: Size(width: 60, height: 18))
        var box = BoundingBox.empty
        for c in [TinyMap.at(-300, -40), TinyMap.at(900, 120)] { box.extend(lat: c.lat, lon: c.lon) }
        vp.fit(box)
        for c in [TinyMap.at(-300, -40), TinyMap.at(900, 120), TinyMap.at(-300, 120), TinyMap.at(900, -40)] {
            #expect(vp.cell(c) != nil, "\(c) outside after fit")
        }
        // Wide box: the width is what binds, with the margin on each side.
        #expect(abs(vp.metresPerDot - 1200 / (120 * 0.9)) < 1e-6)
    }
}
