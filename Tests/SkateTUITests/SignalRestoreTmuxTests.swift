import Foundation
import SkateTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Every signal that can be caught and whose default action ends the process leaves the
/// terminal as it was: out of the alternate screen, cursor shown, exit status 128 + signal.
/// Issue 29 found SIGQUIT (Ctrl-\), SIGUSR1/2, SIGALRM and SIGPIPE left the pane in the
/// alternate screen with the cursor hidden; tmux's own pane flags are the reference here.
@Suite(.serialized, .enabled(if: TmuxSession.available, "tmux is not installed: signal restore test skipped"),
       .enabled(if: BuiltCLI.available, BuiltCLI.skip),
       .enabled(if: FileManager.default.fileExists(atPath: TestData.bundledMonaco), "Maps/monaco.srmap is absent"))
struct SignalRestoreTmuxTests {
    @Test(arguments: [("QUIT", SIGQUIT), ("USR1", SIGUSR1), ("USR2", SIGUSR2), ("ALRM", SIGALRM), ("PIPE", SIGPIPE), ("TERM", SIGTERM)])
    func signalRestoresTheTerminal(name: String, number: Int32) throws {
        let dir = try TmuxSession.scratchDirectory("tui-signal-\(name)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("pid").path
        let status = dir.appendingPathComponent("status").path
        let q = TmuxSession.quoted
        // The inner shell writes its pid and becomes the TUI, so that pid is the TUI's; the
        // outer shell records the exit status and keeps the pane open for tmux to inspect.
        let inner = "echo $$ > \(q(pidFile)); exec env LANG=C.UTF-8 TERM=xterm-256color \(q(BuiltCLI.url!.path)) tui --map \(q(TestData.bundledMonaco)) --no-store"
        let outer = "sh -c \(q(inner)); echo $? > \(q(status)); sleep 60"
        let t = TmuxSession()
        try #require(t.startShell(outer, width: 100, height: 30))
        let s = t.wait { $0.contains("Plan a route") }
        try #require(s.contains("Plan a route"), Comment(rawValue: s))
        // The TUI is in the alternate screen now: the reference reading must see it.
        #expect(t.tmux(["display-message", "-p", "-t", t.name, "#{alternate_on}"], output: true).out.hasPrefix("1"))
        let pidText = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(pid_t(pidText))
        #expect(kill(pid, number) == 0)
        let end = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: status), Date() < end { Thread.sleep(forTimeInterval: 0.1) }
        Thread.sleep(forTimeInterval: 0.2)
        let code = (try? String(contentsOfFile: status, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code == "\(128 + number)", "SIG\(name): exit status \(code ?? "missing")")
        let flags = t.tmux(["display-message", "-p", "-t", t.name, "#{alternate_on} #{cursor_flag}"], output: true).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(flags == "0 1", "SIG\(name): after exit the pane reads alternate_on cursor_flag = '\(flags)', want '0 1'")
    }
}
