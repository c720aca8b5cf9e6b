import CSQLite

/// Named schema migrations applied once each, in order, recorded in a table of the database.
///
/// The record is GRDB's `DatabaseMigrator` table, `grdb_migrations(identifier TEXT NOT NULL
/// PRIMARY KEY)`, read and written the same way, so stores written while SkateStore used GRDB are
/// recognised as migrated and new ones look the same to an older release.
struct SchemaMigrator: Sendable {
    /// The table recording applied migrations (GRDB's name: older stores have it).
    static let tableName = "grdb_migrations"

    /// One migration: an identifier, never reused, and the SQL work.
    struct Migration: Sendable {
        var identifier: String
        var migrate: @Sendable (SQLiteConnection) throws -> Void
    }

    /// The registered migrations, in order.
    private(set) var migrations: [Migration] = []

    /// The identifiers, in registration order.
    var identifiers: [String] { migrations.map(\.identifier) }

    /// Adds a migration after the others. Identifiers must be unique (a programming error otherwise).
    mutating func registerMigration(_ identifier: String, migrate: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        precondition(!identifiers.contains(identifier), "migration \(identifier) is registered twice")
        migrations.append(Migration(identifier: identifier, migrate: migrate))
    }

    /// Every identifier recorded in the database, registered or not (none before the table exists).
    func appliedIdentifiers(_ db: SQLiteConnection) throws -> Set<String> {
        let exists = try db.fetchOne(Int.self, sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                     arguments: [Self.tableName]) != nil
        guard exists else { return [] }
        return Set(try db.fetchAll(String.self, sql: "SELECT identifier FROM \(Self.tableName)"))
    }

    /// The registered migrations whose prefix is all applied (a later one applied after a gap
    /// does not count), in order.
    func completedMigrations(_ db: SQLiteConnection) throws -> [String] {
        let applied = try appliedIdentifiers(db)
        return Array(identifiers.prefix { applied.contains($0) })
    }

    /// True when every registered migration has been applied (unknown, newer ones may be too).
    func hasCompletedMigrations(_ db: SQLiteConnection) throws -> Bool {
        try completedMigrations(db).count == migrations.count
    }

    /// Applies the registered migrations not yet applied, up to and including `target` (nil: all),
    /// each in its own IMMEDIATE transaction together with its record, as GRDB did: foreign keys
    /// are switched off during a migration and checked (`PRAGMA foreign_key_check`) before COMMIT.
    /// Must run outside a transaction.
    /// - Throws: `SQLiteError` from a migration (that migration is rolled back; earlier ones stay),
    ///   for an unknown `target`, or when the database is already migrated past `target`.
    func migrate(_ db: SQLiteConnection, upTo target: String? = nil) throws {
        let last: Int
        if let target {
            guard let i = identifiers.firstIndex(of: target) else {
                throw SQLiteError.misuse("no migration named \(target)", code: SQLITE_ERROR)
            }
            last = i
        } else {
            last = migrations.count - 1
        }
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(Self.tableName) (identifier TEXT NOT NULL PRIMARY KEY)")
        let applied = try appliedIdentifiers(db)
        if let beyond = identifiers.lastIndex(where: applied.contains), beyond > last {
            throw SQLiteError.misuse("the database is already migrated beyond \(identifiers[last])", code: SQLITE_ERROR)
        }
        for m in migrations.prefix(last + 1) where !applied.contains(m.identifier) {
            try run(m, on: db)
        }
    }

    /// One migration in its transaction, foreign keys off meanwhile and checked before COMMIT.
    private func run(_ m: Migration, on db: SQLiteConnection) throws {
        let foreignKeys = try db.pragma("foreign_keys").flatMap(Bool.init(sqlValue:)) ?? false
        if foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        defer { if foreignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
        try db.inTransaction(.immediate) {
            try m.migrate(db)
            try db.execute(sql: "INSERT INTO \(Self.tableName) (identifier) VALUES (?)", arguments: [m.identifier])
            if foreignKeys, let v = try db.fetchOne(sql: "PRAGMA foreign_key_check") {
                throw SQLiteError(extendedResultCode: Int32(CSQLITE_CONSTRAINT_FOREIGNKEY),
                                  message: "migration \(m.identifier) leaves a broken foreign key: \(v)")
            }
        }
    }
}
