import FoundationEssentials
import Glibc
import SkateRide

/// Whole-process replay speed of every ride shipped in `Rides/` (issue 16's target: ≥ 5,000×
/// real time each): `skateroute ride Rides/<name> --headless --no-store` timed as the peer
/// section times plans (posix_spawn, output to /dev/null), median of `runs`, against the ride's
/// own duration (first to last fix of its GPX track).
struct ShippedRidesBenchmark {
    let selfPath: String
    let runs: Int

    /// The target the figures are printed against.
    static let targetFactor = 5_000.0

    func run(ridesDir: String) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: ridesDir)) ?? [])
            .filter { FileManager.default.fileExists(atPath: "\(ridesDir)/\($0)/ride.gpx") }.sorted()
        guard !names.isEmpty else { print("shipped rides: none in \(ridesDir)"); return }
        for name in names {
            let dir = "\(ridesDir)/\(name)"
            guard let track = try? GPXReader().read(path: "\(dir)/ride.gpx"),
                  let first = track.allFixes.first?.time, let last = track.allFixes.last?.time, last > first else {
                print("shipped ride \(name): no timed track; skipped"); continue
            }
            var times: [Double] = []
            for _ in 0..<runs { if let t = PeerBenchmark.time(selfPath, ["ride", dir, "--headless", "--no-store"]) { times.append(t) } }
            guard !times.isEmpty else { print("shipped ride \(name): replay failed"); continue }
            let wall = BenchCommand.median(times), factor = (last - first) / wall
            print(String(printf: "shipped ride %@ (whole process, median of %d): %.1f ms for %.0f s ridden = %.0f× real time (target ≥ %.0f×)",
                         name, times.count, wall * 1000, last - first, factor, Self.targetFactor))
        }
    }
}
