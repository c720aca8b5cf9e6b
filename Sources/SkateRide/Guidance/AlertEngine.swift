import FoundationEssentials
import Glibc
import SkateCore

/// What an alert is about.
public enum AlertKind: String, Sendable, CaseIterable {
    case hazard, place, spot

    /// Position in `allCases`.
    var slot: Int {
        switch self {
        case .hazard: return 0
        case .place: return 1
        case .spot: return 2
        }
    }

    /// Radius (metres) that raises the alert. Hazard: 60 m is ~12 s at a 5 m/s cruise, enough to
    /// brake at the 0.25 g a rider manages on a board (5²/(2·0.25·9.81) ≈ 5 m) with time to look;
    /// place: 100 m says "nearly there"; spot: 150 m, far enough to decide on a detour.
    public var defaultRadius: Double {
        switch self {
        case .hazard: return 60
        case .place: return 100
        case .spot: return 150
        }
    }
}

/// A thing to alert about: a live hazard, a saved place or a spot.
public struct AlertTarget: Sendable, Equatable {
    public var kind: AlertKind
    /// Stable key ("hazard:12", "place:Home"…): one alert per key per cooldown.
    public var id: String
    public var name: String
    public var at: Coordinate
    public init(kind: AlertKind, id: String, name: String, at: Coordinate) {
        self.kind = kind; self.id = id; self.name = name; self.at = at
    }
}

/// One raised alert.
public struct Alert: Sendable, Equatable {
    public var target: AlertTarget
    /// Ride time (s) the alert was raised.
    public var t: Double
    /// Metres to the target then.
    public var distance: Double
    /// Seconds from crossing the radius (interpolated between positions) to the alert: the
    /// alert latency in sim time.
    public var latency: Double
}

/// Raises an alert when the rider enters a target's radius: once per target, re-armed only after
/// leaving `rearmFactor` × the radius and `cooldown` seconds. Hazards alert only when ahead (the
/// rider's heading within `aheadHalfAngle` of the bearing to it), so passing one does not ring.
public struct AlertEngine: Sendable {
    /// Seconds before the same target can alert again.
    public static let defaultCooldown = 300.0
    /// Leaving this multiple of the radius re-arms a target (no flicker at the edge of the circle).
    public static let rearmFactor = 1.5
    /// Degrees either side of the heading that count as ahead.
    public static let aheadHalfAngle = 60.0

    /// Relative slack on the chord bound (`update`): the chord and the haversine are both
    /// rounded to a few parts in 10¹², so a target skipped with this much to spare is really
    /// beyond `rearmFactor` × its radius, whatever the rounding.
    static let chordBoundSlack = 1e-9
    /// Absolute slack (m) on the chord bound, for the same reason at very short distances.
    static let chordBoundSlackMetres = 1e-3

    public var targets: [AlertTarget] { didSet { assignSlots() } }
    public var radius: [AlertKind: Double] { didSet { cacheRadii() } }
    public var cooldown: Double
    /// State per target id (one alert per key per cooldown), in slots: `slotOfId` gives an id's
    /// slot once, `slotOfTarget` each target's, so a tick reads arrays instead of hashing a
    /// String per target (the hashing was a quarter of a headless replay).
    private var slotOfId: [String: Int] = [:]
    private var slotOfTarget: [Int] = []
    private var lastAlert: [Double?] = []
    private var armed: [Bool?] = []
    private var prevDistance: [PreviousDistance] = []
    private var prevT: Double?
    /// Each target's position on the unit sphere, for the chord bound.
    private var unitOfTarget: [UnitVector] = []
    /// The radius (m) of each kind, by `AlertKind.slot`, and the chord (m) beyond which a target
    /// of that kind cannot be within `rearmFactor` × it.
    private var radiusBySlot: (Double, Double, Double) = (0, 0, 0)
    private var farChordBySlot: (Double, Double, Double) = (0, 0, 0)
    /// The rider's last position and its unit vector (positions change at fixes, 1 Hz; updates
    /// come at 10 Hz).
    private var riderAt: Coordinate?
    private var riderUnit = UnitVector(x: 0, y: 0, z: 0)

