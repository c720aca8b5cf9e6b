import Foundation
import Testing

/// Locates the real data in `../shared/data` beside the project (override with
/// `SKATEROUTE_SHARED_DATA`) so tests can skip, with a message, on a user's fresh clone without it.
public enum TestData {
    /// The project root (the folder holding Package.swift).
    public static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared/data`, or nil when it is not there.
    public static let sharedDir: URL? = {
        if let env = ProcessInfo.processInfo.environment["SKATEROUTE_SHARED_DATA"], !env.isEmpty {
            return FileManager.default.fileExists(atPath: env) ? URL(fileURLWithPath: env) : nil
        }
        let url = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// The skip message as a test comment: `.enabled(if: TestData.available, TestData.skip)`.
    public static var skip: Comment { Comment(rawValue: skipMessage) }

    /// True when the real data is present.
    public static var available: Bool { sharedDir != nil }

    /// The message a skipped real-data test shows.
    public static let skipMessage = "../shared/data is absent (fresh clone): real-data test skipped; set SKATEROUTE_SHARED_DATA to run it"

    /// Path of a file under `../shared/data`, e.g. `path("maps/monaco-geofabrik-2026/monaco-latest.osm.pbf")`.
    public static func path(_ relative: String) -> String {
        (sharedDir ?? URL(fileURLWithPath: "/nonexistent")).appendingPathComponent(relative).path
    }

    public static var monacoPBF: String { path("maps/monaco-geofabrik-2026/monaco-latest.osm.pbf") }
    public static var monacoXMLBz2: String { path("maps/monaco-geofabrik-2026/monaco-latest.osm.bz2") }
    public static var heidelbergPBF: String { path("maps/heidelberg-ors-2024/heidelberg.test.pbf") }
    public static var monacoDEMFilled: String { path("dem/N43E007-monaco/N43E007.pyhgtmap.hgt") }
    public static var monacoDEMZip: String { path("dem/N43E007-monaco/N43E007.hgt.zip") }
    /// GDAL crops (`gdal_translate -projwin 7.35 43.78 7.55 43.70`) of the two tiles above.
    public static var monacoCropASC: String { path("dem/N43E007-monaco/monaco_crop_srtm3_graphhopper.asc") }
    public static var monacoCropTIF: String { path("dem/N43E007-monaco/monaco_crop_srtm3_graphhopper.tif") }
    public static var monacoCropFilledASC: String { path("dem/N43E007-monaco/monaco_crop_srtm3_pyhgtmap.asc") }

    /// The compiled default map shipped in `Maps/`.
    /// True when the bundled map is in the checkout (it always is in a clone): tests that need
    /// only it run without ../shared/data.
    public static var bundledMapPresent: Bool { FileManager.default.fileExists(atPath: bundledMonaco) }
    public static var bundledSkip: Comment { "Maps/monaco.srmap is absent" }
    public static var bundledMonaco: String { projectRoot.appendingPathComponent("Maps/monaco.srmap").path }

    /// A fresh temporary directory, removed by the caller when done.
    public static func temporaryDirectory(_ label: String = "skateroute") -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
