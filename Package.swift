// swift-tools-version:6.0
// SkateRoute — a terminal navigator for skateboards and other small hard wheels.
//
// Linux only. CI builds and tests on Debian with Swift 6; macOS is neither built nor tested, so
// the package declares no Apple platform (it used to claim macOS 13, which the Synchronization
// module and the ncursesw link name never met). The Linux-only calls are guarded where they
// are made (MAP_POPULATE, /proc) so a port starts from a clean list.
import PackageDescription

// No unsafe flags: SwiftPM refuses them in a package used as a versioned dependency, and SkateCore
// is meant to be one (`PackageDependencyTests` builds a package that depends on this one by version).
// The release executable's start-up layout (function sections, lld's symbol ordering, no PIE) is
// passed on the command line by `make build` instead; its figures are in docs/benchmarks.md.
let package = Package(
    name: "SkateRoute",
    products: [
        .executable(name: "skateroute", targets: ["skateroute"]),
        .library(name: "SkateCore", targets: ["SkateCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // File descriptors (open, whole writes, positioned reads, seek, resize) for `RawFile`
        // and the standard streams, in place of hand-written retry loops over open/read/write.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // zlib (PBF blobs, .osm.gz, zipped SRTM tiles, checksums), bzip2 (.osm.bz2), zstd and lz4
        // (PBF blobs) from the system, linked (measured: no start-up cost worth a dlopen; README).
        .systemLibrary(name: "CCompression", path: "Sources/CCompression"),
        // libtiff + libgeotiff (GeoTIFF DEMs), loaded with dlopen on first use (see its shim.h),
        // with wrappers for the variadic calls. A C target so its function table exists once.
        .target(name: "CGeoTIFF", path: "Sources/CGeoTIFF", linkerSettings: [.linkedLibrary("dl")]),
        // SQLite from the system (libsqlite3), with inline wrappers for what Swift cannot call
        // (variadic `sqlite3_db_config`, the `SQLITE_TRANSIENT` destructor). SkateStore's own small
        // wrapper sits on it: GRDB pulled in CoreFoundation and its start-up cost (README).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // ncursesw through a tiny C shim for the macros and globals Swift cannot import.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw"),
        // memfd_create, which the Glibc module hides (a session's map detached from its file).
        .systemLibrary(name: "CMemoryFile", path: "Sources/CMemoryFile"),
        // Pure engines: geometry, the map model and its compiled format, routing, plans, stores'
        // protocols. Knows nothing of terminals, SQLite or the CLI.
        .target(
            name: "SkateCore",
            dependencies: [
                "CCompression",
                "CMemoryFile",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            // Each folder's README says what lives there and what it may use.
            exclude: ["Routing/PathSearch/README.md", "Routing/Costing/README.md", "Routing/Plan/README.md", "PlaceSearch/README.md"]
        ),
        // OSM (PBF, XML, XML.bz2) and DEM (SRTM, ESRI ASCII grid, GeoTIFF) readers and the map compiler. A module of its own so
        // the app's hot paths never link the importer's parsers' details into Core.
        .target(name: "SkateImport", dependencies: ["SkateCore", "CCompression", "CGeoTIFF"]),
        // Ride engines on a simulation clock: GPX and motion readers, roughness, matcher, cues,
        // recorder, synthesizer.
        .target(
            name: "SkateRide",
            dependencies: ["SkateCore", .product(name: "DequeModule", package: "swift-collections"),
                           .product(name: "SystemPackage", package: "swift-system")],
            // Input → Signal → Matching → Guidance → Recording, Simulation beside them, Session over
            // all: each folder's README says what lives there and what it may use.
            exclude: ["Input/README.md", "Signal/README.md", "Matching/README.md", "Guidance/README.md",
                      "Recording/README.md", "Simulation/README.md", "Session/README.md"]
        ),
        // Persistent stores (hazards, ratings, measured roughness) in SQLite through a small
        // wrapper of its own (Sources/SkateStore/SQLite) over the system libsqlite3.
        .target(
            name: "SkateStore",
            dependencies: ["SkateCore", "SkateRide", "CSQLite"]
        ),
        // Model–Update–View terminal UI rendering into an in-memory screen buffer;
        // only the backend file talks to ncurses.
        .target(name: "SkateTUI", dependencies: ["SkateCore", "SkateRide", "SkateStore", "CNcursesw"]),
        // The command-line front: wiring only.
        .executableTarget(
            name: "skateroute",
            dependencies: [
                "SkateCore", "SkateImport", "SkateRide", "SkateStore", "SkateTUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // Helpers shared by the test targets (locating ../shared/data, temporary folders).
        .target(name: "SkateTestSupport", dependencies: ["SkateCore", "SkateImport", "CGeoTIFF", "CCompression"], path: "Tests/SkateTestSupport"),
        .testTarget(name: "SkateCoreTests", dependencies: ["SkateCore", "SkateImport", "SkateTestSupport"]),
        .testTarget(name: "SkateImportTests", dependencies: ["SkateImport", "SkateCore", "SkateTestSupport"]),
        .testTarget(name: "SkateRideTests", dependencies: ["SkateRide", "SkateCore", "SkateImport", "SkateTestSupport"]),
        .testTarget(name: "SkateStoreTests", dependencies: ["SkateStore", "SkateCore", "SkateImport", "SkateRide", "SkateTestSupport"],
                    // Database files read in place by the tests (through #filePath), not bundled.
                    exclude: ["Fixtures"]),
        .testTarget(name: "SkateTUITests", dependencies: ["SkateTUI", "SkateCore", "SkateImport", "SkateStore", "SkateRide", "SkateTestSupport"]),
        .testTarget(name: "SkateRouteCLITests", dependencies: ["skateroute", "SkateCore", "SkateImport", "SkateTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
