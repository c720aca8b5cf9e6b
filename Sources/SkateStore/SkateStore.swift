import Foundation
import GRDB
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
    public static let schemaVersion = 2
    /// How long a write waits for another process's write lock before failing (seconds): far above
    /// any single transaction here (milliseconds), short enough that a stuck lock surfaces.
    public static let busyTimeout: TimeInterval = 5

    /// The directory holding the database.
    public let dataDir: URL
    /// The database file.
    public let databaseURL: URL
    /// A `DatabasePool` (WAL, concurrent readers) when opened for writing; one `DatabaseQueue`
    /// connection for short commands (`init(openingExisting:)`).
    let db: any DatabaseWriter

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
            throw StoreError.cannotOpen(path: path, reason: "cannot create the directory (\((error as NSError).localizedDescription))")
        }
        let config = Self.configuration(label: "skateroute.store")
        do {
            // Opening and migrating happen under a lock file (the kernel drops it if the holder
            // dies): two processes creating a new store at once would otherwise race on switching
            // the new file to WAL, which SQLite answers with "database is locked" without waiting,
            // and would both see "not migrated" and both run the migrations. Each open holds the
            // lock for well under a millisecond once the store exists.
            let migrator = Self.migrator
            db = try StoreLock.withExclusiveLock(at: dataDir.appendingPathComponent(StoreLock.fileName).path,
                                                 timeout: Self.busyTimeout) {
                let pool = try DatabasePool(path: path, configuration: config)
                if let target {
                    try migrator.migrate(pool, upTo: target)
                } else if try !pool.read({ try migrator.hasCompletedMigrations($0) }) {
                    try migrator.migrate(pool)
                }
                return pool
            }
        } catch let e as DatabaseError {
            throw StoreError.cannotOpen(path: path, reason: e.message ?? "\(e.resultCode)")
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Opens an existing, fully migrated store for a short command (a plan reads the knowledge
    /// and saved places and records one recent destination): one plain connection instead of a
    /// pool. A pool sets up its write-ahead log on every open — a write and a sync — and spawns
    /// its reader machinery; `SKATEROUTE_TIMING=1` showed "store 2.1–4.2 ms" of every Monaco
    /// plan against "plan 1.3 ms". Writes through it are the same transactions (`synchronous =
    /// FULL`, committed before they return). A store that is missing or not yet migrated is
    /// opened as `init(dataDir:)` does (created and migrated under the lock), so a command never
    /// sees an old schema.
    public convenience init(openingExisting dataDir: URL) throws {
        let url = StorePaths.databaseURL(in: dataDir)
        if FileManager.default.fileExists(atPath: url.path),
           let queue = try? DatabaseQueue(path: url.path, configuration: Self.configuration(label: "skateroute.store.short")),
           (try? queue.read({ try Self.migrator.hasCompletedMigrations($0) })) == true {
            self.init(dataDir: dataDir, databaseURL: url, db: queue)
        } else {
            try self.init(dataDir: dataDir)
        }
    }

    /// Every connection's settings: wait for another process's write lock, and sync each commit.
    static func configuration(label: String) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(Self.busyTimeout)
        config.label = label
        config.prepareDatabase { db in
            // FULL: a commit is on disk, not only in the OS cache, before the write returns.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return config
    }

    private init(dataDir: URL, databaseURL: URL, db: any DatabaseWriter) {
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
        try db.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }

    /// `PRAGMA integrity_check`'s answer: "ok" for a sound file.
    public func integrityCheck() throws -> String {
        try db.read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
        }
    }

    /// Runs one write transaction (IMMEDIATE, committed on return) and maps SQLite errors to a one-line `StoreError`.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try db.write(body)
        } catch let e as DatabaseError {
            throw StoreError.databaseFailed(path: databaseURL.path, reason: e.message ?? "\(e.resultCode)")
        }
    }

    /// Runs one read and maps SQLite errors to a one-line `StoreError`.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do {
            return try db.read(body)
        } catch let e as DatabaseError {
            throw StoreError.databaseFailed(path: databaseURL.path, reason: e.message ?? "\(e.resultCode)")
        }
    }
}
