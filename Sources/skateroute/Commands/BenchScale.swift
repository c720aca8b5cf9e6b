import FoundationEssentials
import Glibc
import SkateCore
import SkateImport
import SkateTUI

/// `bench --scale K,…` (issue 31): for each K, a region of K × K Heidelbergs (`RegionGenerator`)
/// imported by a child `skateroute import` (wall time and peak RSS through GNU time), then the
/// map's size, in-process routes of ≤ 20 km and whole-process plans on it. One line per K, or one
/// JSON object per K with `--json`.
struct ScaleBenchmark {
    /// Trips longer than this (straight line, metres) are not drawn: issue 31's "trips up to 20 km".
    static let maxTripMetres = 20_000.0
    /// Draws per pair before giving up on finding a second end within `maxTripMetres`.
    static let drawsPerPair = 10_000
    /// Whole-process plans per K (the median time and the largest peak RSS are printed).
    static let planRuns = 5
    /// Route modes timed in process: all of them, as issue 31 asks.
    static let modes = RideMode.allCases
    var ks: [Int]
    var pairs: Int
    var seed: UInt64
    var json: Bool
    var heidelbergPBF: String
    var demDir: String
    var selfPath: String

    /// One K's figures; nil where not measured.
    struct Row {
        var k = 0
        var roadNodes = 0, graphNodes = 0
        var regionMB = 0.0, generateSeconds = 0.0
        var importSeconds: Double?, importPeakMB: Double?
        /// The import child's user + system CPU seconds (on a loaded machine its wall time
        /// mostly measures the wait).
        var importCPUSeconds: Double?
        var mapMB = 0.0
        /// The first load after the import (the map stamped by it: no whole-file checksum).
        var loadMs = 0.0
        /// A load that hashes the whole file: the first use of a map copied from elsewhere.
        var hashedLoadMs = 0.0
        /// The TUI's own load (`MapFormat.loadForSession`: the file viewed at once under a read
        /// lease, or detached from it on another thread), which its first frame waits for.
        var sessionLoadMs = 0.0
        /// The TUI's load before it detached (every array copied before the first frame): the
        /// reference `sessionLoadMs` is read against.
        var copiedLoadMs = 0.0
        var routeP50Ms = 0.0, routeP99Ms = 0.0, routeCount = 0, routeFailures = 0
        /// Why the failed routes failed: each error's text without its places (`reasonKey`), with its count.
        var failureReasons: [String: Int] = [:]
        var planProcessMs: Double?, planPeakMB: Double?
        var tuiBrowseFrameMs = 0.0
        var tuiFirstFrameMs: Double?, tuiWidestFrameMs: Double?
        /// The first widest frame (it builds the wide-zoom road lists), the place index's build
        /// (first use, off the UI thread in the app) and the searches' p50 and max (CPU ms).
        var tuiFirstWidestFrameMs: Double?, tuiSearchIndexMs: Double?, tuiSearchP50Ms: Double?, tuiSearchMaxMs: Double?

        /// Import wall time per road node, microseconds (flat when the import scales linearly).
        var importMicrosPerRoadNode: Double? { importSeconds.flatMap { roadNodes > 0 ? $0 * 1e6 / Double(roadNodes) : nil } }
        /// Import peak RSS per road node, bytes (flat when memory follows what is kept).
        var importBytesPerRoadNode: Double? { importPeakMB.flatMap { roadNodes > 0 ? $0 * 1024 * 1024 / Double(roadNodes) : nil } }
    }

    func run(tmp: String) throws {
        let source = try RegionSource.read(path: heidelbergPBF)
        if !json {
            print(String(printf: "scale: K×K copies of %@ (%d nodes, %d road nodes); import by a child process with --dem-dir %@ --allow-partial-dem; routes ≤ %.0f km in every mode",
                         heidelbergPBF, source.nodeCount, source.roadNodeCount, demDir, Self.maxTripMetres / 1000))
            print("   K  road nodes  graph nodes  region MB  gen s  import s  import RSS MB  µs/road node  B/road node  map MB  B/graph node  load ms  route p50/p99 ms  plan ms  plan RSS MB  tui browse ms  tui first ms  hashed load ms")
        }
        for k in ks {
            let row = try measure(k: k, source: source, tmp: tmp)
            print(json ? jsonLine(row) : textLine(row))
        }
        if !json { print("load average: " + Self.loadAverage()) }
    }

