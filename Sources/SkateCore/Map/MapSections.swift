/// The `.srmap` sections, one declaration each: id, name, element type, the array it holds and
/// the length it must have. `MapFormat.encode`, `MapFormat.decode`, the length validation and
/// `map info` all read this table, so adding a section is one line here (plus the array on
/// `SkateMap` or `MapDerived`). Ids are never reused; a retired section's id stays retired.
///
/// Groups: `.base` sections are the map itself; `.derived` sections are computed from it at
/// import (`MapDerived`) and are only read when the map's costing fingerprint equals this
/// build's (`CostingFingerprint`); otherwise they are ignored and recomputed in memory.
struct MapSection {
    enum Group { case base, derived }

    /// How many elements a section must hold, given the map's counts.
    enum Length {
        /// Checked by the section's own consistency rules (CSR tables, strings, places …).
        case free
        case nodes, nodesPlusOne, edges, edgesPlusOne
        /// `edges`, or empty (maps assembled by hand carry none).
        case edgesOrEmpty
        /// `edges + 1`, or empty (a map without elevation stores no elevation offsets).
        case edgesPlusOneOrEmpty
        /// One per ride mode.
        case modes
        /// `Landmarks.count`, or empty (a map too small for landmarks).
        case landmarksOrEmpty
        /// Two per landmark table (1 to one per mode, `LandmarkLayout`) when the map has
        /// landmarks, else empty.
        case twoPerTableIfLandmarks
        /// One per ride mode when the map has landmarks, else empty.
        case modesIfLandmarks
        /// `tables × nodes × 2 × Landmarks.count` (1 to one table per mode) when the map has
        /// landmarks, else empty.
        case landmarkTable

        func allows(_ n: Int, nodes: Int, edges: Int, hasLandmarks: Bool) -> Bool {
            let modes = RideMode.allCases.count
            switch self {
            case .free: return true
            case .nodes: return n == nodes
            case .nodesPlusOne: return n == nodes + 1
            case .edges: return n == edges
            case .edgesPlusOne: return n == edges + 1
            case .edgesOrEmpty: return n == edges || n == 0
            case .edgesPlusOneOrEmpty: return n == edges + 1 || n == 0
            case .modes: return n == modes
            case .landmarksOrEmpty: return n == Landmarks.count || n == 0
            case .twoPerTableIfLandmarks: return hasLandmarks ? n % 2 == 0 && (1...modes).contains(n / 2) : n == 0
            case .modesIfLandmarks: return hasLandmarks ? n == modes : n == 0
            case .landmarkTable:
                let table = nodes * 2 * Landmarks.count
                return hasLandmarks ? table > 0 && n % table == 0 && (1...modes).contains(n / table) : n == 0
            }
        }
    }

    let id: UInt32
    let name: String
    let group: Group
    /// Bytes per element (`MemoryLayout.stride`; a `DegreeArray` writes 4 or 8) and the
    /// alignment the mapping must give it.
    let elementSize: Int
    let alignment: Int
    let length: Length
    /// The section's element size and bytes, from a map and its derived block.
    let bytes: (SkateMap, MapDerived) -> (Int, [UInt8])
    /// Elements the section holds in a decoded map (for the length check).
    let count: (SkateMap, MapDerived) -> Int
    /// Stores a directory entry's array into the map or its derived block.
    let read: (inout SkateMap, inout MapDerived, MapSectionReader) throws -> Void

    /// A section of latitudes or longitudes: Int32 × 1e-7° or Double, whichever the array holds
    /// (the directory's element size says which).
    static func degrees(_ id: UInt32, _ name: String, _ field: WritableKeyPath<SkateMap, DegreeArray>, _ length: Length) -> MapSection {
        MapSection(id: id, name: name, group: .base, elementSize: 4, alignment: 8, length: length,
                   bytes: { m, _ in m[keyPath: field].storage },
                   count: { m, _ in m[keyPath: field].count },
                   read: { m, _, r in
                       m[keyPath: field] = r.elementSize == 4 ? DegreeArray(fixed: try r.array(Int32.self)) : DegreeArray(plain: try r.array(Double.self))
                   })
    }

