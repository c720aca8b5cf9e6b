import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// `make install` as a new user meets it: the installed binary, run from an empty folder with an
/// empty `$XDG_DATA_HOME` and no checkout in sight, plans on the bundled map by name; `make
/// uninstall` takes everything away. Uses `make install-files` with the tests' own build (a nested
/// `swift build` would wait on this test run's lock of .build); `make install` adds the static
/// release build and the man page to exactly these steps.
@Suite(.enabled(if: BuiltCLI.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/make"),
                "needs the built skateroute and make: install test skipped"))
struct InstallCLITests {
    @Test func installedBinaryPlansOnTheBundledMapFromAnywhereAndUninstallRemovesIt() throws {
        let dir = TestData.temporaryDirectory("install")
        defer { try? FileManager.default.removeItem(at: dir) }
        let prefix = dir.appendingPathComponent("prefix"), empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let bin = try #require(BuiltCLI.url).path
        let make = try BuiltCLI.runProgram("/usr/bin/make", ["install-files", "BIN=\(bin)", "PREFIX=\(prefix.path)"], cwd: TestData.projectRoot,
                                environment: ["PATH": "/usr/bin:/bin"])
        #expect(make.status == 0, "\(make.stdout)\(make.stderr)")
        let installed = ["bin/skateroute", "share/skateroute/maps/monaco.srmap", "share/skateroute/maps/ATTRIBUTION.md",
                         "share/bash-completion/completions/skateroute", "share/zsh/site-functions/_skateroute",
                         "share/fish/vendor_completions.d/skateroute.fish"]
        for f in installed { #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(f).path), "\(f) not installed") }

        // A bare environment: an empty home and XDG_DATA_HOME, the current folder empty, no $SKATEROUTE_MAPS.
        let env = ["HOME": dir.appendingPathComponent("home").path, "XDG_DATA_HOME": dir.appendingPathComponent("data").path, "PATH": "/usr/bin:/bin"]
        let exe = prefix.appendingPathComponent("bin/skateroute").path
        let plan = try BuiltCLI.runProgram(exe, ["plan", "--map", "monaco", "--from", "Place du Casino", "--to", "Stade Louis II", "--no-store"], cwd: empty, environment: env)
        #expect(plan.status == 0 && plan.stdout.contains("Place du Casino → Stade Louis II"), "\(plan.stderr)")
        let byDefault = try BuiltCLI.runProgram(exe, ["plan", "--from", "Place du Casino", "--to", "Stade Louis II", "--no-store"], cwd: empty, environment: env)
        #expect(byDefault.status == 0, "\(byDefault.stderr)")
        let maps = try BuiltCLI.runProgram(exe, ["maps", "--json"], cwd: empty, environment: env)
        #expect(maps.stdout.contains(prefix.appendingPathComponent("share/skateroute/maps/monaco.srmap").path), "\(maps.stdout)")
        #expect(!maps.stdout.contains("\"checkout\""), "the installed binary looked in the source checkout: \(maps.stdout)")

        let un = try BuiltCLI.runProgram("/usr/bin/make", ["uninstall", "PREFIX=\(prefix.path)"], cwd: TestData.projectRoot, environment: ["PATH": "/usr/bin:/bin"])
        #expect(un.status == 0, "\(un.stderr)")
        let left = FileManager.default.enumerator(atPath: prefix.path)?.compactMap { $0 as? String }
            .filter { !FileManager.default.fileExists(atPath: prefix.appendingPathComponent($0).path, isDirectory: nil) || !Self.isDirectory(prefix.appendingPathComponent($0)) } ?? []
        #expect(left.isEmpty, "left after uninstall: \(left)")
    }

    static func isDirectory(_ url: URL) -> Bool {
        var d: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &d) && d.boolValue
    }
}
