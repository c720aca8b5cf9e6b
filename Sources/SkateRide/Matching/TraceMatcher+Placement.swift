import FoundationEssentials
import Glibc
import SkateCore

extension TraceMatcher {
    /// Slack (metres of path) when testing whether a leg overlaps a window of path distances.
    static let placementSlack: Double = 1e-6

    /// Places a fix on the matched path: the nearest point of the legs `path[legs]` between path
    /// distances `lo` and `hi` (metres, cumulative as in `legEnds`). Used for carried fixes (the
    /// window runs from their kept fix to the next one, so they land on the route ridden between)
    /// and for kept fixes whose state sat on a junction node of an edge the path does not use.
    /// - Returns: the snap and its path distance, or nil when no leg overlaps the window.
    func place(_ c: Coordinate, path: [RouteLeg], legEnds: [Double], legs: Range<Int>, lo: Double, hi: Double) -> (EdgeSnap, Double)? {
        guard !legs.isEmpty else { return nil }
        // First leg of the range ending at or after lo.
        var a = legs.lowerBound, b = legs.upperBound - 1
        while a < b {
            let mid = (a + b) / 2
            if legEnds[mid] < lo - Self.placementSlack { a = mid + 1 } else { b = mid }
        }
        let proj = LocalProjection(origin: c)
        var best: (EdgeSnap, Double)?
        var k = a
        while k < legs.upperBound {
            let start = k == 0 ? 0 : legEnds[k - 1]
            if start > hi + Self.placementSlack { break }
            let leg = path[k]
            let u0 = max(lo, start) - start, u1 = max(u0, min(hi, legEnds[k]) - start)
            let o0 = leg.reversed ? leg.startOffset - u0 : leg.startOffset + u0
            let o1 = leg.reversed ? leg.startOffset - u1 : leg.startOffset + u1
            let oMin = min(o0, o1), oMax = max(o0, o1)
            if var s = map.snap(c, toEdge: leg.edge, projection: proj) {
                if s.offset < oMin || s.offset > oMax {
                    let o = s.offset < oMin ? oMin : oMax
                    s.point = point(onEdge: leg.edge, offset: o)
                    s.offset = o
                    s.distance = Geo.distance(c, s.point)
                }
                let d = start + abs(s.offset - leg.startOffset)
                if best == nil || s.distance < best!.0.distance { best = (s, d) }
            }
            k += 1
        }
        return best
    }

    /// The point `offset` metres along edge `e` from `edgeFrom` (the stored length scales the
    /// drawn polyline, as `SkateMap.snap` does), clamped to the edge.
    func point(onEdge e: Int, offset: Double) -> Coordinate {
        let count = map.shapePointCount(ofEdge: e)
        let first = map.shapePoint(ofEdge: e, 0)
        let proj = LocalProjection(origin: first)
        var drawn = 0.0
        var segs: [(ax: Double, ay: Double, bx: Double, by: Double, len: Double)] = []
        segs.reserveCapacity(count - 1)
        var (ax, ay) = proj.project(first)
        for i in 1..<count {
            let (bx, by) = proj.project(map.shapePoint(ofEdge: e, i))
            let len = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
            segs.append((ax, ay, bx, by, len))
            drawn += len
            ax = bx; ay = by
        }
        let stored = Double(map.edgeLength[e])
        var want = min(max(0, offset), stored) * (stored > 0 ? drawn / stored : 0)
        for s in segs {
            if want <= s.len || s.len == 0 && want <= 0 {
                let t = s.len > 0 ? want / s.len : 0
                return proj.unproject(x: s.ax + t * (s.bx - s.ax), y: s.ay + t * (s.by - s.ay))
            }
            want -= s.len
        }
        return map.shapePoint(ofEdge: e, count - 1)
    }
}
