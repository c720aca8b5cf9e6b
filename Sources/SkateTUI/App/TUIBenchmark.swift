import FoundationEssentials
import Glibc
import SkateCore

/// Timing of the render path for the `bench` command (not a test: numbers depend on the machine).
public enum TUIBenchmark {
    /// Seconds per frame of rendering and of diffing.
    public struct FrameTiming: Sendable {
        /// Mean seconds to render one full browse frame (map fitted, route overlay, legend, key bar).
        public var renderSeconds: Double
        /// Mean seconds to diff two consecutive frames (a one-step pan apart).
        public var diffSeconds: Double
        /// Cells changed by that pan (for context).
        public var changedCells: Int
    }

    /// Renders and diffs `iterations` frames of `width`×`height` of `map` with a synthetic route
    /// (the first edges' geometry, cycling through roughness classes and braking levels).
    public static func benchmarkFrame(map: SkateMap, width: Int = 200, height: Int = 60, iterations: Int = 50,
                                      theme: Theme = Theme(colorMode: .truecolor, glyphMode: .unicode)) -> FrameTiming {
        let app = TUIApp(map: map, theme: theme)
        let size = Size(width: width, height: height)
        var model = app.initialModel(size: size)
        model.screen = .browse
        model.browse.overlay = syntheticOverlay(map: map)
        var moved = model
        moved.browse.viewport.pan(dx: 0.02, dy: 0)
        // One frame first: what a map builds on first use (the town ranking, the wide-zoom road
        // lists) is `benchmarkRegion`'s figure, not every frame's.
        _ = app.render(model)
        let clock = ContinuousClock()
        var frames: [ScreenBuffer] = []
        frames.reserveCapacity(2)
        let n = max(1, iterations)
        let r = clock.measure {
            for i in 0..<n {
                let f = app.render(i % 2 == 0 ? model : moved)
                if frames.count < 2 { frames.append(f) }
            }
        }
        var changed = 0
        let d = clock.measure {
            for _ in 0..<n { changed = ScreenBuffer.diff(frames[0], frames[1]).count }
        }
        return FrameTiming(renderSeconds: seconds(r) / Double(n), diffSeconds: seconds(d) / Double(n), changedCells: changed)
    }

    public static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// A route-like overlay from up to 200 edges: enough to exercise every pen.
    static func syntheticOverlay(map: SkateMap) -> RouteOverlay {
        var segs: [OverlaySegment] = []
        let count = min(map.edgeCount, 200)
        for e in 0..<count {
            let c = RoughnessClass.allCases[e % 4]
            let b = BrakingLevel.allCases[(e / 4) % 3]
            segs.append(OverlaySegment(points: map.geometry(ofEdge: e), roughness: c, braking: b))
        }
        let first = segs.first?.points.first, last = segs.last?.points.last
        return RouteOverlay(segments: segs, start: first, end: last, hazards: segs.prefix(3).compactMap { $0.points.last })
    }
}

/// The region figures of issue 31 must-have 4: how long the TUI takes to show its first frame on
/// a loaded map, a browse frame at the widest zoom (the whole map in view, the level of detail
/// at work) with and without the skateability layer, and a place search as the From field asks it.
extension TUIBenchmark {
    /// CPU seconds of the process (not wall time), see `CPUClock`.
    public struct RegionTiming: Sendable {
        /// Seconds from a loaded map to the first frame: services (planner table, spots), the
        /// opening view and one render. The place index, the wide-zoom road lists, the town
        /// ranking and the layer's bytes are built on first use (the live app builds the place
        /// index off the UI thread after start-up).
        public var firstFrameSeconds: Double
        /// Seconds to build the place index (`TUIServices.search`, first use).
        public var searchIndexSeconds: Double
        /// Seconds of the first browse frame at the widest zoom, which builds the wide-zoom road
        /// lists and the town ranking (once per map); `widestFrameSeconds` is every later one.
        public var firstWidestFrameSeconds: Double
        /// Seconds of the first frame with the surface layer on, which reads the layer's byte
        /// per edge from the planner's table (once per map); `widestLayerFrameSeconds` is every later one.
        public var firstLayerFrameSeconds: Double
        /// Mean seconds of one browse frame with the whole map fitted, grey web.
        public var widestFrameSeconds: Double
        /// The same with the skateability layer on.
        public var widestLayerFrameSeconds: Double
        /// The widest view's map drawn without the level of detail (every street but footways, as
        /// before issue 31): the reference the two figures above are compared with.
        public var widestFullDetailMapSeconds: Double
        /// The widest view's map alone with the level of detail (same area as the reference).
        public var widestMapSeconds: Double
        /// Metres per dot of that widest view.
        public var widestMetresPerDot: Double
        /// Median and slowest seconds of the place searches the field sends while a name is typed.
        public var searchMedianSeconds: Double
        public var searchMaxSeconds: Double
    }