    /// A section holding one of `SkateMap`'s arrays.
    static func base<T: BitwiseCopyable>(_ id: UInt32, _ name: String, _ field: WritableKeyPath<SkateMap, FlatArray<T>>, _ length: Length) -> MapSection {
        base(id, name, { $0[keyPath: field] }, { $0[keyPath: field] = $1 }, length)
    }

    /// A section holding one of `SkateMap`'s arrays, written as `get` gives it.
    static func base<T: BitwiseCopyable>(_ id: UInt32, _ name: String, _ get: @escaping (SkateMap) -> FlatArray<T>,
                                          _ set: @escaping (inout SkateMap, FlatArray<T>) -> Void, _ length: Length) -> MapSection {
        MapSection(id: id, name: name, group: .base, elementSize: MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment, length: length,
                   bytes: { m, _ in (MemoryLayout<T>.stride, get(m).withUnsafeBytes { Array($0) }) },
                   count: { m, _ in get(m).count },
                   read: { m, _, r in set(&m, try r.array(T.self)) })
    }

    /// A section holding one of `MapDerived`'s arrays.
    static func derived<T: BitwiseCopyable>(_ id: UInt32, _ name: String, _ field: WritableKeyPath<MapDerived, FlatArray<T>>, _ length: Length) -> MapSection {
        MapSection(id: id, name: name, group: .derived, elementSize: MemoryLayout<T>.stride, alignment: MemoryLayout<T>.alignment, length: length,
                   bytes: { _, d in (MemoryLayout<T>.stride, d[keyPath: field].withUnsafeBytes { Array($0) }) },
                   count: { _, d in d[keyPath: field].count },
                   read: { _, d, r in d[keyPath: field] = try r.array(T.self) })
    }

    /// Id of the metadata record, read before anything else.
    static let metadataId: UInt32 = 1
    /// Id of the costing fingerprint (one UInt64), read before the derived sections.
    static let fingerprintId: UInt32 = 64

