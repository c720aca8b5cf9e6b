import FoundationEssentials
import Glibc
import SkateCore
import SkateRide

/// Builds the inputs of a ride to play: a simulated rider on a plan, or a recorded ride.
enum RideInputs {
    /// Seed of simulated rides: the same plan always gives the same ride.
    public static let synthSeed: UInt64 = 1
    /// Seconds between playback fixes (GPS at 1 Hz).
    static let playbackFixInterval: Double = 1
    /// Slowest speed playback assumes where the profile says less (m/s): never stalls.
    static let playbackMinSpeed: Double = 0.5
    /// A synthesised ride counts as the same route when its length is within this fraction.
    static let sameRouteTolerance = 0.02

    /// A simulated rider on `plan`: the engines' synthesizer (GPS noise, pushes, ISO 8608
    /// vibration) when it rides this very route, else fixes played along the plan's speed profile
    /// (the synthesizer always takes the best route, so an alternative gets the plain playback).
    /// - Returns: inputs in time order and what kind of ride it is.
    public static func simulated(plan: RoutePlan, planner: Planner) -> (inputs: [RideInput], synthesized: Bool) {
        if let a = plan.geometry.first, let b = plan.geometry.last {
            var motion: [MotionSample] = []
            let options = SynthOptions(from: a, to: b, mode: plan.mode, seed: synthSeed)
            if let ride = try? RideSynthesizer.synthesize(planner: planner, options: options, motion: { motion.append($0) }),
               abs(ride.riderPlan.distance - plan.distance) <= sameRouteTolerance * max(1, plan.distance) {
                // Synthesised motion times are seconds from the ride start; fixes are seconds since 1970.
                let t0 = options.startEpoch
                let shifted = motion.lazy.map { m -> MotionSample in var s = m; s.t += t0; return s }
                return (Array(StreamMerge.ride(fixes: ride.fixes, motion: shifted)), true)
            }
        }
        return (playback(plan: plan).map(RideInput.fix), false)
    }

    /// Fixes every second along the plan's geometry at the speeds of its profile (no noise).
    public static func playback(plan: RoutePlan, startEpoch: Double = 1_777_629_600) -> [GPXFix] {
        let g = plan.geometry
        guard g.count >= 2 else { return g.map { GPXFix(time: startEpoch, coordinate: $0) } }
        var cum = [0.0]
        for i in 1..<g.count { cum.append(cum[i - 1] + Geo.distance(g[i - 1], g[i])) }
        let total = cum.last!
        func speed(at s: Double) -> Double {
            let p = plan.profile
            guard !p.isEmpty else { return 4 }
            var lo = 0, hi = p.count - 1
            while lo < hi { let mid = (lo + hi + 1) / 2; if p[mid].distance <= s { lo = mid } else { hi = mid - 1 } }
            return max(playbackMinSpeed, p[lo].speed)
        }
        func point(at s: Double) -> Coordinate {
            var lo = 0, hi = cum.count - 1
            while lo < hi - 1 { let mid = (lo + hi) / 2; if cum[mid] <= s { lo = mid } else { hi = mid } }
            let seg = cum[hi] - cum[lo]
            let f = seg > 0 ? min(1, max(0, (s - cum[lo]) / seg)) : 0
            return Coordinate(lat: g[lo].lat + f * (g[hi].lat - g[lo].lat), lon: g[lo].lon + f * (g[hi].lon - g[lo].lon))
        }
        var out: [GPXFix] = []
        var s = 0.0, t = startEpoch
        while s < total {
            out.append(GPXFix(time: t, coordinate: point(at: s)))
            s += speed(at: s) * playbackFixInterval
            t += playbackFixInterval
        }
        out.append(GPXFix(time: t, coordinate: g.last!))
        return out
    }

    /// A recorded ride: every input of a ride folder (or GPX), and the route it names re-planned
    /// on this map when the folder has a plan file.
    /// - Throws: the readers' one-line errors naming the file.
    public static func recorded(path: String, planner: Planner, fallbackMode: RideMode) throws
        -> (inputs: [RideInput], plan: RoutePlan?, name: String, warnings: [String]) {
        let source = try RideSource.open(path)
        var inputs: [RideInput] = []
        try source.forEachInput { inputs.append($0) }
        var plan: RoutePlan?
        var warnings = source.warnings
        if let pf = source.plannedRoutePath {
            do {
                let f = try PlanFile.load(path: pf)
                plan = try planner.plan(from: f.from, to: f.to, mode: f.mode ?? fallbackMode)
            } catch {
                warnings.append("planned route not used: \(error)")
            }
        }
        return (inputs, plan, source.manifest?.title ?? source.name, warnings)
    }

    /// Ride folders (holding ride.json) directly under `dir`, by name.
    public static func listRides(in dir: String) -> [RideListing] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: dir) else { return [] }
        var out: [RideListing] = []
        for n in names.sorted() {
            let folder = PathText.appending(dir, n)
            let manifestPath = PathText.appending(folder, RideManifest.fileName)
            guard fm.fileExists(atPath: manifestPath) else { continue }
            var title = n, detail = ""
            var manifest: RideManifest?
            if let data = fm.contents(atPath: manifestPath), let m = try? JSONDecoder().decode(RideManifest.self, from: data) {
                if let t = m.title, !t.isEmpty { title = t }
                detail = [m.mode, m.map].compactMap { $0 }.joined(separator: ", ")
                manifest = m
            }
            var listing = RideListing(path: folder, title: TerminalSafe.clean(title), detail: TerminalSafe.clean(detail))
            if let m = manifest { RidePicker.addFacts(&listing, manifest: m, folder: folder) }
            out.append(listing)
        }
        return out
    }
}
