import FoundationEssentials
import Glibc

/// Descriptive facts about a compiled map.
public struct MapMetadata: Sendable, Equatable, Codable {
    /// Human name of the area, e.g. "Monaco".
    public var name: String
    /// Attribution the data licences require (shown by `map info` and the TUI).
    public var attribution: String
    /// File names the map was built from (OSM extract, DEM tiles).
    public var sources: [String]
    /// The OSM extract's own timestamp (replication or newest object), ISO 8601, or "".
    public var osmTimestamp: String
    /// True when a DEM covered the map and edges carry elevation profiles.
    public var hasElevation: Bool
    /// Number of OSM ways (kept ones) that carry an `incline` tag.
    public var inclineTaggedWays: Int
    /// Number of OSM highway ways kept.
    public var waysKept: Int
    /// How elevation was conditioned at import ("" without a DEM) and what it did.
    public var terrainMethod: String = ""
    public var terrain = TerrainReport()

    public init(name: String, attribution: String, sources: [String], osmTimestamp: String,
                hasElevation: Bool, inclineTaggedWays: Int, waysKept: Int) {
        self.name = name; self.attribution = attribution; self.sources = sources
        self.osmTimestamp = osmTimestamp; self.hasElevation = hasElevation
        self.inclineTaggedWays = inclineTaggedWays; self.waysKept = waysKept
    }

    /// The attribution every map built from OSM (+ SRTM) must carry.
    public static func standardAttribution(hasSRTM: Bool) -> String {
        var s = "Map data © OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)"
        if hasSRTM { s += "; elevation: SRTM, public domain (NASA/USGS)" }
        return s
    }
}

/// A routable skate map: a graph of nodes and edges with their cost attributes, geometry,
/// elevation profiles, names, places and no-report zones, in flat arrays (structure of arrays)
/// so that it loads from disk with a handful of copies.
///
/// Edges are undirected way pieces between two graph nodes; `edgeFrom → edgeTo` is the OSM
/// drawing direction, which is the direction of `edgeIncline` and of the elevation profile.
public struct SkateMap: Sendable {
    public package(set) var metadata: MapMetadata

    // MARK: Nodes (graph nodes only: way ends and junctions)
    /// Latitude / longitude in degrees.
    public package(set) var nodeLat: DegreeArray
    public package(set) var nodeLon: DegreeArray
    /// Raw `NodeFlags`.
    public package(set) var nodeFlags: FlatArray<UInt16>
    /// OSM node ids, for exports and debugging.
    public package(set) var nodeOsmId: FlatArray<Int64>

