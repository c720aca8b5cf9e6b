import CSQLite

/// An error SQLite reported (or the wrapper raised in SQLite's terms): the result code and the
/// connection's message, plus the SQL that failed when there was one.
struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_NOTNULL`, `SQLITE_BUSY_SNAPSHOT`…); extended
    /// codes are switched on for every connection.
    var extendedResultCode: Int32
    /// `sqlite3_errmsg` at the time of the failure, e.g. "no such table: hazard".
    var message: String
    /// The statement that failed, when one did.
    var sql: String?

    init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`…): the low byte of the extended one.
    var resultCode: Int32 { extendedResultCode & 0xFF }

    /// One line: the code, the message and the statement.
    var description: String {
        var s = "SQLite error \(extendedResultCode): \(message)"
        if let sql { s += " (while running `\(sql.split(whereSeparator: \.isNewline).joined(separator: " "))`)" }
        return s
    }

    /// The error `code` means on `connection` (its current message), or SQLite's generic text for
    /// the code when there is no connection handle.
    static func from(code: Int32, connection handle: OpaquePointer?, sql: String? = nil) -> SQLiteError {
        let message: String
        if let handle, let text = sqlite3_errmsg(handle) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(code) {
            message = String(cString: text)
        } else {
            message = "unknown error"
        }
        return SQLiteError(extendedResultCode: code, message: message, sql: sql)
    }

    /// A wrapper-side misuse (a value of the wrong type, a missing column…) in SQLite's terms.
    static func misuse(_ message: String, code: Int32 = SQLITE_MISUSE, sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedResultCode: code, message: message, sql: sql)
    }
}
