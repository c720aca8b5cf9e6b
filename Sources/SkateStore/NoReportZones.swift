import SkateCore

/// The map's no-report zones (school, hospital and kindergarten areas) ready for point-in-polygon
/// tests. Build once per map; `zone(containing:)` is O(zones) with a bounding-box pre-test.
public struct NoReportZones: Sendable {
    /// One zone: its outer ring and what it is.
    public struct Zone: Sendable, Equatable {
        public var kind: ZoneKind
        public var name: String
        public var ring: [Coordinate]
        public var bbox: BoundingBox

        public init(kind: ZoneKind, name: String, ring: [Coordinate]) {
            self.kind = kind; self.name = name; self.ring = ring
            var b = BoundingBox.empty
            for c in ring { b.extend(lat: c.lat, lon: c.lon) }
            bbox = b
        }
    }

    public var zones: [Zone]

    public init(zones: [Zone]) { self.zones = zones }

    /// The zones of a compiled map.
    public init(map: SkateMap) {
        var out: [Zone] = []
        for z in 0..<map.zoneCount {
            let a = Int(map.zoneRingStart[z]), b = Int(map.zoneRingStart[z + 1])
            guard b - a >= 3 else { continue }  // not an area
            let ring = (a..<b).map { Coordinate(lat: map.zoneLat[$0], lon: map.zoneLon[$0]) }
            out.append(Zone(kind: ZoneKind(rawValue: map.zoneKind[z]) ?? .school, name: map.string(map.zoneName[z]), ring: ring))
        }
        zones = out
    }

    /// The first zone whose area contains `c`, or nil.
    public func zone(containing c: Coordinate) -> Zone? {
        zones.first { $0.bbox.contains(c) && Self.ring($0.ring, contains: c) }
    }

    /// Even–odd ray casting in lon/lat degrees (exact enough for areas of a few hundred metres);
    /// works for closed or open rings.
    public static func ring(_ ring: [Coordinate], contains c: Coordinate) -> Bool {
        guard ring.count >= 3 else { return false }
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.lat > c.lat) != (b.lat > c.lat) {
                let x = a.lon + (c.lat - a.lat) / (b.lat - a.lat) * (b.lon - a.lon)
                if c.lon < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}
