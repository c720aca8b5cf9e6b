import CSQLite
import Dispatch
import Foundation
@testable import SkateStore
import SkateTestSupport
import Synchronization
import Testing

/// SkateStore's SQLite wrapper on its own: values in and out, errors, transactions, locking.
@Suite struct SQLiteWrapperTests {
    /// A fresh database file in a temporary folder, removed on deinit.
    final class TempDB {
        let dir = TestData.temporaryDirectory("sqlite-wrapper")
        var path: String { dir.appendingPathComponent("test.sqlite").path }
        func open() throws -> SQLiteConnection { try SQLiteConnection(path: path) }
        deinit { try? FileManager.default.removeItem(at: dir) }
    }

    @Test func everyKindOfValueRoundTrips() throws {
        let t = TempDB(), db = try t.open()
        try db.execute(sql: "CREATE TABLE v(id INTEGER PRIMARY KEY, x)")
        let values: [SQLValue] = [
            .null, .integer(0), .integer(Int64.max), .integer(Int64.min), .real(-0.0), .real(1e-308), .real(.infinity),
            .real(0.1 + 0.2), .text(""), .text("it's \"quoted\" -- not a comment; DROP TABLE v"),
            .text("Zoë 🛹 Ωμέγα 東京 \u{202E}rtl"), .text("nul\u{0}inside"),
            .blob([]), .blob([0, 0, 255, 1]), .blob(Array(0...255)),
        ]
        for v in values { try db.execute(sql: "INSERT INTO v(x) VALUES (?)", arguments: StatementArguments([v])) }
        let back = try db.fetchAll(sql: "SELECT x FROM v ORDER BY id").map { try $0.value(at: 0) }
        #expect(back == values)
        // And SQLite stored each in its own storage class.
        let types = try db.fetchAll(String.self, sql: "SELECT typeof(x) FROM v ORDER BY id")
        #expect(types == values.map { $0.typeName.lowercased() })
    }

