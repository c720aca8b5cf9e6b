#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `schema` field every JSON document SkateRoute writes starts from: `skateroute.<kind>/<version>`
/// (e.g. `skateroute.plan/1`), so a script can tell what it holds and which layout before reading on.
public enum DocumentSchema {
    /// Layout version shared by every document kind; bump a kind's number when its keys change incompatibly.
    public static let version = 1
    /// The key the name is stored under.
    public static let key = "schema"

    /// `skateroute.<kind>/1`.
    public static func name(_ kind: String) -> String { "skateroute.\(kind)/\(version)" }

    /// The object `fields` with its `schema` key set to `name(kind)`.
    public static func document(_ kind: String, _ fields: JSONObject) -> JSONText {
        var o = fields
        o[key] = .string(name(kind))
        return .object(o)
    }
}

/// What every plan output carries besides the route: the attribution of the map it was planned on
/// (its stored attribution: OpenStreetMap contributors, ODbL; SRTM) and when it was made.
public struct OutputStamp: Sendable, Equatable {
    /// The map's stored attribution text.
    public var attribution: String
    /// Creation time, seconds since 1970 (UTC); written as whole seconds.
    public var created: Double

    public init(attribution: String, created: Double) {
        self.attribution = attribution
        self.created = created
    }

    /// The creation time as ISO 8601 UTC, `YYYY-MM-DDThh:mm:ssZ`.
    public var createdISO: String { ISO8601Time.format(created) }

    /// The clock outputs are stamped with: `$SOURCE_DATE_EPOCH` when set to a whole number of seconds
    /// (the reproducible-builds convention, so tests and reproducible pipelines get fixed bytes),
    /// else the system clock. Plain POSIX calls: this runs on every `skateroute plan`.
    public static func currentTime() -> Double {
        if let env = getenv("SOURCE_DATE_EPOCH"), let v = Int64(String(cString: env)) { return Double(v) }
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec)
    }
}

/// An `Encodable` document with its `schema` field: encodes `value`'s keys and `schema` into the
/// same keyed container (for the `Codable` documents written through `JSONText.text(of:)`).
public struct SchemaTagged<Value: Encodable>: Encodable {
    public var kind: String
    public var value: Value

    public init(_ kind: String, _ value: Value) {
        self.kind = kind
        self.value = value
    }

    enum CodingKeys: String, CodingKey { case schema }

    public func encode(to encoder: Encoder) throws {
        try value.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(DocumentSchema.name(kind), forKey: .schema)
    }
}
