import CCompression
import SkateCore

/// Protobuf wire-format encoding into a growing byte array (the writing twin of `ProtoCursor`):
/// varints, zigzag, length-delimited sub-messages.
struct ProtoEncoder {
    var bytes: [UInt8] = []

    @inline(__always) mutating func varint(_ v: UInt64) {
        var x = v
        while x >= 0x80 { bytes.append(UInt8(truncatingIfNeeded: x) | 0x80); x >>= 7 }
        bytes.append(UInt8(x))
    }
    @inline(__always) static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v &<< 1) ^ (v >> 63)) }
    @inline(__always) mutating func key(_ field: Int, _ wire: Int) { varint(UInt64(field << 3 | wire)) }
    mutating func uint(_ field: Int, _ v: UInt64) { key(field, ProtoCursor.wireVarint); varint(v) }
    mutating func int(_ field: Int, _ v: Int64) { uint(field, UInt64(bitPattern: v)) }
    mutating func sint(_ field: Int, _ v: Int64) { key(field, ProtoCursor.wireVarint); varint(Self.zigzag(v)) }
    mutating func bytes(_ field: Int, _ b: [UInt8]) {
        key(field, ProtoCursor.wireLength); varint(UInt64(b.count)); bytes.append(contentsOf: b)
    }
    mutating func string(_ field: Int, _ s: String) { bytes(field, Array(s.utf8)) }
    /// A packed repeated field of plain varints.
    mutating func packed(_ field: Int, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        var w = ProtoEncoder()
        w.bytes.reserveCapacity(values.count * 2)
        for v in values { w.varint(v) }
        bytes(field, w.bytes)
    }
    /// A packed repeated field of zigzag deltas (`sint64` delta coding, as PBF ids, refs and coordinates).
    mutating func packedDelta(_ field: Int, _ values: [Int64]) {
        guard !values.isEmpty else { return }
        var w = ProtoEncoder()
        w.bytes.reserveCapacity(values.count * 3)
        var last: Int64 = 0
        for v in values { w.varint(Self.zigzag(v &- last)); last = v }
        bytes(field, w.bytes)
    }
}

/// Writes an OSM PBF file (https://wiki.openstreetmap.org/wiki/PBF_Format) that `PBFReader` and
/// other PBF readers accept: one `OSMHeader` block, then `OSMData` blocks of DenseNodes, ways and
/// relations, each zlib-compressed. The caller hands over elements in file order (nodes, ways,
/// relations, ids ascending within each kind); the writer cuts blocks of `entitiesPerBlock`.
/// Memory stays bounded by one block.
public final class PBFWriter {
    /// Elements per data block: osmium's default, well under the spec's 32 MiB blob limit.
    public static let entitiesPerBlock = 8000
    /// zlib level 1: the region files are scratch inputs, so write speed beats the last 10 % of size.
    static let zlibLevel: Int32 = 1
    /// Coordinates are written in the PBF default granularity: 100 nanodegrees (1e-7 degree).
    public static let unitsPerDegree = 1e7

    private let file: RawFile
    private let path: String
    private enum Kind { case none, nodes, ways, relations }
    private var kind = Kind.none
    private var count = 0
    /// The open block's string table; index 0 is the empty string, the keys_vals delimiter.
    private var strings: [String: Int] = ["": 0]
    private var table: [String] = [""]
    // Dense nodes of the open block.
    private var nodeIds: [Int64] = [], nodeLats: [Int64] = [], nodeLons: [Int64] = [], keysVals: [UInt64] = []
    private var anyNodeTags = false
    // Ways or relations of the open block, each an encoded message.
    private var group = ProtoEncoder()
    /// Bytes written so far.
    public private(set) var bytesWritten = 0

    /// Creates `path` and writes its header block.
    /// - Parameter bbox: the data's extent in degrees, written to the header.
    /// - Throws: `ImportError` when the file cannot be created or written.
    public init(path: String, bbox: BoundingBox, program: String = "skateroute") throws {
        guard let f = RawFile(writingTo: path) else { throw ImportError(path: path, problem: "cannot create the file (is its folder writable?)") }
        file = f
        self.path = path
        var h = ProtoEncoder()
        var b = ProtoEncoder()
        let nano = PrimitiveBlockDecoder.nanoPerDegree
        b.sint(1, Int64((bbox.minLon * nano).rounded())); b.sint(2, Int64((bbox.maxLon * nano).rounded()))
        b.sint(3, Int64((bbox.maxLat * nano).rounded())); b.sint(4, Int64((bbox.minLat * nano).rounded()))
        h.bytes(1, b.bytes)
        h.string(4, "OsmSchema-V0.6")
        h.string(4, "DenseNodes")
        h.string(5, "Sort.Type_then_ID")
        h.string(16, program)
        try writeBlock(type: "OSMHeader", payload: h.bytes)
    }

