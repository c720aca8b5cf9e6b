import CSQLite

/// One SQLite database connection (`sqlite3 *`), closed when released or by `close()`.
///
/// Not thread-safe by itself (it is opened `SQLITE_OPEN_NOMUTEX`): share it between threads
/// only through a `SerializedConnection`, which lets one thread at a time use it.
final class SQLiteConnection {
    /// Read and write, creating the file if needed; no SQLite-side mutex (`SerializedConnection`
    /// serialises every use).
    static let readWriteCreate = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    /// Read and write an existing file only.
    static let readWrite = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
    /// Read an existing file only, named by a `file:` URI (for `mode=ro`, `immutable=1`).
    static let readOnlyURI = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX

    /// The database file.
    let path: String
    /// nil once closed.
    private(set) var handle: OpaquePointer?

    /// Opens `path` with `flags` (`sqlite3_open_v2`), with extended result codes, double-quoted
    /// string literals refused and `busyTimeout` (seconds, see `setBusyTimeout`), then checks the
    /// file is a database. The timeout is set first: that check reads the file, which waits while
    /// another process's last connection checkpoints the WAL as it closes (an exclusive lock).
    /// - Throws: `SQLiteError` (`SQLITE_CANTOPEN`, `SQLITE_NOTADB`, `SQLITE_BUSY`…).
    init(path: String, flags: Int32 = SQLiteConnection.readWriteCreate, busyTimeout: Double = 0) throws {
        self.path = path
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError.from(code: code, connection: db)
            sqlite3_close_v2(db)  // a failed open still allocates a handle (harmless on NULL)
            throw error
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        let dqs = csqlite_disable_double_quoted_strings(db)
        guard dqs == SQLITE_OK else { throw SQLiteError.from(code: dqs, connection: db) }
        try setBusyTimeout(seconds: busyTimeout)
        // SQLite opens files lazily: read the schema now so "not a database" fails here.
        _ = try fetchOne(sql: "SELECT * FROM sqlite_master LIMIT 1")
    }

    deinit {
        // close_v2 waits for any statement still alive (a "zombie" handle) instead of failing.
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Closes the connection now. - Throws: `SQLiteError` (`SQLITE_BUSY`) while a statement of
    /// it is still alive; the connection then stays open.
    func close() throws {
        guard let h = handle else { return }
        let code = sqlite3_close(h)
        guard code == SQLITE_OK else { throw SQLiteError.from(code: code, connection: h) }
        handle = nil
    }

    /// The handle, or `SQLITE_MISUSE` after `close()`.
    func openHandle() throws -> OpaquePointer {
        guard let handle else { throw SQLiteError.misuse("the connection to \(path) is closed") }
        return handle
    }

    // MARK: Settings

    /// How long a statement waits for another connection's lock before failing with
    /// `SQLITE_BUSY` (`sqlite3_busy_timeout`); 0 fails at once.
    func setBusyTimeout(seconds: Double) throws {
        let ms = Int32(clamping: Int64((seconds * 1000).rounded()))
        let code = sqlite3_busy_timeout(try openHandle(), ms)
        guard code == SQLITE_OK else { throw SQLiteError.from(code: code, connection: handle) }
    }

    /// Sets `PRAGMA name = value` and returns what the pragma answers (some, like `journal_mode`,
    /// answer the mode they ended up in), or nil. `name` and `value` are SQL text, never user input.
    @discardableResult
    func setPragma(_ name: String, _ value: String) throws -> SQLValue? {
        try fetchOne(sql: "PRAGMA \(name) = \(value)")?.value(at: 0)
    }

    /// `PRAGMA name`'s answer (first column of the first row), or nil.
    func pragma(_ name: String) throws -> SQLValue? {
        try fetchOne(sql: "PRAGMA \(name)")?.value(at: 0)
    }

    // MARK: Running SQL

    /// Prepares one statement. - Throws: `SQLiteError` (syntax, unknown table or column…).
    func makeStatement(sql: String) throws -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// Runs `sql`, which may hold several statements separated by semicolons (a migration);
    /// `arguments` are bound to the parameters in order across them.
    /// - Throws: `SQLiteError` at the first failing statement (those before it have run), or
    ///   when the arguments do not match the parameters.
    func execute(sql: String, arguments: StatementArguments = []) throws {
        let h = try openHandle()
        var remaining = arguments.values[...]
        let utf8 = Array(sql.utf8CString)
        try utf8.withUnsafeBufferPointer { buf in
            guard var cursor = buf.baseAddress else { return }
            while cursor.pointee != 0 {
                var prepared: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(h, cursor, -1, &prepared, &tail)
                guard code == SQLITE_OK else { throw SQLiteError.from(code: code, connection: h, sql: String(cString: cursor)) }
                guard let next = tail, next != cursor else { break }
                let consumed = String(decoding: UnsafeRawBufferPointer(start: cursor, count: next - cursor), as: UTF8.self)
                cursor = next
                guard let prepared else { continue }  // only white space or a comment
                let statement = Statement(connection: self, sql: consumed, handle: prepared)
                let n = statement.parameterCount
                guard remaining.count >= n else {
                    throw SQLiteError.misuse("\(arguments.values.count) arguments are too few for the statements' parameters", code: SQLITE_RANGE, sql: sql)
                }
                try statement.execute(StatementArguments(Array(remaining.prefix(n))))
                remaining = remaining.dropFirst(n)
            }
        }
        guard remaining.isEmpty else {
            throw SQLiteError.misuse("\(arguments.values.count) arguments are too many for the statements' parameters", code: SQLITE_RANGE, sql: sql)
        }
    }

    /// Every row of one statement.
    func fetchAll(sql: String, arguments: StatementArguments = []) throws -> [Row] {
        try makeStatement(sql: sql).fetchAll(arguments)
    }

    /// The first row of one statement, or nil when it returns none.
    func fetchOne(sql: String, arguments: StatementArguments = []) throws -> Row? {
        try makeStatement(sql: sql).fetchOne(arguments)
    }

    /// The first column of every row, as `T` (`SQLITE_MISMATCH` on a value of another kind:
    /// ask for `T?` to accept NULL).
    func fetchAll<T: SQLValueConvertible>(_ type: T.Type, sql: String, arguments: StatementArguments = []) throws -> [T] {
        try fetchAll(sql: sql, arguments: arguments).map { try $0[0] }
    }

    /// The first column of the first row as `T`, or nil when there is no row or the value is NULL.
    func fetchOne<T: SQLValueConvertible>(_ type: T.Type, sql: String, arguments: StatementArguments = []) throws -> T? {
        guard let row = try fetchOne(sql: sql, arguments: arguments) else { return nil }
        let v = try row.value(at: 0)
        if v == .null { return nil }
        return try Row.convert(v, column: "#0")
    }

    // MARK: State

    /// The rowid of the last successful INSERT on this connection.
    var lastInsertedRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changesCount: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// True between BEGIN and COMMIT / ROLLBACK (SQLite's autocommit is off).
    var isInsideTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }
}
