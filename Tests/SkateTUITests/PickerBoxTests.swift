import Foundation
import SkateCore
import Testing
@testable import SkateTUI

/// `PickerBox` draws the map list and the saved list (issue 33: they were one drawing written
/// twice). Against the two drawings as they stood before (commit 0401f5e, kept here verbatim as
/// the reference), cell for cell with styles, over screen sizes, highlights and scrolling, a list
/// not read yet and an empty one.
@Suite struct PickerBoxTests {
    static let theme = Theme(colorMode: .none, glyphMode: .unicode)

    static func mapRows(_ n: Int) -> [MapListRow] {
        (0..<n).map { MapListRow(name: $0 == 1 ? "a much longer map name, wider than the box" : "map \($0)", detail: $0 % 2 == 0 ? "library" : "install", path: "/maps/\($0).srmap") }
    }

    static func savedRows(_ n: Int) -> [SavedRow] {
        (0..<n).map { SavedRow(name: $0 == 2 ? "Plage du Larvotto, the long way round by the harbour" : "place \($0)", kind: $0 % 3 == 0 ? "route" : "spot",
                               at: Coordinate(lat: 43.73, lon: 7.42)) }
    }

    static let sizes = [Size(width: 100, height: 30), Size(width: 40, height: 12), Size(width: 24, height: 8), Size(width: 18, height: 6)]

    @Test func mapListDrawsAsBefore() {
        for size in Self.sizes {
            for rows in [nil, [], Self.mapRows(1), Self.mapRows(3), Self.mapRows(40)] as [[MapListRow]?] {
                for selected in [0, 1, 20, 39] where selected < max(1, rows?.count ?? 1) {
                    var s = MapListState()
                    s.rows = rows
                    s.selected = selected
                    let area = Rect(x: 0, y: 0, width: size.width, height: size.height)
                    var now = ScreenBuffer(size: size), before = ScreenBuffer(size: size)
                    MapList.render(s, currentPath: "/maps/1.srmap", theme: Self.theme, into: &now, area: area)
                    Self.mapListBefore(s, currentPath: "/maps/1.srmap", theme: Self.theme, into: &before, area: area)
                    #expect(now == before, "\(size) rows \(rows?.count ?? -1) selected \(selected):\n\(now.lines.joined(separator: "\n"))")
                }
            }
        }
    }

    @Test func savedListDrawsAsBefore() {
        for size in Self.sizes {
            for rows in [nil, [], Self.savedRows(1), Self.savedRows(4), Self.savedRows(40)] as [[SavedRow]?] {
                for selected in [0, 2, 20, 39] where selected < max(1, rows?.count ?? 1) {
                    var s = SavedListState()
                    s.rows = rows
                    s.selected = selected
                    let area = Rect(x: 0, y: 0, width: size.width, height: size.height)
                    var now = ScreenBuffer(size: size), before = ScreenBuffer(size: size)
                    SavedList.render(s, theme: Self.theme, into: &now, area: area)
                    Self.savedListBefore(s, theme: Self.theme, into: &before, area: area)
                    #expect(now == before, "\(size) rows \(rows?.count ?? -1) selected \(selected):\n\(now.lines.joined(separator: "\n"))")
                }
            }
        }
    }

    @Test func arrowsWrapAtBothEnds() {
        #expect(PickerBox.moved(0, count: 3, by: .selectUp) == 2)
        #expect(PickerBox.moved(2, count: 3, by: .selectDown) == 0)
        #expect(PickerBox.moved(1, count: 3, by: .selectDown) == 2)
        #expect(PickerBox.moved(0, count: 0, by: .selectDown) == 0)
        #expect(PickerBox.moved(1, count: 3, by: .confirm) == 1)
    }

    // MARK: - The drawings before PickerBox (commit 0401f5e), the reference

    static func mapListBefore(_ s: MapListState, currentPath: String?, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let rows = s.rows ?? []
        let w = min(area.width - 4, max(44, (rows.map { DisplayWidth.of($0.name) + DisplayWidth.of($0.detail) + 12 }.max() ?? 0)))
        let box = area.centered(width: w, height: min(area.height, max(1, rows.count) + 4))
        guard box.width >= 20, box.height >= 5 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Maps")
        let inner = box.width - 4
        if rows.isEmpty {
            let note = s.rows == nil ? "Reading…" : "Only this map: skateroute import adds yours (docs/import-your-city.md)"
            buffer.write(note, x: box.x + 2, y: box.y + 1, style: theme.style(.textDim), maxWidth: inner)
        }
        let visible = box.height - 3
        let first = max(0, min(s.selected - visible + 1, rows.count - visible))
        for (k, r) in rows.dropFirst(first).prefix(visible).enumerated() {
            let i = first + k, y = box.y + 1 + k
            let on = i == s.selected
            let style = on ? theme.style(.keyBarKey) : theme.style(.text)
            if on { buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), with: Cell(" ", style: style)) }
            let detail = (r.path == currentPath ? "open · " : "") + r.detail
            let dw = DisplayWidth.of(detail)
            buffer.write((on ? "> " : "  ") + r.name, x: box.x + 2, y: y, style: style, maxWidth: max(0, inner - dw - 1))
            buffer.write(detail, x: box.x + 2 + inner - dw, y: y, style: on ? style : theme.style(.textDim), maxWidth: dw)
        }
        buffer.write("Enter open  Esc close", x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: inner)
    }

    static func savedListBefore(_ s: SavedListState, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let rows = s.rows ?? []
        let w = min(area.width - 4, max(50, (rows.map { DisplayWidth.of($0.name) + DisplayWidth.of($0.kind) + 8 }.max() ?? 0)))
        let box = area.centered(width: w, height: min(area.height, max(1, rows.count) + 4))
        guard box.width >= 20, box.height >= 5 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Saved places and routes")
        let inner = box.width - 4
        if rows.isEmpty {
            let note = s.rows == nil ? "Reading…" : "Nothing saved yet: w saves a previewed route, skateroute places add a place"
            buffer.write(note, x: box.x + 2, y: box.y + 1, style: theme.style(.textDim), maxWidth: inner)
        }
        let visible = box.height - 3
        let first = max(0, min(s.selected - visible + 1, rows.count - visible))
        for (k, r) in rows.dropFirst(first).prefix(visible).enumerated() {
            let i = first + k, y = box.y + 1 + k
            let on = i == s.selected
            let style = on ? theme.style(.keyBarKey) : theme.style(.text)
            if on { buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), with: Cell(" ", style: style)) }
            let kw = DisplayWidth.of(r.kind)
            buffer.write((on ? "> " : "  ") + r.name, x: box.x + 2, y: y, style: style, maxWidth: max(0, inner - kw - 1))
            buffer.write(r.kind, x: box.x + 2 + inner - kw, y: y, style: on ? style : theme.style(.textDim), maxWidth: kw)
        }
        buffer.write("Enter go there  Esc close", x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: inner)
    }
}
