import SkateCore

extension SkateMap {
    /// Stores the via points as absolute degrees (the form of maps built in memory) instead of
    /// the file's Int16 offsets, shapes unchanged: for tests of the absolute form on a real map.
    public mutating func useAbsoluteViaPoints() {
        var lat: [Double] = [], lon: [Double] = []
        for e in 0..<edgeCount where shapePointCount(ofEdge: e) > 2 {
            for k in 1..<(shapePointCount(ofEdge: e) - 1) { let p = shapePoint(ofEdge: e, k); lat.append(p.lat); lon.append(p.lon) }
        }
        viaLat = DegreeArray(lat); viaLon = DegreeArray(lon); viaOffsetLat = []; viaOffsetLon = []
    }
}
