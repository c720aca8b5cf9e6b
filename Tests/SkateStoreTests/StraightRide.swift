import SkateCore
import SkateRide

/// A rider going straight from one point to another at a steady speed, as the store's loop tests
/// (`ClosedLoopTests`, `StretchLoopTests`) ride their streets.
enum StraightRide {
    /// 1 Hz fixes from `a` at `start` (s since 1970) to `b` at `speed` (m/s), and the ride's
    /// duration (s) for the motion that goes with them.
    static func fixes(_ a: Coordinate, _ b: Coordinate, speed: Double, start: Double) -> (inputs: [RideInput], duration: Double) {
        let duration = Geo.distance(a, b) / speed
        var inputs: [RideInput] = []
        var t = 0.0
        while t <= duration {
            let f = t / duration
            inputs.append(.fix(GPXFix(time: start + t, coordinate: Coordinate(lat: a.lat + f * (b.lat - a.lat), lon: a.lon + f * (b.lon - a.lon)))))
            t += 1
        }
        return (inputs, duration)
    }
}
