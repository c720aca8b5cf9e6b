import Foundation
import SkateTestSupport
import Testing

/// SkateCore as a library another package depends on *by version*, the way SwiftPM's users do:
/// the checkout's files go into a throwaway git repository tagged 1.0.0, a consumer package names
/// it with `.package(url: "file://…", from: "1.0.0")`, builds, and plans a route on the bundled
/// map through `SkateCore` alone. SwiftPM refuses a versioned dependency whose targets carry
/// `unsafeFlags`, so this fails the moment Package.swift grows one again; the consumer's distance
/// must equal the CLI's for the same ends, so a build that links but plans wrongly fails too.
///
/// Builds SkateCore a second time (debug, in the consumer's own `.build`): about a minute on an
/// idle 2-core machine. Needs git and swift on PATH (CI has both) and the built CLI.
@Suite(.enabled(if: BuiltCLI.available && ProgramOnPath.find("git") != nil && ProgramOnPath.find("swift") != nil,
                "needs git, swift and the built skateroute: dependency-package test skipped"))
struct PackageDependencyTests {
    /// The consumer's whole program: load the map, plan, print the distance in metres.
    static let consumerMain = """
        import SkateCore

        let a = CommandLine.arguments
        guard a.count == 6, let la = Double(a[2]), let lo = Double(a[3]), let lb = Double(a[4]), let lob = Double(a[5]) else {
            fatalError("usage: consumer MAP LAT LON LAT LON")
        }
        let map = try MapFormat.load(path: a[1], verification: .always)
        let plan = try Planner(map: map).plan(from: Coordinate(lat: la, lon: lo), to: Coordinate(lat: lb, lon: lob), mode: .smoothest)
        print(plan.distance)
        """

    @Test func aPackageDependingOnSkateCoreByVersionBuildsAndPlans() throws {
        let git = try #require(ProgramOnPath.find("git")), swift = try #require(ProgramOnPath.find("swift"))
        let dir = TestData.temporaryDirectory("dependency")
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = TestData.projectRoot

        // What a commit of this checkout would hold (tracked and new files, not ignored ones).
        let files = try BuiltCLI.runProgram(git, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd: root)
        try #require(files.status == 0, "\(files.stderr)")
        let lib = dir.appendingPathComponent("skateroute")
        for path in files.stdout.split(separator: "\0").map(String.init) where !path.isEmpty {
            let src = root.appendingPathComponent(path), dst = lib.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: src.path) else { continue }  // deleted, not yet staged
            try FileManager.default.createDirectory(at: dst.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: src, to: dst)
        }
        for args in [["init", "-q"], ["add", "-A"],
                     ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "snapshot"], ["tag", "1.0.0"]] {
            let r = try BuiltCLI.runProgram(git, args, cwd: lib)
            try #require(r.status == 0, "git \(args.joined(separator: " ")): \(r.stderr)")
        }

        let consumer = dir.appendingPathComponent("consumer")
        try FileManager.default.createDirectory(at: consumer.appendingPathComponent("Sources/consumer"), withIntermediateDirectories: true)
        try """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "consumer",
                dependencies: [.package(url: "\(lib.absoluteString)", from: "1.0.0")],
                targets: [.executableTarget(name: "consumer", dependencies: [.product(name: "SkateCore", package: "skateroute")])]
            )
            """.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try Self.consumerMain.write(to: consumer.appendingPathComponent("Sources/consumer/main.swift"), atomically: true, encoding: .utf8)

        let build = try BuiltCLI.runProgram(swift, ["build", "--product", "consumer"], cwd: consumer)
        #expect(!build.stderr.contains("unsafe build flags") && !build.stdout.contains("unsafe build flags"),
                "SwiftPM refused SkateCore as a dependency: \(build.stdout.suffix(800))\(build.stderr.suffix(800))")
        try #require(build.status == 0, "consumer build failed: \(build.stdout.suffix(1500))\(build.stderr.suffix(1500))")

        // Casino → Stade Louis II by coordinates, on the shipped map.
        let map = root.appendingPathComponent("Maps/monaco.srmap").path
        let ends = ["43.7396", "7.4275", "43.7275", "7.4155"]
        let out = try BuiltCLI.runProgram(consumer.appendingPathComponent(".build/debug/consumer").path, [map] + ends, cwd: consumer)
        try #require(out.status == 0, "consumer run failed: \(out.stderr)")
        let distance = try #require(Double(out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "not a distance: \(out.stdout)")

        let cli = try BuiltCLI.run(["plan", "--map", map, "--from", "\(ends[0]),\(ends[1])", "--to", "\(ends[2]),\(ends[3])",
                                    "--mode", "smoothest", "--format", "json", "--no-store"])
        try #require(cli.status == 0, "\(cli.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])
        let cliDistance = try #require(json["distance_m"] as? Double, "no distance_m in \(cli.stdout.prefix(300))")
        #expect(distance > 500, "a Casino → Stade Louis II route of \(distance) m")
        #expect(abs(distance - cliDistance) < 0.5, "the library planned \(distance) m, the CLI \(cliDistance) m")
    }
}

/// Programs found on `$PATH`.
enum ProgramOnPath {
    /// The full path of `name` on PATH, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
