import FoundationEssentials
import Glibc
import SkateCore

/// Timing of the navigator frames (issue 14): the preview with names and dimmed alternatives,
/// and the ride map north-up and heading-up with the rider gliding, each rendered and diffed
/// against the frame before it.
extension TUIBenchmark {
    /// Mean seconds per frame of one screen: render, and diff against the previous frame.
    public struct ScreenTiming: Sendable {
        public var name: String
        public var renderSeconds: Double
        public var diffSeconds: Double
        /// Mean cells changed per frame.
        public var changedCells: Int
    }

    /// The longest-spanning route the planner finds between two far-apart points of `map`
    /// (its box's south-west and north-east quarters), with two alternatives.
    static func benchmarkPlan(map: SkateMap) -> RoutePlan? {
        let b = map.bbox
        let a = Coordinate(lat: b.minLat + (b.maxLat - b.minLat) * 0.3, lon: b.minLon + (b.maxLon - b.minLon) * 0.3)
        let z = Coordinate(lat: b.minLat + (b.maxLat - b.minLat) * 0.7, lon: b.minLon + (b.maxLon - b.minLon) * 0.7)
        return try? Planner(map: map).plan(from: a, to: z, mode: .smoothest, alternatives: 2)
    }

    /// Preview and ride frames at `width`×`height`: `iterations` frames each, the ride advancing
    /// 0.1 s of ride time (one tick) per frame along the planned route.
    public static func benchmarkNavigator(map: SkateMap, width: Int = 200, height: Int = 60, iterations: Int = 60,
                                          theme: Theme = Theme(colorMode: .truecolor, glyphMode: .unicode)) -> [ScreenTiming] {
        guard let plan = benchmarkPlan(map: map) else { return [] }
        let app = TUIApp(map: map, theme: theme)
        let size = Size(width: width, height: height)
        let routes = ([plan] + plan.alternatives).enumerated().map { PlanRef(id: $0.offset + 1, plan: $0.element) }
        var m = app.initialModel(size: size)
        m.preview = PreviewScreen.make(plan: routes[0], routes: routes, from: "A", to: "Destination", context: app.context,
                                       services: app.services, size: size)
        m.screen = .preview
        var out: [ScreenTiming] = []
        // Preview: a small pan every other frame (names re-placed every frame).
        out.append(time("preview (names, alternatives)", iterations: iterations, app: app) { i in
            var p = m
            if i % 2 == 1 { p.preview!.map.viewport.pan(dx: 0.02, dy: 0) }
            return p
        })
        // Ride: the rider glides along the route at 6 m/s, the ridden part grey.
        for headingUp in [false, true] {
            let start = RideStart(name: "bench", plan: routes[0], duration: plan.duration, recording: false)
            var r = RideScreen.make(start, services: app.services, context: app.context, size: size, simSpeed: 1, returnTo: .preview)
            r.headingUp = headingUp
            var base = m
            base.screen = .ride
            let name = headingUp ? "ride heading-up (glide, names)" : "ride north-up (glide, names)"
            out.append(time(name, iterations: iterations, app: app) { i in
                let along = min(plan.distance, 200 + Double(i) * 0.6)
                let f = RideFrame(t: Double(i) * 0.1, position: RideScreen.onRoute(plan, along: along)?.0, heading: nil, speed: 6,
                                  step: plan.steps.lastIndex { $0.startDistance <= along }, distanceAlong: along,
                                  distanceLeft: plan.distance - along, secondsLeft: (plan.distance - along) / 6)
                r = RideScreen.advanced(r, RideUpdate(frame: f), services: app.services)
                r = RideScreen.tick(r, dt: 0.1).0
                var b = base
                b.ride = r
                return b
            })
        }
        return out
    }

    /// Renders `iterations` models and diffs each frame against the one before.
    static func time(_ name: String, iterations: Int, app: TUIApp, model: (Int) -> AppModel) -> ScreenTiming {
        let n = max(2, iterations)
        let models = (0..<n).map(model)
        let clock = ContinuousClock()
        var frames: [ScreenBuffer] = []
        frames.reserveCapacity(n)
        let r = clock.measure { for mm in models { frames.append(app.render(mm)) } }
        var changed = 0
        let d = clock.measure { for i in 1..<n { changed += ScreenBuffer.diff(frames[i - 1], frames[i]).count } }
        return ScreenTiming(name: name, renderSeconds: seconds(r) / Double(n), diffSeconds: seconds(d) / Double(n - 1), changedCells: changed / (n - 1))
    }
}
