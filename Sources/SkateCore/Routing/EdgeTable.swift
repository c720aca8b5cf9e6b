import Foundation

/// Mode-independent facts per edge, computed once per (map, knowledge): roughness with its source,
/// grades and climbs in the drawing direction, steepest sustained descents each way, hazards,
/// and end bearings for turn angles.
public struct EdgeTable: Sendable {
    /// Window in metres over which a descent must be sustained to count as steep (the caution rule).
    public static let sustainWindow: Double = 30

    public var rms: [Float]
    public var rmsSource: [UInt8]
    public var freshness: [Float]
    /// Mean grade in percent along the drawing direction (clamped ±30).
    public var grade: [Float]
    /// Metres climbed / descended along the drawing direction.
    public var climb: [Float]
    public var descent: [Float]
    /// Steepest 30 m-window grade (percent, most negative) going forward / going backward.
    public var steepestDownFwd: [Float]
    public var steepestDownBwd: [Float]
    /// Σ severity² × confidence of live hazards on the edge: a severe (3) pothole throws riders,
    /// a minor (1) crack is a bump, so danger grows faster than the severity number.
    public var hazard: [Float]
    /// Travel time in seconds along / against the drawing direction from the skate speed model
    /// (mode-independent, so every mode's costing reuses it).
    public var secondsFwd: [Float]
    public var secondsBwd: [Float]
    /// Bearing (degrees) leaving `edgeFrom` along the edge, and arriving at `edgeTo`.
    public var bearingStart: [Float]
    public var bearingEnd: [Float]

    /// Largest |grade| in percent the router believes from a DEM; steeper figures are noise or stairs.
    public static let maxGradePct: Float = 30

    public init(map: SkateMap, knowledge: RoadKnowledge) {
        let n = map.edgeCount
        rms = .init(repeating: 0, count: n); rmsSource = .init(repeating: 0, count: n); freshness = .init(repeating: 0, count: n)
        grade = .init(repeating: 0, count: n); climb = .init(repeating: 0, count: n); descent = .init(repeating: 0, count: n)
        steepestDownFwd = .init(repeating: 0, count: n); steepestDownBwd = .init(repeating: 0, count: n)
        hazard = .init(repeating: 0, count: n); secondsFwd = .init(repeating: 0, count: n); secondsBwd = .init(repeating: 0, count: n); bearingStart = .init(repeating: 0, count: n); bearingEnd = .init(repeating: 0, count: n)
        for e in 0..<n {
            if let o = knowledge.observations[e] {
                rms[e] = Float(o.rms); rmsSource[e] = UInt8(o.source.rawValue); freshness[e] = Float(o.freshness)
            } else {
                let t = map.tagRoughness(ofEdge: e)
                rms[e] = Float(t.rms); rmsSource[e] = UInt8(t.source.rawValue)
            }
            if let hs = knowledge.hazards[e] {
                hazard[e] = Float(hs.reduce(0) { $0 + Double($1.severity * $1.severity) * $1.confidence })
            }
            let len = Double(map.edgeLength[e])
            let prof = map.elevationProfile(ofEdge: e)
            if prof.count >= 2, len > 0 {
                let g = Float((Double(prof.last!) - Double(prof.first!)) / len * 100)
                grade[e] = max(-Self.maxGradePct, min(Self.maxGradePct, g))
                var up: Float = 0, down: Float = 0
                var prev = prof.first!
                for x in prof.dropFirst() { let d = x - prev; if d > 0 { up += d } else { down -= d }; prev = x }
                climb[e] = up; descent[e] = down
                let spacing = len / Double(prof.count - 1)
                let w = max(1, Int((Self.sustainWindow / spacing).rounded(.up)))
                var minF: Float = 0, minB: Float = 0
                let arr = Array(prof)
                if w >= arr.count {
                    minF = min(0, grade[e]); minB = min(0, -grade[e])
                } else {
                    for i in 0..<(arr.count - w) {
                        let gg = Float(Double(arr[i + w] - arr[i]) / (Double(w) * spacing) * 100)
                        minF = min(minF, gg); minB = min(minB, -gg)
                    }
                }
                steepestDownFwd[e] = max(-Self.maxGradePct, minF); steepestDownBwd[e] = max(-Self.maxGradePct, minB)
            }
            let len0 = Double(map.edgeLength[e])
            if map.flags(ofEdge: e).contains(.steps) {
                secondsFwd[e] = Float(len0 / SkatePhysics.stepsSpeed); secondsBwd[e] = secondsFwd[e]
            } else {
                let r = Double(rms[e])
                secondsFwd[e] = Float(len0 / SkatePhysics.cruiseSpeed(gradePct: Double(grade[e]), rms: r))
                secondsBwd[e] = Float(len0 / SkatePhysics.cruiseSpeed(gradePct: -Double(grade[e]), rms: r))
            }
            let r = map.geometryRange(ofEdge: e)
            let a = Coordinate(lat: map.geomLat[r.lowerBound], lon: map.geomLon[r.lowerBound])
            let b = Coordinate(lat: map.geomLat[r.lowerBound + 1], lon: map.geomLon[r.lowerBound + 1])
            let y = Coordinate(lat: map.geomLat[r.upperBound - 2], lon: map.geomLon[r.upperBound - 2])
            let z = Coordinate(lat: map.geomLat[r.upperBound - 1], lon: map.geomLon[r.upperBound - 1])
            bearingStart[e] = Float(Geo.bearing(a, b)); bearingEnd[e] = Float(Geo.bearing(y, z))
        }
    }

    /// Grade (percent) travelling the edge in the given direction.
    @inlinable public func grade(_ e: Int, reversed: Bool) -> Double { Double(reversed ? -grade[e] : grade[e]) }
    /// Seconds to travel the edge in the given direction.
    @inlinable public func seconds(_ e: Int, reversed: Bool) -> Double { Double(reversed ? secondsBwd[e] : secondsFwd[e]) }
    /// Metres climbed travelling the edge in the given direction.
    @inlinable public func climb(_ e: Int, reversed: Bool) -> Double { Double(reversed ? descent[e] : climb[e]) }
    /// Steepest sustained descent (percent, ≤ 0) travelling the edge in the given direction.
    @inlinable public func steepestDown(_ e: Int, reversed: Bool) -> Double { Double(reversed ? steepestDownBwd[e] : steepestDownFwd[e]) }
    /// Heading leaving the start of a traversal, degrees.
    @inlinable public func headingOut(_ e: Int, reversed: Bool) -> Double {
        reversed ? (Double(bearingEnd[e]) + 180).truncatingRemainder(dividingBy: 360) : Double(bearingStart[e])
    }
    /// Heading arriving at the end of a traversal, degrees.
    @inlinable public func headingIn(_ e: Int, reversed: Bool) -> Double {
        reversed ? (Double(bearingStart[e]) + 180).truncatingRemainder(dividingBy: 360) : Double(bearingEnd[e])
    }
}