    // MARK: Edges
    public package(set) var edgeFrom: FlatArray<UInt32>
    public package(set) var edgeTo: FlatArray<UInt32>
    /// Length in metres along the geometry.
    public package(set) var edgeLength: FlatArray<Float>
    /// Raw `HighwayClass`, `Surface`, `Smoothness`.
    public package(set) var edgeHighway: FlatArray<UInt8>
    public package(set) var edgeSurface: FlatArray<UInt8>
    public package(set) var edgeSmoothness: FlatArray<UInt8>
    /// Raw `EdgeFlags`.
    public package(set) var edgeFlags: FlatArray<UInt32>
    /// Numeric OSM incline in percent along the drawing direction; `SkateMap.noIncline` when absent.
    public package(set) var edgeIncline: FlatArray<Int8>
    /// Crossing nodes strictly inside the edge (endpoint crossings are node flags).
    public package(set) var edgeCrossings: FlatArray<UInt8>
    /// Index into `strings` of the street name (0 = unnamed).
    public package(set) var edgeName: FlatArray<UInt32>
    /// The OSM way the edge came from (a lift mapped as a node: minus 64 × the node id, minus the pair).
    public package(set) var edgeWayId: FlatArray<Int64>
    /// Steps counted on the edge (`step_count` of its way, shared out by length); 0 when untagged.
    /// Empty when the map has no step counts at all (maps assembled by hand).
    public package(set) var edgeStepCount: FlatArray<UInt16>
    /// Index into `strings` of the way's raw OSM `surface=*` / `smoothness=*` value (0 = untagged),
    /// for path details (format 8). Empty on maps assembled by hand.
    public package(set) var edgeSurfaceTag: FlatArray<UInt32>
    public package(set) var edgeSmoothnessTag: FlatArray<UInt32>
    /// Shape CSR: the via points of edge `e` (its shape points strictly between the end nodes,
    /// which `nodeLat`/`nodeLon` already hold) are `viaLat/Lon[edgeViaStart[e] ..< edgeViaStart[e+1]]`;
    /// an edge drawn as a straight line has none. Count = edges + 1. Read an edge's points, ends
    /// included, with `shapePointCount(ofEdge:)` and `shapePoint(ofEdge:_:)`.
    public package(set) var edgeViaStart: FlatArray<UInt32>
    /// Via points as absolute degrees (maps built in memory, and files whose via points do not fit
    /// the offset form); empty when `viaOffsetLat` holds them.
    public package(set) var viaLat: DegreeArray
    public package(set) var viaLon: DegreeArray
    /// Via points as offsets from the edge's `edgeFrom` node in 1e-7° (`DegreeArray`'s unit), as a
    /// map file stores them when every one fits an Int16 (edges are split every
    /// `MapCompiler.maxEdgeLength` metres, so via points lie within about 120 m of the start: up to
    /// 11 000 units of latitude, and of longitude up to latitude 70°); empty otherwise.
    public package(set) var viaOffsetLat: FlatArray<Int16>
    public package(set) var viaOffsetLon: FlatArray<Int16>

    /// Elevation CSR: samples of edge `e` are `elevation[edgeElevStart[e] ..< edgeElevStart[e+1]]`,
    /// equally spaced along the edge from `edgeFrom` to `edgeTo` (at most `ElevationSampling.maxSpacing` apart),
    /// in metres above sea level. Empty when unknown.
    public package(set) var edgeElevStart: FlatArray<UInt32>
    public package(set) var elevation: FlatArray<Float>

    // MARK: Adjacency (CSR): for node n, `adjacency[adjStart[n] ..< adjStart[n+1]]` holds
    // `edge << 1 | (1 if leaving through edgeTo→edgeFrom)`.
    public package(set) var adjStart: FlatArray<UInt32>
    public package(set) var adjacency: FlatArray<UInt32>

    // MARK: Strings (index 0 is the empty string)
    public package(set) var stringBytes: FlatArray<UInt8>
    public package(set) var stringStart: FlatArray<UInt32>

    // MARK: Places (POIs, squares, skateparks…)
    public package(set) var placeLat: FlatArray<Double>
    public package(set) var placeLon: FlatArray<Double>
    public package(set) var placeName: FlatArray<UInt32>
    public package(set) var placeKind: FlatArray<UInt8>
    /// Index into `strings` of the OSM key=value that made it a place, e.g. "amenity=cafe".
    public package(set) var placeCategory: FlatArray<UInt32>

    // MARK: Towns and addresses (format 8; empty on maps without them, see `TownTable`)
    /// Town names (strings), one per town: municipalities and their districts.
    public package(set) var townName: FlatArray<UInt32>
    /// 0 for a municipality; for a district, the index + 1 of its municipality.
    public package(set) var townParent: FlatArray<UInt32>
    /// Where a town is, in degrees: its place node, else the middle of what lies in it.
    public package(set) var townLat: FlatArray<Double>
    public package(set) var townLon: FlatArray<Double>
    /// Per place: 0 (no town known) or town index + 1.
    public package(set) var placeTown: FlatArray<UInt32>
    /// Per edge (named edges only, else 0): 0 or town index + 1. Empty on maps without towns.
    public package(set) var edgeTown: FlatArray<UInt16>
    /// House numbers (`addr:street` + `addr:housenumber`), sorted by street name bytes then number:
    /// street and number strings, position in degrees, 0 or town index + 1.
    public package(set) var addressStreet: FlatArray<UInt32>
    public package(set) var addressNumber: FlatArray<UInt32>
    public package(set) var addressLat: FlatArray<Double>
    public package(set) var addressLon: FlatArray<Double>
    public package(set) var addressTown: FlatArray<UInt32>

