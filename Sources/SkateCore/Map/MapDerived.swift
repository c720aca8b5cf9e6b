/// Facts derived from the map alone — no store, no ride mode — computed once at import and kept
/// in the `.srmap`, so a fresh `skateroute plan` process does no per-edge work before routing.
/// `EdgeTable` starts from these and patches only the edges the store knows more about.
public struct MapDerived: Sendable, Equatable {
    /// Roughness RMS (g) from the OSM tags and its source, per edge.
    public var tagRMS: FlatArray<Float>
    public var tagRMSSource: FlatArray<UInt8>
    /// Mean grade in percent along the drawing direction (clamped ±`EdgeTable.maxGradePct`).
    public var grade: FlatArray<Float>
    /// Metres climbed / descended along the drawing direction.
    public var climb: FlatArray<Float>
    public var descent: FlatArray<Float>
    /// Steepest `EdgeTable.sustainWindow`-metre grade (percent, ≤ 0) going forward / backward.
    public var steepestDownFwd: FlatArray<Float>
    public var steepestDownBwd: FlatArray<Float>
    /// Metres of the edge at braking grade (`BrakingGrade`) travelling along / against the drawing
    /// direction, and metres at caution grade (steeper than caution, gentler than braking).
    public var brakingMetresFwd: FlatArray<Float>
    public var brakingMetresBwd: FlatArray<Float>
    public var cautionMetresFwd: FlatArray<Float>
    public var cautionMetresBwd: FlatArray<Float>
    /// Travel seconds along / against the drawing direction on the tag roughness.
    public var tagSecondsFwd: FlatArray<Float>
    public var tagSecondsBwd: FlatArray<Float>
    /// Bearing (degrees) leaving `edgeFrom` along the edge, and arriving at `edgeTo`.
    public var bearingStart: FlatArray<Float>
    public var bearingEnd: FlatArray<Float>
    /// Connected component (its root node) per node, over the edges a skater may use at all.
    public var componentRoot: FlatArray<Int32>
    /// Node count per component, indexed by the root node.
    public var componentSize: FlatArray<Int32>
    /// Each mode's lowest cost per metre (the A* heuristic's factor), in `allCases` order.
    public var modeMinCostPerMetre: FlatArray<Double>
    /// ALT landmark nodes (`Landmarks.count`, fewer on tiny maps; see `Landmarks`).
    public var landmarks: FlatArray<UInt32>
    /// Per mode (in `allCases` order), per node, per landmark: cost from it and cost to it
    /// (`modes × nodes × 2 × Landmarks.count`), quantised (`LandmarkTable`: value × the mode's
    /// scale, rounded down; `LandmarkTable.unreachable` where unreachable).
    public var landmarkCosts: FlatArray<UInt16>
    /// Per mode (in `allCases` order): which table of `landmarkCosts` bounds it (`LandmarkLayout`;
    /// empty without landmarks).
    public var landmarkTableOfMode: FlatArray<UInt8>
    /// Per table: the two steps of `landmarkCosts`' scale (`LandmarkTable.fine`, `.coarse`, in
    /// effort seconds per code; empty without landmarks).
    public var landmarkScale: FlatArray<Double>
    /// Place search: the street candidates (edge and midpoint, in `PlaceSearch` order) and the
    /// folded tokens of every candidate (places first), as CSR: candidate → token range →
    /// byte range. Empty when not computed.
    public var streetEdge: FlatArray<UInt32>
    public var streetMidLat: FlatArray<Double>
    public var streetMidLon: FlatArray<Double>
    public var searchTokenBytes: FlatArray<UInt8>
    public var searchTokenStart: FlatArray<UInt32>
    public var searchCandidateTokenStart: FlatArray<UInt32>

    /// Whether the place-search tables are present.
    public var hasSearchIndex: Bool { searchCandidateTokenStart.count > 0 }

    /// All arrays empty: what `MapFormat.decode` fills section by section.
    static var empty: MapDerived { MapDerived() }

