import SkateCore
import Testing
@testable import SkateTUI

/// With `units = imperial` the HUD, the plan screen's route row and the step rows read mph, mi, ft.
@Suite struct UnitsTUITests {
    let mono = Theme(colorMode: .none, glyphMode: .unicode)

    @Test func hudReadsMilesPerHourMilesAndFeet() {
        let d = HUDData(speedKmh: 18.44, next: ManeuverInfo(arrow: .left, distanceMetres: 120, street: "Rue Grimaldi"),
                        distanceLeftMetres: 2430, etaSeconds: 500)
        var b = ScreenBuffer(width: 28, height: 11)
        UnitSystem.$current.withValue(.imperial) { HUDWidget.render(d, theme: mono, into: &b, area: b.area) }
        let text = b.lines.joined(separator: "\n")
        #expect(b.lines[0] == " SPEED    11.5 mph          ", "\(text)")
        #expect(text.contains("← 394 ft") && text.contains("LEFT     1.5 mi"), "\(text)")
        #expect(!text.contains("km") && !text.contains(" m "), "\(text)")
    }

    @Test func planRouteRowAndStepsReadMilesAndFeet() throws {
        let p = try PlanRenderTests.plan()
        let row = UnitSystem.$current.withValue(.imperial) { PlanScreen.routeRow(p) }
        #expect(row.contains("0.2 mi") && row.contains("0 ft") && !row.contains(" m ") && !row.hasSuffix(" m"), "\(row)")
        var b = ScreenBuffer(width: 50, height: p.steps.count)
        UnitSystem.$current.withValue(.imperial) {
            for (i, s) in p.steps.enumerated() {
                PreviewScreen.renderStep(s, theme: mono, into: &b, x: 0, y: i, width: 50)
            }
        }
        let steps = b.lines.joined(separator: "\n")
        #expect(steps.contains(" ft") && !steps.contains(" m ") && !steps.contains(" km"), "\(steps)")
        // Outside the scope the same row is metric again: the override never leaks.
        #expect(PlanScreen.routeRow(p) == PlanRenderTests.routeRowExpected)
    }
}
