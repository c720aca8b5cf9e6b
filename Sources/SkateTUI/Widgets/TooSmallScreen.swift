/// The screen shown when the terminal is below the minimum size.
enum TooSmallScreen {
    /// Smallest width the app lays out (map, HUD and key bar side by side).
    public static let minWidth = 60
    /// Smallest height the app lays out.
    public static let minHeight = 20

    public static func isTooSmall(_ s: Size) -> Bool { s.width < minWidth || s.height < minHeight }

    /// Centred message with the current and needed sizes; fits down to 1×1 (lines are cut).
    public static func render(size: Size, theme: Theme) -> ScreenBuffer {
        var b = ScreenBuffer(size: size)
        let lines = [
            "Terminal too small",
            "\(size.width)x\(size.height), need \(minWidth)x\(minHeight)",
            "Enlarge the window or press q",
        ]
        let top = max(0, (size.height - lines.count) / 2)
        for (i, l) in lines.enumerated() {
            let x = max(0, (size.width - l.count) / 2)
            b.write(l, x: x, y: top + i, style: i == 0 ? theme.style(.title) : theme.style(.text), maxWidth: size.width - x)
        }
        return b
    }
}
