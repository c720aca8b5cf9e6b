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

/// State of the map list (a box over the plan or browse screen).
typealias MapListState = PickerList<MapListRow>

/// The installed maps (issue 27): ↑↓ choose, Enter opens the highlighted map (the app leaves its
/// loop and `runTUI` starts again on that map), Esc closes.
enum MapList {
    /// The rows read, the open map (its file `currentPath`) highlighted.
    static func listed(_ rows: [MapListRow], currentPath: String?) -> MapListState {
        var s = MapListState()
        s.rows = rows
        s.selected = rows.firstIndex { $0.path == currentPath } ?? 0
        return s
    }

    public static func render(_ s: MapListState, currentPath: String?, theme: Theme, into buffer: inout ScreenBuffer, area: Rect) {
        // Room for "open · " beside the widest name and detail.
        let width = max(44, (s.rows ?? []).map { DisplayWidth.of($0.name) + DisplayWidth.of($0.detail) + 12 }.max() ?? 0)
        let rows = s.rows?.map { PickerBox.Row(name: $0.name, detail: ($0.path == currentPath ? "open · " : "") + $0.detail) }
        PickerBox.render(title: "Maps", rows: rows, selected: s.selected, width: width,
                         emptyNote: "Only this map: skateroute import adds yours (docs/import-your-city.md)",
                         keys: "Enter open  Esc close", theme: theme, into: &buffer, area: area)
    }
}
