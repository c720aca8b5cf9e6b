import Foundation
import SkateCore
import SkateImport

/// Builds tiny maps from ASCII art for routing tests, through the real compiler.
///
/// Letters are nodes; every character is `AsciiMap.metresPerChar` metres east (columns) or south
/// (rows). Ways are given as strings of node letters with their OSM tags. Elevation, if any, is a
/// function of the east/north offset in metres.
///
/// ```
/// A----B----C
/// |         |
/// D----E----F
/// ```
public struct AsciiMap {
    /// Grid unit: 25 m per character, as Valhalla's gurka tests use.
    public static let metresPerChar = 25.0
    /// Where the art's top-left corner sits (Monaco's latitude, so the projection is realistic).
    public static let origin = Coordinate(lat: 43.74, lon: 7.42)

    public let map: SkateMap
    public let nodes: [Character: Coordinate]

    struct FunctionDEM: ElevationSource {
        let f: (Double, Double) -> Double
        let proj: LocalProjection
        func elevation(lat: Double, lon: Double) -> Double? {
            let (x, y) = proj.project(lat: lat, lon: lon)
            return f(x, y)
        }
    }

    /// - Parameters:
    ///   - art: the drawing.
    ///   - ways: node-letter strings and their tags, e.g. `("ABC", ["highway": "residential"])`.
    ///   - nodeTags: tags for single nodes (crossings, signals…).
    ///   - places: named places at node letters, with tags (e.g. `leisure=skatepark`).
    ///   - elevation: metres as a function of (east, north) metres from the top-left corner.
    ///   - nudge: metres (east, south) to move a letter off its grid cell, for ways shorter than
    ///     one character (a 2 m link between two escalators); say the true lengths in a comment.
    public init(_ art: String, ways: [(String, [String: String])], nodeTags: [Character: [String: String]] = [:],
                places: [Character: [String: String]] = [:], elevation: ((Double, Double) -> Double)? = nil,
                dem: (any ElevationSource)? = nil, nudge: [Character: (east: Double, south: Double)] = [:]) {
        let proj = LocalProjection(origin: Self.origin)
        var pos: [Character: Coordinate] = [:]
        for (row, line) in art.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (col, ch) in line.enumerated() where ch.isLetter {
                let n = nudge[ch] ?? (0, 0)
                pos[ch] = proj.unproject(x: Double(col) * Self.metresPerChar + n.east, y: -Double(row) * Self.metresPerChar - n.south)
            }
        }
        var compiler = MapCompiler(options: ImportOptions(name: "ascii"))
        let letters = pos.keys.sorted()
        var ids: [Character: Int64] = [:]
        for (i, ch) in letters.enumerated() {
            ids[ch] = Int64(i + 1)
            var tags = (nodeTags[ch] ?? [:]).sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
            if let p = places[ch] { tags += p.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) } }
            compiler.node(id: Int64(i + 1), lat: pos[ch]!.lat, lon: pos[ch]!.lon, tags: OSMTags(tags))
        }
        for (i, (seq, tags)) in ways.enumerated() {
            let refs = seq.map { ids[$0]! }
            compiler.way(id: Int64(1000 + i), refs: refs, tags: OSMTags(tags.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }))
        }
        let source: (any ElevationSource)? = dem ?? elevation.map { FunctionDEM(f: $0, proj: proj) }
        map = compiler.build(dem: source, sources: ["ascii"])
        nodes = pos
    }

    /// The graph node index at a letter.
    public func node(_ ch: Character) -> Int? {
        guard let c = nodes[ch] else { return nil }
        return (0..<map.nodeCount).first { Geo.distance(map.coordinate(ofNode: $0), c) < 0.5 }
    }

    /// The letters a path visits, in order, e.g. "ABEF" (letters at graph nodes or shape points along the way).
    public func letters(of path: RoutePath) -> String {
        var out = ""
        let builder = PlanBuilder(map: map, costing: SkateCosting(map: map, table: EdgeTable(map: map, knowledge: .empty), mode: .smoothest), knowledge: .empty)
        for leg in path.legs {
            for p in builder.legGeometry(leg) {
                if let (ch, _) = nodes.first(where: { Geo.distance($0.value, p) < 0.5 }), out.last != ch { out.append(ch) }
            }
        }
        return out
    }
}