    func measure(k: Int, source: RegionSource, tmp: String) throws -> Row {
        var row = Row(k: k)
        let pbf = tmp + "/region-\(k).osm.pbf", out = tmp + "/region-\(k).srmap"
        defer { unlink(pbf); unlink(out) }
        let t0 = BenchCommand.now()
        let summary = try RegionGenerator.write(source, k: k, to: pbf)
        row.generateSeconds = BenchCommand.now() - t0
        row.roadNodes = summary.roadNodes
        row.regionMB = Double(summary.bytes) / 1e6

        // The import stamps the map it wrote as verified (`MapFormat.write(stampVerified:)`) in a
        // cache of this run's own (the user's cache is shared with every other process that loads
        // maps, and keeps 32 stamps), so the loads below are a rider's first loads after an import.
        let cache = tmp + "/verified-maps-\(k)"
        mkdir(cache, 0o755)
        setenv("SKATEROUTE_CACHE_DIR", cache, 1)
        let scratch = tmp + "/time-\(k).txt"
        let importArgs = ["import", "--osm", pbf, "--out", out, "--name", "region-\(k)", "--dem-dir", demDir, "--allow-partial-dem"]
        let ti = BenchCommand.now()
        let usage = Self.childUsage(selfPath, importArgs, scratch: scratch)
        let importWall = BenchCommand.now() - ti
        guard let (peak, cpu) = usage else {
            throw ImportError(path: pbf, problem: "`skateroute import` failed on the K = \(k) region (run it by hand: \(selfPath) \(importArgs.joined(separator: " ")))")
        }
        row.importSeconds = importWall
        row.importCPUSeconds = cpu
        row.importPeakMB = Double(peak) / 1024
        unlink(pbf)
        row.mapMB = Double((try? InputPath.regularFileSize(out)) ?? 0) / 1e6

        // A map copied from elsewhere (not stamped here) is hashed whole on its first load.
        let th = BenchCommand.now()
        _ = try MapFormat.load(path: out, verification: .always)
        row.hashedLoadMs = (BenchCommand.now() - th) * 1000
        let tl = BenchCommand.now()
        let map = try MapFormat.load(path: out)
        row.loadMs = (BenchCommand.now() - tl) * 1000
        row.graphNodes = map.nodeCount

        let od = tripPairs(map: map)
        var times: [Double] = []
        let planner = Planner(map: map)
        for mode in Self.modes {
            let router = planner.router(for: mode)
            for (a, b) in od {
                let s = BenchCommand.now()
                do { _ = try planner.plan(from: try router.snap(a), to: try router.snap(b), router: router, mode: mode) } catch {
                    row.routeFailures += 1
                    row.failureReasons[Self.reasonKey(error), default: 0] += 1
                }
                times.append(BenchCommand.now() - s)
            }
        }
        row.routeCount = times.count
        row.routeP50Ms = BenchCommand.percentile(times, 0.5) * 1000
        row.routeP99Ms = BenchCommand.percentile(times, 0.99) * 1000

        var planTimes: [Double] = [], planPeaks: [Int] = []
        PeerBenchmark.evictFromPageCache(out)
        for (a, b) in od.prefix(Self.planRuns) {
            let args = ["plan", "--map", out, "--no-store", "--from", "\(a.lat),\(a.lon)", "--to", "\(b.lat),\(b.lon)"]
            if let t = PeerBenchmark.time(selfPath, args) { planTimes.append(t) }
            if let kb = PeerBenchmark.peakKB(selfPath, args, scratch: scratch) { planPeaks.append(kb) }
        }
        if !planTimes.isEmpty { row.planProcessMs = BenchCommand.median(planTimes) * 1000 }
        if let m = planPeaks.max() { row.planPeakMB = Double(m) / 1024 }
        // The TUI's load, and the copying load it replaced (dropped at once: it holds the whole
        // map), after the route timings: where no lease can be taken the session load's detach
        // copies the file on another core for about a second (`MapLease`), and the cache still
        // holds the import's stamp.
        let tc = BenchCommand.now()
        _ = try MapFormat.load(path: out, copying: true)
        row.copiedLoadMs = (BenchCommand.now() - tc) * 1000
        let ts = BenchCommand.now()
        let sessionMap = try MapFormat.loadForSession(path: out)
        row.sessionLoadMs = (BenchCommand.now() - ts) * 1000
        unlink(scratch)
        try? FileManager.default.removeItem(atPath: cache)
        row.tuiBrowseFrameMs = TUIBenchmark.benchmarkFrame(map: map, iterations: 5).renderSeconds * 1000
        let tui = TUIBenchmark.benchmarkRegion(map: sessionMap)
        row.tuiFirstFrameMs = row.sessionLoadMs + tui.firstFrameSeconds * 1000
        row.tuiWidestFrameMs = max(tui.widestFrameSeconds, tui.widestLayerFrameSeconds) * 1000
        row.tuiFirstWidestFrameMs = tui.firstWidestFrameSeconds * 1000
        row.tuiSearchIndexMs = tui.searchIndexSeconds * 1000
        row.tuiSearchP50Ms = tui.searchMedianSeconds * 1000
        row.tuiSearchMaxMs = tui.searchMaxSeconds * 1000
        return row
    }