    private init() {
        tagRMS = []; tagRMSSource = []; grade = []; climb = []; descent = []; steepestDownFwd = []; steepestDownBwd = []
        brakingMetresFwd = []; brakingMetresBwd = []; cautionMetresFwd = []; cautionMetresBwd = []
        tagSecondsFwd = []; tagSecondsBwd = []; bearingStart = []; bearingEnd = []
        componentRoot = []; componentSize = []; modeMinCostPerMetre = []
        landmarks = []; landmarkCosts = []; landmarkScale = []; landmarkTableOfMode = []
        streetEdge = []; streetMidLat = []; streetMidLon = []
        searchTokenBytes = []; searchTokenStart = []; searchCandidateTokenStart = []
    }

    /// Computes everything from the map's arrays: the per-edge facts in O(edges + elevation
    /// samples), plus with `routingTables` the components, the mode costs and the landmark
    /// tables (2 × `Landmarks.count` Dijkstra runs per mode), which only a map file carries.
    /// Without them (an in-memory map's `EdgeTable`) those arrays stay empty.
    /// - Parameter progress: the share of the landmark tables computed (0…1), the slow part of an
    ///   import's write; called one call at a time from the threads computing them.
    public init(map: SkateMap, routingTables: Bool = true, landmarks layout: LandmarkLayout = .standard,
                progress: (@Sendable (Double) -> Void)? = nil) {
        let n = map.edgeCount
        // The place search's index reads names and shapes only: it is built on another core
        // while this one computes the per-edge facts below (issue 31: a serial 1.2 % of a region's
        // import CPU).
        let placeIndex = routingTables ? ParallelMap.start { PlaceSearch.computeIndex(map) } : nil
        tagRMS = .init(repeating: 0, count: n); tagRMSSource = .init(repeating: 0, count: n)
        grade = .init(repeating: 0, count: n); climb = .init(repeating: 0, count: n); descent = .init(repeating: 0, count: n)
        steepestDownFwd = .init(repeating: 0, count: n); steepestDownBwd = .init(repeating: 0, count: n)
        brakingMetresFwd = .init(repeating: 0, count: n); brakingMetresBwd = .init(repeating: 0, count: n)
        cautionMetresFwd = .init(repeating: 0, count: n); cautionMetresBwd = .init(repeating: 0, count: n)
        tagSecondsFwd = .init(repeating: 0, count: n); tagSecondsBwd = .init(repeating: 0, count: n)
        bearingStart = .init(repeating: 0, count: n); bearingEnd = .init(repeating: 0, count: n)
        let facts = Self.edgeFacts(map: map)
        for e in 0..<n {
            let f = facts[e]
            tagRMS[e] = f.tagRMS; tagRMSSource[e] = f.tagRMSSource
            grade[e] = f.grade; climb[e] = f.climb; descent[e] = f.descent
            steepestDownFwd[e] = f.steepestDownFwd; steepestDownBwd[e] = f.steepestDownBwd
            brakingMetresFwd[e] = f.brakingMetresFwd; brakingMetresBwd[e] = f.brakingMetresBwd
            cautionMetresFwd[e] = f.cautionMetresFwd; cautionMetresBwd[e] = f.cautionMetresBwd
            tagSecondsFwd[e] = f.tagSecondsFwd; tagSecondsBwd[e] = f.tagSecondsBwd
            bearingStart[e] = f.bearingStart; bearingEnd[e] = f.bearingEnd
        }
        componentRoot = []; componentSize = []
        modeMinCostPerMetre = []
        landmarks = []
        landmarkCosts = []; landmarkScale = []; landmarkTableOfMode = []
        streetEdge = []; streetMidLat = []; streetMidLon = []
        searchTokenBytes = []; searchTokenStart = []; searchCandidateTokenStart = []
        guard let placeIndex else { return }
        let index = placeIndex.wait()
        streetEdge = FlatArray(index.streets.map { UInt32($0.edge) })
        streetMidLat = FlatArray(index.streets.map(\.mid.lat)); streetMidLon = FlatArray(index.streets.map(\.mid.lon))
        var bytes: [UInt8] = [], tokenStart: [UInt32] = [0], candStart: [UInt32] = [0]
        for words in index.tokens {
            for w in words { bytes += w; tokenStart.append(UInt32(bytes.count)) }
            candStart.append(UInt32(tokenStart.count - 1))
        }
        searchTokenBytes = FlatArray(bytes); searchTokenStart = FlatArray(tokenStart); searchCandidateTokenStart = FlatArray(candStart)
        let (root, size) = Self.components(map: map)
        componentRoot = FlatArray(root); componentSize = FlatArray(size)
        // Mode costs from a table of exactly these facts (no knowledge): their lowest cost per
        // metre is kept; the costs themselves are computed again as plans need them.
        let table = EdgeTable(derived: self, edgeCount: n)
        // One mode per core at a time: each reads the map and the table only.
        let modes = RideMode.allCases
        let costed = ParallelMap.map(modes.count, grain: 1) {
            SkateCosting.computeCosts(map: map, table: table, weights: modes[$0].weights)
        }
        let modeCosts = costed.map(\.0)
        modeMinCostPerMetre = FlatArray(costed.map(\.1))
        // Landmarks on the main network (a usable edge touches them).
        let compRoot = componentRoot, compSize = componentSize
        var mainRoot: Int32 = 0
        for v in 0..<map.nodeCount where compSize[v] > compSize[Int(mainRoot)] { mainRoot = Int32(v) }
        var touched = [Bool](repeating: false, count: map.nodeCount)
        for e in 0..<n where SkateCosting.isAllowed(map: map, edge: e) {
            touched[Int(map.edgeFrom[e])] = true; touched[Int(map.edgeTo[e])] = true
        }
        let chosen = Landmarks.choose(map: map) { touched[$0] && compRoot[$0] == mainRoot }
        var lm = [UInt32](chosen.map { UInt32($0) })
        var bounds: [UInt16] = [], scales: [Double] = []
        if chosen.count == Landmarks.count {
            bounds.reserveCapacity(RideMode.allCases.count * map.nodeCount * 2 * Landmarks.count)
            // Each table from the least cost any of its modes gives each traversal: a lower
            // bound under every mode of the group (admissible for all of them).
            let tableCosts: [[Float]] = layout.groups.map { group in
                var least = modeCosts[group[0].ordinal]
                for m in group.dropFirst() {
                    let c = modeCosts[m.ordinal]
                    for i in least.indices where c[i] < least[i] { least[i] = c[i] }
                }
                return least
            }
            let tables = Double(tableCosts.count)
            for (ti, costs) in tableCosts.enumerated() {
                let before = Double(ti)
                var onRun: (@Sendable (Int, Int) -> Void)?
                if let progress {
                    onRun = { (done: Int, runs: Int) in
                        let share: Double = (before + Double(done) / Double(runs)) / tables
                        progress(share)
                    }
                }
                let raw = Landmarks.distances(map: map, cost: FlatArray(costs), landmarks: chosen, progress: onRun)
                let t = LandmarkTable.quantise(raw, columns: 2 * Landmarks.count)
                bounds += t.values; scales += [t.fine, t.coarse]
            }
        } else {
            lm = []  // a map too small for landmarks routes on the straight-line bound alone
        }
        landmarks = FlatArray(lm)
        landmarkCosts = FlatArray(bounds); landmarkScale = FlatArray(scales)
        landmarkTableOfMode = lm.isEmpty ? [] : FlatArray(layout.tableOfMode.map { UInt8($0) })
    }

