import Glibc
import SkateCore

/// The extract a region is tiled from (issue 31), held in memory: nodes with coordinates in units
/// of 1e-7 degree (the PBF default granularity, so a PBF source round-trips exactly), ways and
/// relations with their tags, and the few road nodes on each border where tiles are joined.
public struct RegionSource: Sendable {
    /// Node ids in file order.
    public internal(set) var nodeIds: [Int64] = []
    /// Latitudes and longitudes in 1e-7 degree, parallel to `nodeIds`.
    var lats: [Int64] = [], lons: [Int64] = []
    /// Per node: an index into `nodeTagSets`, or -1 for an untagged node.
    var nodeTagIndex: [Int32] = []
    var nodeTagSets: [[(key: String, value: String)]] = []

    struct Way: Sendable { var id: Int64; var refs: [Int64]; var tags: [(key: String, value: String)] }
    struct Relation: Sendable { var id: Int64; var members: [OSMMember]; var tags: [(key: String, value: String)] }
    var ways: [Way] = []
    var relations: [Relation] = []

    /// The extent of the nodes, in 1e-7 degree.
    public internal(set) var minLat: Int64 = .max, maxLat: Int64 = .min, minLon: Int64 = .max, maxLon: Int64 = .min
    /// Distinct nodes used by `highway=*` ways (the importer's "road nodes").
    public internal(set) var roadNodeCount = 0
    /// Node indices where tiles are joined, per border side, `RegionGenerator.joinsPerBorder` each
    /// (fewer when two evenly spaced points share their nearest node); a north (east) node is
    /// joined to the south (west) node at the same place in the list (`findBorderNodes`).
    public internal(set) var borderNodes: [Side: [Int]] = [:]

    /// A border of the extract's box.
    public enum Side: Sendable, CaseIterable { case north, south, east, west }

    /// Highway classes a joining way may start from: ordinary streets every ride mode may use, so a
    /// join is never a motorway ramp or a path that is only legal on foot.
    static let joinableHighways: Set<String> = ["residential", "living_street", "unclassified", "tertiary", "secondary"]

    public var nodeCount: Int { nodeIds.count }
    public var wayCount: Int { ways.count }
    public var relationCount: Int { relations.count }

    /// The extent of the nodes in degrees.
    public var box: BoundingBox {
        let u = PBFWriter.unitsPerDegree
        return BoundingBox(minLon: Double(minLon) / u, minLat: Double(minLat) / u, maxLon: Double(maxLon) / u, maxLat: Double(maxLat) / u)
    }

    /// Reads the OSM file at `path` (PBF or XML) into memory.
    /// - Parameter crop: keep only the nodes inside this box (degrees) and the ways whose nodes are
    ///   all kept, so a test can tile a small piece of a real city.
    /// - Throws: `ImportError` for an unreadable file or one without any joinable street.
    public static func read(path: String, crop: BoundingBox? = nil) throws -> RegionSource {
        var collector = Collector(crop: crop)
        try OSMReader.read(path: path, into: &collector)
        var source = collector.source
        guard source.nodeCount > 0 else { throw ImportError(path: path, problem: "no nodes\(crop == nil ? "" : " inside the crop box")") }
        source.findBorderNodes()
        guard source.borderNodes.values.contains(where: { !$0.isEmpty }) else {
            throw ImportError(path: path, problem: "no street (\(joinableHighways.sorted().joined(separator: ", "))) to join region tiles with")
        }
        return source
    }

    private struct Collector: OSMHandler {
        var source = RegionSource()
        let crop: BoundingBox?
        var kept = Set<Int64>()
        var keptWays = Set<Int64>()

        init(crop: BoundingBox?) { self.crop = crop }

        mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {
            if let crop, !(lat >= crop.minLat && lat <= crop.maxLat && lon >= crop.minLon && lon <= crop.maxLon) { return }
            if crop != nil { kept.insert(id) }
            let u = PBFWriter.unitsPerDegree
            let la = Int64((lat * u).rounded()), lo = Int64((lon * u).rounded())
            source.nodeIds.append(id); source.lats.append(la); source.lons.append(lo)
            source.minLat = min(source.minLat, la); source.maxLat = max(source.maxLat, la)
            source.minLon = min(source.minLon, lo); source.maxLon = max(source.maxLon, lo)
            if tags.isEmpty {
                source.nodeTagIndex.append(-1)
            } else {
                source.nodeTagIndex.append(Int32(source.nodeTagSets.count))
                source.nodeTagSets.append(tags.pairs)
            }
        }

        mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {
            if crop != nil, !refs.allSatisfy({ kept.contains($0) }) { return }
            if crop != nil { keptWays.insert(id) }
            source.ways.append(Way(id: id, refs: refs, tags: tags.pairs))
        }

        mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) {
            var members = members
            if crop != nil {
                members = members.filter { $0.kind == .node ? kept.contains($0.ref) : $0.kind == .way ? keptWays.contains($0.ref) : false }
                if members.isEmpty { return }
            }
            source.relations.append(Relation(id: id, members: members, tags: tags.pairs))
        }
    }

    /// The largest |id| over nodes, ways and relations.
    var maxAbsId: Int64 {
        var m: Int64 = 0
        for id in nodeIds { m = max(m, id == .min ? .max : abs(id)) }
        for w in ways { m = max(m, w.id == .min ? .max : abs(w.id)) }
        for r in relations { m = max(m, r.id == .min ? .max : abs(r.id)) }
        return m
    }

    /// The step between two neighbouring tiles (`RegionLayout`), in 1e-7 degree: the box's
    /// height (north–south) and width (east–west).
    var tileHeight: Int64 { max(1, maxLat - minLat) }
    var tileWidth: Int64 { max(1, maxLon - minLon) }

    /// Counts road nodes and picks the joins between neighbouring tiles, all on joinable street
    /// nodes of the largest connected piece of the street network (a join into an island would
    /// not join anything): `RegionGenerator.joinsPerBorder` nodes on the north (east) side,
    /// nearest to evenly spaced points of that side over the streets' own extent, each paired
    /// with the node whose copy in the next tile north (east) lies nearest to it, so the
    /// joining way between them is as short as the extract allows. `borderNodes[.north][j]`
    /// joins `borderNodes[.south][j]`, and `.east` joins `.west` alike.
    ///
    /// The joins used to be the nodes nearest to evenly spaced points of the whole box's sides,
    /// picked side by side: on Heidelberg, whose box is stretched far west and east of its
    /// streets by a trunk road's pieces, they were 18–23 km long, the importer cut them as
    /// broken steps (`MapCompiler.maxSegmentLength`), every tile was a network of its own and
    /// a quarter of `bench --scale`'s routes (those crossing a border) found no line.
    mutating func findBorderNodes() {
        var index: [Int64: Int32] = [:]
        index.reserveCapacity(nodeIds.count)
        for (i, id) in nodeIds.enumerated() { index[id] = Int32(i) }
        var parent = [Int32](repeating: -1, count: nodeIds.count)  // -1: not on a street
        func find(_ x: Int32) -> Int32 {
            var r = x
            while parent[Int(r)] != r { r = parent[Int(r)] }
            var y = x
            while parent[Int(y)] != r { let next = parent[Int(y)]; parent[Int(y)] = r; y = next }
            return r
        }
        var joinable = [Bool](repeating: false, count: nodeIds.count)
        for w in ways {
            guard let highway = w.tags.first(where: { $0.key == "highway" })?.value else { continue }
            let canJoin = Self.joinableHighways.contains(highway)
            var previous: Int32?
            for ref in w.refs {
                guard let i = index[ref] else { previous = nil; continue }
                if parent[Int(i)] < 0 { parent[Int(i)] = i }
                if canJoin { joinable[Int(i)] = true }
                if let p = previous {
                    let a = find(p), b = find(i)
                    if a != b { parent[Int(a)] = b }
                }
                previous = i
            }
        }
        var size: [Int32: Int] = [:]
        roadNodeCount = 0
        for i in 0..<nodeIds.count where parent[i] >= 0 {
            roadNodeCount += 1
            size[find(Int32(i)), default: 0] += 1
        }
        guard let main = size.max(by: { $0.value < $1.value })?.key else { return }
        let candidates = (0..<nodeIds.count).filter { joinable[$0] && find(Int32($0)) == main }
        guard !candidates.isEmpty else { return }
        // Longitude units shrink with latitude: compare distances in north-equivalent units.
        let midLat = Double(minLat + maxLat) / 2 / PBFWriter.unitsPerDegree
        let lonScale = cos(midLat * .pi / 180)
        /// The candidate nearest to (lat, lon), in 1e-7 degree.
        func nearest(lat: Double, lon: Double) -> Int {
            var best = candidates[0], bestD = Double.infinity
            for c in candidates {
                let dLat = Double(lats[c]) - lat, dLon = (Double(lons[c]) - lon) * lonScale
                let d = dLat * dLat + dLon * dLon
                if d < bestD { bestD = d; best = c }
            }
            return best
        }
        var sLat = Int64.max, nLat = Int64.min, wLon = Int64.max, eLon = Int64.min
        for c in candidates {
            sLat = min(sLat, lats[c]); nLat = max(nLat, lats[c]); wLon = min(wLon, lons[c]); eLon = max(eLon, lons[c])
        }
        let n = RegionGenerator.joinsPerBorder
        for (side, partnerSide) in [(Side.north, Side.south), (.east, .west)] {
            var mine: [Int] = [], theirs: [Int] = []
            for j in 0..<n {
                let f = (Double(j) + 0.5) / Double(n)
                let a: Int
                if side == .north {
                    a = nearest(lat: Double(maxLat), lon: Double(wLon) + f * Double(eLon - wLon))
                } else {
                    a = nearest(lat: Double(sLat) + f * Double(nLat - sLat), lon: Double(maxLon))
                }
                guard !mine.contains(a) else { continue }
                // The partner's copy lies one tile north (east): the node nearest to `a` there.
                let b = side == .north ? nearest(lat: Double(lats[a] - tileHeight), lon: Double(lons[a]))
                                       : nearest(lat: Double(lats[a]), lon: Double(lons[a] - tileWidth))
                mine.append(a); theirs.append(b)
            }
            borderNodes[side] = mine
            borderNodes[partnerSide] = theirs
        }
    }
}
