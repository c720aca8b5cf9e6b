/// A malformed protobuf message: a short description, wrapped with the file name by the reader.
struct ProtoError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// A forward cursor over protobuf wire-format bytes (https://protobuf.dev/programming-guides/encoding/):
/// varints, zigzag, length-delimited sub-messages. Works on raw pointers so the hot loops allocate
/// nothing; every read is bounds-checked and reports truncation as a `ProtoError`.
struct ProtoCursor {
    /// Wire types used by OSM PBF (groups, types 3 and 4, are never used).
    static let wireVarint = 0, wireFixed64 = 1, wireLength = 2, wireFixed32 = 5

    private(set) var p: UnsafePointer<UInt8>
    let end: UnsafePointer<UInt8>

    init(start: UnsafePointer<UInt8>, count: Int) {
        p = start
        end = start + count
    }

    var atEnd: Bool { p >= end }
    var remaining: Int { end - p }

    @inline(__always)
    mutating func varint() throws(ProtoError) -> UInt64 {
        guard p < end else { throw ProtoError("message ends inside a number") }
        let b = p.pointee
        if b < 0x80 { p += 1; return UInt64(b) }
        return try varintSlow()
    }

    @inline(never)
    private mutating func varintSlow() throws(ProtoError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while p < end {
            let b = p.pointee
            p += 1
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
            if shift >= 70 { throw ProtoError("number longer than 10 bytes") }
        }
        throw ProtoError("message ends inside a number")
    }

    /// A zigzag-encoded signed varint (`sint32`/`sint64`).
    @inline(__always)
    mutating func sint64() throws(ProtoError) -> Int64 { Self.zigzag(try varint()) }

    /// The signed value of a zigzag-encoded varint (0, -1, 1, -2 … from 0, 1, 2, 3 …).
    @inline(__always)
    static func zigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }

    /// A plain `int32`/`int64` varint (two's complement).
    @inline(__always)
    mutating func int64() throws(ProtoError) -> Int64 { Int64(bitPattern: try varint()) }

    /// The next field key: field number and wire type.
    @inline(__always)
    mutating func key() throws(ProtoError) -> (field: Int, wire: Int) {
        let k = try varint()
        return (Int(truncatingIfNeeded: k >> 3), Int(k & 7))
    }

    /// A length-delimited field's payload as a cursor of its own, advancing past it.
    @inline(__always)
    mutating func sub() throws(ProtoError) -> ProtoCursor {
        let n = try varint()
        guard n <= UInt64(remaining) else { throw ProtoError("field of \(n) bytes runs past the end of its message") }
        let c = ProtoCursor(start: p, count: Int(n))
        p += Int(n)
        return c
    }

    /// A length-delimited field's payload as raw bytes.
    mutating func bytes() throws(ProtoError) -> UnsafeBufferPointer<UInt8> {
        let c = try sub()
        return UnsafeBufferPointer(start: c.p, count: c.remaining)
    }

    /// A length-delimited field decoded as UTF-8 text (invalid bytes become U+FFFD).
    mutating func string() throws(ProtoError) -> String {
        String(decoding: try bytes(), as: UTF8.self)
    }

    /// Skips a field of the given wire type.
    mutating func skip(wire: Int) throws(ProtoError) {
        switch wire {
        case Self.wireVarint: _ = try varint()
        case Self.wireFixed64: try advance(8)
        case Self.wireLength: _ = try sub()
        case Self.wireFixed32: try advance(4)
        default: throw ProtoError("unknown wire type \(wire)")
        }
    }

    private mutating func advance(_ n: Int) throws(ProtoError) {
        guard n <= remaining else { throw ProtoError("message ends inside a fixed-size field") }
        p += n
    }
}

/// One pass over an OSM element message (`Node`, `Way`, `Relation`, `DenseNodes`): the payload of
/// each length-delimited field and the raw value of each varint field, by field number 1 to
/// `maxField`; a field given twice keeps its last value, as protobuf merges a repeated scalar.
/// Other wire types and higher numbers (none used by the elements) are skipped, checked as
/// `ProtoCursor.skip` checks them. The one reader of the elements' fields: each decoder names the
/// numbers it reads (osmformat.proto) and takes the payloads and values from here.
struct ElementFields {
    /// The highest field number an element message has that the import reads (`DenseNodes.keys_vals`, 10).
    static let maxField = 10

    private var payloads: InlineArray<11, ProtoCursor>
    private var varints: InlineArray<11, UInt64>

    @inline(__always)
    init(_ message: ProtoCursor) throws(ProtoError) {
        payloads = InlineArray(repeating: ProtoCursor(start: message.p, count: 0))
        varints = InlineArray(repeating: 0)
        var c = message
        while !c.atEnd {
            let (field, wire) = try c.key()
            if field >= 1, field <= Self.maxField, wire == ProtoCursor.wireLength {
                payloads[field] = try c.sub()
            } else if field >= 1, field <= Self.maxField, wire == ProtoCursor.wireVarint {
                varints[field] = try c.varint()
            } else {
                try c.skip(wire: wire)
            }
        }
    }

    /// The payload of a length-delimited field (packed numbers, a sub-message), empty when absent.
    @inline(__always) func payload(_ field: Int) -> ProtoCursor { payloads[field] }
    /// A zigzag `sint64` varint field, 0 when absent.
    @inline(__always) func sint64(_ field: Int) -> Int64 { ProtoCursor.zigzag(varints[field]) }
    /// A plain `int64` varint field, 0 when absent.
    @inline(__always) func int64(_ field: Int) -> Int64 { Int64(bitPattern: varints[field]) }
}
