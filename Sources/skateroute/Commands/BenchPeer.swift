import FoundationEssentials
import Glibc
import SkateCore

/// Whole-process `skateroute plan` against Debian's `routino-router` on the same pair and the same
/// OSM extract, in one run: the two commands alternate, so a change in machine load hits both.
struct PeerBenchmark {
    /// A map for the comparison: its OSM extract (for Routino), its `.srmap` and its pairs.
    struct MapSet {
        var name: String
        var pbf: String
        var srmap: String
        var pairs: [(from: Coordinate, to: Coordinate, label: String)]
    }

    /// Monaco: Jardin Exotique → Stade Louis II (the pair), Port Hercule → Monaco-Ville,
    /// Larvotto → La Condamine (the pairs of `MonacoRoutingTests`).
    static let monacoPairs: [(from: Coordinate, to: Coordinate, label: String)] = [
        (Coordinate(lat: 43.7341, lon: 7.4149), Coordinate(lat: 43.7260, lon: 7.4142), "Jardin Exotique → Stade Louis II"),
        (Coordinate(lat: 43.7396, lon: 7.4275), Coordinate(lat: 43.7310, lon: 7.4200), "Port Hercule → Monaco-Ville"),
        (Coordinate(lat: 43.7485, lon: 7.4375), Coordinate(lat: 43.7380, lon: 7.4245), "Larvotto → La Condamine"),
    ]
    /// Heidelberg: three cross-town pairs of 4–9 km (the lengths the issue measured; each one
    /// Routino routes by foot and by bicycle).
    static let heidelbergPairs: [(from: Coordinate, to: Coordinate, label: String)] = [
        (Coordinate(lat: 49.4300, lon: 8.6850), Coordinate(lat: 49.3800, lon: 8.6870), "Handschuhsheim → Rohrbach"),
        (Coordinate(lat: 49.4000, lon: 8.6400), Coordinate(lat: 49.4093, lon: 8.6936), "Pfaffengrund → Bismarckplatz"),
        (Coordinate(lat: 49.4175, lon: 8.6690), Coordinate(lat: 49.3850, lon: 8.7000), "Neuenheimer Feld → Südstadt"),
    ]
    /// Warm-up runs of each command before timing (page cache, first-run effects).
    static let warmups = 3
    /// A little over `VerifiedMaps.settleSeconds` (1 s): a map younger than that is hashed on
    /// every load, as one still being written might be.
    static let settleMicroseconds: UInt32 = 1_100_000
    /// Runs per command for the peak RSS (it varies by a page or two between runs).
    static let rssRuns = 5

    let runs: Int
    var selfPath: String

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

    /// GNU time, which reports a command's peak RSS (`%M`, KB).
    static let gnuTime = "/usr/bin/time"

    /// A command's peak resident set in KB, through `/usr/bin/time -f %M`, or nil. Not from this
    /// process's wait4: a child spawned from the bench starts on the bench's own memory (vfork),
    /// and the kernel carries that high-water mark (~120 MB) across the exec into ru_maxrss.
    /// GNU time is a ~1 MB process, below every command measured.
    static func peakKB(_ exe: String, _ args: [String], scratch: String) -> Int? {
        guard time(gnuTime, ["-f", "%M", "-o", scratch, exe] + args) != nil,
              let text = try? String(contentsOfFile: scratch, encoding: .utf8) else { return nil }
        return text.split(whereSeparator: \.isNewline).last.flatMap { Int($0.trimmingWhitespace()) }
    }

    /// Drops a just-written file's pages from the page cache, so the runs map pages the read path
    /// brought in, as for a file written long ago. Pages left by the writer can be large folios
    /// that one fault maps whole: right after `import`, a Heidelberg plan's peak was 21 MB, after
    /// this 16 MB; Routino's database files get the same treatment.
    static func evictFromPageCache(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = fdatasync(fd)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
    }

    /// Copies a file over any older copy; false when it could not.
    static func copy(_ path: String, to target: String) -> Bool {
        try? FileManager.default.removeItem(atPath: target)
        return (try? FileManager.default.copyItem(atPath: path, toPath: target)) != nil
    }

    /// Prints the comparison per map and pair, or why it was skipped.
    func run(tmp: URL, sets: [MapSet]) {
        guard let router = Self.which("routino-router"), let splitter = Self.which("planetsplitter") else {
            print("peer: routino-router/planetsplitter not installed (apt-get install routino); comparison skipped")
            return
        }
        // The plans run from a copy of this binary, evicted like the maps: a binary the linker (or
        // `install`) just wrote sits in the page cache as the writes left it, which cost a Monaco
        // plan ~2 ms and 0.5 MB more than the same file read back (measured right after a build).
        var me = self
        let exe = tmp.appendingPathComponent("skateroute-peer").path
        if Self.copy(selfPath, to: exe) {
            chmod(exe, 0o755)
            Self.evictFromPageCache(exe)
            me.selfPath = exe
        }
        me.runSets(tmp: tmp, sets: sets, router: router, splitter: splitter)
    }

