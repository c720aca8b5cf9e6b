import Foundation
import SkateCore
import SkateTestSupport
import Testing
@testable import SkateTUI

/// `PickerBox` draws the map list and the saved list (issue 33: they were one drawing written
/// twice). The screens below, over sizes, highlights, scrolling, a list not read yet and an empty
/// one, are pinned in Tests/Fixtures/picker-box.txt; they were first checked cell for cell (styles
/// included) against the two drawings as they stood before PickerBox (commit 5fdf77e holds that
/// test). `SKATEROUTE_RECORD_GOLDEN=1` writes the file anew from the drawing as it is now.
@Suite struct PickerBoxTests {
    static let theme = Theme(colorMode: .none, glyphMode: .unicode)
    static let goldenPath = TestData.projectRoot.appendingPathComponent("Tests/Fixtures/picker-box.txt").path

    static func mapRows(_ n: Int) -> [MapListRow] {
        (0..<n).map { MapListRow(name: $0 == 1 ? "a much longer map name, wider than the box" : "map \($0)", detail: $0 % 2 == 0 ? "library" : "install", path: "/maps/\($0).srmap") }
    }

    static func savedRows(_ n: Int) -> [SavedRow] {
        (0..<n).map { SavedRow(name: $0 == 2 ? "Plage du Larvotto, the long way round by the harbour" : "place \($0)", kind: $0 % 3 == 0 ? "route" : "spot",
                               at: Coordinate(lat: 43.73, lon: 7.42)) }
    }

    static let sizes = [Size(width: 64, height: 14), Size(width: 40, height: 9), Size(width: 18, height: 6)]

    /// Every screen, titled by what it shows.
    static func screens() -> String {
        var out = ""
        func add(_ title: String, _ buffer: ScreenBuffer) {
            out += "== \(title)\n" + buffer.lines.map { $0 + "|" }.joined(separator: "\n") + "\n"
        }
        for size in sizes {
            let area = Rect(x: 0, y: 0, width: size.width, height: size.height)
            for rows in [nil, [], mapRows(3), mapRows(12)] as [[MapListRow]?] {
                for selected in [0, 1, 11] where selected < max(1, rows?.count ?? 1) {
                    var s = MapListState()
                    s.rows = rows
                    s.selected = selected
                    var b = ScreenBuffer(size: size)
                    MapList.render(s, currentPath: "/maps/1.srmap", theme: theme, into: &b, area: area)
                    add("maps \(size.width)×\(size.height), \(rows.map { "\($0.count) rows" } ?? "not read"), row \(selected) highlighted", b)
                }
            }
            for rows in [nil, [], savedRows(4)] as [[SavedRow]?] {
                for selected in [0, 3] where selected < max(1, rows?.count ?? 1) {
                    var s = SavedListState()
                    s.rows = rows
                    s.selected = selected
                    var b = ScreenBuffer(size: size)
                    SavedList.render(s, theme: theme, into: &b, area: area)
                    add("saved \(size.width)×\(size.height), \(rows.map { "\($0.count) rows" } ?? "not read"), row \(selected) highlighted", b)
                }
            }
        }
        return out
    }

    @Test func listsDrawAsPinned() throws {
        let got = Self.screens()
        if ProcessInfo.processInfo.environment["SKATEROUTE_RECORD_GOLDEN"] == "1" {
            try got.write(toFile: Self.goldenPath, atomically: true, encoding: .utf8)
            return
        }
        let want = try String(contentsOfFile: Self.goldenPath, encoding: .utf8)
        #expect(got == want, "the picker screens differ from \(Self.goldenPath); now:\n\(got)")
    }

    @Test func arrowsWrapAtBothEnds() {
        #expect(PickerBox.moved(0, count: 3, by: .selectUp) == 2)
        #expect(PickerBox.moved(2, count: 3, by: .selectDown) == 0)
        #expect(PickerBox.moved(1, count: 3, by: .selectDown) == 2)
        #expect(PickerBox.moved(0, count: 0, by: .selectDown) == 0)
        #expect(PickerBox.moved(1, count: 3, by: .confirm) == 1)
    }
}
