/// The frame every screen shares: a title row on top, a key bar at the bottom, the body between,
/// and (on the plan and preview screens) a side panel two fifths of the width.
enum ScreenLayout {
    /// Rows of the title bar and of the key bar.
    static let titleRows = 1, keyBarRows = 1

    /// The screen without its title row and key bar.
    static func body(_ size: Size) -> Rect { Rect(size: size).splitTop(titleRows).rest.splitBottom(keyBarRows).rest }

    /// A side panel's width: two fifths of the screen, kept within `minWidth`…`maxWidth` columns.
    static func panelWidth(_ size: Size, minWidth: Int, maxWidth: Int) -> Int { min(maxWidth, max(minWidth, size.width * 2 / 5)) }
}
