/// One SQLite value, as stored: SQLite's five storage classes.
enum SQLValue: Equatable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The storage class's name as SQLite's `typeof()` spells it (for error messages).
    var typeName: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    /// SQL literal form (as SQLite's `quote()` writes it, except REAL keeps Swift's shortest
    /// round-trip digits): NULL, 42, 1.5, 'it''s', X'00FF'.
    var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .real(let v): return String(v)
        case .text(let s): return "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .blob(let bytes):
            let digits = Array("0123456789ABCDEF".utf8)
            var hex: [UInt8] = []
            hex.reserveCapacity(bytes.count * 2)
            for b in bytes { hex.append(digits[Int(b >> 4)]); hex.append(digits[Int(b & 0xF)]) }
            return "X'" + String(decoding: hex, as: UTF8.self) + "'"
        }
    }
}

/// A Swift value that binds to a statement parameter and reads back from a column.
///
/// Reading follows SQLite's storage classes strictly, as GRDB did: an integer column reads as
/// `Double` too, a real one as an integer (truncated toward zero) when in range, text as `String`
/// only (and a blob holding valid UTF-8); anything else is a type mismatch, not a silent 0 or "".
protocol SQLValueConvertible {
    /// The value to bind.
    var sqlValue: SQLValue { get }
    /// The Swift value of a stored value, or nil when it is of another kind.
    init?(sqlValue: SQLValue)
}

extension SQLValue: SQLValueConvertible {
    var sqlValue: SQLValue { self }
    init?(sqlValue: SQLValue) { self = sqlValue }
}

extension Int64: SQLValueConvertible {
    var sqlValue: SQLValue { .integer(self) }
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let v): self = v
        // Double(Int64.max) rounds up to 2^63, which is out of range: hence `<`, not `<=`.
        case .real(let d) where d >= Double(Int64.min) && d < Double(Int64.max): self = Int64(d)
        default: return nil
        }
    }
}

extension Int: SQLValueConvertible {
    var sqlValue: SQLValue { .integer(Int64(self)) }
    init?(sqlValue: SQLValue) {
        guard let v = Int64(sqlValue: sqlValue), let i = Int(exactly: v) else { return nil }
        self = i
    }
}

extension Int32: SQLValueConvertible {
    var sqlValue: SQLValue { .integer(Int64(self)) }
    init?(sqlValue: SQLValue) {
        guard let v = Int64(sqlValue: sqlValue), let i = Int32(exactly: v) else { return nil }
        self = i
    }
}

extension Double: SQLValueConvertible {
    /// NaN binds as NULL: SQLite stores no NaN (it would turn it into NULL itself).
    var sqlValue: SQLValue { isNaN ? .null : .real(self) }
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let v): self = Double(v)
        case .real(let d): self = d
        default: return nil
        }
    }
}

extension Bool: SQLValueConvertible {
    /// Stored as 1 / 0, SQLite's own convention.
    var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let v): self = v != 0
        case .real(let d): self = d != 0
        default: return nil
        }
    }
}

extension String: SQLValueConvertible {
    var sqlValue: SQLValue { .text(self) }
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .text(let s): self = s
        case .blob(let bytes):
            guard let s = String(validating: bytes, as: UTF8.self) else { return nil }
            self = s
        default: return nil
        }
    }
}

/// Bytes: a BLOB.
extension Array: SQLValueConvertible where Element == UInt8 {
    var sqlValue: SQLValue { .blob(self) }
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .blob(let bytes): self = bytes
        case .text(let s): self = Array(s.utf8)
        default: return nil
        }
    }
}

/// nil binds as NULL and NULL reads as nil; any other value reads as the wrapped type does.
extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
    init?(sqlValue: SQLValue) {
        if case .null = sqlValue { self = .none; return }
        guard let v = Wrapped(sqlValue: sqlValue) else { return nil }
        self = .some(v)
    }
}
