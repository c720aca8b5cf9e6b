extension MapDerived {
    /// One edge's map-only facts, as the per-edge arrays of `MapDerived` hold them (units there).
    struct EdgeFacts {
        var tagRMS: Float = 0, tagRMSSource: UInt8 = 0
        var grade: Float = 0, climb: Float = 0, descent: Float = 0
        var steepestDownFwd: Float = 0, steepestDownBwd: Float = 0
        var brakingMetresFwd: Float = 0, brakingMetresBwd: Float = 0
        var cautionMetresFwd: Float = 0, cautionMetresBwd: Float = 0
        var tagSecondsFwd: Float = 0, tagSecondsBwd: Float = 0
        var bearingStart: Float = 0, bearingEnd: Float = 0
    }

    /// Every edge's facts, computed on both cores (`ParallelMap`: each edge reads the map alone
    /// and lands in its own slot, so the result is the serial loop's, bit for bit). A serial
    /// 3 % of a region's import CPU on the path from the terrain's heights to the landmark runs
    /// (issue 31, ninth round).
    static func edgeFacts(map: SkateMap) -> [EdgeFacts] {
        ParallelMap.map(map.edgeCount) { edgeFacts(map: map, edge: $0) }
    }

    /// One edge's facts: tag roughness, grade, climb and descent, steepest sustained descent,
    /// braking and caution metres, travel seconds and end bearings.
    static func edgeFacts(map: SkateMap, edge e: Int) -> EdgeFacts {
        var f = EdgeFacts()
        let t = map.tagRoughness(ofEdge: e)
        f.tagRMS = Float(t.rms); f.tagRMSSource = UInt8(t.source.rawValue)
        let len = Double(map.edgeLength[e])
        let prof = map.elevationProfile(ofEdge: e)
        // Connectors (lifts, escalators) have no grade: their height change is the ride.
        if prof.count >= 2, len > 0, !map.flags(ofEdge: e).contains(.connector) {
            let maxG = EdgeTable.maxGradePct
            let g = Float((Double(prof.last!) - Double(prof.first!)) / len * 100)
            f.grade = max(-maxG, min(maxG, g))
            var up: Float = 0, down: Float = 0
            var prev = prof.first!
            for x in prof.dropFirst() { let d = x - prev; if d > 0 { up += d } else { down -= d }; prev = x }
            f.climb = up; f.descent = down
            let spacing = len / Double(prof.count - 1)
            let w = max(1, Int((EdgeTable.sustainWindow / spacing).rounded(.up)))
            var minF: Float = 0, minB: Float = 0
            let arr = Array(prof)
            if w >= arr.count {
                minF = min(0, f.grade); minB = min(0, -f.grade)
            } else {
                for i in 0..<(arr.count - w) {
                    let gg = Float(Double(arr[i + w] - arr[i]) / (Double(w) * spacing) * 100)
                    minF = min(minF, gg); minB = min(minB, -gg)
                }
            }
            f.steepestDownFwd = max(-maxG, minF); f.steepestDownBwd = max(-maxG, minB)
            let m = BrakingGrade.metres(profile: arr, length: len)
            f.brakingMetresFwd = m.brakingFwd; f.brakingMetresBwd = m.brakingBwd
            f.cautionMetresFwd = m.cautionFwd; f.cautionMetresBwd = m.cautionBwd
        }
        (f.tagSecondsFwd, f.tagSecondsBwd) = travelSeconds(map: map, edge: e, grade: f.grade, rms: f.tagRMS)
        let count = map.shapePointCount(ofEdge: e)
        let a = map.shapePoint(ofEdge: e, 0), b = map.shapePoint(ofEdge: e, 1)
        let y = map.shapePoint(ofEdge: e, count - 2), z = map.shapePoint(ofEdge: e, count - 1)
        f.bearingStart = Float(Geo.bearing(a, b)); f.bearingEnd = Float(Geo.bearing(y, z))
        return f
    }
}
