import FoundationEssentials
import Glibc
import SkateCore

extension MapCompiler {
    /// Compiles everything streamed so far into a map.
    /// - Parameter dem: elevation source; nil → elevation unknown, grades 0.
    /// - Parameter progress: told the share of the build's six stages done (0…1) as each starts.
    public mutating func build(dem: (any ElevationSource)?, sources: [String], progress: ((Double) -> Void)? = nil) -> SkateMap {
        keptWays.sort { $0.id < $1.id }
        var meta = MapMetadata(name: options.name,
                               attribution: MapMetadata.standardAttribution(hasSRTM: dem != nil),
                               sources: sources, osmTimestamp: osmTimestamp, hasElevation: dem != nil,
                               inclineTaggedWays: keptWays.filter { $0.attrs.flags.contains(.inclineTagged) }.count,
                               waysKept: keptWays.count)
        meta.name = options.name
        var map = SkateMap(metadata: meta)
        insertConnectors()

        progress?(0.0 / Self.buildStages)
        // 1. Runs of consecutive present, distinct nodes per way (extract edges cut ways short),
        // with each node's index in `nodeIndex` (looked up once; the counts below are arrays by
        // that index, not dictionaries by id: a region holds millions of road nodes).
        var runs: [(way: Int, refs: [Int64], at: [Int32])] = []
        var useCount = [UInt8](repeating: 0, count: nodeIndex.count)
        for (wi, w) in keptWays.enumerated() {
            var cur: [Int64] = [], at: [Int32] = []
            func flush() {
                if cur.count >= 2 { runs.append((wi, cur, at)) }
                cur = []; at = []
            }
            for r in w.refs {
                guard let ni = nodeIndex[r] else { stats.missingNodeRefs += 1; flush(); continue }
                if cur.last == r { continue }
                // An absurd step (a broken extract) is cut out: the load would refuse its edge.
                if let li = at.last,
                   Geo.distance(lat1: nodeIndex.lat(li), lon1: nodeIndex.lon(li), lat2: nodeIndex.lat(ni), lon2: nodeIndex.lon(ni)) > Self.maxSegmentLength {
                    if stats.absurdSegments == 0 { stats.firstAbsurdWay = w.id }
                    stats.absurdSegments += 1
                    flush()
                }
                cur.append(r); at.append(ni)
            }
            flush()
        }
        for run in runs {
            // A node repeated inside one run (a loop) counts as a junction too.
            for i in run.at { useCount[Int(i)] &+= 1 }
            if run.refs.first == run.refs.last { useCount[Int(run.at[0])] &+= 1 }
        }
        // Tagged nodes (crossings, signals, kerbs, barriers) become graph nodes too, so their cost
        // is a transition the router sees exactly where it happens.
        for (id, _) in taggedNodeFlags { if let i = nodeIndex[id], useCount[Int(i)] != 0 { useCount[Int(i)] = 2 } }
        func isGraphNode(_ i: Int32) -> Bool { useCount[Int(i)] >= 2 }

        progress?(1.0 / Self.buildStages)
        // 2. Graph nodes in first-seen order (`graphIndex` by node index; `.max` = none yet).
        var graphIndex = [UInt32](repeating: .max, count: nodeIndex.count)
        func graphNode(_ r: Int64, _ i: Int32) -> UInt32 {
            if graphIndex[Int(i)] != .max { return graphIndex[Int(i)] }
            let g = UInt32(map.nodeLat.count)
            graphIndex[Int(i)] = g
            map.nodeLat.append(nodeIndex.lat(i)); map.nodeLon.append(nodeIndex.lon(i))
            map.nodeFlags.append(taggedNodeFlags[r] ?? 0); map.nodeOsmId.append(r)
            return g
        }

        progress?(2.0 / Self.buildStages)
        // 3. Split runs into edges.
        var strings = StringTable()
        var edgeInclinePct: [Double?] = []
        for run in runs {
            let w = keptWays[run.way]
            let refs = run.refs, at = run.at
            // A closed run with no junction inside would be a self-loop: split it at its middle.
            let interiorJunction = at.dropFirst().dropLast().contains(where: isGraphNode)
            if refs.first == refs.last && !interiorJunction && refs.count >= 3 {
                useCount[Int(at[refs.count / 2])] = 2
            }
            var start = 0
            var runLength = 0.0
            for i in 1..<refs.count {
                let a = at[i - 1], b = at[i]
                runLength += Geo.distance(lat1: nodeIndex.lat(a), lon1: nodeIndex.lon(a), lat2: nodeIndex.lat(b), lon2: nodeIndex.lon(b))
                // Long pieces split at a shape node so measured roughness and hazards stay local.
                let tooLong = runLength >= MapCompiler.maxEdgeLength && i < refs.count - 1
                guard i == refs.count - 1 || isGraphNode(at[i]) || tooLong else { continue }
                if tooLong { useCount[Int(at[i])] = 2 }
                runLength = 0
                let first = start
                start = i
                let from = graphNode(refs[first], at[first]), to = graphNode(refs[i], at[i])
                var crossings = 0
                var length = 0.0
                var prev: (Double, Double)?
                for j in first...i {
                    let r = refs[j], ni = at[j]
                    let (la, lo) = (nodeIndex.lat(ni), nodeIndex.lon(ni))
                    // The end nodes' coordinates are the nodes' own; only via points are stored.
                    if j > first && j < i { map.viaLat.append(la); map.viaLon.append(lo) }
                    if let p = prev { length += Geo.distance(lat1: p.0, lon1: p.1, lat2: la, lon2: lo) }
                    prev = (la, lo)
                    if r != refs[first] && r != refs[i], let f = taggedNodeFlags[r], NodeFlags(rawValue: f).contains(.crossing) {
                        crossings += 1
                    }
                }
                map.edgeViaStart.append(UInt32(map.viaLat.count))
                map.edgeFrom.append(from); map.edgeTo.append(to)
                map.edgeLength.append(Float(length))
                map.edgeHighway.append(w.attrs.highway.rawValue)
                map.edgeSurface.append(w.attrs.surface.rawValue)
                map.edgeSmoothness.append(w.attrs.smoothness.rawValue)
                map.edgeFlags.append(w.attrs.flags.rawValue)
                if let p = w.attrs.incline { map.edgeIncline.append(Int8(max(-100, min(100, p.rounded())))) } else { map.edgeIncline.append(SkateMap.noIncline) }
                edgeInclinePct.append(w.attrs.incline)
                map.edgeCrossings.append(UInt8(min(crossings, 255)))
                map.edgeName.append(strings.intern(w.attrs.name))
                map.edgeWayId.append(w.id)
                map.edgeSurfaceTag.append(strings.intern(w.attrs.surfaceTag))
                map.edgeSmoothnessTag.append(strings.intern(w.attrs.smoothnessTag))
            }
        }

        progress?(3.0 / Self.buildStages)
        // 4. Node flags that depend on the ways: junctions with major roads.
        for e in 0..<map.edgeCount where map.highway(ofEdge: e).isMajorRoad {
            map.nodeFlags[Int(map.edgeFrom[e])] |= NodeFlags.touchesMajorRoad.rawValue
            map.nodeFlags[Int(map.edgeTo[e])] |= NodeFlags.touchesMajorRoad.rawValue
        }

        progress?(4.0 / Self.buildStages)
        // 5. Elevation profiles: raw DEM samples, then the conditioning in `TerrainConditioning`.
        // The conditioner's sweeps run on one core (their Gauss–Seidel order fixes the heights)
        // while this thread orders the map and builds its places, towns and zones, none of which
        // reads a height; the profiles join the map afterwards, in its new edge order.
        var conditioning: ParallelMap.Pending<(profiles: [[Double]], report: TerrainReport, seconds: Double)>?
        var samplingSeconds = 0.0
        if let dem {
            let t0 = Self.monotonicSeconds()
            let n = map.edgeCount
            // Each edge's samples on both cores: `sampleRaw` reads the map and the DEM only.
            let frozen = map
            let conditioner = ElevationConditioner(
                raw: ParallelMap.map(n) { sampleRaw(map: frozen, edge: $0, dem: dem) },
                length: (0..<n).map { Double(map.edgeLength[$0]) },
                from: (0..<n).map { Int(map.edgeFrom[$0]) }, to: (0..<n).map { Int(map.edgeTo[$0]) },
                flags: (0..<n).map { map.flags(ofEdge: $0) }, incline: edgeInclinePct,
                street: (0..<n).map { map.edgeName[$0] }, nodeCount: map.nodeLat.count,
                noise: dem.verticalNoiseMetres ?? TerrainConditioning.noise(forCellSize: dem.cellSizeMetres),
                cellSize: dem.cellSizeMetres)
            samplingSeconds = Self.monotonicSeconds() - t0
            conditioning = ParallelMap.start {
                let t1 = Self.monotonicSeconds()
                let (profiles, report) = conditioner.run()
                return (profiles, report, Self.monotonicSeconds() - t1)
            }
        }

        // Near places at near indexes (see `orderSpatially`): what a plan reads stays in few pages.
        let edgeOrder = options.spatialOrder ? map.orderSpatially() : Array(0..<map.edgeCount)

        progress?(5.0 / Self.buildStages)
        // 6. Places and zones.
        let placeCities = buildPlaces(into: &map, strings: &strings)
        progress?(1)
        // Towns on this core alone while the conditioner holds the other: its sweeps are the
        // longer job, and a second town thread would only take turns with them.
        buildTowns(into: &map, strings: &strings, placeCities: placeCities,
                   grain: conditioning == nil ? ParallelMap.minItemsPerThread : Int.max)
        buildZones(into: &map, strings: &strings)
        // Nor do the step counts, the string table and the indexes (adjacency and spatial grid):
        // they too are built while the conditioner runs.
        map.edgeStepCount = FlatArray(stepCounts(of: map))
        map.stringBytes = FlatArray(strings.bytes)
        map.stringStart = FlatArray(strings.starts)
        map.rebuildIndexes()

        if let dem, let done = conditioning?.wait() {
            stats.elevationSeconds = samplingSeconds + done.seconds
            // Each edge's profile in the map's edge order (`edgeOrder[new]` is its old index): the
            // same samples and offsets ordering the conditioned map gave.
            var starts = [UInt32](repeating: 0, count: map.edgeCount + 1)
            for e in 0..<map.edgeCount {
                let prof = done.profiles[edgeOrder[e]]
                if !prof.isEmpty {
                    map.elevation.append(contentsOf: prof.map { Float($0) })
                    map.edgeFlags[e] |= EdgeFlags.hasElevation.rawValue
                    stats.edgesWithElevation += 1
                }
                starts[e + 1] = UInt32(map.elevation.count)
            }
            map.edgeElevStart = FlatArray(starts)
            map.metadata.terrain = done.report
            let grounded = (dem as? CompositeDEM)?.layers.contains { $0.source is GroundLayer } ?? false
            map.metadata.terrainMethod = TerrainConditioning.method + (grounded ? "; " + GroundModel.method : "")
        } else {
            map.edgeElevStart = FlatArray(repeating: 0, count: map.edgeCount + 1)
        }

        return map
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Samples the DEM every ≤ `elevationSpacing` metres along an edge, ends included (so both
    /// ends read the DEM exactly at the graph nodes). Gaps at the DEM's edge take the nearest
    /// known sample; empty when the DEM has no data anywhere on the edge.
    func sampleRaw(map: SkateMap, edge e: Int, dem: any ElevationSource) -> [Double] {
        let count = map.shapePointCount(ofEdge: e)
        let length = Double(map.edgeLength[e])
        let n = max(2, Int((length / options.elevationSpacing).rounded(.up)) + 1)
        var out = [Double](repeating: .nan, count: n)
        // Walk the polyline once, emitting samples at equal distances.
        var seg = 0
        var a = map.shapePoint(ofEdge: e, 0), b = map.shapePoint(ofEdge: e, 1)
        var segStart = 0.0
        var segLen = Geo.distance(lat1: a.lat, lon1: a.lon, lat2: b.lat, lon2: b.lon)
        for i in 0..<n {
            let s = n == 1 ? 0 : length * Double(i) / Double(n - 1)
            while s > segStart + segLen && seg + 2 < count {
                segStart += segLen
                seg += 1
                a = b; b = map.shapePoint(ofEdge: e, seg + 1)
                segLen = Geo.distance(lat1: a.lat, lon1: a.lon, lat2: b.lat, lon2: b.lon)
            }
            let t = segLen > 0 ? min(1, max(0, (s - segStart) / segLen)) : 0
            let la = a.lat + t * (b.lat - a.lat)
            let lo = a.lon + t * (b.lon - a.lon)
            out[i] = dem.elevation(lat: la, lon: lo) ?? .nan
        }
        guard let firstKnown = out.firstIndex(where: { !$0.isNaN }) else { return [] }
        var last = out[firstKnown]
        for i in 0..<n { if out[i].isNaN { out[i] = last } else { last = out[i] } }
        return out
    }

    /// Radius in metres within which two places of the same name and category are one (a POI
    /// mapped both as a node and as an area).
    static let placeDedupRadius: Double = 60
    /// The same for public-transport stops: one stop's platforms and stop positions (tram, bus,
    /// both directions) spread over a square, and they are one place to meet.
    static let stopDedupRadius: Double = 200

    func position(of refs: [Int64]) -> (Double, Double)? {
        var la = 0.0, lo = 0.0, n = 0
        let body = refs.count > 1 && refs.first == refs.last ? refs.dropLast() : refs[...]
        for r in body { if let i = nodeIndex[r] { la += nodeIndex.lat(i); lo += nodeIndex.lon(i); n += 1 } }
        return n > 0 ? (la / Double(n), lo / Double(n)) : nil
    }

    /// Returns each kept place's own town (`PendingPlace.city`), in place order.
    @discardableResult
    func buildPlaces(into map: inout SkateMap, strings: inout StringTable) -> [String?] {
        var cities: [String?] = []
        var seen: [String: [(Double, Double)]] = [:]
        let sorted = pendingPlaces.sorted { ($0.kind.rawValue, $0.name, $0.id) < ($1.kind.rawValue, $1.name, $1.id) }
        for p in sorted {
            guard let (la, lo) = p.lat.flatMap({ la in p.lon.map { (la, $0) } }) ?? position(of: p.refs) else { continue }
            let key = p.name + "\u{0}" + p.category
            let radius = p.category == PlaceClassifier.stopCategory ? Self.stopDedupRadius : Self.placeDedupRadius
            if let prev = seen[key], prev.contains(where: { Geo.distance(lat1: $0.0, lon1: $0.1, lat2: la, lon2: lo) < radius }) { continue }
            seen[key, default: []].append((la, lo))
            map.placeLat.append(la); map.placeLon.append(lo)
            map.placeName.append(strings.intern(p.name))
            map.placeKind.append(p.kind.rawValue)
            map.placeCategory.append(strings.intern(p.category))
            cities.append(p.city)
        }
        return cities
    }

    func buildZones(into map: inout SkateMap, strings: inout StringTable) {
        for z in pendingZones.sorted(by: { $0.id < $1.id }) {
            for ring in z.rings {
                var pts: [(Double, Double)] = []
                for r in ring { if let i = nodeIndex[r] { pts.append((nodeIndex.lat(i), nodeIndex.lon(i))) } }
                guard pts.count >= 4 else { continue }
                map.zoneKind.append(z.kind.rawValue)
                map.zoneName.append(strings.intern(z.name))
                for p in pts { map.zoneLat.append(p.0); map.zoneLon.append(p.1) }
                map.zoneRingStart.append(UInt32(map.zoneLat.count))
            }
        }
    }
}

/// Interns strings into one UTF-8 blob with offsets; index 0 is "".
struct StringTable {
    var bytes: [UInt8] = []
    var starts: [UInt32] = [0, 0]
    var index: [String: UInt32] = ["": 0]

    mutating func intern(_ s: String) -> UInt32 {
        if let i = index[s] { return i }
        let i = UInt32(starts.count - 1)
        bytes.append(contentsOf: Array(s.utf8))
        starts.append(UInt32(bytes.count))
        index[s] = i
        return i
    }
}

extension MapCompiler {
    /// The numbered stages of `build` (runs, graph nodes, edges, node flags, elevation, places),
    /// for the import's progress line.
    static let buildStages = 6.0
}
