import CSQLite

/// How a transaction takes SQLite's locks.
enum TransactionKind: String, Sendable {
    /// Takes locks as statements need them (a read snapshot at the first read).
    case deferred = "DEFERRED"
    /// Takes the write lock at BEGIN, waiting up to the busy timeout: a writer never fails
    /// half-way with `SQLITE_BUSY` because another connection wrote first.
    case immediate = "IMMEDIATE"
    /// Also keeps readers out (in rollback-journal mode; same as IMMEDIATE in WAL).
    case exclusive = "EXCLUSIVE"
}

extension SQLiteConnection {
    /// Runs `body` in one transaction: BEGIN, then COMMIT when `body` returns, or ROLLBACK when it
    /// (or the COMMIT) throws, and the error is rethrown. Transactions do not nest.
    /// - Throws: `body`'s error, or `SQLiteError` from BEGIN / COMMIT.
    func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        guard !isInsideTransaction else {
            throw SQLiteError.misuse("a transaction is already open on this connection (transactions do not nest)")
        }
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
        do {
            let result = try body()
            try execute(sql: "COMMIT TRANSACTION")
            return result
        } catch {
            rollbackIfNeeded()
            throw error
        }
    }

    /// ROLLBACK when a transaction is still open: some errors (SQLITE_FULL, SQLITE_IOERR…) have
    /// already rolled it back. A failed rollback leaves nothing to do but report the first error.
    func rollbackIfNeeded() {
        guard isInsideTransaction else { return }
        try? execute(sql: "ROLLBACK TRANSACTION")
    }
}
