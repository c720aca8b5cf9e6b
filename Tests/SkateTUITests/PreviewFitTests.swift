import Foundation
import Testing
import SkateCore
import SkateTestSupport
@testable import SkateTUI

/// The preview fits the route above the legend: seen at 80×24 and 120×40 on the bundled map,
/// Jardin Exotique → Stade Louis II ended under the legend and B was not on screen.
@Suite struct PreviewFitTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco), "Maps/monaco.srmap is absent"),
          arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func routeEndsStayOutOfTheLegend(size: Size) throws {
        let map = try MapFormat.load(path: TestData.bundledMonaco)
        let services = TUIServices(map: map)
        let theme = Theme(colorMode: .none, glyphMode: .unicode)
        let app = TUIApp(map: map, theme: theme, services: services)
        let search = PlaceSearch(map: map)
        guard case .found(let a) = search.resolve("Jardin Exotique"), case .found(let b) = search.resolve("Stade Louis II") else {
            Issue.record("places not found"); return
        }
        let plan = try services.planner.plan(from: a.at, to: b.at, mode: .smoothest, alternatives: 2)
        let refs = ([plan] + plan.alternatives).enumerated().map { PlanRef(id: $0.offset + 1, plan: $0.element) }
        var m = app.initialModel(size: size)
        m.preview = PreviewScreen.make(plan: refs[0], routes: refs, from: "Jardin Exotique", to: "Stade Louis II",
                                       context: app.context, services: services, size: size)
        m.screen = .preview
        let area = PreviewScreen.mapArea(size, plan: refs[0].plan)
        let vp = try #require(m.preview?.map.viewport)
        // (At 80 columns the step panel takes the room a legend would need: none is drawn.)
        let legend = LegendWidget.layout(theme, mapHeight: area.height, maxWidth: area.width - 16)?.size ?? Size(width: 0, height: 0)
        let legendRect = Rect(x: area.maxX - legend.width, y: area.maxY - legend.height, width: legend.width, height: legend.height)
        // The view fits the selected route (issue 34 item 5); alternatives may leave it.
        for r in refs.prefix(1) {
            for end in [r.plan.geometry.first!, r.plan.geometry.last!] {
                let c = try #require(vp.cell(end), "a route end is off the map at \(size)")
                let cell = (x: area.x + c.x, y: area.y + c.y)
                #expect(!(cell.x >= legendRect.x && cell.x < legendRect.maxX && cell.y >= legendRect.y && cell.y < legendRect.maxY),
                        "a route end at \(cell) lies under the legend \(legendRect) at \(size)")
            }
        }
        let lines = app.render(m).lines[area.y..<area.maxY].map { String(Array($0).dropFirst(area.x).prefix(area.width)) }
        #expect(lines.contains { $0.contains("B") }, "B is not on the map at \(size)")
    }
}
