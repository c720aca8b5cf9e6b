/// Decodes one PBF `PrimitiveBlock` (osmformat.proto) into handler calls: its string table,
/// coordinate granularity and offsets, and its groups of nodes, dense nodes, ways and relations.
/// Keeps its string table storage between blocks; everything else works on raw pointers.
struct PrimitiveBlockDecoder {
    /// The block's strings, decoded once per block and indexed by tags, roles and keys.
    private var strings: [String] = []
    private var groups: [ProtoCursor] = []

    /// The PBF default: coordinates in units of 100 nanodegrees.
    static let defaultGranularity: Int64 = 100
    /// Nanodegrees per degree.
    static let nanoPerDegree: Double = 1e9

    private struct Grid {
        var granularity: Int64
        var latOffset: Int64
        var lonOffset: Int64

        /// Degrees from a raw coordinate. Divides (not multiplies) by 1e9 so the result is the
        /// correctly rounded decimal, bit-identical to what the XML reader parses from text.
        @inline(__always) func lat(_ raw: Int64) -> Double { Double(latOffset &+ granularity &* raw) / PrimitiveBlockDecoder.nanoPerDegree }
        @inline(__always) func lon(_ raw: Int64) -> Double { Double(lonOffset &+ granularity &* raw) / PrimitiveBlockDecoder.nanoPerDegree }

        /// The node's position in degrees, or an error when it lies off the globe (|lat| > 90,
        /// |lon| > 180), as the XML reader refuses it: a corrupt varint must not reach the compiler,
        /// whose grids are sized by the coordinates' extent.
        @inline(__always) func position(id: Int64, _ rawLat: Int64, _ rawLon: Int64) throws(ProtoError) -> (Double, Double) {
            let la = lat(rawLat), lo = lon(rawLon)
            guard abs(la) <= 90, abs(lo) <= 180 else {
                throw ProtoError("node \(id) position \(la),\(lo) is out of range (|lat| ≤ 90, |lon| ≤ 180)")
            }
            return (la, lo)
        }
    }

    mutating func decode<H: OSMHandler>(_ block: ProtoCursor, into handler: inout H) throws(ProtoError) {
        var c = block
        var table = ProtoCursor(start: block.p, count: 0)
        groups.removeAll(keepingCapacity: true)
        var grid = Grid(granularity: Self.defaultGranularity, latOffset: 0, lonOffset: 0)
        while !c.atEnd {
            let (field, wire) = try c.key()
            switch (field, wire) {
            case (1, ProtoCursor.wireLength): table = try c.sub()
            case (2, ProtoCursor.wireLength): groups.append(try c.sub())
            case (17, ProtoCursor.wireVarint): grid.granularity = try c.int64()
            case (19, ProtoCursor.wireVarint): grid.latOffset = try c.int64()
            case (20, ProtoCursor.wireVarint): grid.lonOffset = try c.int64()
            default: try c.skip(wire: wire)
            }
        }
        guard grid.granularity > 0 else { throw ProtoError("granularity \(grid.granularity) is not positive") }

        strings.removeAll(keepingCapacity: true)
        while !table.atEnd {
            let (field, wire) = try table.key()
            if field == 1, wire == ProtoCursor.wireLength {
                strings.append(try table.string())
            } else {
                try table.skip(wire: wire)
            }
        }

        for group in groups {
            var g = group
            while !g.atEnd {
                let (field, wire) = try g.key()
                switch (field, wire) {
                case (1, ProtoCursor.wireLength): try decodeNode(try g.sub(), grid, &handler)
                case (2, ProtoCursor.wireLength): try decodeDense(try g.sub(), grid, &handler)
                case (3, ProtoCursor.wireLength): try decodeWay(try g.sub(), &handler)
                case (4, ProtoCursor.wireLength): try decodeRelation(try g.sub(), &handler)
                default: try g.skip(wire: wire)  // changesets and future element kinds
                }
            }
        }
    }

    @inline(__always)
    private func string(_ index: UInt64) throws(ProtoError) -> String {
        guard index < UInt64(strings.count) else {
            throw ProtoError("string index \(index) is outside the block's table of \(strings.count)")
        }
        return strings[Int(index)]
    }

