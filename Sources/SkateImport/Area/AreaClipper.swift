import SkateCore

/// Streams an extract into `inner`, keeping only the nodes inside `area` and the runs of each
/// way between them (a way that leaves and re-enters the area becomes several pieces under its
/// own id). Memory grows with the nodes kept, not with the file: one id per kept node. The PBF
/// reader asks `skipsNode`/`skipsWay` first, so the nodes and ways left out cost their
/// coordinates and refs but never their tags.
public struct AreaClipper<Inner: OSMHandler>: OSMHandler {
    public var inner: Inner
    public let area: ImportArea
    /// Ids of the nodes kept.
    var kept = KeptNodeIds()
    /// Nodes seen and kept, ways seen and passed on (as at least one piece).
    public private(set) var nodesSeen = 0, nodesKept = 0, waysSeen = 0, waysKept = 0
    /// Box of every node seen (what the extract spans, for the "selects nothing" message).
    public private(set) var extractBounds = BoundingBox.empty
    /// Fewest node references a way piece needs.
    static var minWayRefs: Int { 2 }

    public init(area: ImportArea, inner: Inner) { self.area = area; self.inner = inner }

    public mutating func header(bbox: BoundingBox?, timestamp: String?) { inner.header(bbox: bbox, timestamp: timestamp) }

    public mutating func skipsNode(id: Int64, lat: Double, lon: Double) -> Bool {
        guard !area.contains(lat: lat, lon: lon) else { return false }
        nodesSeen += 1
        extractBounds.extend(lat: lat, lon: lon)
        return true
    }

    public mutating func skipsWay(id: Int64, refs: [Int64]) -> Bool {
        guard !kept.containsAny(refs) else { return false }
        waysSeen += 1
        return true
    }

    public mutating func node(id: Int64, lat: Double, lon: Double, tags: OSMTags) {
        nodesSeen += 1
        extractBounds.extend(lat: lat, lon: lon)
        guard area.contains(lat: lat, lon: lon) else { return }
        kept.insert(id)
        nodesKept += 1
        inner.node(id: id, lat: lat, lon: lon, tags: tags)
    }

    public mutating func way(id: Int64, refs: [Int64], tags: OSMTags) {
        waysSeen += 1
        var run: [Int64] = []
        var passed = false
        func flush(_ inner: inout Inner) {
            if run.count >= Self.minWayRefs { inner.way(id: id, refs: run, tags: tags); passed = true }
            run.removeAll(keepingCapacity: true)
        }
        if refs.allSatisfy({ kept.contains($0) }) {
            inner.way(id: id, refs: refs, tags: tags)
            waysKept += 1
            return
        }
        for r in refs {
            if kept.contains(r) { run.append(r) } else { flush(&inner) }
        }
        flush(&inner)
        if passed { waysKept += 1 }
    }

    public mutating func relation(id: Int64, members: [OSMMember], tags: OSMTags) {
        inner.relation(id: id, members: members, tags: tags)
    }
}
