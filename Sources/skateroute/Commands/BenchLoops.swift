import FoundationEssentials
import Glibc
import SkateCore

/// `bench --loops`: round-trip quality and time on seeded starts of the bundled map, and the
/// descents `downhills` finds near ten places (issue 32's figures).
struct LoopBenchmark {
    /// Loop lengths asked for, metres (the issue's 2, 5 and 10 km).
    static let lengths: [Double] = [2_000, 5_000, 10_000]
    /// Ten places spread over Monaco for the descent figures (name, position).
    static let places: [(String, Coordinate)] = [
        ("Jardin Exotique", Coordinate(lat: 43.7341, lon: 7.4149)), ("Stade Louis II", Coordinate(lat: 43.7260, lon: 7.4142)),
        ("Monaco-Ville", Coordinate(lat: 43.7310, lon: 7.4200)), ("Port Hercule", Coordinate(lat: 43.7396, lon: 7.4275)),
        ("Place du Casino", Coordinate(lat: 43.7394, lon: 7.4281)), ("Larvotto", Coordinate(lat: 43.7485, lon: 7.4375)),
        ("Condamine", Coordinate(lat: 43.7380, lon: 7.4245)), ("Fontvieille", Coordinate(lat: 43.7280, lon: 7.4160)),
        ("Moneghetti", Coordinate(lat: 43.7365, lon: 7.4185)), ("Saint-Roman", Coordinate(lat: 43.7500, lon: 7.4390)),
    ]

    let map: SkateMap
    let starts: Int
    let seed: UInt64
    let mode: RideMode

    func run() {
        let planner = Planner(map: map)
        var rng = SplitMix64(seed: seed)
        let comps = planner.components
        var points: [Coordinate] = []
        while points.count < starts {
            let n = Int(rng.next() % UInt64(map.nodeCount))
            if comps.root[n] == comps.mainRoot { points.append(map.coordinate(ofNode: n)) }
        }
        print("Loops (issue 32): \(starts) seeded starts (seed \(seed)) on the bundled map, mode \(mode.rawValue), loop seed = start index")
        print("length   met    |len err| p50/max   reuse p50/max     braking m p50/max  caution m p50/max  crusty m p50/max  time ms p50/p99")
        for length in Self.lengths {
            var err: [Double] = [], reuse: [Double] = [], braking: [Double] = [], caution: [Double] = [], crusty: [Double] = [], ms: [Double] = []
            var met = 0
            for (i, p) in points.enumerated() {
                let t0 = BenchCommand.now()
                guard let r = try? planner.loop(from: p, length: length, mode: mode, seed: UInt64(i)) else { print(String(printf: "  no loop: start %d at %.5f,%.5f", i, p.lat, p.lon)); continue }
                ms.append((BenchCommand.now() - t0) * 1000)
                if r.met { met += 1 } else { print(String(printf: "  miss: start %d at %.5f,%.5f: %@ (%d attempts)", i, p.lat, p.lon, r.quality.summary, r.attempts)) }
                err.append(abs(r.quality.lengthError) * 100)
                reuse.append(r.quality.reuseShare * 100)
                braking.append(r.plan.brakingZones.filter { $0.level == .braking }.reduce(0) { $0 + $1.length })
                caution.append(r.plan.brakingZones.filter { $0.level == .caution }.reduce(0) { $0 + $1.length })
                crusty.append(r.plan.metresByClass[.crusty])
            }
            func pq(_ v: [Double], _ q: Double) -> Double {
                guard !v.isEmpty else { return .nan }
                let s = v.sorted()
                return s[min(s.count - 1, Int((Double(s.count - 1) * q).rounded()))]
            }
            func pair(_ v: [Double], _ d: Int, hi: Double = 1) -> String {
                String(printf: "%.\(d)f / %.\(d)f", pq(v, 0.5), pq(v, hi))
            }
            print(String(printf: "%5.0f km  %2d/%-2d  ", length / 1000, met, ms.count)
                  + [pair(err, 1), pair(reuse, 1), pair(braking, 0), pair(caution, 0), pair(crusty, 0), pair(ms, 0, hi: 0.99)]
                    .map { $0 + String(repeating: " ", count: max(1, 18 - $0.count)) }.joined())
        }
        print("")
        print("Descents (downhills --near PLACE --radius 3km): runs found, the best run")
        for (name, at) in Self.places {
            let t0 = BenchCommand.now()
            let runs = planner.downhills(near: at, radius: DownhillRules.defaultRadius)
            let ms = (BenchCommand.now() - t0) * 1000
            let best = runs.first.map {
                String(printf: "%.0f m, drop %.0f m, mean %.1f %%, steepest %.1f %%, %@", $0.length, $0.drop, $0.meanGradePct, $0.steepestGradePct,
                       $0.streets.prefix(2).joined(separator: " → "))
            } ?? "-"
            print(name + String(repeating: " ", count: max(1, 17 - name.count)) + String(printf: "%2d runs  %5.0f ms  best: %@", runs.count, ms, best))
        }
    }
}
