import FoundationEssentials
import Glibc
import SkateCore

/// What the importer keeps of a public lift (`highway=elevator` node or way).
struct Lift: Equatable {
    var name: String
    /// `opening_hours` tagged and not `24/7`: the lift may be closed when the rider gets there.
    var limitedHours: Bool

    init(tags: OSMTags) {
        name = tags["name"] ?? tags["ref"] ?? ""
        limitedHours = tags["opening_hours"].map { $0.trimmingWhitespace() != "24/7" } ?? false
    }
}

extension WayAttributes {
    /// The attributes of a lift connector edge: class `.elevator`, flagged `.connector`, named
    /// after the lift; no surface, grade or access restriction of its own.
    init(lift: Lift) {
        highway = .elevator
        surface = .unknown
        smoothness = .unknown
        incline = nil
        name = lift.name
        var f: EdgeFlags = [.connector, .lit]
        if lift.limitedHours { f.insert(.limitedHours) }
        flags = f
    }
}

/// Public lifts as vertical connectors.
///
/// OSM maps a lift either as a node (`highway=elevator`) where the footways of its floors end,
/// or as a way (often a small closed outline) whose nodes the footways touch. The router needs
/// one graph node per floor and a connector edge between floors (class `.elevator`, flag
/// `.connector`, 0 m for a node lift): riding "through" a lift then costs its wait and ride
/// (`ConnectorTiming`), and elevation work can tell the floors apart instead of tying two
/// levels to one height.
///
/// - A lift node met by ways of different floors (their `layer|level` differ): the node is
///   split into one copy per floor (at the same position), the ways of each floor keep their
///   copy, and every pair of floors gets a connector.
/// - A lift node met by one floor only, at a way's end (Place des Moulins, 43.74495,7.42937: the
///   underground footway ends at the lift but its node 2.5 m before is shared with the street-level
///   footway above): a node within `liftLandingRadius` along that way that a way of another floor
///   shares is the lift's upper landing. The underground way lets go of that node (it gets a
///   private copy) and a connector joins the lift node to the landing.
/// - A lift way: every node of it that a kept way touches is a landing; all landings are
///   joined pairwise.
extension MapCompiler {
    /// Radius in metres along a way around a lone lift node within which a node shared with a
    /// way of another floor is taken as the lift's other landing (a lift door is a few metres
    /// from where its shaft is drawn; Place des Moulins: 2.5 m).
    static let liftLandingRadius = 10.0
    /// Connectors per lift (floors pairwise); more is damage, and the id scheme has 64 slots.
    static let maxConnectorsPerLift: Int64 = 63

    /// The floor key of a way: `layer|level` as tagged, layer defaulting to 0.
    static func levelKey(_ tags: OSMTags) -> String {
        (tags["layer"] ?? "0").trimmingWhitespace() + "|" + (tags["level"] ?? "").trimmingWhitespace()
    }

    /// A copy of node `id` at the same position with a fresh negative id (never an OSM id).
    mutating func copyNode(_ id: Int64, slot: Int64) -> Int64 {
        let c = -(id &* 16 &+ slot)
        if nodeIndex[c] == nil, let i = nodeIndex[id] {
            nodeIndex.addCopy(id: c, lat: nodeIndex.lat(i), lon: nodeIndex.lon(i))
        }
        return c
    }

    func metres(_ a: Int64, _ b: Int64) -> Double {
        guard let i = nodeIndex[a], let j = nodeIndex[b] else { return .infinity }
        return Geo.distance(lat1: nodeIndex.lat(i), lon1: nodeIndex.lon(i), lat2: nodeIndex.lat(j), lon2: nodeIndex.lon(j))
    }

