import FoundationEssentials
import Glibc
import SkateCore

/// The persistent store of hazard reports, surface ratings and measured roughness: one SQLite
/// database (WAL) in a data directory.
///
/// Every write method runs one IMMEDIATE transaction that is committed (with `synchronous=FULL`)
/// before it returns, so anything the caller acknowledges survives a `kill -9` right after, and
/// concurrent processes serialise on SQLite's write lock (waiting up to `busyTimeout`) instead of
/// failing or losing rows. Time always comes in as a parameter; the store never reads the clock.
public final class SkateStore: Sendable {
    /// The schema version the migrations bring a database to (also written to `PRAGMA user_version`).
    public static let schemaVersion = 4
    /// How long a write waits for another process's write lock before failing (seconds): far above
    /// any single transaction here (milliseconds), short enough that a stuck lock surfaces.
    public static let busyTimeout: TimeInterval = 5

    /// The directory holding the database.
    public let dataDir: URL
    /// The database file.
    public let databaseURL: URL
    /// A writer and a reader connection (WAL) when opened for writing; one connection for short
    /// commands (`init(openingExisting:)`).
    let db: StoreDatabase

    /// Opens (creating if needed) the store in `dataDir` and migrates it to `schemaVersion`.
    /// - Throws: `StoreError.cannotOpen` naming the file and the problem.
    public convenience init(dataDir: URL) throws {
        try self.init(dataDir: dataDir, migratingUpTo: nil)
    }

    /// Opens the store migrated only up to the migration named `target` (nil: all). Tests use it
    /// to write a store as an older release did, then reopen it with every migration.
    init(dataDir: URL, migratingUpTo target: String?) throws {
        self.dataDir = dataDir
        databaseURL = StorePaths.databaseURL(in: dataDir)
        let path = databaseURL.path
        do {
            try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "cannot create the directory (\(StoreError.reason(error)))")
        }
        do {
            // Opening and migrating happen under a lock file (the kernel drops it if the holder
            // dies): two processes creating a new store at once would otherwise race on switching
            // the new file to WAL, which SQLite answers with "database is locked" without waiting,
            // and would both see "not migrated" and both run the migrations. Each open holds the
            // lock for well under a millisecond once the store exists.
            let migrator = Self.migrator
            db = try StoreLock.withExclusiveLock(at: dataDir.appendingPathComponent(StoreLock.fileName).path,
                                                 timeout: Self.busyTimeout) {
                let database = try StoreDatabase(path: path, mode: .pool, busyTimeout: Self.busyTimeout)
                // On the writer: the reader is not opened until something reads.
                try database.writeWithoutTransaction { db in
                    if let target {
                        try migrator.migrate(db, upTo: target)
                    } else if try !migrator.hasCompletedMigrations(db) {
                        try migrator.migrate(db)
                    }
                }
                return database
            }
        } catch let e as SQLiteError {
            throw StoreError.cannotOpen(path: path, reason: e.message)
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Opens an existing, fully migrated store for a short command (a plan reads the knowledge
    /// and saved places and records one recent destination): one plain connection instead of a
    /// writer and a reader, and no switch to WAL (the file is in WAL since its creation).
    /// `SKATEROUTE_TIMING=1` once showed "store 2.1–4.2 ms" of every Monaco plan against "plan
    /// 1.3 ms" with a pool that set up its log on every open. Writes through it are the same
    /// transactions (`synchronous = FULL`, committed before they return). A store that is missing
    /// or not yet migrated is opened as `init(dataDir:)` does (created and migrated under the
    /// lock), so a command never sees an old schema.
    ///
    /// A store this process may not write (a `chmod -w` folder or file: issue 29 row 7) is opened
    /// read-only instead, so commands that only read (`plan`, `hazards list`, `places list`) work;
    /// a write through it fails with one line ("attempt to write a readonly database").
    public convenience init(openingExisting dataDir: URL) throws {
        let url = StorePaths.databaseURL(in: dataDir)
        let exists = FileManager.default.fileExists(atPath: url.path)
        func migrated(_ db: StoreDatabase) -> Bool { (try? db.read({ try Self.migrator.hasCompletedMigrations($0) })) == true }
        if exists, let single = try? StoreDatabase(path: url.path, mode: .single, busyTimeout: Self.busyTimeout), migrated(single) {
            self.init(dataDir: dataDir, databaseURL: url, db: single)
        } else if exists, !Self.writable(dataDir.path) || !Self.writable(url.path),
                  let ro = try? StoreDatabase(path: url.path, mode: .readOnly, busyTimeout: Self.busyTimeout) {
            guard migrated(ro) else {
                throw StoreError.cannotOpen(path: url.path, reason: "the store is read-only and needs an upgrade: make its folder writable and run any command once")
            }
            self.init(dataDir: dataDir, databaseURL: url, db: ro)
        } else {
            try self.init(dataDir: dataDir)
        }
    }

    /// True when this process may write `path` (`access(2)`; always true for root).
    static func writable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    private init(dataDir: URL, databaseURL: URL, db: StoreDatabase) {
        self.dataDir = dataDir
        self.databaseURL = databaseURL
        self.db = db
    }

    /// Opens the store in `StorePaths.defaultDataDir()`.
    public static func openDefault() throws -> SkateStore {
        try SkateStore(dataDir: StorePaths.defaultDataDir())
    }

    /// The schema version recorded in the database file.
    public func storedSchemaVersion() throws -> Int {
        try read { db in try db.fetchOne(Int.self, sql: "PRAGMA user_version") ?? 0 }
    }

    /// `PRAGMA integrity_check`'s answer: "ok" for a sound file.
    public func integrityCheck() throws -> String {
        try read { db in
            try db.fetchAll(String.self, sql: "PRAGMA integrity_check").joined(separator: "; ")
        }
    }

    /// Runs one write transaction (IMMEDIATE, committed on return) and maps SQLite errors to a one-line `StoreError`.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try db.write(body)
        } catch let e as SQLiteError {
            throw StoreError.databaseFailed(path: databaseURL.path, reason: e.message)
        }
    }

    /// Runs one read (one snapshot) and maps SQLite errors to a one-line `StoreError`.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try db.read(body)
        } catch let e as SQLiteError {
            throw StoreError.databaseFailed(path: databaseURL.path, reason: e.message)
        }
    }
}
