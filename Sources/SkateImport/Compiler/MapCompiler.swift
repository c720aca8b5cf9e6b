import FoundationEssentials
import Glibc
import SkateCore

/// A source of terrain elevation in metres (a DEM); nil where it has no data.
public protocol ElevationSource {
    func elevation(lat: Double, lon: Double) -> Double?
    /// Ground size of one cell in metres (0 = exact, e.g. an analytic test terrain).
    var cellSizeMetres: Double { get }
    /// Vertical noise in metres when the source knows it; nil → by cell size
    /// (`TerrainConditioning.noise(forCellSize:)`).
    var verticalNoiseMetres: Double? { get }
}

extension ElevationSource {
    public var cellSizeMetres: Double { 0 }
    public var verticalNoiseMetres: Double? { nil }
}

/// Options of one import.
public struct ImportOptions: Sendable {
    /// Area name shown in the app.
    public var name: String
    /// Elevation sample spacing along edges in metres: a 30 m braking window then spans ≥ 3 samples.
    public var elevationSpacing: Double
    /// Number nodes along a Hilbert curve and edges by start node (`SkateMap.orderSpatially`);
    /// off only to compare against the first-seen numbering.
    public var spatialOrder: Bool
    public init(name: String = "Map", elevationSpacing: Double = ElevationSampling.maxSpacing, spatialOrder: Bool = true) {
        self.name = name; self.elevationSpacing = elevationSpacing; self.spatialOrder = spatialOrder
    }
}

/// Elevation sampling constants.
public enum ElevationSampling {
    /// Largest spacing in metres between elevation samples along an edge (the issue asks ≤ 20 m;
    /// 10 m puts three samples inside the shortest 30 m braking window).
    public static let maxSpacing: Double = 10
    /// Smallest |grade| in percent given to an `incline=up|down` way whose DEM grade disagrees in
    /// sign: mappers tag an incline only where it is noticeable.
    public static let minTaggedGradePct: Double = 3
}

/// Statistics of one import, for the CLI and tests.
public struct ImportStats: Sendable, Equatable {
    public init() {}
    public var osmNodes = 0, osmWays = 0, osmRelations = 0
    public var highwayWays = 0, keptWays = 0
    public var missingNodeRefs = 0
    /// Steps between consecutive way nodes longer than `MapCompiler.maxSegmentLength`, cut out
    /// of their ways; and the first such way's id (for the warning line).
    public var absurdSegments = 0, firstAbsurdWay: Int64 = 0
    public var edgesWithElevation = 0
    /// Seconds spent sampling the DEM and conditioning profiles (for `bench`).
    public var elevationSeconds = 0.0
    /// Public lifts turned into connectors (node lifts split by floor, lone lifts given a landing, lift ways).
    public var liftsConnected = 0
}

/// Streams OSM elements (as an `OSMHandler`) and compiles them into a `SkateMap`.
///
/// Graph nodes are way ends, nodes shared by two or more kept ways, and nodes a way visits twice;
/// every other node becomes a shape point of its edge. Output order depends only on element ids,
/// so PBF and XML copies of the same data compile to the same map.
public struct MapCompiler: OSMHandler {
    public internal(set) var stats = ImportStats()
    var options: ImportOptions
    var osmTimestamp = ""

    /// Every node's position (ways, places, zones and buildings reference them), by id.
    var nodeIndex = NodePositions()
    // Flags of tagged nodes (crossings, signals, kerbs…).
    var taggedNodeFlags: [Int64: UInt16] = [:]

    struct KeptWay {
        var id: Int64; var refs: [Int64]; var attrs: WayAttributes
        /// `layer|level` as tagged (layer defaults to 0): ways meeting at a lift with different
        /// keys are on different floors (see `insertConnectors`).
        var levelKey: String = "0|"
    }
    /// Lifts mapped as nodes (`highway=elevator`), by node id, and lifts mapped as ways.
    var elevatorNodes: [Int64: Lift] = [:]
    var elevatorWays: [(id: Int64, refs: [Int64], lift: Lift)] = []
    var keptWays: [KeptWay] = []
    struct PendingPlace {
        var name: String; var kind: PlaceKind; var category: String; var refs: [Int64]; var lat: Double?; var lon: Double?; var id: Int64
        /// The object's own town (`addr:city`, else `is_in`'s first part), if tagged.
        var city: String? = nil
    }
    var pendingPlaces: [PendingPlace] = []
    /// Town names, city-limit signs and house numbers, for `buildTowns`.
    var townEvidence = TownEvidenceCollector()
    struct PendingZone { var kind: ZoneKind; var name: String; var rings: [[Int64]]; var id: Int64 }
    var pendingZones: [PendingZone] = []
    /// Refs of untagged/closed non-highway ways, for multipolygon relations.
    var areaWayRefs: [Int64: [Int64]] = [:]
    /// Closed rings of `building=*` ways and multipolygons with their heights in metres, for
    /// `GroundModel` (node refs).
    var buildingRings: [(refs: [Int64], height: Double)] = []

