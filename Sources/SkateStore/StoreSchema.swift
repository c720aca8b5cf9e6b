import GRDB

extension SkateStore {
    /// The schema, one migration per version. Never edit a shipped migration: add the next one.
    /// Times are stored as seconds since 1970 (REAL); positions in degrees.
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE hazard(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    geohash TEXT NOT NULL,
                    severity INTEGER NOT NULL CHECK (severity BETWEEN 1 AND 3),
                    source TEXT NOT NULL,
                    reporter TEXT NOT NULL,
                    createdAt REAL NOT NULL,
                    lastConfirmedAt REAL NOT NULL,
                    confirmations INTEGER NOT NULL DEFAULT 0,
                    goneVotes INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX hazard_kind_lat ON hazard(kind, lat);
                CREATE INDEX hazard_geohash ON hazard(geohash);
                CREATE INDEX hazard_reporter ON hazard(reporter);
                CREATE INDEX hazard_lastConfirmedAt ON hazard(lastConfirmedAt);
                CREATE TABLE hazardVote(
                    hazardId INTEGER NOT NULL REFERENCES hazard(id) ON DELETE CASCADE,
                    reporter TEXT NOT NULL,
                    vote TEXT NOT NULL CHECK (vote IN ('confirm', 'gone')),
                    at REAL NOT NULL,
                    PRIMARY KEY (hazardId, reporter)
                );
                CREATE TABLE reporter(
                    name TEXT PRIMARY KEY,
                    confirmationsReceived INTEGER NOT NULL DEFAULT 0,
                    goneReceived INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE surfaceObservation(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    wayId INTEGER NOT NULL,
                    fromNode INTEGER NOT NULL,
                    toNode INTEGER NOT NULL,
                    source TEXT NOT NULL CHECK (source IN ('measured', 'rating')),
                    rating TEXT,
                    rms REAL NOT NULL,
                    at REAL NOT NULL,
                    reporter TEXT NOT NULL DEFAULT ''
                );
                CREATE INDEX surfaceObservation_edge ON surfaceObservation(wayId, fromNode, toNode, at);
                CREATE INDEX surfaceObservation_at ON surfaceObservation(at);
                PRAGMA user_version = 1;
                """)
        }
        return m
    }
}