    // MARK: No-report zones (school / hospital / kindergarten areas)
    public package(set) var zoneKind: FlatArray<UInt8>
    public package(set) var zoneName: FlatArray<UInt32>
    /// Ring CSR into `zoneLat/zoneLon`. Count = zones + 1.
    public package(set) var zoneRingStart: FlatArray<UInt32>
    public package(set) var zoneLat: FlatArray<Double>
    public package(set) var zoneLon: FlatArray<Double>

    // MARK: Spatial grid over edges for snapping
    public package(set) var grid: SpatialGrid

    /// Precomputed per-edge facts, present on maps loaded from a `.srmap` (the file carries them);
    /// nil on maps built in memory, whose users compute them on demand. A loaded map is not
    /// meant to be edited; anyone who does must not rely on this.
    public package(set) var derived: MapDerived?
    /// True when the map file's derived tables were computed under another costing (its
    /// fingerprint differs from this build's): they were ignored and are recomputed in memory.
    public package(set) var derivedCostsStale = false
    /// The file's sections and their sizes, in `MapSection` order (empty for in-memory maps).
    public package(set) var fileSections: [MapSectionSize] = []

    /// Sentinel in `edgeIncline` meaning "no numeric incline tag".
    public static let noIncline: Int8 = .min

    public init(metadata: MapMetadata) {
        self.metadata = metadata
        nodeLat = []; nodeLon = []; nodeFlags = []; nodeOsmId = []
        edgeFrom = []; edgeTo = []; edgeLength = []; edgeHighway = []; edgeSurface = []; edgeSmoothness = []
        edgeFlags = []; edgeIncline = []; edgeCrossings = []; edgeName = []; edgeWayId = []; edgeStepCount = []
        edgeSurfaceTag = []; edgeSmoothnessTag = []
        edgeViaStart = [0]; viaLat = []; viaLon = []; viaOffsetLat = []; viaOffsetLon = []; edgeElevStart = [0]; elevation = []
        adjStart = [0]; adjacency = []
        stringBytes = []; stringStart = [0]
        placeLat = []; placeLon = []; placeName = []; placeKind = []; placeCategory = []
        townName = []; townParent = []; townLat = []; townLon = []; placeTown = []; edgeTown = []
        addressStreet = []; addressNumber = []; addressLat = []; addressLon = []; addressTown = []
        zoneKind = []; zoneName = []; zoneRingStart = [0]; zoneLat = []; zoneLon = []
        grid = SpatialGrid.empty
        derived = nil
    }

    // MARK: Convenience accessors

    public var nodeCount: Int { nodeLat.count }
    public var edgeCount: Int { edgeFrom.count }
    public var placeCount: Int { placeLat.count }
    public var zoneCount: Int { zoneKind.count }
    public var stringCount: Int { stringStart.count - 1 }

    @inlinable public func coordinate(ofNode n: Int) -> Coordinate { Coordinate(lat: nodeLat[n], lon: nodeLon[n]) }
    @inlinable public func flags(ofEdge e: Int) -> EdgeFlags { EdgeFlags(rawValue: edgeFlags[e]) }
    @inlinable public func flags(ofNode n: Int) -> NodeFlags { NodeFlags(rawValue: nodeFlags[n]) }
    public func highway(ofEdge e: Int) -> HighwayClass { HighwayClass(rawValue: edgeHighway[e]) ?? .other }
    public func surface(ofEdge e: Int) -> Surface { Surface(rawValue: edgeSurface[e]) ?? .unknown }
    public func smoothness(ofEdge e: Int) -> Smoothness { Smoothness(rawValue: edgeSmoothness[e]) ?? .unknown }

    /// The string stored at `index` (0 → "").
    public func string(_ index: UInt32) -> String { Self.string(index, starts: stringStart, bytes: stringBytes) }

