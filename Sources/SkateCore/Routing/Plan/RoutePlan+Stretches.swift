import FoundationEssentials
import Glibc

extension RoutePlan {
    /// The route's polyline between two distances from the start (metres), cut exactly at both
    /// ends: what the TUI draws with braking dashes and GeoJSON exports as a zone feature.
    public func geometry(from a: Double, to b: Double) -> [Coordinate] {
        Self.slice(geometry, from: a, to: b)
    }

    /// The part of a polyline between two distances along it (metres), cut at both ends.
    public static func slice(_ line: [Coordinate], from a: Double, to b: Double) -> [Coordinate] {
        guard line.count >= 2, b > a else { return [] }
        var out: [Coordinate] = []
        var acc = 0.0
        for i in 1..<line.count {
            let p = line[i - 1], q = line[i]
            let d = Geo.distance(p, q)
            let s0 = acc, s1 = acc + d
            acc = s1
            guard s1 >= a, s0 <= b, d > 0 else { continue }
            func at(_ s: Double) -> Coordinate {
                let t = min(1, max(0, (s - s0) / d))
                return Coordinate(lat: p.lat + (q.lat - p.lat) * t, lon: p.lon + (q.lon - p.lon) * t)
            }
            if out.isEmpty { out.append(at(max(a, s0))) }
            out.append(at(min(b, s1)))
            if s1 >= b { break }
        }
        return out.count >= 2 ? out : []
    }

    /// The braking zones that start ahead of a distance along the route (metres), nearest first.
    public func zonesAhead(of distance: Double) -> [BrakingZone] {
        brakingZones.filter { $0.end > distance }
    }
}
