// swift-tools-version:6.0
// SkateRoute — a terminal navigator for skateboards and other small hard wheels.
//
// Linux only. CI builds and tests on Debian with Swift 6; macOS is neither built nor tested, so
// the package declares no Apple platform (it used to claim macOS 13, which the Synchronization
// module and the ncursesw link name never met). The Linux-only calls are guarded where they
// are made (MAP_POPULATE, /proc) so a port starts from a clean list.
import PackageDescription

/// Hot-code layout of the release executable. A plan runs ~1 MB of the binary's 23 MB of code,
/// but scattered: the kernel maps up to 64 KB around each page fault, so the scattered functions
/// cost ~8 MB of resident pages. Each function gets its own section (`-function-sections`) and
/// lld places the ones listed in `hot-symbols.order` (made by `scripts/hot-symbols.sh` from
/// callgrind runs of plans, `--help` and `--version`; what every plan runs first) side by side:
/// a Monaco plan's peak RSS 14.7 → 8.9 MB with the other memory work of issue 16, the answers
/// byte-identical (README). Release builds only; lld ships with the Swift toolchain. SwiftPM
/// does not relink when only the list changes: remove the release binary first.
let hotCodeLayout = (
    swift: [SwiftSetting.unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release))],
    linker: [LinkerSetting.unsafeFlags(
        ["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/skateroute/hot-symbols.order",
         "-Xlinker", "--no-warn-symbol-ordering"],
        .when(platforms: [.linux], configuration: .release))]
)

let package = Package(
    name: "SkateRoute",
    products: [
        .executable(name: "skateroute", targets: ["skateroute"]),
        .library(name: "SkateCore", targets: ["SkateCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
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
        // Pure engines: geometry, the map model and its compiled format, routing, plans, stores'
        // protocols. Knows nothing of terminals, SQLite or the CLI.
        .target(
            name: "SkateCore",
            dependencies: [
                "CCompression",
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: hotCodeLayout.swift
        ),
        // OSM (PBF, XML, XML.bz2) and DEM (SRTM, ESRI ASCII grid, GeoTIFF) readers and the map compiler. A module of its own so
        // the app's hot paths never link the importer's parsers' details into Core.
        .target(name: "SkateImport", dependencies: ["SkateCore", "CCompression", "CGeoTIFF"], swiftSettings: hotCodeLayout.swift),
        // Ride engines on a simulation clock: GPX and motion readers, roughness, matcher, cues,
        // recorder, synthesizer.
        .target(
            name: "SkateRide",
            dependencies: ["SkateCore", .product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: hotCodeLayout.swift
        ),
        // Persistent stores (hazards, ratings, measured roughness) in SQLite through a small
        // wrapper of its own (Sources/SkateStore/SQLite) over the system libsqlite3.
        .target(
            name: "SkateStore",
            dependencies: ["SkateCore", "SkateRide", "CSQLite"],
            swiftSettings: hotCodeLayout.swift
        ),
        // Model–Update–View terminal UI rendering into an in-memory screen buffer;
        // only the backend file talks to ncurses.
        .target(name: "SkateTUI", dependencies: ["SkateCore", "SkateRide", "SkateStore", "CNcursesw"], swiftSettings: hotCodeLayout.swift),
        // The command-line front: wiring only.
        .executableTarget(
            name: "skateroute",
            dependencies: [
                "SkateCore", "SkateImport", "SkateRide", "SkateStore", "SkateTUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // A position-dependent release executable: the loader then applies none of the ~100,000
            // relative relocations a PIE of this size carries, which saves ~250 page faults and
            // ~1.4 ms on every process start (measured on `skateroute --help`). Debug and test
            // builds stay PIE.
            exclude: ["hot-symbols.order"],
            swiftSettings: hotCodeLayout.swift,
            linkerSettings: [.unsafeFlags(["-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release))]
                + hotCodeLayout.linker
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