    /// A position on the unit sphere (x towards 0° N 0° E, z towards the north pole).
    private struct UnitVector: Sendable {
        var x, y, z: Double
        init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
        init(_ c: Coordinate) {
            let φ = c.lat * Double.pi / 180, λ = c.lon * Double.pi / 180
            x = cos(φ) * cos(λ); y = cos(φ) * sin(λ); z = sin(φ)
        }
        /// The straight-line distance (m) through the Earth to `o`: never more than the
        /// great-circle distance, so a lower bound on it that needs no trigonometry.
        func chord(to o: UnitVector) -> Double {
            let dx = x - o.x, dy = y - o.y, dz = z - o.z
            return Geo.earthRadius * (dx * dx + dy * dy + dz * dz).squareRoot()
        }
    }

    /// The rider's distance to a target at the previous update: measured, or, for a target the
    /// chord bound put out of reach, the two positions to measure it from if an alert needs it
    /// (the very `Geo.distance` the update would have taken).
    private enum PreviousDistance: Sendable {
        case unknown
        case measured(Double)
        case unmeasured(from: Coordinate, to: Coordinate)

        var metres: Double? {
            switch self {
            case .unknown: return nil
            case .measured(let d): return d
            case .unmeasured(let a, let b): return Geo.distance(a, b)
            }
        }
    }

    public init(targets: [AlertTarget], radius: [AlertKind: Double] = [:], cooldown: Double = AlertEngine.defaultCooldown) {
        self.targets = targets
        self.radius = Dictionary(uniqueKeysWithValues: AlertKind.allCases.map { ($0, radius[$0] ?? $0.defaultRadius) })
        self.cooldown = cooldown
        assignSlots()
        cacheRadii()
    }

    /// Gives every target the slot of its id (new ids get fresh, empty slots; known ids keep theirs).
    private mutating func assignSlots() {
        slotOfTarget = targets.map { t in
            if let s = slotOfId[t.id] { return s }
            let s = lastAlert.count
            slotOfId[t.id] = s
            lastAlert.append(nil); armed.append(nil); prevDistance.append(.unknown)
            return s
        }
        unitOfTarget = targets.map { UnitVector($0.at) }
    }

    private mutating func cacheRadii() {
        let r = AlertKind.allCases.map { radius[$0]! }
        radiusBySlot = (r[0], r[1], r[2])
        let far = r.map { $0 * Self.rearmFactor * (1 + Self.chordBoundSlack) + Self.chordBoundSlackMetres }
        farChordBySlot = (far[0], far[1], far[2])
    }

    /// Feeds the rider's position at ride time `t` (s) and heading (degrees, nil when still);
    /// returns the alerts raised now. A target whose chord is beyond `rearmFactor` × its radius
    /// is re-armed without its haversine (most targets, most ticks: the haversine per target per
    /// tick was 5 % of a headless replay).
    public mutating func update(t: Double, position: Coordinate, heading: Double?) -> [Alert] {
        var out: [Alert] = []
        if riderAt?.lat != position.lat || riderAt?.lon != position.lon {
            riderAt = position
            riderUnit = UnitVector(position)
        }
        for index in targets.indices {
            let kind = targets[index].kind
            let at = targets[index].at
            let key = slotOfTarget[index]
            let slot = kind.slot
            let r = slot == 0 ? radiusBySlot.0 : slot == 1 ? radiusBySlot.1 : radiusBySlot.2
            let far = slot == 0 ? farChordBySlot.0 : slot == 1 ? farChordBySlot.1 : farChordBySlot.2
            if unitOfTarget[index].chord(to: riderUnit) > far {
                armed[key] = true
                prevDistance[key] = .unmeasured(from: position, to: at)
                continue
            }
            let d = Geo.distance(position, at)
            defer { prevDistance[key] = .measured(d) }
            if d > r * Self.rearmFactor { armed[key] = true }
            guard d <= r, armed[key] ?? true else { continue }
            if let last = lastAlert[key], t - last < cooldown { continue }
            if kind == .hazard, d > 1 {
                guard let h = heading else { continue }
                let bearing = Geo.bearing(position, at)
                var diff = abs(bearing - h).truncatingRemainder(dividingBy: 360)
                if diff > 180 { diff = 360 - diff }
                guard diff <= Self.aheadHalfAngle else { continue }
            }
            // When the radius was crossed: interpolated between the previous position and this one.
            var crossed = t
            if let pd = prevDistance[key].metres, let pt = prevT, pd > r, pd > d {
                crossed = pt + (pd - r) / (pd - d) * (t - pt)
            }
            out.append(Alert(target: targets[index], t: t, distance: d, latency: max(0, t - crossed)))
            lastAlert[key] = t
            armed[key] = false
        }
        prevT = t
        return out
    }
}
