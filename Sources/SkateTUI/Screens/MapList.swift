import SkateCore

/// One installed map as the map list shows it.
public struct MapListRow: Hashable, Sendable {
    /// Library name ("heidelberg"), sanitised.
    public var name: String
    /// Where it was found ("library", "install", "checkout"…), sanitised.
    public var detail: String
    /// The map file.
    public var path: String
    public init(name: String, detail: String, path: String) { self.name = name; self.detail = detail; self.path = path }
}

/// How the TUI lists installed maps and opens another (given by the CLI, which knows the library).
public struct MapSwitcher: Sendable {
    /// The installed maps (I/O: run by a command).
    public var list: @Sendable () -> [MapListRow]
    /// Loads the map at a path and returns it with its identity ("name@digest", stored with
    /// saved routes); throws one line when it cannot be read.
    public var open: @Sendable (String) throws -> (map: SkateMap, identity: String)
    public init(list: @escaping @Sendable () -> [MapListRow], open: @escaping @Sendable (String) throws -> (map: SkateMap, identity: String)) {
        self.list = list; self.open = open
    }
}

/// State of the map list (a box over the plan or browse screen); `rows` is nil until read.
struct MapListState: Hashable, Sendable {
    public var rows: [MapListRow]?
    public var selected = 0
    public init() {}
}

/// The installed maps (issue 27): ↑↓ choose, Enter opens the highlighted map (the app leaves its
/// loop and `runTUI` starts again on that map), Esc closes.
enum MapList {
    public static func apply(_ action: KeyAction, to state: MapListState) -> MapListState {
        var s = state
        let n = s.rows?.count ?? 0
        switch action {
        case .selectUp where n > 0: s.selected = (s.selected - 1 + n) % n
        case .selectDown where n > 0: s.selected = (s.selected + 1) % n
        default: break
        }
        return s
    }

    /// The rows read, the open map (its file `currentPath`) highlighted.
    static func listed(_ rows: [MapListRow], currentPath: String?) -> MapListState {
        var s = MapListState()
        s.rows = rows
        s.selected = rows.firstIndex { $0.path == currentPath } ?? 0
        return s
    }

    public static func render(_ s: MapListState, currentPath: String?, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
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
}
