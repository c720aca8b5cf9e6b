import FoundationEssentials
import Glibc

/// A WGS84 position in degrees.
public struct Coordinate: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Latitude in degrees, positive north.
    public var lat: Double
    /// Longitude in degrees, positive east.
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    public var description: String {
        FixedDecimal.string(lat, decimals: 6) + "," + FixedDecimal.string(lon, decimals: 6)
    }

    /// Parses `"lat,lon"` (spaces allowed). Returns nil when the text is not two numbers in range.
    public init?(parsing text: String) {
        func trimmed(_ s: Substring) -> Substring {
            let blank: (Character) -> Bool = { $0.isWhitespace && !$0.isNewline }
            guard let first = s.firstIndex(where: { !blank($0) }), let last = s.lastIndex(where: { !blank($0) }) else { return "" }
            return s[first...last]
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
        guard parts.count == 2, let la = Double(parts[0]), let lo = Double(parts[1]),
              la.isFinite, lo.isFinite, abs(la) <= 90, abs(lo) <= 180 else { return nil }
        self.init(lat: la, lon: lo)
    }
}

/// Geodesy helpers on a spherical Earth (errors < 0.5 % at city scale, far below GPS noise).
public enum Geo {
    /// Mean Earth radius in metres (IUGG), the usual choice for haversine distances.
    public static let earthRadius: Double = 6_371_008.8
    static let degToRad = Double.pi / 180

    /// Great-circle distance in metres.
    @inlinable
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        distance(lat1: a.lat, lon1: a.lon, lat2: b.lat, lon2: b.lon)
    }

    /// Great-circle distance in metres between two positions given in degrees.
    @inlinable
    public static func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r
        let dLon = (lon2 - lon1) * r
        let s1 = sin(dLat / 2), s2 = sin(dLon / 2)
        let h = s1 * s1 + cos(lat1 * r) * cos(lat2 * r) * s2 * s2
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// Initial bearing from `a` to `b` in degrees clockwise from north, 0..<360.
    public static func bearing(_ a: Coordinate, _ b: Coordinate) -> Double {
        let r = degToRad
        let φ1 = a.lat * r, φ2 = b.lat * r, Δλ = (b.lon - a.lon) * r
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let deg = atan2(y, x) / r
        return deg < 0 ? deg + 360 : deg
    }

    /// Signed smallest difference `to - from` between two bearings, in degrees (−180…180].
    public static func turnAngle(from: Double, to: Double) -> Double {
        var d = to - from
        // Bearings in 0..<360 differ by less than 360: two compares, no fmod (the router's inner loop).
        if !(d > -360 && d < 360) { d = d.truncatingRemainder(dividingBy: 360) }
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }
}

/// A local equirectangular projection to metres around an origin; accurate to ~0.1 % within
/// tens of kilometres, which is all a city map and a matcher need.
public struct LocalProjection: Sendable {
    public let origin: Coordinate
    /// Metres per degree of latitude and of longitude at the origin.
    public let mPerDegLat: Double
    public let mPerDegLon: Double

    public init(origin: Coordinate) {
        self.origin = origin
        mPerDegLat = Geo.earthRadius * Double.pi / 180
        mPerDegLon = mPerDegLat * cos(origin.lat * Double.pi / 180)
    }

    /// East (x) and north (y) in metres from the origin.
    @inlinable
    public func project(_ c: Coordinate) -> (x: Double, y: Double) {
        ((c.lon - origin.lon) * mPerDegLon, (c.lat - origin.lat) * mPerDegLat)
    }

    @inlinable
    public func project(lat: Double, lon: Double) -> (x: Double, y: Double) {
        ((lon - origin.lon) * mPerDegLon, (lat - origin.lat) * mPerDegLat)
    }

    public func unproject(x: Double, y: Double) -> Coordinate {
        Coordinate(lat: origin.lat + y / mPerDegLat, lon: origin.lon + x / mPerDegLon)
    }
}

/// The result of projecting a point onto a segment.
public struct SegmentProjection: Sendable {
    /// Fraction along the segment, 0…1.
    public var t: Double
    /// Distance from the point to the segment in metres.
    public var distance: Double

    @inlinable public init(t: Double, distance: Double) { self.t = t; self.distance = distance }
}

extension LocalProjection {
    /// Projects `p` onto the segment a→b (all in this projection's metres) and returns the
    /// clamped fraction and the perpendicular distance in metres.
    @inlinable
    public static func projectPoint(px: Double, py: Double, ax: Double, ay: Double, bx: Double, by: Double) -> SegmentProjection {
        let dx = bx - ax, dy = by - ay
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0
        t = min(1, max(0, t))
        let qx = ax + t * dx - px, qy = ay + t * dy - py
        return SegmentProjection(t: t, distance: (qx * qx + qy * qy).squareRoot())
    }
}

/// A longitude/latitude rectangle in degrees.
public struct BoundingBox: Sendable, Equatable, Codable {
    public var minLon: Double, minLat: Double, maxLon: Double, maxLat: Double

    public init(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double) {
        self.minLon = minLon; self.minLat = minLat; self.maxLon = maxLon; self.maxLat = maxLat
    }

    /// An empty box that any `extend` replaces.
    public static let empty = BoundingBox(minLon: .infinity, minLat: .infinity, maxLon: -.infinity, maxLat: -.infinity)

    public var isEmpty: Bool { minLon > maxLon || minLat > maxLat }

    public mutating func extend(lat: Double, lon: Double) {
        minLon = Swift.min(minLon, lon); maxLon = Swift.max(maxLon, lon)
        minLat = Swift.min(minLat, lat); maxLat = Swift.max(maxLat, lat)
    }

    public func contains(_ c: Coordinate) -> Bool {
        c.lat >= minLat && c.lat <= maxLat && c.lon >= minLon && c.lon <= maxLon
    }

    public var center: Coordinate { Coordinate(lat: (minLat + maxLat) / 2, lon: (minLon + maxLon) / 2) }
}