    /// Prefixes typed into From, one search each (the field searches after every pause).
    static let searchPrefixes = ["Hau", "Hauptstr", "Hauptstraße", "Bismarck", "Bismarckplatz", "Neckar", "Bahnhof", "Uni"]

    /// Times the opening, the widest browse frame (`iterations` each, layer off and on) and the
    /// searches on `map` at `width`×`height`.
    public static func benchmarkRegion(map: SkateMap, width: Int = 200, height: Int = 60, iterations: Int = 5,
                                       theme: Theme = Theme(colorMode: .truecolor, glyphMode: .unicode)) -> RegionTiming {
        let clock = CPUClock()
        let size = Size(width: width, height: height)
        var app: TUIApp?
        let first = clock.measure {
            let a = TUIApp(map: map, theme: theme)
            _ = a.render(a.initialModel(size: size))
            app = a
        }
        let a = app!
        let index = clock.measure { _ = a.services.search }
        var m = a.initialModel(size: size)
        m.screen = .browse
        m.browse = MapBrowseScreen.apply(.fit, to: m.browse, context: a.context)
        let n = max(1, iterations)
        let firstWide = clock.measure { _ = a.render(m) }
        let grey = clock.measure { for _ in 0..<n { _ = a.render(m) } }
        var layered = m
        layered.skateLayer = true
        let firstLayer = clock.measure { _ = a.render(layered) }
        let layer = clock.measure { for _ in 0..<n { _ = a.render(layered) } }
        let area = MapBrowseScreen.mapArea(size)
        func mapOnly(_ lod: Bool) -> Double {
            var b = ScreenBuffer(size: size)
            return clock.measure {
                for _ in 0..<n {
                    MapRenderer.render(map: map, overlay: nil, viewport: m.browse.viewport, theme: theme, into: &b, area: area,
                                       detail: a.context.detail, levelOfDetail: lod)
                }
            } / Double(n)
        }
        let full = mapOnly(false), lod = mapOnly(true)
        var times: [Double] = []
        for p in searchPrefixes {
            let q = PlaceSearchQuery(id: times.count + 1, field: .origin, text: p, distanceFrom: m.browse.viewport.center)
            times.append(clock.measure { _ = PlanScreen.answer(q, search: a.services.search) })
        }
        times.sort()
        return RegionTiming(firstFrameSeconds: first, searchIndexSeconds: index, firstWidestFrameSeconds: firstWide, firstLayerFrameSeconds: firstLayer, widestFrameSeconds: grey / Double(n),
                            widestLayerFrameSeconds: layer / Double(n), widestFullDetailMapSeconds: full, widestMapSeconds: lod,
                            widestMetresPerDot: m.browse.viewport.metresPerDot,
                            searchMedianSeconds: times[times.count / 2], searchMaxSeconds: times.last ?? 0)
    }
}

/// The process's CPU time (all threads), so a frame's figure does not count the time a loaded
/// machine spent running other processes (wall time under load mostly measures the wait).
struct CPUClock {
    /// CPU seconds `body` took.
    func measure(_ body: () -> Void) -> Double {
        let a = Self.now()
        body()
        return Self.now() - a
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