    /// Adds a node; `lat`/`lon` in units of 1e-7 degree (`unitsPerDegree`).
    public func node(id: Int64, lat: Int64, lon: Int64, tags: [(key: String, value: String)]) throws {
        try begin(.nodes)
        nodeIds.append(id); nodeLats.append(lat); nodeLons.append(lon)
        for t in tags { keysVals.append(UInt64(index(t.key))); keysVals.append(UInt64(index(t.value))) }
        keysVals.append(0)
        if !tags.isEmpty { anyNodeTags = true }
        count += 1
    }

    /// Adds a way with its node references in order.
    public func way(id: Int64, refs: [Int64], tags: [(key: String, value: String)]) throws {
        try begin(.ways)
        var w = ProtoEncoder()
        w.int(1, id)
        w.packed(2, tags.map { UInt64(index($0.key)) })
        w.packed(3, tags.map { UInt64(index($0.value)) })
        w.packedDelta(8, refs)
        group.bytes(3, w.bytes)
        count += 1
    }

    /// Adds a relation.
    public func relation(id: Int64, members: [OSMMember], tags: [(key: String, value: String)]) throws {
        try begin(.relations)
        var r = ProtoEncoder()
        r.int(1, id)
        r.packed(2, tags.map { UInt64(index($0.key)) })
        r.packed(3, tags.map { UInt64(index($0.value)) })
        r.packed(8, members.map { UInt64(index($0.role)) })
        r.packedDelta(9, members.map(\.ref))
        r.packed(10, members.map { UInt64($0.kind.rawValue) })
        group.bytes(4, r.bytes)
        count += 1
    }

    /// Writes the open block and closes the file.
    /// - Throws: `ImportError` when a write fails.
    public func finish() throws {
        try flush()
        file.close()
    }

    private func index(_ s: String) -> Int {
        if let i = strings[s] { return i }
        let i = table.count
        table.append(s)
        strings[s] = i
        return i
    }

    private func begin(_ k: Kind) throws {
        if kind != k || count >= Self.entitiesPerBlock { try flush() }
        kind = k
    }

    private func flush() throws {
        defer {
            kind = .none; count = 0; strings = ["": 0]; table = [""]
            nodeIds.removeAll(keepingCapacity: true); nodeLats.removeAll(keepingCapacity: true)
            nodeLons.removeAll(keepingCapacity: true); keysVals.removeAll(keepingCapacity: true)
            anyNodeTags = false; group = ProtoEncoder()
        }
        guard count > 0 else { return }
        var g = ProtoEncoder()
        if kind == .nodes {
            var d = ProtoEncoder()
            d.packedDelta(1, nodeIds)
            d.packedDelta(8, nodeLats)
            d.packedDelta(9, nodeLons)
            if anyNodeTags { d.packed(10, keysVals) }
            g.bytes(2, d.bytes)
        } else {
            g = group
        }
        var block = ProtoEncoder()
        var st = ProtoEncoder()
        for s in table { st.string(1, s) }
        block.bytes(1, st.bytes)
        block.bytes(2, g.bytes)
        try writeBlock(type: "OSMData", payload: block.bytes)
    }

    /// One file block: 4-byte big-endian length, `BlobHeader`, `Blob` with the zlib-compressed payload.
    private func writeBlock(type: String, payload: [UInt8]) throws {
        var bound = compressBound(uLong(payload.count))
        var packed = [UInt8](repeating: 0, count: Int(bound))
        let rc = packed.withUnsafeMutableBufferPointer { dst in
            payload.withUnsafeBufferPointer { src in
                compress2(dst.baseAddress, &bound, src.baseAddress, uLong(src.count), Self.zlibLevel)
            }
        }
        guard rc == Z_OK else { throw ImportError(path: path, problem: "zlib could not compress a block (code \(rc))") }
        packed.removeSubrange(Int(bound)...)
        var blob = ProtoEncoder()
        blob.uint(2, UInt64(payload.count))
        blob.bytes(3, packed)
        var header = ProtoEncoder()
        header.string(1, type)
        header.uint(3, UInt64(blob.bytes.count))
        let n = header.bytes.count
        let out = [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + header.bytes + blob.bytes
        guard file.write(out) else { throw ImportError(path: path, problem: "write failed (disk full?)") }
        bytesWritten += out.count
    }
}