    /// Rewrites the kept ways around lifts and appends the connector ways (see the type's notes).
    mutating func insertConnectors() {
        guard !elevatorNodes.isEmpty || !elevatorWays.isEmpty else { return }
        // The kept ways through each node a lift can reach: the lift nodes, every node of a way
        // that meets one (a lone lift's other landing lies along such a way) and the lift ways'
        // nodes. Listing every node's ways was an array per road node (~8 % of a region's import
        // CPU, perf, K = 3); the lists asked for are the same.
        var wanted = Set(elevatorNodes.keys)
        for ew in elevatorWays { wanted.formUnion(ew.refs) }
        for w in keptWays where w.refs.contains(where: { elevatorNodes[$0] != nil }) { wanted.formUnion(w.refs) }
        var waysAt: [Int64: [Int]] = [:]
        for (wi, w) in keptWays.enumerated() {
            for r in w.refs where wanted.contains(r) && waysAt[r]?.last != wi { waysAt[r, default: []].append(wi) }
        }
        var connectors: [KeptWay] = []
        func connect(_ a: Int64, _ b: Int64, id: Int64, lift: Lift) {
            connectors.append(KeptWay(id: id, refs: [a, b], attrs: WayAttributes(lift: lift), levelKey: ""))
        }
        for nid in elevatorNodes.keys.sorted() {
            guard let lift = elevatorNodes[nid], let ws = waysAt[nid], nodeIndex[nid] != nil else { continue }
            var floors: [String: [Int]] = [:]
            for wi in ws { floors[keptWays[wi].levelKey, default: []].append(wi) }
            let keys = floors.keys.sorted()
            if keys.count >= 2 {
                var landings: [Int64] = []
                for (k, key) in keys.enumerated() {
                    let copy = k == 0 ? nid : copyNode(nid, slot: Int64(k))
                    if k > 0 { for wi in floors[key]! { keptWays[wi].refs = keptWays[wi].refs.map { $0 == nid ? copy : $0 } } }
                    landings.append(copy)
                }
                var pair: Int64 = 0
                for i in landings.indices { for j in landings.indices where j > i && pair <= Self.maxConnectorsPerLift {
                    connect(landings[i], landings[j], id: -(nid &* 64 &+ pair), lift: lift)
                    pair += 1
                } }
                stats.liftsConnected += 1
                continue
            }
            // One floor: look for the other landing along each way that ends at the lift.
            for wi in ws {
                let refs = keptWays[wi].refs
                guard refs.count >= 2, refs.first == nid || refs.last == nid, refs.first != refs.last else { continue }
                let order = refs.first == nid ? Array(refs.indices) : Array(refs.indices.reversed())
                var along = 0.0, prev = nid
                for idx in order.dropFirst() {
                    let r = refs[idx]
                    along += metres(prev, r); prev = r
                    if along > Self.liftLandingRadius || r == nid { break }
                    guard let others = waysAt[r], others.contains(where: { keptWays[$0].levelKey != keptWays[wi].levelKey }) else { continue }
                    keptWays[wi].refs[idx] = copyNode(r, slot: 15)
                    connect(nid, r, id: -(nid &* 64 &+ Self.maxConnectorsPerLift), lift: lift)
                    stats.liftsConnected += 1
                    break
                }
            }
        }
        for ew in elevatorWays.sorted(by: { $0.id < $1.id }) {
            var entries: [Int64] = []
            for r in ew.refs where waysAt[r] != nil && !entries.contains(r) { entries.append(r) }
            guard entries.count >= 2 else { continue }
            for i in entries.indices { for j in entries.indices where j > i { connect(entries[i], entries[j], id: ew.id, lift: ew.lift) } }
            stats.liftsConnected += 1
        }
        keptWays += connectors
        // Connectors of one lift way share its id: order them by their ends too (deterministic output).
        keptWays.sort { ($0.id, $0.refs.first!, $0.refs.last!) < ($1.id, $1.refs.first!, $1.refs.last!) }
    }

    /// Per edge, its share of its way's `step_count` (by length), for the plan's "N steps".
    func stepCounts(of map: SkateMap) -> [UInt16] {
        var count: [Int64: Int] = [:]
        for w in keptWays where w.attrs.stepCount > 0 { count[w.id] = w.attrs.stepCount }
        guard !count.isEmpty else { return [UInt16](repeating: 0, count: map.edgeCount) }
        var wayLength: [Int64: Double] = [:]
        for e in 0..<map.edgeCount where count[map.edgeWayId[e]] != nil { wayLength[map.edgeWayId[e], default: 0] += Double(map.edgeLength[e]) }
        return (0..<map.edgeCount).map { e in
            let w = map.edgeWayId[e]
            guard let n = count[w], let total = wayLength[w], total > 0 else { return 0 }
            return UInt16(min(Double(UInt16.max), max(1, (Double(n) * Double(map.edgeLength[e]) / total).rounded())))
        }
    }
}
