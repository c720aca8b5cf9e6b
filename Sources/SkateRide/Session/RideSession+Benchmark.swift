import FoundationEssentials
import Glibc
import SkateCore

/// Figures of one headless replay benchmark.
public struct ReplayBenchmark: Sendable {
    /// Wall seconds of the replay (session, engines, log writing, and generating the lazy motion).
    public var seconds: Double
    /// Ride seconds replayed.
    public var rideSeconds: Double
    public var fixes: Int
    public var samples: Int
    /// Resident memory at the start and the largest seen during the replay, bytes (0 where unknown).
    public var startRSSBytes: Int
    public var peakRSSBytes: Int
    /// Largest RSS growth between the first and the last quarter of the ride, bytes: ~0 for flat memory.
    public var lateGrowthBytes: Int
    public var cues: Int
    public var reroutes: Int
    /// Route length of the benchmark plan, metres.
    public var routeMetres: Double

    /// Ride seconds per wall second.
    public var realTimeFactor: Double { seconds > 0 ? rideSeconds / seconds : 0 }

    public var text: String {
        String(printf: "ride replay (1 h synthetic, %d fixes + %d motion samples, %.1f km route): %.3f s (%.0f× real time), RSS %.1f MB → peak %.1f MB, growth over the last 3/4 %.2f MB, %d cues, %d reroutes",
               fixes, samples, routeMetres / 1000, seconds, realTimeFactor, Double(startRSSBytes) / 1e6, Double(peakRSSBytes) / 1e6,
               Double(lateGrowthBytes) / 1e6, cues, reroutes)
    }
}

extension RideSession {
    /// Ride length of the benchmark, seconds.
    public static let benchmarkSeconds = 3600
    /// Motion rate of the benchmark, Hz.
    public static let benchmarkMotionRate = 100

    /// Replays a synthetic one-hour ride headless on `map`: a ~12 km plan made of chained routes,
    /// 3,600 noisy fixes at 1 Hz and 360,000 motion samples at 100 Hz generated lazily and merged
    /// by `StreamMerge`, with the NDJSON log written to a temporary file.
    public static func benchmarkReplay(map: SkateMap, seed: UInt64 = 7) -> ReplayBenchmark {
        let planner = Planner(map: map)
        let mode = RideMode.smoothest
        var rng = SeededGenerator(seed: seed)
        let main = (0..<map.edgeCount).filter { planner.components.isMain(edge: $0) && map.isRideable(edge: $0) }
        guard !main.isEmpty else { return ReplayBenchmark(seconds: 0, rideSeconds: 0, fixes: 0, samples: 0, startRSSBytes: 0, peakRSSBytes: 0, lateGrowthBytes: 0, cues: 0, reroutes: 0, routeMetres: 0) }
        // Chain routes between random points until ~1 h at 3.5 m/s.
        var legs: [RouteLeg] = []
        var first: RoutePlan?
        var here = map.coordinate(ofNode: Int(map.edgeFrom[main[Int(rng.next() % UInt64(main.count))]]))
        var length = 0.0
        var attempts = 0
        while length < 3.5 * Double(benchmarkSeconds) && attempts < 200 {
            attempts += 1
            let e = main[Int(rng.next() % UInt64(main.count))]
            let there = map.coordinate(ofNode: Int(map.edgeTo[e]))
            guard let p = try? planner.plan(from: here, to: there, mode: mode), p.distance > 300 else { continue }
            if first == nil { first = p }
            legs.append(contentsOf: p.path.legs)
            length += p.distance
            here = p.geometry.last ?? there
        }
        guard var path = first?.path else { return ReplayBenchmark(seconds: 0, rideSeconds: 0, fixes: 0, samples: 0, startRSSBytes: 0, peakRSSBytes: 0, lateGrowthBytes: 0, cues: 0, reroutes: 0, routeMetres: 0) }
        path.legs = legs
        let plan = PlanBuilder(map: map, costing: planner.router(for: mode).costing, knowledge: .empty).build(path: path, mode: mode)
        let line = RouteLine(plan: plan)
        let start = 1_777_629_600.0
        var gps = GPSNoiseModel()
        gps.outlierProbability = 0
        var fixes: [GPXFix] = []
        for k in 0..<benchmarkSeconds {
            let s = plan.distance * Double(k) / Double(benchmarkSeconds)
            let p = line.projection.project(line.coordinate(atDistance: s))
            let e = gps.next(dt: 1, rng: &rng)
            fixes.append(GPXFix(time: start + Double(k), coordinate: line.projection.unproject(x: p.x + e.dx, y: p.y + e.dy)))
        }
        let total = benchmarkSeconds * benchmarkMotionRate
        let motion = BenchmarkMotion(total: total, start: start, rng: SeededGenerator(seed: seed &+ 1))
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("skateroute-bench-\(getpid()).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: logPath) }
        let recorder = try? RideRecorder(path: logPath, header: RideLogHeader(rideId: "bench", map: map.metadata.name, mode: mode.rawValue, startEpoch: start))
        let startRSS = residentBytes()
        var peak = startRSS
        var quarterRSS = 0
        let clock0 = ContinuousClock.now
        let session = RideSession(plan: plan, planner: planner, clock: VirtualClock(), recorder: recorder)
        var merged = StreamMerge.ride(fixes: fixes, motion: motion)
        var count = 0
        let checkEvery = (total + fixes.count) / 16
        while let input = merged.next() {
            session.feed(input)
            count += 1
            if count % checkEvery == 0 {
                let r = residentBytes()
                peak = max(peak, r)
                if count / checkEvery == 4 { quarterRSS = r }
            }
        }
        let summary = session.finish()
        let elapsed = ContinuousClock.now - clock0
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let endRSS = residentBytes()
        peak = max(peak, endRSS)
        return ReplayBenchmark(seconds: seconds, rideSeconds: Double(benchmarkSeconds), fixes: fixes.count, samples: total,
                               startRSSBytes: startRSS, peakRSSBytes: peak, lateGrowthBytes: max(0, peak - max(quarterRSS, startRSS)),
                               cues: summary.cues.count, reroutes: summary.reroutes, routeMetres: plan.distance)
    }

    /// The benchmark's motion, generated lazily: `total` samples at `benchmarkMotionRate` from
    /// `start` (s), still (0 g) on x and y, 1 g plus seeded noise (σ 0.06 g) on z. An iterator
    /// struct, not a closure over captured counters: every access to a captured variable was
    /// checked for exclusivity at run time, three a sample, a tenth of the benchmark's instructions.
    struct BenchmarkMotion: Sequence, IteratorProtocol {
        let total: Int
        let start: Double
        var rng: SeededGenerator
        var n = 0

        init(total: Int, start: Double, rng: SeededGenerator) {
            self.total = total; self.start = start; self.rng = rng
        }

        mutating func next() -> MotionSample? {
            guard n < total else { return nil }
            let t = start + Double(n) / Double(RideSession.benchmarkMotionRate)
            n += 1
            return MotionSample(t: t, ax: 0, ay: 0, az: 1 + 0.06 * rng.nextGaussian())
        }
    }

    /// Resident set size of this process in bytes (Linux `/proc/self/statm`; 0 elsewhere).
    static func residentBytes() -> Int {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let parts = text.split(separator: " ")
        guard parts.count > 1, let pages = Int(parts[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }
}