    /// The string at `index` of a string table held as `stringStart` / `stringBytes` (0 → ""):
    /// for readers that hold those two arrays without the map (`EdgeNames`).
    static func string(_ index: UInt32, starts: FlatArray<UInt32>, bytes: FlatArray<UInt8>) -> String {
        let i = Int(index)
        guard i >= 0, i + 1 < starts.count else { return "" }
        let a = Int(starts[i]), b = Int(starts[i + 1])
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[a..<b]), as: UTF8.self) }
    }

    public func name(ofEdge e: Int) -> String { string(edgeName[e]) }

    /// Tagged steps on an edge (0 when untagged).
    public func stepCount(ofEdge e: Int) -> Int { e < edgeStepCount.count ? Int(edgeStepCount[e]) : 0 }
    /// The way's raw OSM `surface=*` value; without the raw table (hand-built maps), the folded
    /// value's name ("" when untagged either way).
    public func surfaceTag(ofEdge e: Int) -> String {
        if e < edgeSurfaceTag.count { return string(edgeSurfaceTag[e]) }
        let s = surface(ofEdge: e)
        return s == .unknown ? "" : s.name
    }
    /// The way's raw OSM `smoothness=*` value, as `surfaceTag(ofEdge:)`.
    public func smoothnessTag(ofEdge e: Int) -> String {
        if e < edgeSmoothnessTag.count { return string(edgeSmoothnessTag[e]) }
        let s = smoothness(ofEdge: e)
        return s == .unknown ? "" : s.name
    }

    /// The shape points of an edge in its drawing direction, end nodes included.
    public func geometry(ofEdge e: Int) -> [Coordinate] {
        let n = shapePointCount(ofEdge: e)
        var out: [Coordinate] = []
        out.reserveCapacity(n)
        for k in 0..<n { out.append(shapePoint(ofEdge: e, k)) }
        return out
    }

    /// How many shape points edge `e` has, its two end nodes included (≥ 2).
    @inlinable public func shapePointCount(ofEdge e: Int) -> Int { Int(edgeViaStart[e + 1]) - Int(edgeViaStart[e]) + 2 }

    /// Shape point `k` (0 = `edgeFrom`, `shapePointCount − 1` = `edgeTo`) of edge `e`, in degrees.
    @inlinable public func shapePoint(ofEdge e: Int, _ k: Int) -> Coordinate {
        if k == 0 { return coordinate(ofNode: Int(edgeFrom[e])) }
        let i = Int(edgeViaStart[e]) + k - 1
        if i == Int(edgeViaStart[e + 1]) { return coordinate(ofNode: Int(edgeTo[e])) }
        if viaOffsetLat.isEmpty { return Coordinate(lat: viaLat[i], lon: viaLon[i]) }
        // The offset form is only written over fixed-point node coordinates (`viaOffsets`).
        let from = Int(edgeFrom[e])
        return Coordinate(lat: Double(nodeLat.fixed[from] &+ Int32(viaOffsetLat[i])) / DegreeArray.unitsPerDegree,
                          lon: Double(nodeLon.fixed[from] &+ Int32(viaOffsetLon[i])) / DegreeArray.unitsPerDegree)
    }

    /// How many via points the map holds (in whichever form).
    public var viaPointCount: Int { viaOffsetLat.isEmpty ? viaLat.count : viaOffsetLat.count }

    /// The via points as Int16 offsets from their edge's start node (the file's compact form), or
    /// nil when they are already offsets, a node coordinate is not fixed-point or an offset does not fit.
    func viaOffsets() -> (lat: [Int16], lon: [Int16])? {
        guard viaOffsetLat.isEmpty, nodeLat.isFixed, nodeLon.isFixed, viaLat.isFixed, viaLon.isFixed else { return nil }
        var lat = [Int16](), lon = [Int16]()
        lat.reserveCapacity(viaLat.count); lon.reserveCapacity(viaLat.count)
        for e in 0..<edgeCount {
            let from = Int(edgeFrom[e])
            for i in Int(edgeViaStart[e])..<Int(edgeViaStart[e + 1]) {
                guard let a = Int16(exactly: Int64(viaLat.fixed[i]) - Int64(nodeLat.fixed[from])),
                      let o = Int16(exactly: Int64(viaLon.fixed[i]) - Int64(nodeLon.fixed[from])) else { return nil }
                lat.append(a); lon.append(o)
            }
        }
        return (lat, lon)
    }

    /// The elevation samples of an edge in metres, equally spaced from `edgeFrom` to `edgeTo`; empty when unknown.
    public func elevationProfile(ofEdge e: Int) -> Slice<FlatArray<Float>> {
        // A file without elevation stores no offsets (`edgeElevStart` empty).
        guard e + 1 < edgeElevStart.count else { return elevation[0..<0] }
        return elevation[Int(edgeElevStart[e])..<Int(edgeElevStart[e + 1])]
    }

    /// Edges leaving node `n`: `(edge, reversed)` where reversed means travelling `edgeTo → edgeFrom`.
    /// Indices into `adjacency` of the edges leaving node `n` (for inner loops: no slice to retain).
    @inlinable public func adjacencyRange(of n: Int) -> Range<Int> { Int(adjStart[n])..<Int(adjStart[n + 1]) }

    @inlinable public func neighbours(of n: Int) -> Slice<FlatArray<UInt32>> {
        adjacency[Int(adjStart[n])..<Int(adjStart[n + 1])]
    }

    /// Whether a skater can ride the edge at all (steps are walkable but never ridden; lifts and
    /// escalators carry the rider standing).
    public func isRideable(edge e: Int) -> Bool {
        flags(ofEdge: e).isDisjoint(with: [.steps, .connector])
    }

    /// Bounding box of all graph geometry.
    public var bbox: BoundingBox { grid.bbox }
}

