import Foundation

/// Whole-process `skateroute plan` against Debian's `routino-router` on the same pair and the same
/// OSM extract, in one run: the two commands alternate, so a change in machine load hits both.
struct PeerBenchmark {
    /// Jardin Exotique area → Stade Louis II, the pair the issue's figures use (lat, lon).
    static let from = (lat: 43.7341, lon: 7.4149)
    static let to = (lat: 43.7260, lon: 7.4142)
    /// Warm-up runs of each command before timing (page cache, first-run effects).
    static let warmups = 5

    let pbf: String
    let runs: Int
    let selfPath: String
    let mapPath: String

    /// The first executable called `name` on $PATH, if any.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let p = "\(dir)/\(name)"
            if access(p, X_OK) == 0 { return p }
        }
        return nil
    }

    /// Runs a command with output to /dev/null; wall seconds from spawn to exit, or nil when it
    /// failed. posix_spawn + waitpid directly: Foundation's Process waits on a run loop that adds
    /// tens of milliseconds, far more than the commands take.
    static func time(_ exe: String, _ args: [String]) -> Double? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([exe] + args).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let t0 = BenchCommand.now()
        guard posix_spawn(&pid, exe, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let t = BenchCommand.now() - t0
        // Exited normally with status 0 (WIFEXITED && WEXITSTATUS == 0).
        return (status & 0x7F) == 0 && ((status >> 8) & 0xFF) == 0 ? t : nil
    }

    /// Prints the comparison, or why it was skipped.
    func run(tmp: URL) {
        guard let router = Self.which("routino-router"), let splitter = Self.which("planetsplitter") else {
            print("peer: routino-router/planetsplitter not installed (apt-get install routino); comparison skipped")
            return
        }
        let dir = tmp.appendingPathComponent("routino").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let tagging = "/usr/share/routino/tagging.xml"
        guard Self.time(splitter, ["--dir=\(dir)", "--prefix=monaco", "--tagging=\(tagging)", pbf]) != nil else {
            print("peer: planetsplitter failed on \(pbf); comparison skipped")
            return
        }
        let routinoArgs = ["--dir=\(dir)", "--prefix=monaco", "--profiles=/usr/share/routino/profiles.xml",
                           "--translations=/usr/share/routino/translations.xml", "--transport=foot",
                           "--lat1=\(Self.from.lat)", "--lon1=\(Self.from.lon)", "--lat2=\(Self.to.lat)", "--lon2=\(Self.to.lon)",
                           "--quickest", "--output-text", "--output-stdout"]
        let a = "\(Self.from.lat),\(Self.from.lon)", b = "\(Self.to.lat),\(Self.to.lon)"
        let commands: [(String, String, [String])] = [
            ("routino-router --transport=foot --quickest", router, routinoArgs),
            ("skateroute plan (smoothest)", selfPath, ["plan", "--from", a, "--to", b, "--map", mapPath, "--no-store"]),
            ("skateroute plan --mode fastMildRoughness", selfPath, ["plan", "--from", a, "--to", b, "--map", mapPath, "--no-store", "--mode", "fastMildRoughness"]),
        ]
        var times = [[Double]](repeating: [], count: commands.count)
        for i in 0..<(Self.warmups + runs) {
            for (k, c) in commands.enumerated() {
                guard let t = Self.time(c.1, c.2) else {
                    print("peer: \(c.0) failed; comparison skipped")
                    return
                }
                if i >= Self.warmups { times[k].append(t) }
            }
        }
        let base = BenchCommand.median(times[0])
        for (k, c) in commands.enumerated() {
            let med = BenchCommand.median(times[k])
            print(String(format: "whole process, %@: median %.2f ms, min %.2f ms (%d runs, alternating)%@", c.0, med * 1000,
                         (times[k].min() ?? 0) * 1000, times[k].count, k == 0 ? "" : String(format: " — %.2f× routino", med / base)))
        }
    }
}
