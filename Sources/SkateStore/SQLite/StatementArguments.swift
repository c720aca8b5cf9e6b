/// The values bound to a statement's `?` parameters, in order: `[name, lat, lon, nil]`.
struct StatementArguments: ExpressibleByArrayLiteral, Sendable {
    /// The values, first parameter first.
    var values: [SQLValue]

    init(_ values: [SQLValue] = []) { self.values = values }

    /// `[a, b, c]` with any mix of `Int`, `Int64`, `Double`, `String`, `Bool`, bytes and nil.
    init(arrayLiteral elements: (any SQLValueConvertible)?...) {
        values = elements.map { $0?.sqlValue ?? .null }
    }
}