/// A uniform lat/lon grid of edge indices for nearest-edge queries.
public struct SpatialGrid: Sendable {
    public package(set) var bbox: BoundingBox
    /// Cell size in degrees (latitude and longitude).
    public package(set) var cellLat: Double
    public package(set) var cellLon: Double
    public package(set) var nx: Int
    public package(set) var ny: Int
    /// CSR: edges of cell `c = iy * nx + ix` are `cellEdges[cellStart[c] ..< cellStart[c+1]]`.
    public package(set) var cellStart: FlatArray<UInt32>
    public package(set) var cellEdges: FlatArray<UInt32>

    public static let empty = SpatialGrid(bbox: BoundingBox(minLon: 0, minLat: 0, maxLon: 0, maxLat: 0),
                                          cellLat: 1, cellLon: 1, nx: 0, ny: 0, cellStart: [0], cellEdges: [])

    public init(bbox: BoundingBox, cellLat: Double, cellLon: Double, nx: Int, ny: Int, cellStart: FlatArray<UInt32>, cellEdges: FlatArray<UInt32>) {
        self.bbox = bbox; self.cellLat = cellLat; self.cellLon = cellLon; self.nx = nx; self.ny = ny
        self.cellStart = cellStart; self.cellEdges = cellEdges
    }

    /// Cell column/row of a position, clamped to the grid.
    @inlinable public func cell(lat: Double, lon: Double) -> (Int, Int) {
        // Clamped as Doubles first: a far-away or non-finite position must not overflow Int.
        func index(_ x: Double, _ n: Int) -> Int {
            let f = x.rounded(.down)
            guard f.isFinite else { return 0 }
            return Int(Swift.min(Swift.max(f, 0), Double(Swift.max(n - 1, 0))))
        }
        return (index((lon - bbox.minLon) / cellLon, nx), index((lat - bbox.minLat) / cellLat, ny))
    }

    @inlinable public func edges(inCellX ix: Int, y iy: Int) -> Slice<FlatArray<UInt32>> {
        guard ix >= 0, iy >= 0, ix < nx, iy < ny else { return cellEdges[0..<0] }
        let c = iy * nx + ix
        return cellEdges[Int(cellStart[c])..<Int(cellStart[c + 1])]
    }
}
