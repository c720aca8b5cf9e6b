import Foundation
import SkateCore
import Testing
@testable import SkateTUI

/// Render functions against expected text for a fixed route and viewport.
@Suite struct PlanRenderTests {
    static func plan() throws -> RoutePlan {
        let a = RouteFixture.ascii
        return try Planner(map: a.map).plan(from: a.nodes["A"]!, to: a.nodes["F"]!, mode: .smoothest)
    }

    /// 30×6 cells at 5 m per dot centred between A and F: the whole art fits.
    static func viewport() -> MapViewport {
        let a = RouteFixture.ascii
        let mid = Coordinate(lat: (a.nodes["A"]!.lat + a.nodes["F"]!.lat) / 2, lon: (a.nodes["A"]!.lon + a.nodes["F"]!.lon) / 2)
        return MapViewport(origin: mid, metresPerDot: 5, size: Size(width: 30, height: 6))
    }

    static func dump(_ name: String, _ b: ScreenBuffer) {
        guard let dir = ProcessInfo.processInfo.environment["SKATEROUTE_TUI_DUMP"] else { return }
        try? (b.lines.joined(separator: "\n") + "\n").write(toFile: dir + "/" + name + ".txt", atomically: true, encoding: .utf8)
    }

    @Test func routeOverContextInBraille() throws {
        let p = try Self.plan()
        var b = ScreenBuffer(width: 30, height: 6)
        MapRenderer.render(map: RouteFixture.map, overlay: PlanOverlay.make(p), viewport: Self.viewport(),
                           theme: Theme(colorMode: .ansi256, glyphMode: .unicode), into: &b, area: b.area)
        Self.dump("route-braille", b)
        expectLines(b, Self.brailleExpected)
        // Braking dashes in the warning colour over the okay street; the east street okay green.
        #expect(b[3, 1].fg == .indexed(199), Comment(rawValue: b.styleRuns(row: 1)))
        #expect(b[27, 2].fg == .indexed(77), Comment(rawValue: b.styleRuns(row: 2)))
    }

    @Test func routeWithoutColourInAscii() throws {
        let p = try Self.plan()
        var b = ScreenBuffer(width: 30, height: 6)
        MapRenderer.render(map: RouteFixture.map, overlay: PlanOverlay.make(p), viewport: Self.viewport(),
                           theme: Theme(colorMode: .none, glyphMode: .ascii), into: &b, area: b.area)
        Self.dump("route-ascii", b)
        expectLines(b, Self.asciiExpected)
    }

    @Test func stepRowsAndRouteRow() throws {
        let p = try Self.plan()
        var b = ScreenBuffer(width: 50, height: p.steps.count)
        for (i, s) in p.steps.enumerated() {
            PreviewScreen.renderStep(s, theme: Theme(colorMode: .none, glyphMode: .unicode), into: &b, x: 0, y: i, width: 50)
        }
        Self.dump("steps", b)
        expectLines(b, Self.stepsExpected)
        #expect(PlanScreen.routeRow(p) == Self.routeRowExpected)
    }

    /// A plan on a map without elevation: the step rows show "?" for the grade, the route row a
    /// dash for braking zones and climb, never the 0 the map cannot know. The same plan with
    /// elevation shows its grades, so the check can fail.
    @Test func planWithoutElevationShowsUnknownGrades() throws {
        var p = try Self.plan()
        #expect(p.hasElevation)
        let theme = Theme(colorMode: .none, glyphMode: .unicode)
        func rows(_ p: RoutePlan) -> [String] {
            var b = ScreenBuffer(width: 50, height: p.steps.count)
            for (i, s) in p.steps.enumerated() {
                PreviewScreen.renderStep(s, theme: theme, into: &b, x: 0, y: i, width: 50, hasElevation: p.hasElevation)
            }
            return b.lines.filter { !$0.contains("Arrive") }
        }
        #expect(rows(p).allSatisfy { $0.contains("%") })
        p.hasElevation = false
        #expect(rows(p).allSatisfy { !$0.contains("%") && $0.contains(" ? ") }, "\(rows(p))")
        let cells = PlanScreen.routeRow(p).split(separator: " ")
        #expect(cells.suffix(2) == ["–", "–"], "\(PlanScreen.routeRow(p))")
    }

    /// The preview's facts row keeps each fact whole: at 40 cells "1 caution zone" moves to a second
    /// row instead of reading "1 caution zo" (a 100-column preview cut it so).
    @Test func summaryFactsWrapWholeNotMidWord() {
        let facts = ["crusty 0 m", "no braking zones", "1 caution zone", "lifts 1"]
        let rows = PreviewScreen.packFacts(facts, width: 30, ellipsis: "…")
        #expect(rows == ["crusty 0 m  no braking zones", "1 caution zone  lifts 1"])
        #expect(rows.allSatisfy { DisplayWidth.of($0) <= 30 })
        // A fact wider than the row alone is cut with the ellipsis, never run past it.
        #expect(PreviewScreen.packFacts(["DETOUR 3.1× walk: road tunnel, unpaved"], width: 20, ellipsis: "…") == ["DETOUR 3.1× walk: r…"])
    }

    /// Street names are written beside their stretch (`MapLabels`), off the route and the markers.
    static let brailleExpected: [String] = [
        "          Rue Haute           ",
        // The route two dots wide (issue 34: thicker than any street), braking dashes in colour.
        "  A⣤⣤⣤⣤⣤⣤⣤⣤⣤⣤⣤⣤⡄⣤⣤⣤⢠⣤⡄⣤⣤⣤⢠⣤⡄⡄ ",
        "  ⡇                Rue Est ⢸⡇ ",
        "  ⡇                        ⢸⡇ ",
        "  ⠓⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒⠒B⠁ ",
        "                              ",
    ]
    /// Okay is `=` without colour, braking dashes `-` over it, context streets `.`.
    static let asciiExpected: [String] = [
        "          Rue Haute           ",
        "  A-====--====--===---===---  ",
        "  .                Rue Est =  ",
        "  .                        =  ",
        "  .........................B  ",
        "                              ",
    ]
    static let stepsExpected: [String] = [
        "↑  250 m  -8.0 % okay   BRAKE too fast Depart eas…",
        "→   50 m   0.0 % okay   Turn right onto Rue Est   ",
        "◎ Arrive at destination                           ",
    ]
    static let routeRowExpected = "  300 m   48 s    0 m   1   0 m"
}
