import Glibc
import SkateCore

/// Where the map opens: on the rider's home when it lies on this map, else where the rider left
/// this map last time, else the whole map when it is small enough to read, else its densest area — never the empty centre of a bounding
/// box (issue 27: Heidelberg's extract opened on fields, the city at the right edge).
enum OpeningView {
    /// Side of the grid cells nodes are counted in, metres: about a city quarter, so the densest
    /// cell is a town centre rather than one busy junction.
    static let densityCellMetres: Double = 1_000
    /// Scale the map opens at on a dense area or home, metres per Braille dot: a 60-column map
    /// spans ~3 km, a town centre with its streets apart.
    static let cityMetresPerDot: Double = 12
    /// A map whose bounding box is at most this long on its longer side (metres) opens whole:
    /// one town (the bundled Monaco is ~4 km); a regional extract (Heidelberg's is ~30 km) is
    /// mostly fields and opens on its densest area instead.
    static let wholeMapMaxMetres: Double = 10_000
    /// Most nodes read to find the densest area: nodes are numbered along a Hilbert curve, so
    /// every k-th node samples each area in proportion (a town's block holds thousands), and a
    /// region's opening view costs a bounded pass (Heidelberg's 47 k nodes are all read).
    static let densitySampleNodes = 100_000

    /// The opening viewport for a map area of `size` cells.
    /// - Parameters:
    ///   - home: the rider's home place, used when it lies inside the map's bounding box.
    ///   - last: where the rider left this map, used when its centre lies inside the box.
    ///   - densest: the map's densest area when already found (the plan and browse maps open on
    ///     the same one); nil finds it.
    static func viewport(map: SkateMap, size: Size, home: Coordinate? = nil, last: MapView? = nil,
                         densest: Coordinate?? = nil) -> MapViewport {
        let box = map.bbox
        let origin = box.isEmpty ? Coordinate(lat: 0, lon: 0) : box.center
        var vp = MapViewport(origin: origin, metresPerDot: MapBrowseScreen.defaultMetresPerDot, size: size)
        vp.fit(box)
        if let h = home, !box.isEmpty, box.contains(h) {
            vp.center(on: h)
            vp.metresPerDot = min(vp.metresPerDot, cityMetresPerDot)
            return vp
        }
        if let l = last, !box.isEmpty, box.contains(l.center) {
            vp.center(on: l.center)
            vp.metresPerDot = l.metresPerDot
            return vp
        }
        guard !box.isEmpty, longerSide(box) > wholeMapMaxMetres, let dense = densest ?? densestArea(map) else { return vp }
        vp.center(on: dense)
        vp.metresPerDot = cityMetresPerDot
        return vp
    }

    /// The mean position of the graph nodes in the 3×3 block of grid cells (`densityCellMetres`
    /// square each) that holds the most of them; nil for a map without nodes. A block rather than
    /// one cell, so a campus of footways does not outweigh the town centre beside it. On a map
    /// with more than `densitySampleNodes` nodes, every k-th node is counted.
    static func densestArea(_ map: SkateMap, sampleNodes: Int = densitySampleNodes) -> Coordinate? {
        let box = map.bbox
        guard map.nodeCount > 0, !box.isEmpty else { return nil }
        let midLat = (box.minLat + box.maxLat) / 2
        let metresPerDegree = Geo.earthRadius * .pi / 180
        let dLat = densityCellMetres / metresPerDegree
        let dLon = densityCellMetres / (metresPerDegree * max(0.01, cos(midLat * .pi / 180)))
        let cols = max(1, Int(((box.maxLon - box.minLon) / dLon).rounded(.up)) + 1)
        let rows = max(1, Int(((box.maxLat - box.minLat) / dLat).rounded(.up)) + 1)
        guard cols.multipliedReportingOverflow(by: rows).partialValue <= 4_000_000 else { return nil }
        var count = [Int32](repeating: 0, count: cols * rows)
        func cell(_ c: Coordinate) -> Int {
            let x = min(cols - 1, max(0, Int((c.lon - box.minLon) / dLon)))
            let y = min(rows - 1, max(0, Int((c.lat - box.minLat) / dLat)))
            return y * cols + x
        }
        let stride = max(1, (map.nodeCount + sampleNodes - 1) / max(1, sampleNodes))
        let sample = Swift.stride(from: 0, to: map.nodeCount, by: stride)
        for n in sample { count[cell(map.coordinate(ofNode: n))] += 1 }
        func inBlock(_ i: Int, around centre: Int) -> Bool {
            abs(i % cols - centre % cols) <= 1 && abs(i / cols - centre / cols) <= 1
        }
        var block = [Int](repeating: 0, count: cols * rows)
        for i in count.indices where count[i] > 0 {
            let x = i % cols, y = i / cols
            for yy in max(0, y - 1)...min(rows - 1, y + 1) {
                for xx in max(0, x - 1)...min(cols - 1, x + 1) { block[yy * cols + xx] += Int(count[i]) }
            }
        }
        guard let best = block.indices.max(by: { block[$0] < block[$1] }) else { return nil }
        var lat = 0.0, lon = 0.0, k = 0.0
        for n in sample {
            let c = map.coordinate(ofNode: n)
            if inBlock(cell(c), around: best) { lat += c.lat; lon += c.lon; k += 1 }
        }
        return k > 0 ? Coordinate(lat: lat / k, lon: lon / k) : nil
    }

    /// The longer side of a box in metres.
    static func longerSide(_ b: BoundingBox) -> Double {
        let midLat = (b.minLat + b.maxLat) / 2
        return max(Geo.distance(Coordinate(lat: b.minLat, lon: b.minLon), Coordinate(lat: b.maxLat, lon: b.minLon)),
                   Geo.distance(Coordinate(lat: midLat, lon: b.minLon), Coordinate(lat: midLat, lon: b.maxLon)))
    }
}

/// A remembered map view: its centre and scale (metres per Braille dot).
public struct MapView: Hashable, Sendable {
    public var center: Coordinate
    public var metresPerDot: Double
    /// Nil for a view no map could show (a scale outside the viewport's range, a bad centre).
    public init?(center: Coordinate, metresPerDot: Double) {
        guard center.lat.isFinite, center.lon.isFinite, abs(center.lat) <= 90, abs(center.lon) <= 180,
              metresPerDot.isFinite, (MapViewport.minMetresPerDot...MapViewport.maxMetresPerDot).contains(metresPerDot) else { return nil }
        self.center = center; self.metresPerDot = metresPerDot
    }
}