    /// Peak RSS (KB) and user + system CPU seconds of one child run through GNU time; nil when
    /// the child failed.
    static func childUsage(_ exe: String, _ args: [String], scratch: String) -> (Int, Double)? {
        guard PeerBenchmark.time(PeerBenchmark.gnuTime, ["-f", "%M %U %S", "-o", scratch, exe] + args) != nil,
              let text = try? String(contentsOfFile: scratch, encoding: .utf8),
              let last = text.split(whereSeparator: \.isNewline).last else { return nil }
        let f = last.split(separator: " ").map { String($0) }
        guard f.count == 3, let kb = Int(f[0]), let u = Double(f[1]), let sys = Double(f[2]) else { return nil }
        return (kb, u + sys)
    }

    /// A failure's error text with the places it names (the ends' coordinates) cut out, so
    /// failures of one cause group together however many pairs hit it. (It used to be the
    /// error's first four words, which included the first end's coordinate: every failure was
    /// a group of its own.)
    static func reasonKey(_ e: Error) -> String {
        var text = String(describing: e)
        guard let r = e as? RoutingError else { return text }
        let places: [Coordinate]
        switch r {
        case .noEdgeNear(let c, _): places = [c]
        case .disconnected(let a, let b): places = [a, b]
        case .noLoop(let a): places = [a]
        }
        for c in places { text = text.replacing("\(c)", with: "…") }
        return text
    }

