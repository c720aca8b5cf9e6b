/// Which map a saved place or recent destination belongs to: the one whose area holds it.
extension SkateMap {
    /// Margin around a map's box within which a place still belongs to it, degrees (≈ 400 m, the
    /// distance within which a plan end finds a street).
    public static let areaMarginDegrees = 0.004

    /// Whether the map's box, widened by `areaMarginDegrees`, holds `c` (the CLI and the TUI
    /// filter saved places and recents with it).
    public func areaHolds(_ c: Coordinate) -> Bool {
        let b = bbox, m = Self.areaMarginDegrees
        return c.lat >= b.minLat - m && c.lat <= b.maxLat + m && c.lon >= b.minLon - m && c.lon <= b.maxLon + m
    }
}