    public init(options: ImportOptions) { self.options = options }

    /// Longest edge in metres: longer way pieces are split at a shape node, so that measured
    /// roughness, ratings and hazards (kept per edge) describe ~one block, not a whole avenue.
    public static let maxEdgeLength: Double = 120
    /// Longest step between two consecutive nodes of a way, metres: no street, path or ferry
    /// ramp a skater uses runs 10 km without a shape node, while a broken extract (a node moved
    /// to 0,0, a way joining two cities) does; such a step is cut out of its way (issue 29 row
    /// 5), well below the 100 km edge the loader refuses (`SkateMap.maxEdgeLength`).
    public static let maxSegmentLength: Double = 10_000

    // MARK: OSMHandler

    public mutating func header(bbox: BoundingBox?, timestamp: String?) {
        if let t = timestamp { osmTimestamp = t }
    }

    public mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {
        stats.osmNodes += 1
        nodeIndex.add(id: id, lat: lat, lon: lon)
        guard !tags.isEmpty else { return }
        let f = NodeAttributes.flags(tags)
        if !f.isEmpty { taggedNodeFlags[id] = f.rawValue }
        if tags["highway"] == "elevator" { elevatorNodes[id] = Lift(tags: tags) }
        townEvidence.node(id: id, lat: lat, lon: lon, tags: tags)
        if let name = tags["name"], !name.isEmpty, let (kind, cat) = PlaceClassifier.classify(tags) {
            pendingPlaces.append(PendingPlace(name: name, kind: kind, category: cat, refs: [], lat: lat, lon: lon, id: id, city: PlaceClassifier.ownTown(tags)))
        }
    }

    public mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {
        stats.osmWays += 1
        if tags["highway"] != nil { stats.highwayWays += 1 }
        if tags["highway"] == "elevator" && refs.count >= 2 { elevatorWays.append((id, refs, Lift(tags: tags))) }
        if let attrs = WayAttributes(tags: tags), refs.count >= 2 {
            keptWays.append(KeptWay(id: id, refs: refs, attrs: attrs, levelKey: Self.levelKey(tags)))
            if attrs.flags.contains(.inclineTagged) { stats.keptWays += 0 }
        }
        townEvidence.way(refs: refs, tags: tags)
        let closed = refs.count >= 4 && refs.first == refs.last
        if let z = PlaceClassifier.zone(tags), closed {
            pendingZones.append(PendingZone(kind: z, name: tags["name"] ?? "", rings: [refs], id: id))
        }
        if let name = tags["name"], !name.isEmpty, tags["highway"] == nil || tags["area"] == "yes" || tags["place"] == "square",
           let (kind, cat) = PlaceClassifier.classify(tags) {
            pendingPlaces.append(PendingPlace(name: name, kind: kind, category: cat, refs: refs, lat: nil, lon: nil, id: id, city: PlaceClassifier.ownTown(tags)))
        }
        if tags["highway"] == nil && refs.count >= 2 { areaWayRefs[id] = refs }
        if closed && tags["highway"] == nil && BuildingFootprints.isBuilding(tags) { buildingRings.append((refs, BuildingFootprints.height(tags))) }
    }

    public mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) {
        stats.osmRelations += 1
        townEvidence.relation(members: members, tags: tags)
        guard tags["type"] == "multipolygon" else { return }
        let outers = members.filter { $0.kind == .way && ($0.role == "outer" || $0.role.isEmpty) }.compactMap { areaWayRefs[$0.ref] }
        guard !outers.isEmpty else { return }
        let rings = Self.assembleRings(outers)
        if BuildingFootprints.isBuilding(tags) { buildingRings.append(contentsOf: rings.map { ($0, BuildingFootprints.height(tags)) }) }
        if let z = PlaceClassifier.zone(tags), !rings.isEmpty {
            pendingZones.append(PendingZone(kind: z, name: tags["name"] ?? "", rings: rings, id: id))
        }
        if let name = tags["name"], !name.isEmpty, let (kind, cat) = PlaceClassifier.classify(tags) {
            pendingPlaces.append(PendingPlace(name: name, kind: kind, category: cat, refs: outers.flatMap { $0 }, lat: nil, lon: nil, id: id, city: PlaceClassifier.ownTown(tags)))
        }
    }

    /// Joins open way pieces end to end into closed rings (pieces that never close are dropped).
    static func assembleRings(_ pieces: [[Int64]]) -> [[Int64]] {
        var open = pieces.filter { $0.count >= 2 }
        var rings: [[Int64]] = []
        while let first = open.first {
            open.removeFirst()
            var ring = first
            var progressed = true
            while ring.first != ring.last && progressed {
                progressed = false
                for (i, p) in open.enumerated() {
                    if p.first == ring.last { ring += p.dropFirst(); open.remove(at: i); progressed = true; break }
                    if p.last == ring.last { ring += p.reversed().dropFirst(); open.remove(at: i); progressed = true; break }
                }
            }
            if ring.count >= 4 && ring.first == ring.last { rings.append(ring) }
        }
        return rings
    }
}