    /// "12× no route from … to …: the two points …, 3× …", most frequent first.
    func reasonsText(_ r: Row) -> String {
        r.failureReasons.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value)× \($0.key)" }.joined(separator: ", ")
    }

    /// `pairs` seeded origin/destination pairs on rideable edges of the main component, each no
    /// more than `maxTripMetres` apart in a straight line.
    func tripPairs(map: SkateMap) -> [(Coordinate, Coordinate)] {
        let planner = Planner(map: map)
        let edges = (0..<map.edgeCount).filter { planner.components.isMain(edge: $0) && map.isRideable(edge: $0) }
        guard !edges.isEmpty else { return [] }
        var rng = SplitMix64(seed: seed)
        var od: [(Coordinate, Coordinate)] = []
        for _ in 0..<pairs {
            let a = map.coordinate(ofNode: Int(map.edgeFrom[edges[Int(rng.next() % UInt64(edges.count))]]))
            for _ in 0..<Self.drawsPerPair {
                let b = map.coordinate(ofNode: Int(map.edgeTo[edges[Int(rng.next() % UInt64(edges.count))]]))
                if Geo.distance(a, b) <= Self.maxTripMetres { od.append((a, b)); break }
            }
        }
        return od
    }

    func textLine(_ r: Row) -> String {
        func opt(_ v: Double?, _ f: String) -> String { v.map { String(printf: f, $0) } ?? "-" }
        return String(printf: "%4d  %10d  %11d  %9.1f  %5.1f  %8@  %13@  %12@  %11@  %6.1f  %12.0f  %7.1f  %7.2f / %-7.2f  %7@  %11@  %13.1f  %12@  %14.1f",
                      r.k, r.roadNodes, r.graphNodes, r.regionMB, r.generateSeconds, opt(r.importSeconds, "%.1f"), opt(r.importPeakMB, "%.0f"),
                      opt(r.importMicrosPerRoadNode, "%.1f"), opt(r.importBytesPerRoadNode, "%.0f"),
                      r.mapMB, r.graphNodes > 0 ? r.mapMB * 1e6 / Double(r.graphNodes) : 0, r.loadMs, r.routeP50Ms, r.routeP99Ms,
                      opt(r.planProcessMs, "%.0f"), opt(r.planPeakMB, "%.0f"), r.tuiBrowseFrameMs, opt(r.tuiFirstFrameMs, "%.1f"), r.hashedLoadMs)
            + (r.routeFailures > 0 ? "  (\(r.routeFailures) of \(r.routeCount) routes failed: \(reasonsText(r)))" : "")
    }

    func jsonLine(_ r: Row) -> String {
        func num(_ v: Double?) -> JSONText { v.map { JSONText.rounded($0, 3) } ?? .null }
        let fields: [(String, JSONText)] = [
            ("k", .int(Int64(r.k))), ("road_nodes", .int(Int64(r.roadNodes))), ("graph_nodes", .int(Int64(r.graphNodes))),
            ("region_pbf_mb", num(r.regionMB)), ("generate_s", num(r.generateSeconds)),
            ("import_s", num(r.importSeconds)), ("import_cpu_s", num(r.importCPUSeconds)), ("import_peak_rss_mb", num(r.importPeakMB)),
            ("import_us_per_road_node", num(r.importMicrosPerRoadNode)), ("import_bytes_per_road_node", num(r.importBytesPerRoadNode)),
            ("map_mb", num(r.mapMB)), ("map_bytes_per_graph_node", num(r.graphNodes > 0 ? r.mapMB * 1e6 / Double(r.graphNodes) : nil)),
            ("load_ms", num(r.loadMs)), ("hashed_load_ms", num(r.hashedLoadMs)),
            ("session_load_ms", num(r.sessionLoadMs)), ("copied_load_ms", num(r.copiedLoadMs)), ("route_p50_ms", num(r.routeP50Ms)), ("route_p99_ms", num(r.routeP99Ms)),
            ("routes", .int(Int64(r.routeCount))), ("route_failures", .int(Int64(r.routeFailures))), ("route_failure_reasons", .string(reasonsText(r))),
            ("plan_process_ms", num(r.planProcessMs)), ("plan_peak_rss_mb", num(r.planPeakMB)),
            ("tui_browse_frame_ms", num(r.tuiBrowseFrameMs)),
            ("load_average", .string(Self.loadAverage())),
            ("tui_first_frame_ms", num(r.tuiFirstFrameMs)), ("tui_widest_frame_ms", num(r.tuiWidestFrameMs)),
            ("tui_first_widest_frame_ms", num(r.tuiFirstWidestFrameMs)), ("tui_search_index_ms", num(r.tuiSearchIndexMs)),
            ("tui_search_p50_ms", num(r.tuiSearchP50Ms)), ("tui_search_max_ms", num(r.tuiSearchMaxMs)),
            ("note", .string("import_s is the import child's wall time, import_cpu_s its user+system CPU; tui_browse_frame_ms is TUIBenchmark's 200x60 browse frame; load_ms is the first load after the import (which stamps the map it wrote: no whole-file checksum), hashed_load_ms a load that hashes the whole file (the first use of a map copied from elsewhere); session_load_ms is the TUI's own load (the file viewed at once, detached from it on another thread), copied_load_ms the load the TUI made before (every array copied first); tui_first_frame_ms is session_load_ms plus services, opening view and one render (CPU); tui_widest_frame_ms the slower of the whole-map browse frame with and without the surface layer after their first (tui_first_widest_frame_ms builds the wide-zoom road lists once); tui_search_index_ms builds the place index (first use, off the UI thread in the app); tui_search_* are the From field's searches (TUIBenchmark.benchmarkRegion)")),
        ]
        return JSONText.object(JSONObject(pairs: fields)).text()
    }

    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
