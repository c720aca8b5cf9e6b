/// The members of a `JSONText` object: keys with their values, written in sorted key order.
///
/// Why not `[String: JSONText]`: the first `Dictionary` of a new key type a process builds makes
/// the Swift runtime scan every protocol conformance in the binary (its `Hashable` check), which
/// every `plan --format json` paid (gdb on `swift_conformsToProtocol…`; see `IntKeyedTable`).
/// Objects here hold a few dozen members at most, so a list searched in order is enough. Written
/// like a dictionary (`["a": .int(1)]`, `o["b"] = …`); a literal repeating a key keeps the last.
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The members in insertion order (the writer sorts them).
    public private(set) var members: [(key: String, value: JSONText)] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, JSONText)...) {
        for (k, v) in elements { self[k] = v }
    }

    /// An object of these members (a repeated key keeps the last value).
    public init(pairs: [(String, JSONText)]) {
        for (k, v) in pairs { self[k] = v }
    }

    /// The member `key`; setting nil removes it.
    public subscript(key: String) -> JSONText? {
        get {
            for m in members where m.key == key { return m.value }
            return nil
        }
        set {
            if let i = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[i].value = newValue } else { members.remove(at: i) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    public var isEmpty: Bool { members.isEmpty }
    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    /// Adds `other`'s members; for a key both have, `combine(mine, theirs)` decides.
    public mutating func merge(_ other: JSONObject, uniquingKeysWith combine: (JSONText, JSONText) -> JSONText) {
        for m in other.members {
            if let mine = self[m.key] { self[m.key] = combine(mine, m.value) } else { members.append(m) }
        }
    }

    /// The members sorted by key, byte by byte in UTF-8.
    func sortedMembers() -> [(key: String, value: JSONText)] {
        members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// Equal when they hold the same keys with equal values, in any order.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.count == b.count else { return false }
        for m in a.members {
            guard let v = b[m.key], v == m.value else { return false }
        }
        return true
    }
}
