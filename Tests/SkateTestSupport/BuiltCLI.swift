import Foundation
import Testing

/// The built `skateroute` executable beside this test bundle (`.build/<config>/`), or the one in
/// `$SKATEROUTE_BIN`'s folder, or nil.
public enum BuiltCLI {
    public static let url: URL? = {
        var candidates: [URL] = []
        // An explicit override (e.g. a release build elsewhere).
        if let env = ProcessInfo.processInfo.environment["SKATEROUTE_BIN"], !env.isEmpty {
            candidates.append(URL(fileURLWithPath: env).deletingLastPathComponent())
        }
        if let exe = Bundle.main.executableURL { candidates.append(exe.deletingLastPathComponent()) }
        let arg0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(arg0.deletingLastPathComponent())
        // Inside an .xctest bundle directory (macOS layout): …/debug/X.xctest/Contents/MacOS/X.
        var up = arg0
        for _ in 0..<4 {
            up.deleteLastPathComponent()
            if up.pathExtension == "xctest" { candidates.append(up.deletingLastPathComponent()) }
        }
        candidates.append(TestData.projectRoot.appendingPathComponent(".build/debug"))
        return candidates.map { $0.appendingPathComponent("skateroute") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    public static var available: Bool { url != nil }
    /// Skip comment for suites that need the binary.
    public static var skip: Comment { Comment(rawValue: skipMessage) }
    public static let skipMessage = "the skateroute executable is not built beside the tests (run `swift build` first): process test skipped"

    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var killed: Bool
    }

    /// An empty folder standing in for `$XDG_CONFIG_HOME` and `$XDG_STATE_HOME` in every CLI run
    /// (unless a test gives its own): the rider's settings file and last-used map on this machine
    /// must not change what a test's command does, and a test's `--map NAME` must not become the
    /// machine's default map.
    public static let isolatedHome: String = {
        let dir = TestData.temporaryDirectory("skateroute-xdg")
        return dir.path
    }()

    /// Starts the CLI; the caller waits or kills. `environment` adds to (or overrides) the
    /// test's own, with `XDG_CONFIG_HOME` and `XDG_STATE_HOME` set to `isolatedHome` by default.
    public static func start(_ args: [String], environment: [String: String] = [:]) throws -> (Process, Pipe, Pipe) {
        let isolation = ["XDG_CONFIG_HOME": isolatedHome + "/config", "XDG_STATE_HOME": isolatedHome + "/state"]
        return try launch(url!, args, cwd: nil,
                          environment: ProcessInfo.processInfo.environment.merging(isolation) { _, new in new }.merging(environment) { _, new in new })
    }

    /// Starts `exe` with `args` in `cwd` (the test's own when nil) with exactly `environment`,
    /// stdin empty, stdout and stderr piped; the caller waits (`finish`) or kills.
    public static func launch(_ exe: URL, _ args: [String], cwd: URL?, environment: [String: String]) throws -> (Process, Pipe, Pipe) {
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        if let cwd { p.currentDirectoryURL = cwd }
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return (p, out, err)
    }

    public static func finish(_ p: Process, _ out: Pipe, _ err: Pipe) -> Result {
        // Drain both pipes before waiting: a child blocked on a full pipe would never exit.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: errBox.data, as: UTF8.self), killed: p.terminationReason == .uncaughtSignal)
    }

    /// Runs any program to the end in `cwd` with exactly `environment` (the test's own when nil),
    /// stdin empty; stdout and stderr come back whole.
    public static func runProgram(_ exe: String, _ args: [String], cwd: URL, environment: [String: String]? = nil) throws -> Result {
        let (p, out, err) = try launch(URL(fileURLWithPath: exe), args, cwd: cwd, environment: environment ?? ProcessInfo.processInfo.environment)
        return finish(p, out, err)
    }

    /// Runs the CLI to the end; `environment` adds to (or overrides) the test's own.
    public static func run(_ args: [String], environment: [String: String] = [:]) throws -> Result {
        let (p, o, e) = try start(args, environment: environment)
        return finish(p, o, e)
    }
}

