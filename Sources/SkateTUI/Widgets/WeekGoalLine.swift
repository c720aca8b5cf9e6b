import SkateCore

/// "Week  12.4 / 20 km ████░░": this week's distance against the weekly goal, on the plan screen.
enum WeekGoalLine {
    /// Cells of the bar at most; the bar shrinks to what the line leaves.
    static let maxBarWidth = 12
    /// Narrowest bar worth drawing.
    static let minBarWidth = 3

    /// The text part: "12.4 / 20 km" (kilometres, one decimal below 100; imperial: miles).
    public static func text(_ w: WeekProgress) -> String {
        let imperial = UnitSystem.active == .imperial
        return km(w.distance, imperial) + " / " + km(w.goal, imperial) + (imperial ? " mi" : " km")
    }

    /// Kilometres (or miles) of `m` metres: whole, or one decimal below 100.
    static func km(_ m: Double, _ imperial: Bool = false) -> String {
        let k = m / (imperial ? UnitFormatter.metresPerMile : 1000)
        if k >= 100 || k == k.rounded() { return String(Int(k.rounded())) }
        return FixedDecimal.string(k, decimals: 1)
    }

    /// Filled cells of a `width`-cell bar (full once the goal is reached).
    public static func filled(_ w: WeekProgress, width: Int) -> Int {
        guard w.goal > 0, width > 0 else { return 0 }
        return min(width, Int((Double(width) * w.distance / w.goal).rounded(.down)))
    }

    /// Draws the line at (x, y) within `width` columns.
    public static func render(_ w: WeekProgress, theme: Theme, into buffer: inout ScreenBuffer, x: Int, y: Int, width: Int) {
        let label = "Week", t = text(w)
        buffer.write(label, x: x, y: y, style: theme.style(.hudLabel))
        let tx = x + 7
        let n = buffer.write(t, x: tx, y: y, style: theme.style(.hudValue), maxWidth: max(0, width - 7))
        let barW = min(maxBarWidth, width - 7 - n - 1)
        guard barW >= minBarWidth else { return }
        let f = filled(w, width: barW)
        let full = theme.glyphs == .unicode ? "█" : "#", empty = theme.glyphs == .unicode ? "░" : "."
        let reached = w.distance >= w.goal
        buffer.write(String(repeating: full, count: f), x: tx + n + 1, y: y, style: theme.style(reached ? .butter : .okay))
        buffer.write(String(repeating: empty, count: barW - f), x: tx + n + 1 + f, y: y, style: theme.style(.textDim))
    }
}