    func runSets(tmp: URL, sets: [MapSet], router: String, splitter: String) {
        for set in sets {
            let dir = tmp.appendingPathComponent("routino-\(set.name)").path
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let tagging = "/usr/share/routino/tagging.xml"
            guard Self.time(splitter, ["--dir=\(dir)", "--prefix=map", "--tagging=\(tagging)", set.pbf]) != nil else {
                print("peer: planetsplitter failed on \(set.pbf); \(set.name) skipped")
                continue
            }
            // A copy no process maps (the bench keeps its own import mapped, and mapped pages stay
            // cached), so the eviction takes and the plans read the file as they would any day.
            var set = set
            let copy = dir + "/" + URL(fileURLWithPath: set.srmap).lastPathComponent
            if Self.copy(set.srmap, to: copy) {
                set.srmap = copy
                // Past the age at which a verified load records the file's stamp, then one load
                // that hashes it (MAP_POPULATE) before the eviction below: pages a populate read
                // in are large folios that later faults map whole (a Heidelberg plan's peak
                // 21.9 MB instead of 16.4 MB until the cache drops them).
                usleep(Self.settleMicroseconds)
                _ = Self.time(selfPath, ["map", "info", "--map", copy])
            }
            for f in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] {
                Self.evictFromPageCache(dir + "/" + f)
            }
            for pair in set.pairs {
                runPair(set: set, pair: pair, routino: router, dir: dir)
            }
        }
    }

    /// Alternating runs of Routino (foot, bicycle) and `skateroute plan` (two modes) on one pair.
    func runPair(set: MapSet, pair: (from: Coordinate, to: Coordinate, label: String), routino: String, dir: String) {
        func routinoArgs(_ transport: String) -> [String] {
            ["--dir=\(dir)", "--prefix=map", "--profiles=/usr/share/routino/profiles.xml",
             "--translations=/usr/share/routino/translations.xml", "--transport=\(transport)",
             "--lat1=\(pair.from.lat)", "--lon1=\(pair.from.lon)", "--lat2=\(pair.to.lat)", "--lon2=\(pair.to.lon)",
             "--quickest", "--output-text", "--output-stdout"]
        }
        let a = "\(pair.from.lat),\(pair.from.lon)", b = "\(pair.to.lat),\(pair.to.lon)"
        let plan = ["plan", "--from", a, "--to", b, "--map", set.srmap, "--no-store"]
        let commands: [(String, String, [String])] = [
            ("routino foot", routino, routinoArgs("foot")),
            ("routino bicycle", routino, routinoArgs("bicycle")),
            ("skateroute smoothest", selfPath, plan),
            ("skateroute fastMildRoughness", selfPath, plan + ["--mode", "fastMildRoughness"]),
        ]
        var times = [[Double]](repeating: [], count: commands.count)
        for i in 0..<(Self.warmups + runs) {
            for (k, c) in commands.enumerated() {
                guard let t = Self.time(c.1, c.2) else {
                    print("peer \(set.name) \(pair.label): \(c.0) failed; pair skipped")
                    return
                }
                if i >= Self.warmups { times[k].append(t) }
            }
        }
        let med = times.map { BenchCommand.median($0) }
        var line = "peer \(set.name) \(pair.label) (\(runs) alternating runs, medians):"
        for (k, c) in commands.enumerated() { line += String(printf: " %@ %.2f ms;", c.0, med[k] * 1000) }
        for k in 2..<commands.count {
            line += String(printf: " %@ = %.2f× foot, %.2f× bicycle;", commands[k].0, med[k] / med[0], med[k] / med[1])
        }
        print(line)
        guard access(Self.gnuTime, X_OK) == 0 else {
            print("peer \(set.name) \(pair.label) peak RSS: \(Self.gnuTime) not installed (apt-get install time); skipped")
            return
        }
        let scratch = dir + "/peak-rss.txt"
        var peaks = [[Double]](repeating: [], count: commands.count)
        for _ in 0..<Self.rssRuns {
            for (k, c) in commands.enumerated() {
                if let kb = Self.peakKB(c.1, c.2, scratch: scratch) { peaks[k].append(Double(kb)) }
            }
        }
        guard peaks.allSatisfy({ !$0.isEmpty }) else { print("peer \(set.name) \(pair.label) peak RSS: a run failed; skipped"); return }
        let peak = peaks.map { BenchCommand.median($0) / 1024 }
        var mem = "peer \(set.name) \(pair.label) peak RSS (\(Self.rssRuns) alternating runs, medians):"
        for (k, c) in commands.enumerated() { mem += String(printf: " %@ %.1f MB;", c.0, peak[k]) }
        for k in 2..<commands.count {
            mem += String(printf: " %@ = %.2f× foot, %.2f× bicycle;", commands[k].0, peak[k] / peak[0], peak[k] / peak[1])
        }
        print(mem)
    }
}
