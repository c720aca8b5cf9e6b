import FoundationEssentials
import Glibc

/// A parsed JSON value, read with FoundationEssentials' `JSONDecoder` in place of
/// `JSONSerialization` + `NSNumber` (CoreFoundation-backed; see `PrintfArgument`). Numbers keep
/// their integer reading when they have one, so 64-bit ids survive exactly.
public enum JSONNode: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    /// Parses one JSON document; nil when it is not valid JSON.
    public static func parse<Bytes: Sequence>(_ bytes: Bytes) -> JSONNode? where Bytes.Element == UInt8 {
        try? JSONDecoder().decode(JSONNode.self, from: Data(bytes))
    }

    /// Parses one JSON document held in a string.
    public static func parse(_ text: String) -> JSONNode? { parse(text.utf8) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let i = try? c.decode(Int64.self) { self = .integer(i); return }
        if let d = try? c.decode(Double.self) { self = .number(d); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([JSONNode].self) { self = .array(a); return }
        self = .object(try c.decode([String: JSONNode].self))
    }

    /// The object's member `key` (nil for other kinds or a missing key).
    public subscript(key: String) -> JSONNode? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The members when this is an object.
    public var object: [String: JSONNode]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements when this is an array.
    public var array: [JSONNode]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// A number as a double (integers converted).
    public var double: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }

    /// A number as a 64-bit integer: integers, and doubles that hold a whole value in range (as
    /// `NSNumber as? Int64` read JSON numbers).
    public var int64: Int64? {
        switch self {
        case .integer(let i): return i
        case .number(let d): return Int64(exactly: d)
        default: return nil
        }
    }

    /// A number as an `Int`.
    public var int: Int? { int64.flatMap { Int(exactly: $0) } }

    /// An array whose elements are all numbers, as doubles.
    public var doubles: [Double]? {
        guard let a = array else { return nil }
        var out: [Double] = []
        out.reserveCapacity(a.count)
        for x in a {
            guard let d = x.double else { return nil }
            out.append(d)
        }
        return out
    }

    /// An array of arrays of numbers (`[[lon, lat], …]`), nil when any element is something else.
    public var doubleRows: [[Double]]? {
        guard let a = array else { return nil }
        var out: [[Double]] = []
        out.reserveCapacity(a.count)
        for row in a {
            guard let r = row.doubles else { return nil }
            out.append(r)
        }
        return out
    }

    /// The text when this is a string.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The value when this is a boolean.
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
}