    /// Every section in file order. Version 6 numbering: 1–62 as in version 5 except the
    /// landmark costs (now UInt16 at id 63; its Float predecessor 55 is retired) and the mode
    /// costs (52, retired: computed as plans reach each edge, `EdgeCostCache`), plus the
    /// fingerprint (64) and the landmark scales (65). Version 7: 17–19 hold only the via points
    /// (no end nodes), or 67–68 hold them as Int16 offsets; 20 is empty without elevation; 66
    /// says which landmark table bounds each mode. Version 8: 69–72 hold each edge's braking- and
    /// caution-grade metres per direction (`BrakingGrade`); `edgeSurface` knows woodchips; 73–74
    /// the raw surface/smoothness string ids (path details); 75–85 the towns, each place's and
    /// named edge's town, and the house numbers (`TownTable`, `PlaceSearch`).
    static var all: [MapSection] {
        [
            MapSection(id: metadataId, name: "metadata", group: .base, elementSize: 1, alignment: 1, length: .free,
                       bytes: { m, _ in (1, m.metadata.encoded()) }, count: { _, _ in 0 }, read: { _, _, _ in }),
            .degrees(2, "nodeLat", \.nodeLat, .nodes), .degrees(3, "nodeLon", \.nodeLon, .nodes),
            .base(4, "nodeFlags", \.nodeFlags, .nodes), .base(5, "nodeOsmId", \.nodeOsmId, .nodes),
            .base(6, "edgeFrom", \.edgeFrom, .edges), .base(7, "edgeTo", \.edgeTo, .edges),
            .base(8, "edgeLength", \.edgeLength, .edges), .base(9, "edgeHighway", \.edgeHighway, .edges),
            .base(10, "edgeSurface", \.edgeSurface, .edges), .base(11, "edgeSmoothness", \.edgeSmoothness, .edges),
            .base(12, "edgeFlags", \.edgeFlags, .edges), .base(13, "edgeIncline", \.edgeIncline, .edges),
            .base(14, "edgeCrossings", \.edgeCrossings, .edges), .base(15, "edgeName", \.edgeName, .edges),
            .base(16, "edgeWayId", \.edgeWayId, .edges), .base(62, "edgeStepCount", \.edgeStepCount, .edgesOrEmpty),
            .base(73, "edgeSurfaceTag", \.edgeSurfaceTag, .edgesOrEmpty),
            .base(74, "edgeSmoothnessTag", \.edgeSmoothnessTag, .edgesOrEmpty),
            .base(17, "edgeViaStart", \.edgeViaStart, .edgesPlusOne),
            .degrees(18, "viaLat", \.viaLat, .free), .degrees(19, "viaLon", \.viaLon, .free),
            .base(67, "viaOffsetLat", \.viaOffsetLat, .free), .base(68, "viaOffsetLon", \.viaOffsetLon, .free),
            .base(20, "edgeElevStart", { $0.elevation.isEmpty ? [] : $0.edgeElevStart }, { $0.edgeElevStart = $1 }, .edgesPlusOneOrEmpty),
            .base(21, "elevation", \.elevation, .free),
            .base(22, "adjStart", \.adjStart, .nodesPlusOne), .base(23, "adjacency", \.adjacency, .free),
            .base(24, "stringBytes", \.stringBytes, .free), .base(25, "stringStart", \.stringStart, .free),
            .base(26, "placeLat", \.placeLat, .free), .base(27, "placeLon", \.placeLon, .free),
            .base(28, "placeName", \.placeName, .free), .base(29, "placeKind", \.placeKind, .free),
            .base(30, "placeCategory", \.placeCategory, .free),
            .base(31, "zoneKind", \.zoneKind, .free), .base(32, "zoneName", \.zoneName, .free),
            .base(33, "zoneRingStart", \.zoneRingStart, .free), .base(34, "zoneLat", \.zoneLat, .free),
            .base(35, "zoneLon", \.zoneLon, .free),
            .base(75, "townName", \.townName, .free), .base(76, "townParent", \.townParent, .free), .base(77, "townLat", \.townLat, .free), .base(78, "townLon", \.townLon, .free), .base(79, "placeTown", \.placeTown, .free), .base(80, "edgeTown", \.edgeTown, .edgesOrEmpty), .base(81, "addressStreet", \.addressStreet, .free), .base(82, "addressNumber", \.addressNumber, .free), .base(83, "addressLat", \.addressLat, .free), .base(84, "addressLon", \.addressLon, .free), .base(85, "addressTown", \.addressTown, .free),
            MapSection(id: 36, name: "gridParams", group: .base, elementSize: 8, alignment: 8, length: .free,
                       bytes: { m, _ in (8, FlatArray(m.grid.parameters).withUnsafeBytes { Array($0) }) },
                       count: { _, _ in 8 },
                       read: { m, _, r in try m.grid.setParameters(r.array(Double.self).array, path: r.path) }),
            .base(37, "gridCellStart", \.grid.cellStart, .free), .base(38, "gridCellEdges", \.grid.cellEdges, .free),
            MapSection(id: fingerprintId, name: "costingFingerprint", group: .base, elementSize: 8, alignment: 8, length: .free,
                       bytes: { _, _ in (8, FlatArray([CostingFingerprint.current]).withUnsafeBytes { Array($0) }) },
                       count: { _, _ in 1 }, read: { _, _, _ in }),
            .derived(39, "tagRMS", \.tagRMS, .edges), .derived(40, "tagRMSSource", \.tagRMSSource, .edges),
            .derived(41, "grade", \.grade, .edges), .derived(42, "climb", \.climb, .edges), .derived(43, "descent", \.descent, .edges),
            .derived(44, "steepestDownFwd", \.steepestDownFwd, .edges), .derived(45, "steepestDownBwd", \.steepestDownBwd, .edges),
            .derived(69, "brakingMetresFwd", \.brakingMetresFwd, .edges), .derived(70, "brakingMetresBwd", \.brakingMetresBwd, .edges),
            .derived(71, "cautionMetresFwd", \.cautionMetresFwd, .edges), .derived(72, "cautionMetresBwd", \.cautionMetresBwd, .edges),
            .derived(46, "tagSecondsFwd", \.tagSecondsFwd, .edges), .derived(47, "tagSecondsBwd", \.tagSecondsBwd, .edges),
            .derived(48, "bearingStart", \.bearingStart, .edges), .derived(49, "bearingEnd", \.bearingEnd, .edges),
            .derived(50, "componentRoot", \.componentRoot, .nodes), .derived(51, "componentSize", \.componentSize, .nodes),
            .derived(53, "modeMinCostPerMetre", \.modeMinCostPerMetre, .modes),
            .derived(54, "landmarks", \.landmarks, .landmarksOrEmpty),
            .derived(63, "landmarkCosts", \.landmarkCosts, .landmarkTable),
            .derived(65, "landmarkScale", \.landmarkScale, .twoPerTableIfLandmarks),
            .derived(66, "landmarkTableOfMode", \.landmarkTableOfMode, .modesIfLandmarks),
            .derived(56, "streetEdge", \.streetEdge, .free), .derived(57, "streetMidLat", \.streetMidLat, .free),
            .derived(58, "streetMidLon", \.streetMidLon, .free), .derived(59, "searchTokenBytes", \.searchTokenBytes, .free),
            .derived(60, "searchTokenStart", \.searchTokenStart, .free),
            .derived(61, "searchCandidateTokenStart", \.searchCandidateTokenStart, .free),
        ]
    }
}

