import Foundation
import SkateCore
import SkateTestSupport
import Testing

/// Issue 29 row 7: a store the rider may not write (a `chmod -w` data folder) still answers the
/// commands that only read — `hazards list`, `hazards export`, `places list`, `plan` — and a
/// command that writes says so in one line, the store untouched.
///
/// As root `chmod` changes nothing (root writes anyway): the test then runs the commands as
/// `nobody` through `setpriv` on a root-owned folder, which is the same situation; without
/// `setpriv` it skips.
@Suite(.enabled(if: BuiltCLI.available, BuiltCLI.skip))
struct ReadOnlyStoreCLITests {
    static let bundled = TestData.bundledMonaco

    /// How to run the CLI as someone who cannot write `dir`, or nil (then the test skips).
    static func readOnlyRunner(_ dir: URL) throws -> ((_ args: [String]) throws -> BuiltCLI.Result)? {
        if getuid() != 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
            let probe = dir.appendingPathComponent("probe")
            if FileManager.default.createFile(atPath: probe.path, contents: Data()) { try? FileManager.default.removeItem(at: probe); return nil }
            return { try BuiltCLI.run($0) }
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return nil }
        // The folder stays root's (0755): nobody reads it and cannot write it; its state folder is its own.
        let state = TestData.temporaryDirectory("ro-store-nobody")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: state.path)
        return { args in
            try BuiltCLI.run(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", BuiltCLI.url!.path] + args,
                             viaExecutable: "/usr/bin/setpriv",
                             environment: ["XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": state.path, "HOME": state.path])
        }
    }

    @Test func readingCommandsWorkOnAReadOnlyStore() throws {
        let dir = TestData.temporaryDirectory("ro-store")
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
            try? FileManager.default.removeItem(at: dir)
        }
        let data = ["--data-dir", dir.path]
        let add = try BuiltCLI.run(["places", "add", "Half pipe", "--at", "43.7384,7.4246", "--map", Self.bundled] + data)
        try #require(add.status == 0, "\(add.stderr)")
        let report = try BuiltCLI.run(["hazards", "add", "--kind", "gravel", "--at", "43.7390,7.4250", "--map", Self.bundled] + data)
        try #require(report.status == 0, "\(report.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        guard let asReader = try Self.readOnlyRunner(dir) else {
            print("skipped: this user writes a chmod -w folder anyway and setpriv is absent")
            return
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()

        let places = try asReader(["places", "list", "--map", Self.bundled] + data)
        #expect(places.status == 0 && places.stdout.contains("Half pipe"), "\(places.stderr)")
        let hazards = try asReader(["hazards", "list"] + data)
        #expect(hazards.status == 0 && hazards.stdout.contains("gravel"), "\(hazards.stderr)")
        let export = try asReader(["hazards", "export"] + data)
        #expect(export.status == 0 && export.stdout.contains("gravel"), "\(export.stderr)")
        let plan = try asReader(["plan", "--map", Self.bundled, "--from", "Place du Casino", "--to", "Stade Louis II"] + data)
        #expect(plan.status == 0 && !plan.stdout.isEmpty, "\(plan.stderr)")
        for r in [places, hazards, export, plan] { #expect(!r.stderr.contains("lock file"), "\(r.stderr)") }

        // A write is refused in one line, and nothing in the folder changed.
        let write = try asReader(["places", "add", "Ledge", "--at", "43.7385,7.4247", "--map", Self.bundled] + data)
        #expect(write.status != 0 && !write.killed)
        #expect(write.stderr.split(separator: "\n").count == 1, "\(write.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == before)
    }
}

extension BuiltCLI {
    /// Runs `args` (the first being `executable`'s own arguments' start) with `executable`
    /// instead of the CLI, in the CLI's isolated environment.
    static func run(_ args: [String], viaExecutable executable: String, environment: [String: String]) throws -> Result {
        let (p, out, err) = try launch(URL(fileURLWithPath: executable), Array(args.dropFirst()), cwd: nil,
                                       environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
        return finish(p, out, err)
    }
}
