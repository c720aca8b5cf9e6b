/// The store's SQLite connections and how every read and write runs on them.
///
/// - `.pool` (`SkateStore(dataDir:)`): the file is switched to WAL; one writer connection, plus
///   one reader connection opened at the first read, so reads never wait for a write in progress
///   (or for a write that waits for another process's lock).
/// - `.single` (`SkateStore(openingExisting:)`, short commands): one connection for both, the
///   journal mode left as the file records it (WAL once a pool has opened it).
///
/// Every connection: `busy_timeout`, foreign keys on, `synchronous = FULL`. Each use holds the
/// connection's mutex, so the store may be used from several threads.
final class StoreDatabase: Sendable {
    /// How the store opens its file.
    enum Mode: Sendable { case pool, single, readOnly }

    /// The database file.
    let path: String
    private let writer: SerializedConnection
    /// nil in `.single` mode: reads go to the writer.
    private let reader: SerializedConnection?

    /// Opens `path` (creating it in `.pool` mode). - Throws: `SQLiteError`.
    init(path: String, mode: Mode, busyTimeout: Double) throws {
        self.path = path
        let w: SQLiteConnection
        switch mode {
        case .pool: w = try Self.open(path: path, flags: SQLiteConnection.readWriteCreate, busyTimeout: busyTimeout)
        case .single: w = try Self.open(path: path, flags: SQLiteConnection.readWrite, busyTimeout: busyTimeout)
        case .readOnly:
            // `mode=ro` reads a WAL file whose -shm exists or whose folder is writable; a store in
            // a read-only folder closed cleanly has neither, and is read as `immutable` (no
            // locks, no -shm): nobody without write access to the folder can change it meanwhile.
            do {
                w = try Self.open(path: Self.uri(path, "mode=ro"), flags: SQLiteConnection.readOnlyURI, busyTimeout: busyTimeout)
            } catch {
                w = try Self.open(path: Self.uri(path, "immutable=1"), flags: SQLiteConnection.readOnlyURI, busyTimeout: busyTimeout)
            }
        }
        switch mode {
        case .pool:
            let journal = try w.setPragma("journal_mode", "WAL")
            guard journal == .text("wal") else {
                throw SQLiteError.misuse("could not switch the database to WAL (journal mode \(journal ?? .null))", code: 1)
            }
            reader = SerializedConnection(opening: {
                let r = try Self.open(path: path, flags: SQLiteConnection.readWrite, busyTimeout: busyTimeout)
                // A reader never writes: a write through it would be a bug, and fail.
                try r.setPragma("query_only", "ON")
                return r
            })
        case .single, .readOnly:
            reader = nil
        }
        writer = SerializedConnection(w)
    }

    /// A `file:` URI for `path` with `query` (RFC 3986: `%`, `?` and `#` escaped).
    static func uri(_ path: String, _ query: String) -> String {
        var out = "file:"
        for ch in path.unicodeScalars {
            switch ch {
            case "%": out += "%25"
            case "?": out += "%3f"
            case "#": out += "%23"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "?" + query
    }

    /// One connection with the store's settings.
    private static func open(path: String, flags: Int32, busyTimeout: Double) throws -> SQLiteConnection {
        let c = try SQLiteConnection(path: path, flags: flags, busyTimeout: busyTimeout)
        try c.setPragma("foreign_keys", "ON")
        if flags == SQLiteConnection.readOnlyURI { return c }  // nothing is written through it
        // FULL: a commit is on disk, not only in the OS cache, before the write returns.
        try c.setPragma("synchronous", "FULL")
        return c
    }

    /// True in `.single` mode (one connection for reads and writes).
    var isSingleConnection: Bool { reader == nil }

    /// Runs `body` in one IMMEDIATE transaction on the writer, committed before it returns
    /// (rolled back when `body` throws). Waits up to the busy timeout for another writer.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withConnection { db in try db.inTransaction(.immediate) { try body(db) } }
    }

    /// Runs `body` on the writer outside any transaction (migrations open their own).
    func writeWithoutTransaction<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.withConnection(body)
    }

    /// Runs `body` in one DEFERRED transaction on the reader: all its statements see one snapshot.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try (reader ?? writer).withConnection { db in try db.inTransaction(.deferred) { try body(db) } }
    }
}
