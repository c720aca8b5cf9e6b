import Foundation
import SkateCore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// Renders the bundled Monaco map; skipped when the compiled map is absent.
@Suite struct MonacoRenderTests {
    static let mapAvailable = FileManager.default.fileExists(atPath: TestData.bundledMonaco)

    /// Issue 31: the first frame walks none of the map-wide passes it does not draw: the place
    /// index, the wide-zoom road lists and the skateability bytes wait for their first use, and
    /// then answer as an eager build does.
    @Test(.enabled(if: mapAvailable, "Maps/monaco.srmap is absent"))
    func firstFrameLeavesTheMapWidePassesForLater() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let app = TUIApp(map: map, theme: Theme(colorMode: .ansi256, glyphMode: .unicode))
        let m = app.initialModel(size: Size(width: 120, height: 40))
        _ = app.render(m)
        #expect(!app.services.searchIndex.isComputed)
        #expect(!app.context.detail.builtRoads)
        #expect(app.context.layer == nil && app.context.with(skateShown: true).layer != nil)
        // First use builds them, and they are what an eager build gives.
        let hits = app.services.search.search("Boulevard", near: nil, limit: 5).map(\.candidate.name)
        #expect(app.services.searchIndex.isComputed && hits == PlaceSearch(map: map).search("Boulevard", near: nil, limit: 5).map(\.candidate.name))
        #expect(!hits.isEmpty)
        let wide = BoundingBox(minLon: -180, minLat: -90, maxLon: 180, maxLat: 90)
        #expect(app.context.detail.edges(upTo: .arterial, in: wide)?.count == MapDetail(map: map).counts.arterial)
        #expect(app.context.detail.builtRoads)
    }

    @Test(.enabled(if: mapAvailable, "Maps/monaco.srmap is absent"))
    func browseFrameShowsStreetsEverywhere() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let app = TUIApp(map: map, theme: Theme(colorMode: .ansi256, glyphMode: .unicode))
        var m = app.initialModel(size: Size(width: 120, height: 40))
        m.screen = .browse
        let frame = app.render(m)
        let area = MapBrowseScreen.mapArea(frame.size)
        // Fitted: Braille in every quarter of the map area (Monaco is long and thin, diagonal).
        var braillePerQuarter = [0, 0, 0, 0]
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                // Braille streets, or a town name drawn over them (issue 31's labels).
                guard let s = frame[x, y].glyph.unicodeScalars.first,
                      (0x2801...0x28FF).contains(s.value) || (frame[x, y].glyph.first?.isLetter ?? false) else { continue }
                braillePerQuarter[(x < area.width / 2 ? 0 : 1) + (y < area.height / 2 ? 0 : 2)] += 1
            }
        }
        #expect(braillePerQuarter.reduce(0, +) > 500, "\(braillePerQuarter)")
        #expect(braillePerQuarter.filter { $0 > 20 }.count >= 2, "\(braillePerQuarter)")
        #expect(frame.lines[0].contains("SkateRoute · "))
        if let dir = ProcessInfo.processInfo.environment["SKATEROUTE_TUI_DUMP"] {
            try (frame.lines.joined(separator: "\n") + "\n").write(toFile: dir + "/monaco-browse.txt", atomically: true, encoding: .utf8)
            var zoomed = m
            for k in [Key.char("+"), .char("+"), .char("+")] { zoomed = app.update(zoomed, .key(k)).0 }
            zoomed.browse.overlay = TUIBenchmark.syntheticOverlay(map: map)
            try (app.render(zoomed).lines.joined(separator: "\n") + "\n").write(toFile: dir + "/monaco-zoomed.txt", atomically: true, encoding: .utf8)
            let ascii = TUIApp(map: map, theme: Theme(colorMode: .none, glyphMode: .ascii))
            try (ascii.render(zoomed).lines.joined(separator: "\n") + "\n").write(toFile: dir + "/monaco-ascii.txt", atomically: true, encoding: .utf8)
        }
    }

    @Test(.enabled(if: mapAvailable, "Maps/monaco.srmap is absent"))
    func benchmarkFrameMeasuresSomething() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let t = TUIBenchmark.benchmarkFrame(map: map, iterations: 2)
        #expect(t.renderSeconds > 0 && t.renderSeconds.isFinite)
        #expect(t.diffSeconds >= 0 && t.changedCells > 0)
    }

    /// A browse frame's map, viewport and detail, fitted to the bundled Monaco map.
    static func browseView(_ map: SkateMap) -> (MapViewport, MapDetail, Rect) {
        let app = TUIApp(map: map, theme: Theme(colorMode: .ansi256, glyphMode: .unicode))
        var m = app.initialModel(size: Size(width: 120, height: 40))
        m.screen = .browse
        let area = MapBrowseScreen.mapArea(Size(width: 120, height: 40))
        return (m.browse.viewport, MapDetail(map: map), area)
    }

    @Test(.enabled(if: mapAvailable, "Maps/monaco.srmap is absent"))
    func townNamesStepAsideForMarks() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let (vp, detail, area) = Self.browseView(map)
        let theme = Theme(colorMode: .ansi256, glyphMode: .unicode)
        var sized = vp
        sized.size = Size(width: area.width, height: area.height)
        let labels = MapTownLabels.place(detail.towns, map: map, viewport: sized, area: area, avoid: [], theme: theme)
        let first = try #require(labels.first, "no town named on the fitted Monaco frame")
        // A spot on the middle letter of the first name, as a skatepark beside a town centre is.
        let spotCell = (x: first.x + first.width / 2 - area.x, y: first.y - area.y)
        let spot = sized.coordinate(cellX: spotCell.x, cellY: spotCell.y)
        var buffer = ScreenBuffer(width: 120, height: 40)
        MapRenderer.render(map: map, overlay: RouteOverlay(spots: [spot]), viewport: vp, theme: theme, into: &buffer, area: area, detail: detail)
        let screen = buffer.lines.joined(separator: "\n")
        // The name is still written whole (one row off), and the spot is still drawn.
        #expect(screen.contains(first.text), Comment(rawValue: screen))
        #expect(buffer[first.x + first.width / 2, first.y].glyph == theme.spotGlyph, Comment(rawValue: screen))
        // No name runs through a mark anywhere on the frame.
        let marks = MapRenderer.markerCells(RouteOverlay(spots: [spot]), viewport: sized, area: area)
        for l in MapTownLabels.place(detail.towns, map: map, viewport: sized, area: area, avoid: marks, theme: theme) {
            #expect(!marks.contains { !$0.intersection(Rect(x: l.x, y: l.y, width: l.width, height: 1)).isEmpty }, "\(l)")
        }
    }

    @Test(.enabled(if: mapAvailable, "Maps/monaco.srmap is absent"))
    func roundTripShowsBothEnds() throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let (vp, detail, area) = Self.browseView(map)
        let theme = Theme(colorMode: .none, glyphMode: .ascii)
        let at = vp.center
        var buffer = ScreenBuffer(width: 120, height: 40)
        MapRenderer.render(map: map, overlay: RouteOverlay(start: at, end: at), viewport: vp, theme: theme, into: &buffer, area: area, detail: detail)
        // A loop starts and ends in one cell: A there and B beside it, neither hidden.
        #expect(buffer.lines.contains { $0.contains(theme.startGlyph + theme.endGlyph) }, Comment(rawValue: buffer.lines.joined(separator: "\n")))
    }
}
