/// `Encodable` values written through `JSONText`: the one JSON writer (issue 33), so documents
/// kept as `Codable` types (ride manifests, summaries, logs, roughness reports, map info) print
/// numbers and strings exactly as the plan formats do — keys sorted by UTF-8 bytes, integral
/// numbers without a fraction, others in Swift's shortest round-trip form, `/` unescaped, C0, DEL
/// and C1 controls escaped.
///
/// Why not `JSONEncoder` for these: it is a second writer with its own style (`\/` unless told
/// otherwise, `\b`/`\f`, raw C1 controls, an error on a non-finite number where `JSONText` writes
/// `null`); for every other value, with `[.sortedKeys, .withoutEscapingSlashes]`, it writes the
/// same bytes (`JSONTextEncodingTests` compares the two on the shipped map and rides).
extension JSONText {
    /// The JSON value of `value`, as `JSONEncoder` would build it (keyed containers → objects,
    /// unkeyed → arrays, `nil` → `null`; an optional encoded with `encodeIfPresent` is left out).
    public static func encoding<T: Encodable>(_ value: T) throws -> JSONText {
        let node = JSONTextNode()
        try value.encode(to: JSONTextEncoder(node: node, codingPath: []))
        return node.resolved()
    }

    /// `value` as JSON text: compact, or pretty with two-space indents.
    public static func text<T: Encodable>(of value: T, pretty: Bool = false) throws -> String {
        try encoding(value).text(pretty: pretty)
    }

    /// A number from a `Float`: its own shortest form (`0.1`, not `0.10000000149011612`).
    static func number(_ f: Float) -> JSONText {
        .number(Double(f.description) ?? Double(f))
    }

    static func integer<I: BinaryInteger>(_ i: I) -> JSONText {
        if let v = Int64(exactly: i) { return .int(v) }
        return .unsigned(UInt64(i))
    }
}

/// One value under construction; containers fill it in place, `resolved()` reads it out.
final class JSONTextNode {
    enum Content {
        case empty
        case value(JSONText)
        case object([(key: String, node: JSONTextNode)])
        case array([JSONTextNode])
    }

    var content: Content = .empty

    func resolved() -> JSONText {
        switch content {
        case .empty: return .object(JSONObject())
        case .value(let v): return v
        case .object(let members): return .object(JSONObject(pairs: members.map { ($0.key, $0.node.resolved()) }))
        case .array(let items): return .array(items.map { $0.resolved() })
        }
    }

    /// The member `key` (a repeated key is written again and keeps the last value, as in `JSONEncoder`).
    func member(_ key: String) -> JSONTextNode {
        let child = JSONTextNode()
        if case .object(var members) = content {
            content = .empty
            members.append((key, child))
            content = .object(members)
        } else {
            content = .object([(key, child)])
        }
        return child
    }

    func appended() -> JSONTextNode {
        let child = JSONTextNode()
        if case .array(var items) = content {
            content = .empty
            items.append(child)
            content = .array(items)
        } else {
            content = .array([child])
        }
        return child
    }

    func set(_ value: JSONText) { content = .value(value) }
}

struct JSONTextEncoder: Encoder {
    let node: JSONTextNode
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // A second keyed container on the same encoder adds to the same object (`SchemaTagged`).
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(JSONTextKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return JSONTextUnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONTextSingleValueContainer(node: node, codingPath: codingPath)
    }
}

/// Encodes `value` into `node`: the plain types directly, anything else through its `encode(to:)`.
private func encodeValue<T: Encodable>(_ value: T, into node: JSONTextNode, codingPath: [any CodingKey]) throws {
    switch value {
    case let v as String: node.set(.string(v))
    case let v as Double: node.set(.number(v))
    case let v as Float: node.set(JSONText.number(v))
    case let v as Bool: node.set(.bool(v))
    case let v as Int: node.set(.int(Int64(v)))
    case let v as Int64: node.set(.int(v))
    case let v as Int32: node.set(.int(Int64(v)))
    case let v as UInt64: node.set(JSONText.integer(v))
    case let v as UInt: node.set(JSONText.integer(v))
    case let v as UInt32: node.set(.int(Int64(v)))
    default: try value.encode(to: JSONTextEncoder(node: node, codingPath: codingPath))
    }
}

struct JSONTextKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONTextNode
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).set(.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.member(key.stringValue).set(.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.member(key.stringValue).set(.string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { node.member(key.stringValue).set(.number(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.number(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { node.member(key.stringValue).set(JSONText.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: node.member(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        JSONTextEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONTextEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONTextEncoder(node: node.member("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONTextEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

struct JSONTextUnkeyedContainer: UnkeyedEncodingContainer {
    let node: JSONTextNode
    var codingPath: [any CodingKey]
    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    mutating func encodeNil() throws { node.appended().set(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: node.appended(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        JSONTextEncoder(node: node.appended(), codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        JSONTextEncoder(node: node.appended(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONTextEncoder(node: node.appended(), codingPath: codingPath)
    }
}

struct JSONTextSingleValueContainer: SingleValueEncodingContainer {
    let node: JSONTextNode
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode(_ value: Bool) throws { node.set(.bool(value)) }
    mutating func encode(_ value: String) throws { node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { node.set(.number(value)) }
    mutating func encode(_ value: Float) throws { node.set(JSONText.number(value)) }
    mutating func encode(_ value: Int) throws { node.set(JSONText.integer(value)) }
    mutating func encode(_ value: Int8) throws { node.set(JSONText.integer(value)) }
    mutating func encode(_ value: Int16) throws { node.set(JSONText.integer(value)) }
    mutating func encode(_ value: Int32) throws { node.set(JSONText.integer(value)) }
    mutating func encode(_ value: Int64) throws { node.set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt) throws { node.set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt8) throws { node.set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt16) throws { node.set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt32) throws { node.set(JSONText.integer(value)) }
    mutating func encode(_ value: UInt64) throws { node.set(JSONText.integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: node, codingPath: codingPath)
    }
}
