import SkateCore
/// State of the recorded-ride picker (a box over the current screen).
struct RidePickerState: Hashable, Sendable {
    public var visible: Bool
    /// Nil until the listing arrived.
    public var rides: [RideListing]?
    public var selected: Int
    public init() { visible = true; rides = nil; selected = 0 }
}

/// Lists ride folders (with ride.json) to replay.
enum RidePicker {
    public static func apply(_ action: KeyAction, to state: RidePickerState) -> RidePickerState {
        var s = state
        let n = s.rides?.count ?? 0
        switch action {
        case .selectUp where n > 0: s.selected = (s.selected - 1 + n) % n
        case .selectDown where n > 0: s.selected = (s.selected + 1) % n
        default: break
        }
        return s
    }

    /// Columns shown after the title, widest first to go when the box is narrow: the date, the
    /// mode, the map; distance and duration stay.
    static let dropOrder = [4, 1, 0]
    /// Narrowest title column kept before facts are dropped.
    static let minTitleColumns = 16

    public static func render(_ s: RidePickerState, directory: String, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let rides = s.rides ?? []
        let rows = max(1, rides.count)
        let cols = rides.map(columns)
        // Width of each fact column over all rows (0: nobody has it).
        var widths = (0..<5).map { i in cols.map { DisplayWidth.of($0[i]) }.max() ?? 0 }
        let titleW = rides.map { DisplayWidth.of($0.title) }.max() ?? 0
        func factsWidth() -> Int { widths.filter { $0 > 0 }.reduce(0) { $0 + $1 + 2 } }
        let w = min(area.width - 4, max(50, titleW + factsWidth() + 6))
        let box = area.centered(width: w, height: min(area.height, rows + 5))
        guard box.width >= 20, box.height >= 5 else { return }
        let inner = box.width - 4
        for i in dropOrder where inner - 2 - factsWidth() < minTitleColumns { widths[i] = 0 }
        let titleRoom = max(0, inner - 2 - factsWidth())
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Replay a ride")
        if s.rides == nil {
            buffer.write("reading \(TerminalSafe.clean(directory))…", x: box.x + 2, y: box.y + 1, style: theme.style(.textDim), maxWidth: inner)
        } else if rides.isEmpty {
            buffer.write("No rides in \(TerminalSafe.clean(directory))/ (folders with ride.json)", x: box.x + 2, y: box.y + 1,
                         style: theme.style(.textDim), maxWidth: inner)
        } else {
            // Header row naming the columns.
            let names = ["map", "mode", "dist", "time", "date (UTC)"]
            var hx = box.x + 2 + 2 + titleRoom
            buffer.write("ride", x: box.x + 4, y: box.y + 1, style: theme.style(.hudLabel), maxWidth: titleRoom)
            for i in 0..<5 where widths[i] > 0 {
                buffer.write(String(names[i].prefix(widths[i])), x: hx + 2, y: box.y + 1, style: theme.style(.hudLabel))
                hx += widths[i] + 2
            }
        }
        for (i, r) in rides.enumerated() where i < box.height - 5 {
            let y = box.y + 2 + i
            let on = i == s.selected
            let style = on ? theme.style(.keyBarKey) : theme.style(.text)
            if on { buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), with: Cell(" ", style: style)) }
            let title = DisplayWidth.clip(r.title, maxColumns: titleRoom, ellipsis: theme.glyphs.ellipsis)
            buffer.write((on ? "> " : "  ") + title, x: box.x + 2, y: y, style: style, maxWidth: inner)
            var x = box.x + 2 + 2 + titleRoom
            for (k, text) in cols[i].enumerated() where widths[k] > 0 {
                // Numbers right-aligned, words left.
                let t = (k == 2 || k == 3) ? text.leftPadded(to: widths[k]) : text.rightPadded(to: widths[k])
                buffer.write(t, x: x + 2, y: y, style: on ? style : theme.style(.textDim), maxWidth: widths[k])
                x += widths[k] + 2
            }
        }
        buffer.write("Enter replay  Esc close", x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: inner)
    }
}
