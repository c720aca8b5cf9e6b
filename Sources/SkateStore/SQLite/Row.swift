import CSQLite

/// The column names of a result, shared by all its rows, with a name → index table built once.
final class ColumnNames: Sendable {
    /// The names as SQLite reports them (the `AS` alias, or the column's name).
    let names: [String]
    /// First index of each name.
    private let exact: [String: Int]
    /// First index of each name, lower-cased: SQLite's identifiers are case-insensitive.
    private let folded: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var exact: [String: Int] = [:], folded: [String: Int] = [:]
        for (i, n) in names.enumerated() {
            if exact[n] == nil { exact[n] = i }
            if folded[n.lowercased()] == nil { folded[n.lowercased()] = i }
        }
        self.exact = exact
        self.folded = folded
    }

    /// The index of `name`: an exact match first, else a case-insensitive one.
    func index(of name: String) -> Int? { exact[name] ?? folded[name.lowercased()] }
}

/// One result row, copied out of the statement (it stays valid after the statement moves on).
///
/// Typed reads throw `SQLiteError` (`SQLITE_MISMATCH`) on a value of the wrong kind, such as NULL
/// read as `Int`, and `SQLITE_RANGE` on an unknown column; read an optional type to accept NULL.
struct Row: Sendable, Equatable, CustomStringConvertible {
    /// The result's columns.
    let columns: ColumnNames
    /// The row's values, in column order.
    let values: [SQLValue]

    /// Number of columns.
    var count: Int { values.count }

    /// The stored value of column `name` (`SQLITE_RANGE` when there is no such column).
    func value(named name: String) throws -> SQLValue {
        guard let i = columns.index(of: name) else {
            throw SQLiteError.misuse("no column named '\(name)' in the result (\(columns.names.joined(separator: ", ")))", code: SQLITE_RANGE)
        }
        return values[i]
    }

    /// The stored value of the column at `index` (0-based).
    func value(at index: Int) throws -> SQLValue {
        guard values.indices.contains(index) else {
            throw SQLiteError.misuse("no column \(index) in a result of \(values.count)", code: SQLITE_RANGE)
        }
        return values[index]
    }

    /// Column `name` as `T`: `let id: Int64 = try row["id"]`.
    subscript<T: SQLValueConvertible>(_ name: String) -> T {
        get throws { try Self.convert(value(named: name), column: name) }
    }

    /// The column at `index` (0-based) as `T`: faster than by name over many rows.
    subscript<T: SQLValueConvertible>(_ index: Int) -> T {
        get throws { try Self.convert(value(at: index), column: "#\(index)") }
    }

    /// Typed getters for call sites without a type context.
    func int(_ name: String) throws -> Int { try self[name] }
    func int64(_ name: String) throws -> Int64 { try self[name] }
    func double(_ name: String) throws -> Double { try self[name] }
    func string(_ name: String) throws -> String { try self[name] }
    func bool(_ name: String) throws -> Bool { try self[name] }
    func bytes(_ name: String) throws -> [UInt8] { try self[name] }

    static func convert<T: SQLValueConvertible>(_ v: SQLValue, column: String) throws -> T {
        guard let out = T(sqlValue: v) else {
            throw SQLiteError.misuse("column \(column): cannot read \(v.typeName) \(v) as \(T.self)", code: SQLITE_MISMATCH)
        }
        return out
    }

    /// `[name:value …]`, values in SQL literal form.
    var description: String {
        "[" + zip(columns.names, values).map { "\($0):\($1)" }.joined(separator: " ") + "]"
    }

    static func == (a: Row, b: Row) -> Bool { a.columns.names == b.columns.names && a.values == b.values }
}