    @Test func swiftTypesBindAndReadBack() throws {
        let t = TempDB(), db = try t.open()
        try db.execute(sql: "CREATE TABLE t(i INTEGER, i64 INTEGER, d REAL, s TEXT, b BLOB, flag INTEGER, none TEXT)")
        let bytes: [UInt8] = [1, 2, 3, 0]
        let none: String? = nil
        try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)",
                       arguments: [42, Int64(9_007_199_254_740_993), 43.7384, "O'Neil \"Z\" 🛹", bytes, true, none])
        let row = try #require(try db.fetchOne(sql: "SELECT * FROM t"))
        #expect(try row.int("i") == 42)
        #expect(try row.int64("i64") == 9_007_199_254_740_993)
        #expect(try row.double("d") == 43.7384)
        #expect(try row.string("s") == "O'Neil \"Z\" 🛹")
        #expect(try row.bytes("b") == bytes)
        #expect(try row.bool("flag"))
        #expect(try (row["none"] as String?) == nil)
        // By index, and names are case-insensitive as in SQL.
        #expect(try row[0] as Int == 42)
        #expect(try row["S"] as String == "O'Neil \"Z\" 🛹")
        #expect(row.count == 7)
        // An integer reads as Double too; a whole real as an integer (as GRDB did).
        #expect(try row["i"] as Double == 42)
        #expect(try db.fetchOne(Int.self, sql: "SELECT 2.0") == 2)
        #expect(try db.fetchOne(Int.self, sql: "SELECT NULL") == nil)
        #expect(try db.fetchOne(Int.self, sql: "SELECT 1 WHERE 0") == nil)
    }

    @Test func wrongTypesAndUnknownColumnsAreErrorsNotZeros() throws {
        let t = TempDB(), db = try t.open()
        let row = try #require(try db.fetchOne(sql: "SELECT NULL AS n, 'text' AS s, 1.5 AS r"))
        #expect { _ = try row.int("n") } throws: { ($0 as? SQLiteError)?.resultCode == SQLITE_MISMATCH }
        #expect { _ = try row.double("s") } throws: { ($0 as? SQLiteError)?.message.contains("cannot read TEXT") == true }
        #expect { _ = try row.string("r") } throws: { ($0 as? SQLiteError)?.resultCode == SQLITE_MISMATCH }
        #expect { _ = try row.int("missing") } throws: { ($0 as? SQLiteError)?.resultCode == SQLITE_RANGE }
        #expect { _ = try row[3] as Int } throws: { ($0 as? SQLiteError)?.resultCode == SQLITE_RANGE }
        #expect { _ = try db.fetchAll(Int.self, sql: "SELECT NULL") } throws: { $0 is SQLiteError }
        #expect(try db.fetchAll(Int?.self, sql: "SELECT NULL UNION ALL SELECT 3") == [nil, 3])
    }

    @Test func badSQLCarriesSQLitesCodeAndMessage() throws {
        let t = TempDB(), db = try t.open()
        let syntax = #expect(throws: SQLiteError.self) { try db.execute(sql: "SELEC 1") }
        #expect(syntax?.resultCode == SQLITE_ERROR)
        #expect(syntax?.message == "near \"SELEC\": syntax error")
        #expect(syntax?.sql == "SELEC 1")
        let table = #expect(throws: SQLiteError.self) { _ = try db.fetchAll(sql: "SELECT * FROM nowhere") }
        #expect(table?.message == "no such table: nowhere")
        // Double-quoted text is an identifier only (no silent string literal).
        let dqs = #expect(throws: SQLiteError.self) { _ = try db.fetchAll(sql: "SELECT \"not a column\"") }
        #expect(dqs?.message == "no such column: not a column")
        try db.execute(sql: "CREATE TABLE t(x TEXT NOT NULL UNIQUE)")
        try db.execute(sql: "INSERT INTO t VALUES ('a')")
        let unique = #expect(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t VALUES ('a')") }
        #expect(unique?.extendedResultCode == Int32(CSQLITE_CONSTRAINT_UNIQUE))
        #expect(unique?.message == "UNIQUE constraint failed: t.x")
        let notNull = #expect(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [nil]) }
        #expect(notNull?.extendedResultCode == Int32(CSQLITE_CONSTRAINT_NOTNULL))
        #expect(!(notNull?.description.contains("\n") ?? true))
        // Argument counts must match the parameters.
        #expect(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["a", "b"]) }
        #expect(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t VALUES (?)") }
        #expect(throws: SQLiteError.self) { _ = try db.makeStatement(sql: "SELECT 1; SELECT 2") }
        #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM t") == 1)
    }

    @Test func aScriptRunsEveryStatementWithItsArguments() throws {
        let t = TempDB(), db = try t.open()
        try db.execute(sql: """
            -- a comment first
            CREATE TABLE a(x); /* between */ CREATE TABLE b(y);
            INSERT INTO a VALUES (?); INSERT INTO b VALUES (?), (?);
            PRAGMA user_version = 7;
            """, arguments: [1, "two", 3.5])
        #expect(try db.fetchAll(Int.self, sql: "SELECT x FROM a") == [1])
        #expect(try db.fetchAll(sql: "SELECT y FROM b").map { try $0.value(at: 0) } == [.text("two"), .real(3.5)])
        #expect(try db.pragma("user_version") == .integer(7))
        // A failing statement stops the script; the ones before it have run.
        #expect(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO a VALUES (2); INSERT INTO nowhere VALUES (1); INSERT INTO a VALUES (3)") }
        #expect(try db.fetchAll(Int.self, sql: "SELECT x FROM a ORDER BY x") == [1, 2])
        #expect(db.lastInsertedRowID == 2)
        try db.execute(sql: "UPDATE a SET x = x + 10")
        #expect(db.changesCount == 2)
    }

    @Test func aTransactionCommitsOnReturnAndRollsBackOnThrow() throws {
        struct Refused: Error {}
        let t = TempDB(), db = try t.open()
        try db.execute(sql: "CREATE TABLE t(x INTEGER)")
        let n = try db.inTransaction { () -> Int in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            #expect(db.isInsideTransaction)
            return 1
        }
        #expect(n == 1 && !db.isInsideTransaction)
        #expect(throws: Refused.self) {
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                try db.execute(sql: "INSERT INTO t VALUES (3)")
                throw Refused()
            }
        }
        #expect(!db.isInsideTransaction)
        // A failing statement rolls back the statements before it in the same transaction.
        #expect(throws: SQLiteError.self) {
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t VALUES (4)")
                try db.execute(sql: "INSERT INTO nowhere VALUES (5)")
            }
        }
        #expect(try db.fetchAll(Int.self, sql: "SELECT x FROM t") == [1])
        // Transactions do not nest.
        #expect(throws: SQLiteError.self) { try db.inTransaction { try db.inTransaction {} } }
        #expect(!db.isInsideTransaction)
        // Another connection sees only what was committed.
        #expect(try t.open().fetchAll(Int.self, sql: "SELECT x FROM t") == [1])
    }

    @Test func aWriterWaitsForAnotherConnectionsLockThenProceeds() throws {
        let t = TempDB()
        let a = SerializedConnection(try t.open()), b = try t.open()
        try a.withConnection { a in
            try a.setPragma("journal_mode", "WAL")
            try a.execute(sql: "CREATE TABLE t(x INTEGER)")
            try a.execute(sql: "BEGIN IMMEDIATE")
            try a.execute(sql: "INSERT INTO t VALUES (1)")
        }
        /// How long the first writer holds its lock: long enough to measure the wait, short for a test.
        let hold = 0.3
        try b.setBusyTimeout(seconds: 5)
        DispatchQueue.global().asyncAfter(deadline: .now() + hold) { try? a.withConnection { try $0.execute(sql: "COMMIT") } }
        let start = Date()
        try b.inTransaction(.immediate) { try b.execute(sql: "INSERT INTO t VALUES (2)") }
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= hold * 0.8, "b waited for a's commit (\(waited) s)")
        #expect(waited < 5, "and did not run into its timeout")
        #expect(try b.fetchAll(Int.self, sql: "SELECT x FROM t ORDER BY x") == [1, 2])
        // Without a timeout a held lock is an immediate SQLITE_BUSY.
        try b.setBusyTimeout(seconds: 0)
        try a.withConnection { try $0.execute(sql: "BEGIN IMMEDIATE") }
        let busy = #expect(throws: SQLiteError.self) { try b.inTransaction(.immediate) {} }
        #expect(busy?.resultCode == SQLITE_BUSY)
        #expect(busy?.message == "database is locked")
        try a.withConnection { try $0.execute(sql: "ROLLBACK") }
    }

    @Test func oneSerializedConnectionTakesWritesFromManyThreads() throws {
        let t = TempDB()
        let shared = SerializedConnection(try t.open())
        try shared.withConnection { try $0.execute(sql: "CREATE TABLE t(thread INTEGER, i INTEGER)") }
        /// Threads and inserts each: enough interleaving to break an unserialised connection.
        let threads = 8, each = 50
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: threads) { k in
            for i in 0..<each {
                do {
                    try shared.withConnection { db in
                        try db.inTransaction { try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [k, i]) }
                    }
                } catch { failures.add("\(error)") }
            }
        }
        #expect(failures.all.isEmpty)
        #expect(try shared.withConnection { try $0.fetchOne(Int.self, sql: "SELECT count(*) FROM t") } == threads * each)
    }

    @Test func openingSomethingThatIsNotADatabaseFails() throws {
        let t = TempDB()
        try Data("this is not a database, just text long enough to fill a header........".utf8).write(to: URL(fileURLWithPath: t.path))
        let e = #expect(throws: SQLiteError.self) { _ = try t.open() }
        #expect(e?.resultCode == SQLITE_NOTADB)
        #expect(throws: SQLiteError.self) { _ = try SQLiteConnection(path: t.dir.appendingPathComponent("missing/x.sqlite").path) }
        #expect(throws: SQLiteError.self) { _ = try SQLiteConnection(path: t.dir.appendingPathComponent("absent.sqlite").path, flags: SQLiteConnection.readWrite) }
        let db = try SQLiteConnection(path: t.dir.appendingPathComponent("ok.sqlite").path)
        try db.close()
        let closed = #expect(throws: SQLiteError.self) { try db.execute(sql: "SELECT 1") }
        #expect(closed?.resultCode == SQLITE_MISUSE)
    }

    @Test func migrationsRunOnceAndRecordThemselvesAsGRDBDid() throws {
        let t = TempDB(), db = try t.open()
        try db.setPragma("foreign_keys", "ON")
        var m = SchemaMigrator()
        m.registerMigration("one") { try $0.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY); PRAGMA user_version = 1") }
        m.registerMigration("two") { try $0.execute(sql: "CREATE TABLE b(aId INTEGER REFERENCES a(id)); PRAGMA user_version = 2") }
        #expect(try !m.hasCompletedMigrations(db))
        try m.migrate(db, upTo: "one")
        #expect(try m.completedMigrations(db) == ["one"])
        #expect(throws: SQLiteError.self) { try m.migrate(db, upTo: "nope") }
        try m.migrate(db)
        try m.migrate(db)  // nothing left: no error, nothing run twice
        #expect(try m.hasCompletedMigrations(db))
        #expect(try db.fetchAll(String.self, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") == ["one", "two"])
        #expect(try db.fetchOne(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'grdb_migrations'")
                == "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        #expect(try db.pragma("user_version") == .integer(2))
        #expect(try db.pragma("foreign_keys") == .integer(1), "foreign keys are back on after the migrations")
        #expect(throws: SQLiteError.self) { try m.migrate(db, upTo: "one") }  // already beyond

        // A failing migration leaves nothing of itself, and no record.
        var broken = m
        broken.registerMigration("three") { try $0.execute(sql: "CREATE TABLE c(x); INSERT INTO nowhere VALUES (1)") }
        #expect(throws: SQLiteError.self) { try broken.migrate(db) }
        #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'c'") == 0)
        #expect(try !broken.hasCompletedMigrations(db))
        // One that breaks a foreign key is refused before COMMIT.
        var dangling = m
        dangling.registerMigration("four") { try $0.execute(sql: "INSERT INTO b VALUES (99)") }
        let fk = #expect(throws: SQLiteError.self) { try dangling.migrate(db) }
        #expect(fk?.extendedResultCode == Int32(CSQLITE_CONSTRAINT_FOREIGNKEY))
        #expect(try db.fetchOne(Int.self, sql: "SELECT count(*) FROM b") == 0)
        // A store migrated by a newer release (an unknown identifier) still counts as complete.
        try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')")
        #expect(try m.hasCompletedMigrations(db))
    }
}

/// Error lines collected from several threads.
final class Failures: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
