import FoundationEssentials
import Glibc

/// Figures describing a map, for `skateroute map info`.
public struct MapSummary: Sendable, Codable, Equatable {
    public var name: String
    public var nodes: Int
    public var edges: Int
    public var places: Int
    public var noReportZones: Int
    /// [minLon, minLat, maxLon, maxLat] in degrees.
    public var bbox: [Double]
    /// Elevation range in metres; nil when the map has no elevation.
    public var elevation: ElevationRange?
    /// Rideable length in metres by OSM surface value ("unknown" when untagged).
    public var lengthMBySurface: [String: Double]
    /// Rideable length in metres by expected roughness class (from tags).
    public var lengthMByClass: [String: Double]
    /// Total rideable length in metres.
    public var rideableLengthM: Double
    /// Length of steps (walk only) in metres.
    public var stepsLengthM: Double
    /// Length in metres by access class (`AccessModel`: ok / penalised / forbidden), steps included.
    public var lengthMByAccess: [String: Double]
    /// Length in metres of penalised and forbidden ways by reason.
    public var lengthMByAccessReason: [String: Double]
    /// Lift and escalator connector edges.
    public var lifts: Int
    public var escalators: Int
    public var inclineTaggedWays: Int
    public var attribution: String
    public var sources: [String]
    public var osmTimestamp: String
    /// How elevation was conditioned and what it did (nil without a DEM).
    public var terrain: Terrain?
    /// Bytes of the map file per section (`MapSection` names; nil for an in-memory map).
    public var fileBytesBySection: [String: Int]?
    /// True when the file's derived costs came from another costing and were recomputed.
    public var derivedCostsStale: Bool?
    /// Which ride modes share which ALT landmark table (`LandmarkLayout`'s description; nil
    /// without landmarks).
    public var landmarkLayout: String?

    /// What `map info` says of a map whose derived costs were computed under other weights.
    public static let staleNote = "derived costs stale: re-import to speed up"

    /// `map info`'s terrain block: the method, the DEM noise it assumed and its counts.
    public struct Terrain: Sendable, Codable, Equatable {
        public var method: String
        public var demNoiseM: Double
        public var edgesFiltered: Int, streetsFlat: Int, edgesCliff: Int, edgesInclineTag: Int, edgesInclineSign: Int
        public var edgesSpanned: Int, edgesSpikeRemoved: Int, edgesClamped: Int, edgesClampedPct: Double
        public var stepsSteeperThanClamp: Int
        enum CodingKeys: String, CodingKey {
            case method
            case demNoiseM = "dem_noise_m"
            case edgesFiltered = "edges_rdp_filtered", streetsFlat = "streets_flat", edgesCliff = "edges_cliff_artefact"
            case edgesInclineTag = "edges_incline_tag", edgesInclineSign = "edges_incline_sign_fixed"
            case edgesSpanned = "edges_spanned", edgesSpikeRemoved = "edges_spike_removed"
            case edgesClamped = "edges_clamped", edgesClampedPct = "edges_clamped_pct"
            case stepsSteeperThanClamp = "steps_steeper_than_clamp"
        }
    }

    public struct ElevationRange: Sendable, Codable, Equatable {
        public var min: Double
        public var max: Double
    }

    enum CodingKeys: String, CodingKey {
        case name, nodes, edges, places, bbox, elevation, attribution, sources
        case noReportZones = "no_report_zones"
        case lengthMBySurface = "length_m_by_surface"
        case lengthMByClass = "length_m_by_class"
        case rideableLengthM = "rideable_length_m"
        case stepsLengthM = "steps_length_m"
        case inclineTaggedWays = "incline_tagged_ways"
        case lengthMByAccess = "length_m_by_access"
        case lengthMByAccessReason = "length_m_by_access_reason"
        case lifts, escalators
        case osmTimestamp = "osm_timestamp"
        case terrain
        case fileBytesBySection = "file_bytes_by_section"
        case derivedCostsStale = "derived_costs_stale"
        case landmarkLayout = "landmark_layout"
    }