/// One directory entry's bytes, handed to a section's `read`.
struct MapSectionReader {
    let path: String
    let name: String
    let elementSize: Int
    let offset: Int
    let length: Int
    let raw: UnsafeRawBufferPointer
    /// The mapping the arrays view (nil: copy them out).
    let file: MappedFile?

    func array<T: BitwiseCopyable>(_: T.Type) throws -> FlatArray<T> {
        guard elementSize == MemoryLayout<T>.stride, offset % MemoryLayout<T>.alignment == 0 else {
            throw MapFileError.corrupt(path: path, reason: "section \(name) has wrong element size")
        }
        let n = length / elementSize
        if let file { return FlatArray(file: file, byteOffset: offset, count: n) }
        let (off, len, raw) = (offset, length, raw)
        return FlatArray([T](unsafeUninitializedCapacity: n) { buf, initialized in
            if n > 0 { UnsafeMutableRawBufferPointer(buf).copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[off..<(off + len)])) }
            initialized = n
        })
    }
}

/// A section as `map info` lists it: name and bytes in the file (shared bytes counted once, under
/// the first section that holds them).
public struct MapSectionSize: Sendable, Equatable {
    public var name: String
    public var bytes: Int
}

extension SpatialGrid {
    /// The grid's scalars as stored in the `gridParams` section.
    var parameters: [Double] { [bbox.minLon, bbox.minLat, bbox.maxLon, bbox.maxLat, cellLat, cellLon, Double(nx), Double(ny)] }

    /// Reads `parameters` back, refusing impossible grids.
    mutating func setParameters(_ gp: [Double], path: String) throws {
        guard gp.count == 8, gp[6] >= 0, gp[7] >= 0, gp[6] < 1e7, gp[7] < 1e7, gp[4] > 0, gp[5] > 0,
              gp.allSatisfy({ $0.isFinite }) else { throw MapFileError.corrupt(path: path, reason: "bad grid") }
        bbox = BoundingBox(minLon: gp[0], minLat: gp[1], maxLon: gp[2], maxLat: gp[3])
        cellLat = gp[4]; cellLon = gp[5]; nx = Int(gp[6]); ny = Int(gp[7])
    }
}