    /// One mode's landmark table (`nodes × 2 × Landmarks.count`), or nil when the map has none.
    func landmarkTable(for mode: RideMode, nodeCount: Int) -> LandmarkTable? {
        guard landmarks.count == Landmarks.count else { return nil }
        let w = nodeCount * 2 * Landmarks.count
        let t = Int(landmarkTableOfMode[mode.ordinal])
        return LandmarkTable(values: landmarkCosts.subarray((t * w)..<((t + 1) * w)),
                             fine: landmarkScale[2 * t], coarse: landmarkScale[2 * t + 1])
    }

    /// Which modes share which landmark table (nil without landmarks).
    public var landmarkLayout: LandmarkLayout? {
        LandmarkLayout(stored: landmarkTableOfMode.map { Int($0) }, tables: landmarkScale.count / 2)
    }

    /// Seconds to travel an edge along and against its drawing direction, from the skate speed
    /// model at the given grade (percent, drawing direction) and roughness (g); steps are walked;
    /// connectors take their wait and ride (`ConnectorTiming`).
    public static func travelSeconds(map: SkateMap, edge e: Int, grade: Float, rms: Float) -> (Float, Float) {
        let len = Double(map.edgeLength[e])
        if map.flags(ofEdge: e).contains(.connector) {
            let s = Float(ConnectorTiming.seconds(highway: map.highway(ofEdge: e), length: len))
            return (s, s)
        }
        if map.flags(ofEdge: e).contains(.steps) {
            let s = Float(len / SkatePhysics.stepsSpeed)
            return (s, s)
        }
        let r = Double(rms)
        return (Float(len / SkatePhysics.cruiseSpeed(gradePct: Double(grade), rms: r)),
                Float(len / SkatePhysics.cruiseSpeed(gradePct: -Double(grade), rms: r)))
    }

