import SkateCore

/// Building outlines read from OSM (`building=*` closed ways and multipolygon outer rings), kept
/// so the importer can tell which DEM posts stand on roofs (`GroundModel`).
///
/// Rings are stored as flat degree arrays with their boxes; the only question asked of them is
/// "which share of this small rectangle do buildings cover", answered by point sampling.
public struct BuildingFootprints: Sendable {
    /// One closed outline, degrees; the first point is repeated at the end.
    public struct Ring: Sendable {
        public var lats: [Double], lons: [Double]
        public var box: BoundingBox
        /// Height above the ground in metres (`BuildingFootprints.height(_:)`).
        public var height: Double
        public init(lats: [Double], lons: [Double], height: Double = BuildingFootprints.defaultHeight) {
            self.lats = lats; self.lons = lons; self.height = height
            var b = BoundingBox.empty
            for i in lats.indices { b.extend(lat: lats[i], lon: lons[i]) }
            box = b
        }

        /// Even–odd point-in-polygon test (ray cast towards east).
        public func contains(lat: Double, lon: Double) -> Bool {
            guard lat >= box.minLat, lat <= box.maxLat, lon >= box.minLon, lon <= box.maxLon else { return false }
            var inside = false
            var j = lats.count - 1
            for i in 0..<lats.count {
                let yi = lats[i], yj = lats[j]
                if (yi > lat) != (yj > lat) {
                    let x = lons[i] + (lat - yi) * (lons[j] - lons[i]) / (yj - yi)
                    if lon < x { inside.toggle() }
                }
                j = i
            }
            return inside
        }
    }

    public var rings: [Ring] = []

    public init(rings: [Ring] = []) { self.rings = rings }

    public var isEmpty: Bool { rings.isEmpty }

    /// True for the tags of a building outline: `building=*` except `building=no`.
    public static func isBuilding(_ tags: OSMTags) -> Bool {
        guard let b = tags["building"] else { return false }
        return b != "no"
    }

    /// Height of a building without `height` or `building:levels`, metres: three storeys and a
    /// roof, the common European town building (most tagged `building:levels` are 2–4).
    public static let defaultHeight = 10.0
    /// Metres per storey for `building:levels` (floor to floor, including the slab).
    public static let metresPerLevel = 3.0
    /// Tallest height believed, metres (a typo like `height=4500` is not a 4.5 km roof).
    public static let maxHeight = 300.0

    /// A building's height in metres: `height` (a number, optionally with " m"), else
    /// `building:levels` × `metresPerLevel`, else `defaultHeight`; clamped to 0…`maxHeight`.
    public static func height(_ tags: OSMTags) -> Double {
        func number(_ s: String?) -> Double? {
            guard var t = s?.trimmingWhitespace(), !t.isEmpty else { return nil }
            if t.hasSuffix("m") { t = String(t.dropLast()).trimmingWhitespace() }
            guard let v = Double(String(t.map { $0 == "," ? "." : $0 })), v.isFinite, v >= 0 else { return nil }
            return v
        }
        let h = number(tags["height"]) ?? number(tags["building:levels"]).map { $0 * metresPerLevel } ?? defaultHeight
        return min(max(h, 0), maxHeight)
    }
}

extension MapCompiler {
    /// The building outlines collected while reading (closed ways and multipolygon outers whose
    /// nodes are all known), resolved to coordinates.
    func buildingFootprints() -> BuildingFootprints {
        var out = BuildingFootprints()
        out.rings.reserveCapacity(buildingRings.count)
        for (refs, height) in buildingRings {
            var la: [Double] = [], lo: [Double] = []
            la.reserveCapacity(refs.count); lo.reserveCapacity(refs.count)
            for r in refs {
                guard let i = nodeIndex[r] else { break }
                la.append(nodeIndex.lat(i)); lo.append(nodeIndex.lon(i))
            }
            guard la.count == refs.count, la.count >= 4 else { continue }
            out.rings.append(.init(lats: la, lons: lo, height: height))
        }
        return out
    }
}