    public init(map: SkateMap) {
        if !map.fileSections.isEmpty {
            fileBytesBySection = Dictionary(map.fileSections.map { (Self.snakeCase($0.name), $0.bytes) }, uniquingKeysWith: +)
        }
        if map.derivedCostsStale { derivedCostsStale = true }
        if !map.derivedCostsStale, let d = map.derived, let l = d.landmarkLayout { landmarkLayout = "\(l)" }
        name = map.metadata.name
        nodes = map.nodeCount
        edges = map.edgeCount
        places = map.placeCount
        noReportZones = map.zoneCount
        let b = map.bbox
        bbox = [b.minLon, b.minLat, b.maxLon, b.maxLat].map { ($0 * 1e6).rounded() / 1e6 }
        if map.elevation.isEmpty { elevation = nil } else {
            let lo = map.elevation.min() ?? 0, hi = map.elevation.max() ?? 0
            elevation = ElevationRange(min: (Double(lo) * 10).rounded() / 10, max: (Double(hi) * 10).rounded() / 10)
        }
        var bySurface: [String: Double] = [:], byClass: [String: Double] = [:]
        var total = 0.0, steps = 0.0
        var byAccess: [String: Double] = [:], byReason: [String: Double] = [:]
        lifts = 0; escalators = 0
        for e in 0..<map.edgeCount {
            let len = Double(map.edgeLength[e])
            let f = map.flags(ofEdge: e)
            if f.contains(.connector) {
                if map.highway(ofEdge: e) == .elevator { lifts += 1 } else { escalators += 1 }
                continue
            }
            let access = AccessModel.decision(of: f)
            byAccess[access.accessClass.name, default: 0] += len
            if access.accessClass != .ok { byReason[access.reason.explanation, default: 0] += len }
            if !map.isRideable(edge: e) { steps += len; continue }
            total += len
            bySurface[map.surface(ofEdge: e).name, default: 0] += len
            byClass[RoughnessClass(rms: map.tagRoughness(ofEdge: e).rms).name, default: 0] += len
        }
        for c in AccessClass.allCases where byAccess[c.name] == nil { byAccess[c.name] = 0 }
        lengthMByAccess = byAccess.mapValues { $0.rounded() }
        lengthMByAccessReason = byReason.mapValues { $0.rounded() }
        lengthMBySurface = bySurface.mapValues { $0.rounded() }
        lengthMByClass = byClass.mapValues { $0.rounded() }
        rideableLengthM = total.rounded()
        stepsLengthM = steps.rounded()
        inclineTaggedWays = map.metadata.inclineTaggedWays
        attribution = map.metadata.attribution
        sources = map.metadata.sources
        osmTimestamp = map.metadata.osmTimestamp
        if map.metadata.hasElevation {
            let t = map.metadata.terrain
            terrain = Terrain(method: map.metadata.terrainMethod, demNoiseM: t.demNoiseM, edgesFiltered: t.edgesFiltered,
                              streetsFlat: t.streetsFlat, edgesCliff: t.edgesCliff, edgesInclineTag: t.edgesInclineTag,
                              edgesInclineSign: t.edgesInclineSign, edgesSpanned: t.edgesSpanned,
                              edgesSpikeRemoved: t.edgesSpikeRemoved, edgesClamped: t.edgesClamped,
                              edgesClampedPct: (Double(t.edgesClamped) / Double(max(1, map.edgeCount)) * 10000).rounded() / 100,
                              stepsSteeperThanClamp: t.stepsSteeperThanClamp)
        }
    }

    /// JSON with sorted keys (stable across runs), `/` unescaped as in every other output.
    public func json() throws -> String {
        try JSONText.text(of: SchemaTagged("map_info", self), pretty: true)
    }

    /// A human-readable multi-line description.
    public func text() -> String {
        var s = "\(name)\n"
        s += "  nodes \(nodes), edges \(edges), places \(places), no-report zones \(noReportZones)\n"
        s += String(printf: "  bbox %.5f,%.5f .. %.5f,%.5f (lon,lat)\n", bbox[0], bbox[1], bbox[2], bbox[3])
        if let e = elevation { s += String(printf: "  elevation %.1f .. %.1f m\n", e.min, e.max) } else { s += "  elevation unknown (no DEM)\n" }
        s += String(printf: "  rideable %.1f km, steps %.1f km, incline-tagged ways %d\n", rideableLengthM / 1000, stepsLengthM / 1000, inclineTaggedWays)
        s += "  by access (skater):"
        for c in AccessClass.allCases { s += String(printf: " %@ %.1f km", c.name, (lengthMByAccess[c.name] ?? 0) / 1000) }
        s += String(printf: "; lifts %d, escalators %d\n", lifts, escalators)
        for (k, v) in lengthMByAccessReason.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
            s += String(printf: "    %.1f km %@\n", v / 1000, k)
        }
        s += "  by roughness class (from tags):"
        for c in RoughnessClass.allCases { s += String(printf: " %@ %.1f km", c.name, (lengthMByClass[c.name] ?? 0) / 1000) }
        s += "\n  by surface:"
        for (k, v) in lengthMBySurface.sorted(by: { $0.value > $1.value }) { s += String(printf: " %@ %.1f km,", k, v / 1000) }
        s.removeLast()
        if let t = terrain {
            s += "\n  terrain: \(t.method); DEM noise \(FixedDecimal.string(t.demNoiseM, decimals: 1)) m\n"
            s += "    \(t.streetsFlat) streets read flat; edges: \(t.edgesFiltered) filtered, \(t.edgesCliff) cliff artefacts, \(t.edgesInclineTag) held to incline tags, \(t.edgesInclineSign) sign fixed by incline=up/down,\n"
            s += "    \(t.edgesSpanned) spanned (bridges, tunnels, lifts), \(t.edgesSpikeRemoved) spikes removed, \(t.edgesClamped) clamped at ±\(FixedDecimal.string(Double(EdgeTable.maxGradePct), decimals: 0)) % (\(FixedDecimal.string(t.edgesClampedPct, decimals: 2)) %), \(t.stepsSteeperThanClamp) stairs steeper"
        }
        if let f = fileBytesBySection {
            let total = f.values.reduce(0, +)
            let top = f.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(4)
            s += String(printf: "\n  file %.1f MiB in %d sections; largest:", Double(total) / 1_048_576, f.count)
            s += top.map { String(printf: " %@ %.1f MiB", $0.key, Double($0.value) / 1_048_576) }.joined(separator: ",")
        }
        if let l = landmarkLayout { s += "\n  landmark tables: \(l)" }
        if derivedCostsStale == true { s += "\n  \(Self.staleNote)" }
        s += "\n  sources: \(sources.joined(separator: ", "))"
        if !osmTimestamp.isEmpty { s += " (OSM \(osmTimestamp))" }
        s += "\n  \(attribution)\n"
        return s
    }
}

extension MapSummary {
    /// A section's Swift name as a JSON key (`landmarkCosts` → `landmark_costs`): every key SkateRoute writes is snake_case.
    static func snakeCase(_ name: String) -> String {
        var out = ""
        for ch in name {
            if ch.isUppercase { out += "_" + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }
}
