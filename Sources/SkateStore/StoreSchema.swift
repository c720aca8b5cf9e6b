
extension SkateStore {
    /// The schema, one migration per version. Never edit a shipped migration: add the next one.
    /// Times are stored as seconds since 1970 (REAL); positions in degrees.
    /// The identifiers ("v1", "v2") are recorded in `grdb_migrations` and must never change.
    static var migrator: SchemaMigrator {
        var m = SchemaMigrator()
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
        m.registerMigration("v2") { db in
            // The rider's own things: saved places (a rider spot is a place of category 'spot',
            // private unless shared), recent destinations, saved routes, the ride history index
            // and small settings (the weekly goal). Nothing in v1 changes.
            try db.execute(sql: """
                CREATE TABLE savedPlace(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    foldedName TEXT NOT NULL UNIQUE,
                    category TEXT NOT NULL CHECK (category IN ('home', 'work', 'spot', 'shop', 'other')),
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    note TEXT NOT NULL DEFAULT '',
                    private INTEGER NOT NULL DEFAULT 1,
                    createdAt REAL NOT NULL
                );
                CREATE TABLE recentDestination(
                    foldedName TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    usedAt REAL NOT NULL
                );
                CREATE INDEX recentDestination_usedAt ON recentDestination(usedAt);
                CREATE TABLE savedRoute(
                    foldedName TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    mode TEXT NOT NULL,
                    fromName TEXT NOT NULL,
                    toName TEXT NOT NULL,
                    fromLat REAL NOT NULL, fromLon REAL NOT NULL,
                    toLat REAL NOT NULL, toLon REAL NOT NULL,
                    mapIdentity TEXT NOT NULL,
                    planJSON TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    createdAt REAL NOT NULL
                );
                CREATE TABLE rideIndex(
                    rideId TEXT PRIMARY KEY,
                    path TEXT NOT NULL,
                    fileSize INTEGER NOT NULL,
                    fileModified REAL NOT NULL,
                    startEpoch REAL NOT NULL,
                    map TEXT NOT NULL,
                    mode TEXT NOT NULL,
                    distance REAL NOT NULL,
                    duration REAL NOT NULL,
                    movingTime REAL NOT NULL,
                    climb REAL NOT NULL,
                    descent REAL NOT NULL,
                    crustyMetres REAL NOT NULL,
                    maxSpeed REAL NOT NULL,
                    complete INTEGER NOT NULL
                );
                CREATE INDEX rideIndex_start ON rideIndex(startEpoch);
                CREATE TABLE setting(
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                );
                PRAGMA user_version = 2;
                """)
        }
        m.registerMigration("v3") { db in
            // Issue 28, what rides feel: impacts placed on the map with the ride they came from
            // (detected hazards link back to them), and measured roughness per stretch of ≤ 25 m
            // along an edge. New tables only: nothing in v1 or v2 changes, no row is touched.
            try db.execute(sql: """
                CREATE TABLE impactEvent(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    wayId INTEGER NOT NULL,
                    fromNode INTEGER NOT NULL,
                    toNode INTEGER NOT NULL,
                    offset REAL NOT NULL,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    peak REAL NOT NULL,
                    kind TEXT NOT NULL,
                    rideId TEXT NOT NULL,
                    at REAL NOT NULL,
                    hazardId INTEGER REFERENCES hazard(id) ON DELETE SET NULL
                );
                CREATE INDEX impactEvent_edge ON impactEvent(wayId, fromNode, toNode, offset);
                CREATE INDEX impactEvent_ride ON impactEvent(rideId);
                CREATE TABLE surfaceStretch(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    wayId INTEGER NOT NULL,
                    fromNode INTEGER NOT NULL,
                    toNode INTEGER NOT NULL,
                    fromOffset REAL NOT NULL,
                    toOffset REAL NOT NULL,
                    rms REAL NOT NULL,
                    windows INTEGER NOT NULL,
                    at REAL NOT NULL
                );
                CREATE INDEX surfaceStretch_edge ON surfaceStretch(wayId, fromNode, toNode, at);
                CREATE INDEX surfaceStretch_at ON surfaceStretch(at);
                PRAGMA user_version = 3;
                """)
        }
        m.registerMigration("v4") { db in
            // Issue 32, hazards between riders: which report of which file (origin, its stable id)
            // was imported, onto which hazard, with the source's trust. A report nobody here filed
            // becomes a hazard row of source 'imported' whose reporter is the origin's name. A new
            // table only: no v1–v3 row is touched.
            try db.execute(sql: """
                CREATE TABLE hazardImport(
                    origin TEXT NOT NULL,
                    externalId TEXT NOT NULL,
                    hazardId INTEGER NOT NULL REFERENCES hazard(id) ON DELETE CASCADE,
                    trust REAL NOT NULL CHECK (trust > 0 AND trust <= 1),
                    reportedAt REAL NOT NULL,
                    importedAt REAL NOT NULL,
                    PRIMARY KEY (origin, externalId)
                );
                CREATE INDEX hazardImport_hazard ON hazardImport(hazardId);
                PRAGMA user_version = 4;
                """)
        }
        return m
    }
}
