import FoundationEssentials
import Glibc
import SkateCore

extension TraceMatcher {
    /// Fixes of the benchmark trace: one hour at 1 Hz.
    public static let benchmarkFixes = 3600
    /// Riding pace of the benchmark trace, m/s (a relaxed skate cruise).
    static let benchmarkSpeed: Double = 3.5

    /// Matches a synthetic one-hour trace on `map` and describes the run in one line: 3,600 fixes
    /// at 1 Hz along ~12 km of chained planned routes, with the synthetic rides' GPS noise
    /// (`GPSNoiseModel`: σ 3 m per axis, correlated over 20 s, 1/150 single-fix 20–40 m outliers).
    /// Reports the wall time of `match`, the resident-memory growth, and how much of the matched
    /// path lies on the edges actually ridden.
    public static func benchmark(map: SkateMap, seed: UInt64 = 7, parameters: Parameters = Parameters()) -> String {
        let planner = Planner(map: map)
        var rng = SeededGenerator(seed: seed)
        let main = (0..<map.edgeCount).filter { planner.components.isMain(edge: $0) && map.isRideable(edge: $0) }
        guard !main.isEmpty else { return "trace matching: the map has no rideable streets" }
        var plans: [RoutePlan] = []
        var here = map.coordinate(ofNode: Int(map.edgeFrom[main[Int(rng.next() % UInt64(main.count))]]))
        var length = 0.0, attempts = 0
        let want = benchmarkSpeed * Double(benchmarkFixes)
        while length < want, attempts < 200 {
            attempts += 1
            let e = main[Int(rng.next() % UInt64(main.count))]
            guard let p = try? planner.plan(from: here, to: map.coordinate(ofNode: Int(map.edgeTo[e])), mode: .smoothest),
                  p.distance > 300 else { continue }
            plans.append(p)
            length += p.distance
            here = p.geometry.last ?? here
        }
        guard !plans.isEmpty else { return "trace matching: no route to ride on this map" }
        var truth = Set<Int>()
        var fixes: [GPXFix] = []
        fixes.reserveCapacity(benchmarkFixes)
        var gps = GPSNoiseModel()
        let start = 1_777_629_600.0
        var planIndex = 0, into = 0.0
        var line = RouteLine(plan: plans[0])
        for k in 0..<benchmarkFixes {
            while into > line.length, planIndex + 1 < plans.count {
                into -= line.length
                planIndex += 1
                line = RouteLine(plan: plans[planIndex])
            }
            let p = line.projection.project(line.coordinate(atDistance: min(into, line.length)))
            let err = gps.next(dt: 1, rng: &rng)
            fixes.append(GPXFix(time: start + Double(k), coordinate: line.projection.unproject(x: p.x + err.dx, y: p.y + err.dy)))
            into += benchmarkSpeed
        }
        for p in plans[0...planIndex] { for l in p.path.legs { truth.insert(l.edge) } }

        let matcher = TraceMatcher(map: map, parameters: parameters)
        let rss0 = RideSession.residentBytes()
        let t0 = ContinuousClock.now
        let result = matcher.match(fixes)
        let elapsed = ContinuousClock.now - t0
        let rss1 = RideSession.residentBytes()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let onTruth = zip(result.path, result.legEnds).reduce(0.0) { $0 + (truth.contains($1.0.edge) ? $1.0.length : 0) }
        let kept = result.fixes.filter { $0.status == .matched }.count
        let outliers = result.fixes.filter { $0.status == .outlier }.count
        return String(printf: "trace matching (HMM, %d fixes, %.1f km ridden): %.3f s (%.0f fixes/s), %d states' fixes kept, %d spikes dropped, %.1f %% matched, %d chain(s), path %.1f km with %.1f %% on the ridden edges, RSS +%.1f MB",
                      fixes.count, min(length, want) / 1000, seconds, seconds > 0 ? Double(fixes.count) / seconds : 0, kept, outliers,
                      100 * result.matchedFraction, result.chainStarts.count, result.pathLength / 1000,
                      result.pathLength > 0 ? 100 * onTruth / result.pathLength : 0, Double(max(0, rss1 - rss0)) / 1e6)
    }
}
