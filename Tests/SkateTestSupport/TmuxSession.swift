import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tmux server of our own (private socket) running the built binary: keys in, screen out.
public final class TmuxSession {
    public static let tmuxPath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    public static var available: Bool { tmuxPath != nil }

    public let socket = "skateroute-e2e-\(UUID().uuidString.prefix(8))"
    public let name = "e2e"

    /// Where `capture-pane` output lands.
    public let outFile = FileManager.default.temporaryDirectory.appendingPathComponent("skateroute-e2e-\(UUID().uuidString).txt").path

    /// Runs a tmux client command through `posix_spawn` and `waitpid` (Foundation's `Process`
    /// can miss the exit of a client whose forked server lives on). Output goes to a file.
    @discardableResult
    public func tmux(_ args: [String], output: Bool = false) -> (status: Int32, out: String) {
        let q = Self.quoted
        let line = "exec " + ([Self.tmuxPath!, "-L", socket, "-f", "/dev/null"] + args).map(q).joined(separator: " ") +
            " </dev/null 2>/dev/null >" + (output ? q(outFile) : "/dev/null")
        let argv = ["/bin/sh", "-c", line]
        var cargs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &cargs, environ) == 0 else { return (-1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        let out = output ? ((try? String(contentsOfFile: outFile, encoding: .utf8)) ?? "") : ""
        return (code, out)
    }

    /// Starts `command` (a shell line) in a detached session of `width`×`height`.
    public func start(_ command: String, width: Int, height: Int) -> Bool {
        tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", command]).status == 0
    }

    public func screen() -> String {
        let s = tmux(["capture-pane", "-p", "-t", name], output: true).out
        // SKATEROUTE_E2E_TRACE=file keeps the last screen of each poll (debugging a failure).
        if let f = ProcessInfo.processInfo.environment["SKATEROUTE_E2E_TRACE"] { try? s.write(toFile: f, atomically: true, encoding: .utf8) }
        return s
    }
    public func keys(_ k: String...) { tmux(["send-keys", "-t", name] + k) }
    public func type(_ text: String) { tmux(["send-keys", "-t", name, "-l", text]) }

    /// Seconds between two captures of the screen.
    static let pollInterval = 0.1
    /// Captures a screen that meets the predicate may be retaken to see it stand still: tmux can be
    /// captured halfway through a frame (a CI run caught a legend half erased), and an animated
    /// screen never stands still, so after this many the last capture that meets it is returned.
    static let settlePolls = 5

    /// Polls the screen until `predicate` holds on a screen that stands still for one poll (or
    /// has held on `settlePolls` changing captures), or `timeout` seconds pass.
    @discardableResult
    public func wait(_ timeout: Double = 30, _ predicate: (String) -> Bool) -> String {
        let end = Date().addingTimeInterval(timeout)
        var s = screen()
        var settling = 0
        while Date() < end {
            if predicate(s) {
                if settling >= Self.settlePolls { return s }
                settling += 1
            }
            Thread.sleep(forTimeInterval: Self.pollInterval)
            let next = screen()
            if next == s, predicate(s) { return s }
            s = next
        }
        return s
    }

    public init() {}

    /// `s` as one shell word (single quotes; a quote inside becomes `'\\''`).
    public static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Starts the shell line `line` (run by `sh -c`) in a detached session of `width`×`height`.
    public func startShell(_ line: String, width: Int, height: Int) -> Bool {
        start("sh -c " + Self.quoted(line), width: width, height: height)
    }

    /// The shell line that runs the built TUI on the bundled map from `dir`, in a UTF-8 locale on
    /// an xterm-256color terminal, with `arguments` (already shell words) after `--map`.
    public static func tuiLine(in dir: URL, _ arguments: String) -> String {
        "cd \(quoted(dir.path)) && LANG=C.UTF-8 TERM=xterm-256color \(quoted(BuiltCLI.url!.path)) tui --map \(quoted(TestData.bundledMonaco)) " + arguments
    }

    /// A new empty folder for one tmux test (the caller removes it).
    public static func scratchDirectory(_ name: String) throws -> URL {
        let dir = TestData.temporaryDirectory(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    deinit {
        tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: outFile)
    }
}