    /// Union–find over the usable edges (direction ignored): root node and size per node.
    static func components(map: SkateMap) -> (root: [Int32], size: [Int32]) {
        var parent = (0..<Int32(map.nodeCount)).map { $0 }
        func find(_ x: Int32) -> Int32 {
            var x = x
            while parent[Int(x)] != x { parent[Int(x)] = parent[Int(parent[Int(x)])]; x = parent[Int(x)] }
            return x
        }
        for e in 0..<map.edgeCount where SkateCosting.isAllowed(map: map, edge: e) {
            let a = find(Int32(map.edgeFrom[e])), b = find(Int32(map.edgeTo[e]))
            if a != b { if a < b { parent[Int(b)] = a } else { parent[Int(a)] = b } }
        }
        var r = [Int32](repeating: 0, count: map.nodeCount)
        var s = [Int32](repeating: 0, count: map.nodeCount)
        for n in 0..<map.nodeCount { r[n] = find(Int32(n)); s[Int(r[n])] += 1 }
        return (r, s)
    }

    /// Whether the arrays fit a map with these counts and hold sane values (a loaded file's
    /// derived block is checked before use). Returns a description of the first problem, or nil.
    /// - Parameter scanValues: scan the values too (see `SkateMap.consistencyProblem(scanValues:)`).
    /// - Parameter placesNamed: the map's places with a name; nil skips the search index's count check.
    func problem(nodes: Int, edges: Int, placesNamed: Int?, scanValues: Bool = true) -> String? {
        // Lengths are checked against `MapSection.all` before this runs; these are the values.
        for x in modeMinCostPerMetre where !(x >= 0 && x.isFinite) { return "bad mode cost" }
        for x in landmarkScale where !(x > 0 && x.isFinite) { return "bad landmark scale" }
        if landmarkCosts.count != landmarkScale.count / 2 * nodes * 2 * Landmarks.count { return "landmark tables and scales disagree" }
        if !landmarks.isEmpty && landmarkLayout == nil { return "bad landmark table of a mode" }
        for l in landmarks where Int(l) >= nodes { return "landmark out of range" }
        if streetMidLat.count != streetEdge.count || streetMidLon.count != streetEdge.count { return "derived street arrays differ in length" }
        // Offset tables: the ends always, and that they never decrease when scanning.
        func csrOK(_ s: FlatArray<UInt32>, _ total: Int) -> Bool {
            guard s.first == 0, Int(s.last ?? 0) == total else { return false }
            if scanValues { for i in 1..<s.count where s[i] < s[i - 1] { return false } }
            return true
        }
        if hasSearchIndex && (!csrOK(searchTokenStart, searchTokenBytes.count)
                              || !csrOK(searchCandidateTokenStart, searchTokenStart.count - 1)
                              || placesNamed.map { searchCandidateTokenStart.count - 1 != $0 + streetEdge.count } == true) {
            return "bad place-search index"
        }
        guard scanValues else { return nil }
        for e in streetEdge where Int(e) >= edges { return "street candidate past the edges" }
        // Landmark costs are not scanned: they only steer the search (a damaged value could make
        // a route less than optimal, never index out of range or loop), and reading 1.7 MB of
        // them would double the load time. The file checksum still covers them.
        for r in componentRoot where r < 0 || Int(r) >= nodes { return "component root out of range" }
        for x in tagSecondsFwd where !(x >= 0 && x.isFinite) { return "bad travel time" }
        for x in tagSecondsBwd where !(x >= 0 && x.isFinite) { return "bad travel time" }
        return nil
    }
}
