/// State of the recorded-ride picker (a box over the current screen).
public struct RidePickerState: Hashable, Sendable {
    public var visible: Bool
    /// Nil until the listing arrived.
    public var rides: [RideListing]?
    public var selected: Int
    public init() { visible = true; rides = nil; selected = 0 }
}

/// Lists ride folders (with ride.json) to replay.
public enum RidePicker {
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

    public static func render(_ s: RidePickerState, directory: String, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        let rides = s.rides ?? []
        let rows = max(1, rides.count)
        let w = min(area.width - 4, max(50, (rides.map { DisplayWidth.of($0.title) + DisplayWidth.of($0.detail) + 8 }.max() ?? 0)))
        let box = area.centered(width: w, height: min(area.height, rows + 5))
        guard box.width >= 20, box.height >= 5 else { return }
        buffer.fill(box)
        buffer.drawBox(box, style: theme.style(.border), glyphs: theme.glyphs, title: "Replay a ride")
        let inner = box.width - 4
        if s.rides == nil {
            buffer.write("reading \(Sanitizer.clean(directory))…", x: box.x + 2, y: box.y + 1, style: theme.style(.textDim), maxWidth: inner)
        } else if rides.isEmpty {
            buffer.write("No rides in \(Sanitizer.clean(directory))/ (folders with ride.json)", x: box.x + 2, y: box.y + 1,
                         style: theme.style(.textDim), maxWidth: inner)
        }
        for (i, r) in rides.enumerated() where i < box.height - 4 {
            let y = box.y + 1 + i
            let on = i == s.selected
            let style = on ? theme.style(.keyBarKey) : theme.style(.text)
            if on { buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), with: Cell(" ", style: style)) }
            let n = buffer.write((on ? "> " : "  ") + Sanitizer.clean(r.title), x: box.x + 2, y: y, style: style, maxWidth: inner)
            if !r.detail.isEmpty { buffer.write("  " + Sanitizer.clean(r.detail), x: box.x + 2 + n, y: y, style: on ? style : theme.style(.textDim), maxWidth: inner - n) }
        }
        buffer.write("Enter replay  Esc close", x: box.x + 2, y: box.maxY - 2, style: theme.style(.textDim), maxWidth: inner)
    }
}
