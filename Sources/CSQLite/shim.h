#ifndef SKATEROUTE_CSQLITE_H
#define SKATEROUTE_CSQLITE_H
#include <sqlite3.h>

/// `sqlite3_bind_text` with `SQLITE_TRANSIENT` (SQLite copies the bytes before it returns):
/// the macro is a cast of -1 to a function pointer, which Swift cannot import.
static inline int csqlite_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

/// `sqlite3_bind_blob` with `SQLITE_TRANSIENT` (see above).
static inline int csqlite_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

/// Turns off SQLite's legacy reading of "double-quoted" text as a string literal when no column
/// has that name, in DML and DDL (as GRDB did): a misspelt column is then an error, not a string.
/// `sqlite3_db_config` is variadic, which Swift cannot call.
static inline int csqlite_disable_double_quoted_strings(sqlite3 *db) {
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)0);
}
/// Extended result codes are macros built with `|` and `<<`, which Swift does not import.
enum {
    CSQLITE_CONSTRAINT_FOREIGNKEY = SQLITE_CONSTRAINT_FOREIGNKEY,
    CSQLITE_CONSTRAINT_NOTNULL = SQLITE_CONSTRAINT_NOTNULL,
    CSQLITE_CONSTRAINT_UNIQUE = SQLITE_CONSTRAINT_UNIQUE,
    CSQLITE_CONSTRAINT_PRIMARYKEY = SQLITE_CONSTRAINT_PRIMARYKEY,
};
#endif
