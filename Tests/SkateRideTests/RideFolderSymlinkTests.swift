import Foundation
import SkateRide
import SkateTestSupport
import Testing

/// A ride folder cannot reach outside itself through symbolic links (issue 29, row 4): the
/// inside-the-folder check runs on resolved paths, the refusal names the path and never quotes
/// the file's contents; a link that stays inside is still followed.
@Suite struct RideFolderSymlinkTests {
    /// A ride folder beside an "outside" folder holding a secret GPX file.
    func layout(_ label: String) throws -> (ride: URL, outside: URL) {
        let root = TestData.temporaryDirectory("ride-symlink-\(label)")
        let ride = root.appendingPathComponent("ride"), outside = root.appendingPathComponent("outside")
        for d in [ride, outside] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        _ = FileManager.default.createFile(atPath: outside.appendingPathComponent("secret.gpx").path,
                                           contents: Data("SECRET-FIRST-LINE\n".utf8))
        _ = FileManager.default.createFile(atPath: ride.appendingPathComponent("fixes.gpx").path, contents: Data("<gpx/>".utf8))
        return (ride, outside)
    }

    func manifest(_ dir: URL, gpx: String) {
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("ride.json").path,
                                           contents: Data("{\"gpx\":\"\(gpx)\"}".utf8))
    }

    @Test func symlinkedDirectoryOutsideIsRefused() throws {
        let (ride, outside) = try layout("dir")
        try FileManager.default.createSymbolicLink(atPath: ride.appendingPathComponent("etc").path, withDestinationPath: outside.path)
        manifest(ride, gpx: "etc/secret.gpx")
        do {
            _ = try RideFolder.open(ride.path)
            Issue.record("a symlink out of the ride folder was followed")
        } catch let e as RideFolderError {
            guard case .outsideFolder = e else { Issue.record("wrong error: \(e)"); return }
            #expect(e.description.contains("etc/secret.gpx") && !e.description.contains("SECRET"))
        }
        // With permission, the same manifest reads.
        #expect(try RideFolder.open(ride.path, allowOutsidePaths: true).gpxPath.hasSuffix("etc/secret.gpx"))
    }

    @Test func linkThenDotDotIsRefused() throws {
        let (ride, outside) = try layout("dotdot")
        // `link/..` is textually inside (depth 0) but resolves to the link target's parent.
        let deep = outside.appendingPathComponent("deep")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: ride.appendingPathComponent("link").path, withDestinationPath: deep.path)
        manifest(ride, gpx: "link/../secret.gpx")
        #expect(throws: RideFolderError.self) { try RideFolder.open(ride.path) }
    }

    @Test func symlinkInsideTheFolderIsFollowed() throws {
        let (ride, _) = try layout("inside")
        try FileManager.default.createSymbolicLink(atPath: ride.appendingPathComponent("track.gpx").path, withDestinationPath: "fixes.gpx")
        manifest(ride, gpx: "track.gpx")
        #expect(try RideFolder.open(ride.path).gpxPath.hasSuffix("track.gpx"))
    }
}
