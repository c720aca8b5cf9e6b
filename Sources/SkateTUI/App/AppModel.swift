import SkateCore

/// What the app reacts to. Ride events (fixes, cues) will arrive as further cases.
public enum AppEvent: Hashable, Sendable {
    case key(Key)
    /// Time passed, in seconds since the previous tick.
    case tick(Double)
    /// The terminal's new size in cells.
    case resize(Size)
}

/// Effects `update` asks the loop to carry out.
public enum AppCommand: Hashable, Sendable {
    /// Leave the loop and restore the terminal.
    case quit
    /// Ring the terminal bell (cues).
    case bell
}

/// The whole state of the UI; `render` is a pure function of it.
public struct AppModel: Hashable, Sendable {
    public var screen: ScreenID
    /// Terminal size in cells.
    public var size: Size
    public var browse: MapBrowseState
    public var helpVisible: Bool
    public var toast: Toast?
    public var banner: CueBanner?
    /// Set once `quit` was chosen.
    public var quitting: Bool

    public init(screen: ScreenID, size: Size, browse: MapBrowseState) {
        self.screen = screen; self.size = size; self.browse = browse
        helpVisible = false; toast = nil; banner = nil; quitting = false
    }
}

/// Things that never change while the app runs: the map, the theme, the key table.
public struct TUIContext: Sendable {
    public let map: SkateMap
    public let theme: Theme
    public let keyMap: KeyMap
    /// Map name and attribution, sanitised once.
    public let mapName: String
    public let attribution: String

    public init(map: SkateMap, theme: Theme, keyMap: KeyMap = .standard) {
        self.map = map; self.theme = theme; self.keyMap = keyMap
        mapName = Sanitizer.clean(map.metadata.name)
        attribution = Sanitizer.clean(map.metadata.attribution)
    }
}
