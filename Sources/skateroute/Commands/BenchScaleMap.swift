import FoundationEssentials
import Glibc
import SkateCore
import SkateTUI

/// `bench --scale K --scale-map FILE`: the route figures of `--scale` on a region already
/// imported (a K = 7 import is minutes of CPU; the routes are what a change to the router moves),
/// broken down by mode and by the trip's straight-line length, with the slowest plans listed so
/// they can be profiled one by one (`plan --from … --to … --mode …`).
extension ScaleBenchmark {
    /// Upper ends (straight-line metres) of the trip bands the figures are split by.
    static let tripBands: [Double] = [5_000, 10_000, 20_000]
    /// Slowest plans listed (mode, ends, time, A* work).
    static let slowestListed = 12

    /// One timed plan.
    struct TimedPlan {
        var mode: RideMode
        var from: Coordinate, to: Coordinate
        var seconds: Double
        var settled: Int, searches: Int
        var failed: Bool
    }

    /// Routes `pairs` seeded trips ≤ 20 km × every mode on `path` (timed by `clock`), then
    /// `planRuns` whole-process plans; prints the figures.
    func routeFigures(mapPath path: String, tmp: String, clock: () -> Double) throws {
        print("scale map \(path): load average at start \(Self.loadAverage())")
        let cache = tmp + "/verified-maps"
        mkdir(cache, 0o755)
        setenv("SKATEROUTE_CACHE_DIR", cache, 1)
        let tl = BenchCommand.now()
        let map = try MapFormat.load(path: path)
        print(String(printf: "  load %.1f ms (first use in this cache: the whole-file checksum); %d graph nodes, %d edges",
                     (BenchCommand.now() - tl) * 1000, map.nodeCount, map.edgeCount))
        let od = tripPairs(map: map)
        let planner = Planner(map: map)
        var runs: [TimedPlan] = []
        for mode in Self.modes {
            let router = planner.router(for: mode)
            for (a, b) in od {
                let n0 = SearchCounters.searches, k0 = SearchCounters.settled
                let s = clock()
                var failed = false
                do { _ = try planner.plan(from: try router.snap(a), to: try router.snap(b), router: router, mode: mode) } catch { failed = true }
                let t = clock() - s
                runs.append(TimedPlan(mode: mode, from: a, to: b, seconds: t, settled: SearchCounters.settled - k0,
                                      searches: SearchCounters.searches - n0, failed: failed))
            }
        }
        func line(_ label: String, _ rs: [TimedPlan]) {
            guard !rs.isEmpty else { return }
            let t = rs.map(\.seconds), k = rs.map { Double($0.settled) }
            print(String(printf: "  %@ (%d plans): p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.1f ms; states settled p50 %.0f, p99 %.0f; %d failed",
                         label, rs.count, BenchCommand.percentile(t, 0.5) * 1000, BenchCommand.percentile(t, 0.9) * 1000,
                         BenchCommand.percentile(t, 0.99) * 1000, (t.max() ?? 0) * 1000,
                         BenchCommand.percentile(k, 0.5), BenchCommand.percentile(k, 0.99), rs.filter(\.failed).count))
        }
        line("all modes", runs)
        for mode in Self.modes { line(mode.rawValue, runs.filter { $0.mode == mode }) }
        var lower = 0.0
        for upper in Self.tripBands {
            line(String(printf: "trips %.0f-%.0f km", lower / 1000, upper / 1000), runs.filter {
                let d = Geo.distance($0.from, $0.to)
                return d > lower && d <= upper
            })
            lower = upper
        }
        print("  slowest plans:")
        for r in runs.sorted(by: { $0.seconds > $1.seconds }).prefix(Self.slowestListed) {
            print(String(printf: "    %8.1f ms  %@ --from %.7f,%.7f --to %.7f,%.7f  (%.1f km straight; %d searches, %d states)",
                         r.seconds * 1000, r.mode.rawValue, r.from.lat, r.from.lon, r.to.lat, r.to.lon,
                         Geo.distance(r.from, r.to) / 1000, r.searches, r.settled))
        }
        var planTimes: [Double] = [], planPeaks: [Int] = []
        let scratch = tmp + "/time.txt"
        PeerBenchmark.evictFromPageCache(path)
        for (a, b) in od.prefix(Self.planRuns) {
            let args = ["plan", "--map", path, "--no-store", "--from", "\(a.lat),\(a.lon)", "--to", "\(b.lat),\(b.lon)"]
            if let t = PeerBenchmark.time(selfPath, args) { planTimes.append(t) }
            if let kb = PeerBenchmark.peakKB(selfPath, args, scratch: scratch) { planPeaks.append(kb) }
        }
        print(String(printf: "  whole-process plan (%d runs, stamped map, page cache evicted first): median %.1f ms (wall), peak RSS %.1f MB",
                     planTimes.count, BenchCommand.median(planTimes) * 1000, Double(planPeaks.max() ?? 0) / 1024))
        // The TUI's start on this map: its own load (viewed under a read lease, or detached from
        // the file on another thread) and first frame, beside the copying load it made before
        // (the reference).
        let tc = BenchCommand.now()
        _ = try MapFormat.load(path: path, copying: true)
        let copied = (BenchCommand.now() - tc) * 1000
        let ts = BenchCommand.now()
        let session = try MapFormat.loadForSession(path: path)
        let sessionMs = (BenchCommand.now() - ts) * 1000
        let first = TUIBenchmark.benchmarkRegion(map: session).firstFrameSeconds * 1000
        print(String(printf: "  TUI start: load %.1f ms + first frame %.1f ms (CPU) = %.1f ms; the copying load it replaced: %.1f ms",
                     sessionMs, first, sessionMs + first, copied))
        print("  load average at end \(Self.loadAverage())")
    }
}
