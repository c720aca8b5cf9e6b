import SkateCore

/// An area in the osmosis polygon format (`.poly`, as Geofabrik and osmium use):
///
/// ```
/// heidelberg            ← the file's name line
/// 1                     ← a ring; a name starting with "!" is a hole
///    8.6500  49.3800    ← "lon lat" pairs, any spacing, exponents allowed
///    8.7500  49.3800
///    8.7500  49.4400
/// END
/// END
/// ```
/// A point is inside when an odd number of outer rings and no hole holds it (even–odd rule per ring).
public struct OsmosisPolygon: Sendable, Equatable {
    /// One ring: its vertices (closed implicitly) and box.
    public struct Ring: Sendable, Equatable {
        public var lats: [Double], lons: [Double]
        public var isHole: Bool
        public var bounds: BoundingBox

        /// Even–odd ray casting towards east.
        func contains(lat: Double, lon: Double) -> Bool {
            guard lat >= bounds.minLat, lat <= bounds.maxLat, lon >= bounds.minLon, lon <= bounds.maxLon else { return false }
            var inside = false
            var j = lats.count - 1
            for i in 0..<lats.count {
                if (lats[i] > lat) != (lats[j] > lat) {
                    let x = lons[i] + (lat - lats[i]) / (lats[j] - lats[i]) * (lons[j] - lons[i])
                    if lon < x { inside.toggle() }
                }
                j = i
            }
            return inside
        }
    }

    /// Fewest vertices of a ring: a triangle.
    public static let minRingVertices = 3
    /// Largest polygon file read, bytes (a detailed country border is a few MB).
    public static let maxFileBytes = 64 << 20

    public var name: String
    public var rings: [Ring]
    /// Box of the outer rings, degrees.
    public var bounds: BoundingBox

    /// Whether the point lies in an outer ring and in no hole.
    public func contains(lat: Double, lon: Double) -> Bool {
        guard lat >= bounds.minLat, lat <= bounds.maxLat, lon >= bounds.minLon, lon <= bounds.maxLon else { return false }
        var inOuter = false
        for r in rings where r.contains(lat: lat, lon: lon) {
            if r.isHole { return false }
            inOuter = true
        }
        return inOuter
    }

    /// Reads a polygon file.
    /// - Throws: `ImportAreaError` naming the file and line: unreadable, no ring, a bad coordinate
    ///   line, a ring with fewer than three vertices, a missing END.
    public static func load(path: String) throws(ImportAreaError) -> OsmosisPolygon {
        guard let bytes = RawFile.readPrefix(of: path, count: maxFileBytes + 1) else {
            throw ImportAreaError("--poly \(TerminalSafe.quoted(path)): cannot read the file")
        }
        guard bytes.count <= maxFileBytes else { throw ImportAreaError("--poly \(TerminalSafe.quoted(path)): over \(maxFileBytes >> 20) MB; not a polygon file") }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// Parses polygon text (see the type's description).
    /// - Throws: `ImportAreaError` as `load(path:)`.
    public static func parse(_ text: String, path: String) throws(ImportAreaError) -> OsmosisPolygon {
        func bad(_ line: Int, _ problem: String) -> ImportAreaError {
            ImportAreaError("--poly \(TerminalSafe.quoted(path)): line \(line): \(problem) (expected the osmosis polygon format: a name line, then rings of \"lon lat\" lines each closed by END, then END)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingWhitespaceAndNewlines() }
        var i = 0
        func nextNonEmpty() -> (Int, String)? {
            while i < lines.count {
                defer { i += 1 }
                if !lines[i].isEmpty { return (i + 1, lines[i]) }
            }
            return nil
        }
        guard let (_, name) = nextNonEmpty() else { throw bad(1, "the file is empty") }
        var rings: [Ring] = []
        var bounds = BoundingBox.empty
        var finished = false
        while let (n, header) = nextNonEmpty() {
            if header == "END" { finished = true; break }
            let isHole = header.hasPrefix("!")
            var lats: [Double] = [], lons: [Double] = []
            var box = BoundingBox.empty
            var closed = false
            while let (m, line) = nextNonEmpty() {
                if line == "END" { closed = true; break }
                let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Double($0) }
                guard f.count == 2, let lon = f[0], let lat = f[1], lon.isFinite, lat.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
                    throw bad(m, "'\(TerminalSafe.quoted(line, maxLength: 40))' is not a \"lon lat\" pair in degrees")
                }
                lats.append(lat); lons.append(lon); box.extend(lat: lat, lon: lon)
            }
            guard closed else { throw bad(lines.count, "ring '\(TerminalSafe.quoted(header, maxLength: 40))' has no END") }
            guard lats.count >= minRingVertices else { throw bad(n, "ring '\(TerminalSafe.quoted(header, maxLength: 40))' has \(lats.count) vertices; a ring needs at least \(minRingVertices)") }
            rings.append(Ring(lats: lats, lons: lons, isHole: isHole, bounds: box))
            if !isHole { bounds.extend(lat: box.minLat, lon: box.minLon); bounds.extend(lat: box.maxLat, lon: box.maxLon) }
        }
        guard finished else { throw bad(lines.count, "the file ends without its final END") }
        guard rings.contains(where: { !$0.isHole }) else { throw bad(1, "no outer ring") }
        return OsmosisPolygon(name: name, rings: rings, bounds: bounds)
    }
}