    /// Tags from parallel packed `keys` and `vals` index lists.
    @inline(__always)
    private func tags(keys: ProtoCursor, vals: ProtoCursor) throws(ProtoError) -> OSMTags {
        if keys.atEnd { return OSMTags() }
        var k = keys, v = vals
        var pairs: [(key: String, value: String)] = []
        while !k.atEnd {
            guard !v.atEnd else { throw ProtoError("more tag keys than values") }
            pairs.append((try string(try k.varint()), try string(try v.varint())))
        }
        return OSMTags(pairs)
    }

    private func decodeDense<H: OSMHandler>(_ message: ProtoCursor, _ grid: Grid, _ handler: inout H) throws(ProtoError) {
        // denseinfo (5): metadata we do not use.
        let f = try ElementFields(message)
        var ids = f.payload(1), lats = f.payload(8), lons = f.payload(9), keysVals = f.payload(10)
        let tagged = !keysVals.atEnd
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        while !ids.atEnd {
            id &+= try ids.sint64()
            guard !lats.atEnd, !lons.atEnd else { throw ProtoError("dense nodes have fewer coordinates than ids") }
            lat &+= try lats.sint64()
            lon &+= try lons.sint64()
            let (la, lo) = try grid.position(id: id, lat, lon)
            if handler.skipsNode(id: id, lat: la, lon: lo) {
                // Dropped: step over its keys_vals run without making strings.
                if tagged {
                    while !keysVals.atEnd {
                        if try keysVals.varint() == 0 { break }
                        _ = try keysVals.varint()
                    }
                }
                continue
            }
            var tags = OSMTags()
            if tagged {
                // keys_vals: (key, value) string indices per node, each node's run ended by 0.
                var pairs: [(key: String, value: String)] = []
                while !keysVals.atEnd {
                    let k = try keysVals.varint()
                    if k == 0 { break }
                    pairs.append((try string(k), try string(try keysVals.varint())))
                }
                if !pairs.isEmpty { tags.pairs = pairs }
            }
            handler.node(id: id, lat: la, lon: lo, tags: tags)
        }
    }

    private func decodeNode<H: OSMHandler>(_ message: ProtoCursor, _ grid: Grid, _ handler: inout H) throws(ProtoError) {
        let f = try ElementFields(message)
        let id = f.sint64(1), lat = f.sint64(8), lon = f.sint64(9)
        let keys = f.payload(2), vals = f.payload(3)
        let (la, lo) = try grid.position(id: id, lat, lon)
        if handler.skipsNode(id: id, lat: la, lon: lo) { return }
        handler.node(id: id, lat: la, lon: lo, tags: try tags(keys: keys, vals: vals))
    }

    private func decodeWay<H: OSMHandler>(_ message: ProtoCursor, _ handler: inout H) throws(ProtoError) {
        // Not read: info (4), and lat/lon (9, 10) of LocationsOnWays files.
        let f = try ElementFields(message)
        let id = f.int64(1), keys = f.payload(2), vals = f.payload(3)
        var refsField = f.payload(8)
        // Each ref takes at least one byte, so the byte count bounds the ref count.
        var refs: [Int64] = []
        refs.reserveCapacity(refsField.remaining)
        var ref: Int64 = 0
        while !refsField.atEnd {
            ref &+= try refsField.sint64()
            refs.append(ref)
        }
        if handler.skipsWay(id: id, refs: refs) { return }
        handler.way(id: id, refs: refs, tags: try tags(keys: keys, vals: vals))
    }

    private func decodeRelation<H: OSMHandler>(_ message: ProtoCursor, _ handler: inout H) throws(ProtoError) {
        let f = try ElementFields(message)
        let id = f.int64(1), keys = f.payload(2), vals = f.payload(3)
        var roles = f.payload(8), memids = f.payload(9), types = f.payload(10)
        var members: [OSMMember] = []
        var ref: Int64 = 0
        while !memids.atEnd {
            ref &+= try memids.sint64()
            guard !roles.atEnd, !types.atEnd else { throw ProtoError("relation \(id) has fewer member roles or types than ids") }
            let role = try string(try roles.varint())
            let t = try types.varint()
            guard t <= 2, let kind = OSMMember.Kind(rawValue: UInt8(t)) else {
                throw ProtoError("relation \(id) has a member of unknown type \(t)")
            }
            members.append(OSMMember(kind: kind, ref: ref, role: role))
        }
        handler.relation(id: id, members: members, tags: try tags(keys: keys, vals: vals))
    }
}
