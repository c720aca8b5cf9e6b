/// The towns a map knows (format 8): municipalities and their districts, as `PlaceSearch` and
/// the CLI read them. Every reference is bounds-checked, so a map loaded without the value scan
/// can name no town past the table.
extension SkateMap {
    /// How many towns the map holds.
    public var townCount: Int { townName.count }

    /// A town's index from a stored reference (index + 1, 0 = none); nil when none or out of range.
    @inlinable func townIndex(reference r: Int) -> Int? { r > 0 && r <= townName.count ? r - 1 : nil }

    /// The town of place `i` (index into the town table), if known.
    public func town(ofPlace i: Int) -> Int? { i < placeTown.count ? townIndex(reference: Int(placeTown[i])) : nil }

    /// The town of edge `e` (named edges only), if known.
    public func town(ofEdge e: Int) -> Int? { e < edgeTown.count ? townIndex(reference: Int(edgeTown[e])) : nil }

    /// The municipality a town belongs to: itself, or a district's parent.
    public func municipality(ofTown t: Int) -> Int {
        guard t < townParent.count, let p = townIndex(reference: Int(townParent[t])), p != t else { return t }
        return p
    }

    /// A town's own name ("Bergheim", "Heidelberg").
    public func townOwnName(_ t: Int) -> String { t < townName.count ? string(townName[t]) : "" }

    /// A town as shown: "Heidelberg", or "Bergheim, Heidelberg" for a district.
    public func townLabel(_ t: Int?) -> String {
        guard let t, t < townName.count else { return "" }
        let m = municipality(ofTown: t)
        return m == t ? townOwnName(t) : townOwnName(t) + ", " + townOwnName(m)
    }

    /// Where town `t` is, in degrees.
    public func townCoordinate(_ t: Int) -> Coordinate { Coordinate(lat: townLat[t], lon: townLon[t]) }
}
