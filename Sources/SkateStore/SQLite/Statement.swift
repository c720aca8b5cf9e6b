import CSQLite

/// One prepared SQL statement on a connection (`sqlite3_stmt`), finalized when released.
///
/// Not thread-safe: use it only inside the closure that handed out its connection.
final class Statement {
    /// The connection it was prepared on (kept alive as long as the statement).
    let connection: SQLiteConnection
    /// The SQL text, for error messages.
    let sql: String
    let handle: OpaquePointer
    /// The result's column names (empty for a statement that returns no rows).
    let columns: ColumnNames

    /// Prepares exactly one statement. - Throws: `SQLiteError` on a syntax error, an unknown
    /// table or column, or more than one statement in `sql`.
    convenience init(connection: SQLiteConnection, sql: String) throws {
        var rest = ""
        var prepared: OpaquePointer?
        let code = try sql.withCString { start -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(try connection.openHandle(), start, -1, &prepared, &tail)
            if let tail { rest = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK else { throw SQLiteError.from(code: code, connection: connection.handle, sql: sql) }
        guard let prepared else { throw SQLiteError.misuse("no SQL statement in the text", code: SQLITE_ERROR, sql: sql) }
        guard Self.isBlank(rest) else {
            sqlite3_finalize(prepared)
            throw SQLiteError.misuse("more than one statement: run it with execute(sql:)", code: SQLITE_ERROR, sql: sql)
        }
        self.init(connection: connection, sql: sql, handle: prepared)
    }

    /// Wraps a statement already prepared by `sqlite3_prepare_v2`.
    init(connection: SQLiteConnection, sql: String, handle: OpaquePointer) {
        self.connection = connection
        self.sql = sql
        self.handle = handle
        let n = sqlite3_column_count(handle)
        columns = ColumnNames((0..<n).map { String(cString: sqlite3_column_name(handle, $0)) })
    }

    deinit { sqlite3_finalize(handle) }

    /// Number of `?` parameters.
    var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Resets the statement and binds `arguments` to its parameters.
    /// - Throws: `SQLiteError` when the count does not match the statement's parameters.
    func bind(_ arguments: StatementArguments) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard arguments.values.count == parameterCount else {
            throw SQLiteError.misuse("\(arguments.values.count) arguments for \(parameterCount) parameters", code: SQLITE_RANGE, sql: sql)
        }
        for (i, v) in arguments.values.enumerated() {
            let index = Int32(i + 1)
            let code: Int32
            switch v {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let x): code = sqlite3_bind_int64(handle, index, x)
            case .real(let x): code = sqlite3_bind_double(handle, index, x)
            case .text(let s) where s.isEmpty:
                // A non-nil pointer: a NULL one would bind NULL, not ''.
                code = csqlite_bind_text_transient(handle, index, "", 0)
            case .text(let s):
                var s = s
                code = s.withUTF8 { buf in
                    buf.withMemoryRebound(to: CChar.self) { csqlite_bind_text_transient(handle, index, $0.baseAddress, Int32($0.count)) }
                }
            case .blob(let bytes):
                // A zero-length blob needs a non-nil pointer too (NULL would bind NULL).
                code = bytes.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0)
                    : bytes.withUnsafeBytes { csqlite_bind_blob_transient(handle, index, $0.baseAddress, Int32($0.count)) }
            }
            guard code == SQLITE_OK else { throw SQLiteError.from(code: code, connection: connection.handle, sql: sql) }
        }
    }

    /// Advances to the next row: true when there is one, false when the statement is done.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            // With sqlite3_prepare_v2 the step's code is the error; the reset frees the statement's
            // locks so the transaction can roll back.
            let error = SQLiteError.from(code: code, connection: connection.handle, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to its end with `arguments`, ignoring any rows.
    func execute(_ arguments: StatementArguments = []) throws {
        try bind(arguments)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Every row the statement returns with `arguments`.
    func fetchAll(_ arguments: StatementArguments = []) throws -> [Row] {
        try bind(arguments)
        var rows: [Row] = []
        while try step() { rows.append(currentRow()) }
        sqlite3_reset(handle)
        return rows
    }

    /// The first row the statement returns with `arguments`, or nil.
    func fetchOne(_ arguments: StatementArguments = []) throws -> Row? {
        try bind(arguments)
        let row = try step() ? currentRow() : nil
        sqlite3_reset(handle)
        return row
    }

    /// The row the statement stands on (after `step()` returned true), copied.
    func currentRow() -> Row {
        Row(columns: columns, values: (0..<Int32(columns.names.count)).map(value(at:)))
    }

    /// Column `index` of the current row, by its storage class.
    func value(at index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let n = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: n), as: UTF8.self))
        case SQLITE_BLOB:
            let n = Int(sqlite3_column_bytes(handle, index))
            guard n > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: n)))
        default: return .null
        }
    }

    /// True when `text` holds nothing SQLite would run: white space, semicolons, comments.
    static func isBlank(_ text: String) -> Bool {
        var s = Substring(text)
        while let c = s.first {
            if c.isWhitespace || c == ";" {
                s = s.dropFirst()
            } else if s.hasPrefix("--") {
                s = s.drop(while: { !$0.isNewline })
            } else if s.hasPrefix("/*") {
                guard let end = s.dropFirst(2).firstRange(of: "*/") else { return true }  // unterminated: a comment to the end
                s = s[end.upperBound...]
            } else {
                return false
            }
        }
        return true
    }
}
